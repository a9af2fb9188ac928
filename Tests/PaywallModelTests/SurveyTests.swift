import Foundation
import PaywallModel
import Testing

/// A paywall's surveys: read from our JSON and from a Superwall config, drawn per user, and shown
/// at a dismissal as `SurveyManager.presentSurveyIfAvailable` decides.
@Suite("Surveys")
struct SurveyTests {
  static let survey = """
    {"id": "why", "title": "Why not now?", "message": "Help us improve",
     "options": [{"id": "price", "title": "Too expensive"}, {"id": "later", "title": "Maybe later"}],
     "presentationCondition": "onManualClose"}
    """

  static func paywall(surveys: String) -> String {
    """
    {"id": "p", "name": "P", "components": [{"type": "title", "text": "Hi"}, {"type": "button", "label": "Close", "action": "close"}],
     "surveys": [\(surveys)]}
    """
  }

  // MARK: - Our JSON

  @Test func defaultsAreTheSDKsUsualOnes() throws {
    let (paywall, diagnostics) = try PaywallReaderTests.read(Self.paywall(surveys: Self.survey))
    #expect(diagnostics.isEmpty)
    let survey = try #require(paywall?.surveys.first)
    #expect(survey.assignmentKey == "why")
    #expect(survey.probability == 1)
    #expect(survey.includeOtherOption == false)
    #expect(survey.includeCloseOption == true)
    #expect(survey.condition == .onManualClose)
    #expect(survey.options.map(\.id) == ["price", "later"])
  }

  static let base = #""id": "why", "title": "T", "message": "M", "presentationCondition": "onManualClose""#
  static let twoOptions = #""options": [{"id": "price", "title": "Too expensive"}]"#

  @Test(arguments: [
    ("\(base), \(twoOptions), \"presentationProbability\": 1.5", "'presentationProbability' must be between 0 and 1"),
    ("\(base), \"options\": [{\"id\": \"a\", \"title\": \"A\"}, {\"id\": \"a\", \"title\": \"B\"}]", "duplicate option id 'a'"),
    ("\(base), \"options\": [{\"id\": \"000\", \"title\": \"Mine\"}]", "option id \"000\" is the SDK's \"Other\" answer"),
    ("\(base), \"options\": []", "a survey with no options and no \"Other\" has nothing to answer"),
    (#""id": "why", "title": "T", "message": "M", "presentationCondition": "onClose", "options": []"#, "unknown presentationCondition 'onClose'"),
  ])
  func aBadSurveyIsAnErrorAtItsPath(fields: String, message: String) throws {
    let (paywall, diagnostics) = try PaywallReaderTests.read(Self.paywall(surveys: "{\(fields)}"))
    #expect(paywall == nil)
    #expect(diagnostics.contains { $0.message.contains(message) && ($0.path?.description ?? "").contains("surveys[0]") },
            "\(diagnostics.map(\.description))")
  }

