#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// A paywall's survey, shown when the paywall closes, as the SDK's `Survey`
/// (`Config/Models/Survey.swift`, `SurveyOption.swift`, `SurveyShowCondition.swift` in
/// superwall/Superwall-iOS, the same from 3.9.1 to 4.16.3).
public struct Survey: Sendable, Hashable {
  /// When the survey may show: the user closed the paywall (`ON_MANUAL_CLOSE`), or bought from
  /// it (`ON_PURCHASE`).
  public enum Condition: String, Sendable, Hashable, CaseIterable {
    case onManualClose, onPurchase
  }

  /// One answer the user can pick.
  public struct Option: Sendable, Hashable {
    /// The option's id (`survey_selected_option_id`).
    public var id: String
    /// The option's text (`survey_selected_option_title`).
    public var title: String

    /// An option with this id and text.
    public init(id: String, title: String) {
      self.id = id
      self.title = title
    }
  }

  /// The survey's id (`survey_id`).
  public var id: String
  /// The key saved once the survey is drawn: a user never sees a survey whose key is the saved one.
  public var assignmentKey: String
  /// The sheet's title.
  public var title: String
  /// The sheet's text under the title.
  public var message: String
  /// The answers, in file order (the sheet shuffles them).
  public var options: [Option]
  /// When it may show.
  public var condition: Condition
  /// The chance, 0…1, that a user for whom it is drawn sees it (else a holdout).
  public var probability: Double
  /// Whether the sheet offers "Other", with a free-text answer.
  public var includeOtherOption: Bool
  /// Whether the sheet offers "Close", which answers nothing (`survey_close`).
  public var includeCloseOption: Bool

  /// A survey with these fields.
  public init(id: String, assignmentKey: String, title: String, message: String, options: [Option], condition: Condition,
              probability: Double = 1, includeOtherOption: Bool = false, includeCloseOption: Bool = true) {
    self.id = id
    self.assignmentKey = assignmentKey
    self.title = title
    self.message = message
    self.options = options
    self.condition = condition
    self.probability = probability
    self.includeOtherOption = includeOtherOption
    self.includeCloseOption = includeCloseOption
  }

  /// The "Other" answer's option, as `SurveyManager.swift` builds it for the free-text reply.
  public static let otherOption = Option(id: "000", title: "Other")

  /// The first of `surveys` whose condition holds for a dismissal with `result` and `reason`
  /// (`SurveyManager.selectSurvey`): a manual close that declined, or any purchase. A restore
  /// never shows one.
  public static func first(in surveys: [Survey], result: PaywallResult, manualClose: Bool) -> Survey? {
    surveys.first { survey in
      switch (survey.condition, result) {
      case (.onManualClose, .declined): manualClose
      case (.onPurchase, .purchased): true
      default: false
      }
    }
  }

  /// The user's draw for this survey, 0 ≤ value < 1: FNV-1a of the user id and the assignment key,
  /// so one user always draws the same, on any machine. The SDK draws `Double.random` once per
  /// user too (the key is saved at the first draw, shown or held out), so over users the share
  /// that sees it is the same.
  public func draw(userID: String) -> Double {
    Double(Self.fnv("\(userID)|survey|\(assignmentKey)") % 1_000_000) / 1_000_000
  }

  /// Whether `userID` sees the survey (`Survey.shouldAssignHoldout`, inverted): never at
  /// probability 0, always at 1.
  public func shows(to userID: String) -> Bool {
    probability > 0 && draw(userID: userID) < probability
  }

  /// The options in the order the sheet lists them: shuffled (`options.shuffled()`) by a
  /// Fisher–Yates seeded from the user id and the survey, so one user always sees one order.
  public func shuffledOptions(userID: String) -> [Option] {
    var order = options
    var seed = Self.fnv("\(userID)|\(id)")
    guard order.count > 1 else { return order }
    for i in stride(from: order.count - 1, to: 0, by: -1) {
      // xorshift64: enough to scatter a handful of options.
      seed ^= seed << 13
      seed ^= seed >> 7
      seed ^= seed << 17
      order.swapAt(i, Int(seed % UInt64(i + 1)))
    }
    return order
  }

  static func fnv(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }
}

/// What the survey pass at a dismissal came to (`SurveyPresentationResult.swift`): shown, held
/// out, or nothing to show. `paywall_close` says `survey_presentation` for the first two only.
public enum SurveyPresentation: String, Sendable, Hashable {
  case show, holdout, noShow
}