  /// `SurveyManager.selectSurvey` shows the first survey whose condition fits: a second with the
  /// same condition never shows, and `validate` says so at it. Before, it was accepted in silence.
  @Test func aSurveyAfterOneWithTheSameConditionIsWarnedAbout() throws {
    let second = #"{"id": "again", "title": "T", "message": "M", "presentationCondition": "onManualClose", "options": [{"id": "a", "title": "A"}]}"#
    let onPurchase = #"{"id": "bought", "title": "T", "message": "M", "presentationCondition": "onPurchase", "options": [{"id": "a", "title": "A"}]}"#
    let (paywall, diagnostics) = try PaywallReaderTests.read(Self.paywall(surveys: [Self.survey, onPurchase, second].joined(separator: ",")))
    #expect(paywall?.surveys.count == 3)
    let warned = diagnostics.filter { $0.kind == .unreachableSurvey }
    #expect(warned.count == 1 && warned.first?.message.hasPrefix("survey 'again' never shows: survey 'why' before it") == true
            && warned.first?.path?.description == "$.surveys[2]", "\(diagnostics.map(\.description))")
  }

  // MARK: - The draw

  @Test func probabilityZeroNeverShowsAndOneAlwaysDoes() throws {
    let (paywall, _) = try PaywallReaderTests.read(Self.paywall(surveys: Self.survey))
    var survey = try #require(paywall?.surveys.first)
    for user in (0..<200).map({ "user-\($0)" }) {
      survey.probability = 0
      #expect(!survey.shows(to: user))
      survey.probability = 1
      #expect(survey.shows(to: user))
    }
  }

  @Test func aUserAlwaysDrawsTheSameAndUsersSpreadAroundAHalf() throws {
    let (paywall, _) = try PaywallReaderTests.read(Self.paywall(surveys: Self.survey))
    var survey = try #require(paywall?.surveys.first)
    survey.probability = 0.5
    let users = (0..<200).map { "user-\($0)" }
    let below = try #require(users.first { survey.draw(userID: $0) < 0.5 })
    let above = try #require(users.first { survey.draw(userID: $0) >= 0.5 })
    #expect(survey.shows(to: below))
    #expect(!survey.shows(to: above))
    #expect(survey.draw(userID: below) == survey.draw(userID: below))
    let shown = users.filter { survey.shows(to: $0) }.count
    #expect((60...140).contains(shown), "\(shown) of 200 saw a survey drawn at 0.5")
    // The order of the options is the user's too.
    #expect(survey.shuffledOptions(userID: below) == survey.shuffledOptions(userID: below))
    #expect(Set(survey.shuffledOptions(userID: above).map(\.id)) == ["price", "later"])
  }

  // MARK: - The flow

  static func session(_ surveys: [Survey]) -> PaywallSession {
    var definition = PaywallFlowTests.definition
    definition.surveys = surveys
    return PaywallFlow.open(ResolvedPaywall(definition, catalog: PaywallFlowTests.catalog)).0
  }

  static func survey(_ id: String, _ condition: Survey.Condition, key: String? = nil, probability: Double = 1) -> Survey {
    Survey(id: id, assignmentKey: key ?? id, title: id, message: "", options: [Survey.Option(id: "a", title: "A")],
           condition: condition, probability: probability)
  }

  static func close(_ effects: [FlowEffect]) -> PaywallEvent? {
    effects.lazy.compactMap { if case .emit(let e) = $0, e.name == .paywallClose { e } else { nil } }.first
  }

  @Test func theFirstSurveyWhoseConditionHoldsDecides() {
    var session = Self.session([Self.survey("buy", .onPurchase), Self.survey("first", .onManualClose),
                                Self.survey("second", .onManualClose)])
    let effects = PaywallFlow.handle(.close, in: &session, options: PaywallOptions())
    #expect(effects == [.saveSurveyKey("first")])
    #expect(session.survey?.survey.id == "first")
    #expect(!session.isDismissed)
  }

  @Test func aSeenKeyShowsNothingAndTheCloseSaysNoPresentation() throws {
    var session = Self.session([Self.survey("first", .onManualClose), Self.survey("second", .onManualClose)])
    let effects = PaywallFlow.handle(.close, in: &session, options: PaywallOptions(), survey: SurveyContext(savedKey: "first"))
    #expect(PaywallFlowTests.names(effects) == ["paywall_decline", "paywall_close"])
    let close = try #require(Self.close(effects))
    #expect(close["survey_attached"] == .bool(true))
    #expect(close["survey_presentation"] == nil)
  }

  @Test func aHoldoutSavesTheKeyAndSaysSo() throws {
    var session = Self.session([Self.survey("held", .onManualClose, probability: 0)])
    let effects = PaywallFlow.handle(.close, in: &session, options: PaywallOptions())
    #expect(effects.first == .saveSurveyKey("held"))
    #expect(try #require(Self.close(effects))["survey_presentation"] == .string("holdout"))
  }

  @Test func aSurveyBlocksEveryOtherActionUntilAnswered() {
    var session = Self.session([Self.survey("first", .onManualClose)])
    _ = PaywallFlow.handle(.close, in: &session, options: PaywallOptions())
    for action in [PaywallAction.purchase(slot: nil), .restore, .close, .select(slot: "secondary"), .dismissAlert,
                   .surveyAnswer(optionID: "nope"), .surveyOther("text")] {
      #expect(PaywallFlow.handle(action, in: &session, options: PaywallOptions()).isEmpty)
    }
    #expect(session.survey != nil)
    let answer = PaywallFlow.handle(.surveyAnswer(optionID: "a"), in: &session, options: PaywallOptions())
    #expect(PaywallFlowTests.names(answer) == ["survey_response"])
    #expect(session.survey == nil && session.answeredSurvey != nil)
    let rest = PaywallFlow.resumeAfterSurvey(in: &session)
    #expect(PaywallFlowTests.names(rest) == ["paywall_decline", "paywall_close"])
    #expect(Self.close(rest)?["survey_presentation"] == .string("show"))
  }

  @Test func aRestoreNeverShowsASurvey() {
    var session = Self.session([Self.survey("any", .onManualClose), Self.survey("buy", .onPurchase)])
    _ = PaywallFlow.handle(.restore, in: &session, options: PaywallOptions())
    let effects = PaywallFlow.restoreFinished(.restored, status: .active([Entitlement("pro")]), in: &session, options: PaywallOptions())
    #expect(session.survey == nil)
    #expect(PaywallFlowTests.names(effects).last == "paywall_close")
  }

  // MARK: - The user file

  @Test func theSurveyKeyIsSavedWithTheUser() throws {
    try withTemporaryDirectory { directory in
      let state = StateDirectory(path: directory.path)
      let file = AssignmentFile(directory: state)
      var book = AssignmentBook(userID: "u1")
      book.surveyAssignmentKey = "why-v1"
      try file.save(book)
      #expect(file.load(userID: nil).0.surveyAssignmentKey == "why-v1")
      #expect(file.load(userID: "someone-else").0.surveyAssignmentKey == nil)
    }
  }

  // MARK: - A Superwall config

  /// Every one of the nine keys is required (`Survey`'s synthesized `Codable`); a survey that fails
  /// is dropped, its siblings kept (`Paywall.swift` decodes `[Throwable<Survey>]`).
  @Test func anImportedConfigKeepsTheSurveysTheSDKDecodes() throws {
    let surveys = #"""
      "surveys": [
        {"id": "s1", "assignment_key": "k1", "title": "Why?", "message": "Tell us",
         "options": [{"id": "o1", "title": "Price"}], "presentation_condition": "ON_PURCHASE",
         "presentation_probability": 0.25, "include_other_option": true, "include_close_option": false},
        {"id": "s2", "assignment_key": "k2", "title": "Broken", "message": "",
         "options": [], "presentation_condition": "ON_MANUAL_CLOSE",
         "presentation_probability": 1, "include_other_option": false}
      ],
      "background_color_hex"
      """#
    let config = SuperwallImportTests.sdkExcerpt.replacingOccurrences(of: "\"background_color_hex\"", with: surveys)
    let result = try SuperwallImportTests.load(config)
    let paywall = try #require(result.project?.paywall(id: "example-paywall-4de1-2022-03-15"), "\(result.diagnostics.map(\.description))")
    #expect(paywall.surveys == [Survey(id: "s1", assignmentKey: "k1", title: "Why?", message: "Tell us",
                                       options: [Survey.Option(id: "o1", title: "Price")], condition: .onPurchase,
                                       probability: 0.25, includeOtherOption: true, includeCloseOption: false)])
    #expect(result.warnings.contains { $0.message.contains("survey skipped") && $0.message.contains("include_close_option") },
            "\(result.warnings.map(\.description))")
  }

  /// `survey_response` is fired here now: a campaign on it is not warned about as never presenting.
  @Test func aCampaignOnSurveyResponseIsNotWarnedAbout() throws {
    let path = (Fixture.paywallsDirectory as NSString).deletingLastPathComponent + "/scenarios/projects/surveys"
    let result = ProjectLoader.load(path: path)
    #expect(result.project != nil, "\(result.diagnostics.map(\.description))")
    #expect(!result.warnings.contains { $0.kind == .notFiredHere }, "\(result.warnings.map(\.description))")
  }
}