/// A survey on screen over its paywall, and the dismissal waiting behind it.
public struct SurveyPrompt: Sendable, Hashable {
  /// The survey.
  public var survey: Survey
  /// Its options in the order shown (then "Other" and "Close" when offered).
  public var order: [Survey.Option]
  /// The "Other" reply being typed, once "Other" was picked; nil before.
  public var typingOther: String?
  /// The result the paywall closes with once the survey is answered.
  public var pendingResult: PaywallResult
  /// Whether the dismissal is the user's close (`manualClose`), else the SDK's own (`systemLogic`).
  public var manualClose: Bool

  /// A survey shown for a dismissal with `pendingResult`.
  public init(survey: Survey, order: [Survey.Option], pendingResult: PaywallResult, manualClose: Bool) {
    self.survey = survey
    self.order = order
    self.pendingResult = pendingResult
    self.manualClose = manualClose
  }
}

/// Reads a paywall's `surveys` array (our camelCase form; `import superwall` writes it too).
enum SurveyReader {
  static func read(_ reader: ObjectReader) -> [Survey] {
    guard let nodes = reader.array("surveys") else { return [] }
    let path = reader.path.appending("surveys")
    var surveys: [Survey] = []
    for (i, node) in nodes.enumerated() {
      guard let survey = readOne(node, path: path.appending(i), diagnostics: reader.diagnostics) else { continue }
      // `SurveyManager.selectSurvey` takes the first survey whose condition fits the close: a
      // later one with the same condition never shows.
      if let earlier = surveys.first(where: { $0.condition == survey.condition }) {
        reader.diagnostics.warning(.unreachableSurvey, "survey \(quoting: survey.id) never shows: survey \(quoting: earlier.id) before it has the same presentationCondition \(quoting: survey.condition.rawValue), and the SDK shows the first that fits; remove one or give it the other condition",
                                   at: node.location, path: path.appending(i))
      }
      surveys.append(survey)
    }
    return surveys
  }

  private static func readOne(_ node: JSONNode, path: JSONPath, diagnostics: DiagnosticCollector) -> Survey? {
    guard let reader = ObjectReader(node, path: path, diagnostics: diagnostics, what: "a survey") else { return nil }
    defer { reader.finish() }
    let errorsBefore = diagnostics.diagnostics.count
    let id = reader.string("id", required: true)
    let key = reader.string("assignmentKey")
    let title = reader.string("title", required: true)
    let message = reader.string("message", required: true, nonEmpty: false)
    let condition = reader.choice("presentationCondition", Survey.Condition.allCases.map(\.rawValue), required: true)
      .flatMap(Survey.Condition.init)
    var probability = 1.0
    if let (value, location) = reader.decimal("presentationProbability") {
      let number = Double("\(value)") ?? 1
      if number > 1 {
        diagnostics.error("'presentationProbability' must be between 0 and 1 (a share of users), found \(value)", at: location,
                          path: path.appending("presentationProbability"))
      }
      probability = number
    }
    let includeOther = reader.bool("includeOtherOption") ?? false
    let includeClose = reader.bool("includeCloseOption") ?? true
    var options: [Survey.Option] = []
    if let items = reader.array("options", required: true) {
      var seen: Set<String> = []
      for (i, item) in items.enumerated() {
        let itemPath = path.appending("options").appending(i)
        guard let optionReader = ObjectReader(item, path: itemPath, diagnostics: diagnostics, what: "a survey option") else { continue }
        defer { optionReader.finish() }
        guard let optionID = optionReader.string("id", required: true), let optionTitle = optionReader.string("title", required: true) else {
          continue
        }
        let at = optionReader.value("id")!.location
        if optionID == Survey.otherOption.id {
          diagnostics.error("option id \"000\" is the SDK's \"Other\" answer; give this option another id, or set \"includeOtherOption\": true",
                            at: at, path: itemPath.appending("id"))
        } else if !seen.insert(optionID).inserted {
          diagnostics.error("duplicate option id \(quoting: optionID); each option needs its own id", at: at, path: itemPath.appending("id"))
        }
        options.append(Survey.Option(id: optionID, title: optionTitle))
      }
      if items.isEmpty && !includeOther {
        diagnostics.error("a survey with no options and no \"Other\" has nothing to answer; add options or \"includeOtherOption\": true",
                          at: reader.value("options")!.location, path: path.appending("options"))
      }
    }
    guard let id, let title, let message, let condition, !diagnostics.diagnostics[errorsBefore...].contains(where: { $0.severity == .error }) else { return nil }
    return Survey(id: id, assignmentKey: key ?? id, title: title, message: message, options: options, condition: condition,
                  probability: probability, includeOtherOption: includeOther, includeCloseOption: includeClose)
  }
}
