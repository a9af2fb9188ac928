#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an audience does with the users its filter matches.
public enum AudienceOutcome: Sendable, Hashable {
  /// Variants by percentage (one variant at 100 for a plain `"paywall"`); `holdout` percent of
  /// the matched users see nothing.
  case paywalls([Variant], holdout: Int)

  /// One paywall of a split and its share of the matched users.
  public struct Variant: Sendable, Hashable {
    /// The paywall shown to this share.
    public var paywallID: String
    /// The share, in percent of the users who are not held out.
    public var percent: Int
    /// The dashboard's variant id (a Superwall config's `variant_id`), which `trigger_fire`
    /// reports; nil: the paywall's id stands in.
    public var id: String?

    /// `paywallID` for `percent` percent of the users.
    public init(paywallID: String, percent: Int, id: String? = nil) {
      self.paywallID = paywallID
      self.percent = percent
      self.id = id
    }
  }
}

/// The rule that decides which users an audience takes: everyone, a CEL filter, or a rule in an
/// expression language the emulator cannot evaluate (the SDK's v3 `expression`, `expression_js`),
/// which is never silently true or false: the tester decides it (`--assume-rule`).
public enum AudienceRule: Sendable, Hashable {
  /// No filter: every user matches.
  case everyone
  /// A CEL filter (`expression_cel`, our `"filter"`).
  case filter(AudienceFilter)
  /// A rule the emulator cannot evaluate.
  case unsupported(UnsupportedRule)
}

/// A rule written in an expression language the emulator does not evaluate.
public struct UnsupportedRule: Sendable, Hashable {
  /// The language, as the config names its key: `expression` (the SDK's v3 language) or `expression_js`.
  public var kind: String
  /// The rule's text, as written.
  public var text: String

  /// A rule of `kind` (`expression`, `expression_js`) reading `text`.
  public init(kind: String, text: String) {
    self.kind = kind
    self.text = text
  }
}

/// The SDK's occurrence limit (`TriggerAudienceOccurrence`): an audience matches a user at most
/// `maxCount` times within `interval`, each presentation or holdout counting.
public struct OccurrenceLimit: Sendable, Hashable {
  /// The `maxCount` a project may give.
  package static let maxCountRange = 1...1_000_000
  /// The interval's `minutes` a project may give (up to a thousand years).
  package static let minutesRange = 1...525_600_000

  /// Over what time occurrences are counted.
  public enum Interval: Sendable, Hashable {
    /// All time (the SDK's `INFINITY`).
    case infinity
    /// The last N minutes, counting an occurrence exactly N minutes old (the SDK's `MINUTES`).
    case minutes(Int)

    /// " in the last N minutes", or "" for all time.
    var phrase: String {
      switch self {
      case .infinity: ""
      case .minutes(let m): " in the last \(m) minute\(m == 1 ? "" : "s")"
      }
    }
  }

  /// How many presentations or holdouts the interval allows.
  public var maxCount: Int
  /// Over what time they are counted.
  public var interval: Interval

  /// At most `maxCount` occurrences within `interval`.
  public init(maxCount: Int, interval: Interval = .infinity) {
    self.maxCount = maxCount
    self.interval = interval
  }
}

/// One audience of a campaign: a rule and what matched users get.
public struct Audience: Sendable, Hashable {
  /// Who the audience takes.
  public var rule: AudienceRule
  /// What matched users get.
  public var outcome: AudienceOutcome
  /// The SDK's occurrence limit (`"occurrence": {"maxCount": N, "interval": {"minutes": M}}`); nil: no limit.
  public var occurrence: OccurrenceLimit?
  /// The dashboard's experiment id (a Superwall config's `experiment_id`), which `trigger_fire`
  /// reports; nil: `PLACEMENT#N` stands in.
  public var experimentID: String?
  /// The dashboard's id of the holdout variant, which `trigger_fire` reports; nil: `holdout`.
  public var holdoutID: String?

  /// The CEL filter users must match; nil when the rule is `everyone` or unsupported.
  public var filter: AudienceFilter? {
    if case .filter(let filter) = rule { return filter }
    return nil
  }

  /// The rule as `explain` shows it after "filter": the CEL text, `expression_js '…'` for an
  /// unsupported rule, nil for everyone.
  public var ruleText: String? {
    switch rule {
    case .everyone: nil
    case .filter(let filter): filter.text
    case .unsupported(let rule): "(\(rule.kind), not evaluated) \(quoting: rule.text)"
    }
  }

  /// The occurrence limit's count; nil: no limit.
  public var maxOccurrences: Int? { occurrence?.maxCount }

  /// An audience of the users `rule` takes, with an optional occurrence limit.
  public init(rule: AudienceRule, outcome: AudienceOutcome, occurrence: OccurrenceLimit? = nil, experimentID: String? = nil,
              holdoutID: String? = nil) {
    self.rule = rule
    self.outcome = outcome
    self.occurrence = occurrence
    self.experimentID = experimentID
    self.holdoutID = holdoutID
  }

  /// An audience of users matching `filter` (nil: everyone), limited to `maxOccurrences` over all time.
  public init(filter: AudienceFilter?, outcome: AudienceOutcome, maxOccurrences: Int? = nil) {
    self.init(rule: filter.map { .filter($0) } ?? .everyone, outcome: outcome,
              occurrence: maxOccurrences.map { OccurrenceLimit(maxCount: $0) })
  }

  /// An audience whose rule is in a language the emulator cannot evaluate (`kind`: `expression`,
  /// `expression_js`); the tester decides whether it matches (`--assume-rule`).
  public static func unsupported(kind: String, text: String, outcome: AudienceOutcome,
                                 occurrence: OccurrenceLimit? = nil, experimentID: String? = nil,
                                 holdoutID: String? = nil) -> Audience {
    Audience(rule: .unsupported(UnsupportedRule(kind: kind, text: text)), outcome: outcome, occurrence: occurrence,
             experimentID: experimentID, holdoutID: holdoutID)
  }
}

/// A placement and its audiences, tried in order.
public struct Campaign: Sendable, Hashable {
  /// The placement's name, as `register(placement:)` gives it.
  public var placement: String
  /// The audiences, tried in order; the first that matches decides.
  public var audiences: [Audience]

  /// The campaign of `placement`.
  public init(placement: String, audiences: [Audience]) {
    self.placement = placement
    self.audiences = audiences
  }

  /// The SDK's implicit placements: when a paywall emits one of these events, a campaign on it
  /// presents its paywall in place of the current one.
  public static let implicitPlacements: [String] = [
    EventName.transactionAbandon.rawValue, EventName.transactionFail.rawValue, EventName.paywallDecline.rawValue,
  ]

  /// The SDK's own events that can present a paywall by themselves (`SuperwallEvent.swift`
  /// `canImplicitlyTriggerPaywall`, 4.16.3) besides `implicitPlacements` and a paywall's
  /// `custom_placement`: a campaign on one is valid, and `register` ignores the name.
  public static let lifecyclePlacements: [String] = [
    EventName.appInstall.rawValue, EventName.sessionStart.rawValue, EventName.appLaunch.rawValue,
    "deepLink_open", "survey_response", "touches_began",
  ]

  /// The lifecycle placements paywall-tui fires: those of a launch (and a relaunch). A deep link,
  /// a survey answer and a first touch are not emulated: a campaign on one never presents here.
  public static let firedAtLaunch: [String] = [
    EventName.appInstall.rawValue, EventName.sessionStart.rawValue, EventName.appLaunch.rawValue,
  ]

  /// Every placement the SDK fires itself and a campaign may present on.
  public static let sdkPlacements: Set<String> = Set(implicitPlacements + lifecyclePlacements)

  /// Whether the SDK fires the placement itself (`sdkPlacements`): not one an app registers.
  public var isImplicit: Bool { Self.sdkPlacements.contains(placement) }
}

/// Why a registration did not present a paywall, as the SDK's `PaywallSkippedReason` names it.
public enum SkipReason: String, Sendable, Hashable {
  case placementNotFound, noAudienceMatch, holdout, userIsSubscribed
}

/// The result of evaluating a placement's campaign (no side effects): what `register` then does,
/// and what `explain` prints.
public struct PlacementEvaluation: Sendable, Hashable {
  /// What the registration does: present a paywall or skip it.
  public enum Outcome: Sendable, Hashable {
    case present(paywallID: String)
    case skip(SkipReason)
  }

  /// An audience whose rule the tester must decide.
  public struct UndecidedRule: Sendable, Hashable {
    /// The audience's key, `PLACEMENT#N` (N from 0), as `--assume-rule` and `experiment_id` name it.
    public var key: String
    /// The placement whose campaign holds it.
    public var placement: String
    /// The audience's position in the campaign, from 0.
    public var index: Int
    /// The rule.
    public var rule: UnsupportedRule

    /// One line naming the rule and the option that decides it.
    public var message: String {
      "audience \(index + 1) of placement \(quoting: placement) has a rule in \(rule.kind) (\(quoting: rule.text)), which the emulator cannot evaluate; decide it with --assume-rule \(key)=match or \(key)=nomatch"
    }
  }

  /// One audience as it was tried.
  public struct Step: Sendable, Hashable {
    /// The audience's position in the campaign, from 0.
    public var index: Int
    /// The audience's filter as written; nil when it has none.
    public var filter: String?
    /// Whether the user matched it.
    public var matched: Bool
    /// The values the filter read ("user.some_value is 12").
    public var because: [String]
    /// Whether the filter matched but the occurrence limit kept the user out (the SDK's
    /// `OCCURRENCE` source of an unmatched audience).
    public var limitedByOccurrence = false
    /// The audience's dashboard experiment id, when the project has one (`Audience.experimentID`).
    public var experimentID: String?
  }

  /// The placement evaluated.
  public var placement: String
  /// The audiences tried, up to the one that matched.
  public var steps: [Step]
  /// Present a paywall, or skip and say why.
  public var outcome: Outcome
  /// The matched audience's assignment: which variant (or the holdout) and the user's bucket.
  public var assignment: Assignment?
  /// The matched audience's occurrence key when it has a limit: counted in the book once the
  /// registration presents or holds out.
  var occurrenceKey: String?
  /// A rule the emulator cannot evaluate and no `--assume-rule` decided: the evaluation stopped
  /// there (its outcome is a placeholder), and `register` must not go on as if it matched or not.
  public var undecided: UndecidedRule?
  /// The evaluation stopped before it decided (over its budget, or interrupted): its outcome is a
  /// placeholder, and the registration fails with this reason.
  public var abandoned: AbandonedEvaluation?
  /// The SDK version whose rules decided (`options.sdk`).
  public var sdk: SDKVersion = .latest
  /// The chosen variant's dashboard id (`AudienceOutcome.Variant.id`, `Audience.holdoutID`), when
  /// the project has one.
  public var variantID: String?
  /// With `outcome` `.skip(.userIsSubscribed)` (v3 only): what the campaign alone decided,
  /// before the subscriber rule skipped the active user. Nil otherwise.
  public var subscriberRuleSkipped: Outcome?

  /// An evaluation as the campaign decided it.
  init(placement: String, steps: [Step], outcome: Outcome, assignment: Assignment?) {
    self.placement = placement
    self.steps = steps
    self.outcome = outcome
    self.assignment = assignment
  }

  /// The experiment id of `step`'s audience: the dashboard's when the project has it, else
  /// `PLACEMENT#N` (N from 0, as sticky assignments and `--assume-rule` name it). `trigger_fire`
  /// and `explain --json` both say it this way.
  public func experimentID(of step: Step) -> String {
    step.experimentID ?? AssignmentBook.key(placement, step.index)
  }

  /// The experiment id of the audience that matched; nil when none did.
  public var experimentID: String? {
    steps.last(where: \.matched).map(experimentID(of:))
  }

  /// Lines for `paywall-tui explain` and the home screen.
  public var lines: [String] {
    var lines: [String] = []
    if steps.isEmpty, outcome == .skip(.placementNotFound) {
      return ["placement \(quoting: placement): no campaign → skipped (placementNotFound); the feature runs"]
    }
    if steps.isEmpty, subscriberRuleSkipped == .skip(.placementNotFound) {
      lines.append("placement \(quoting: placement): no campaign")
    }
    for step in steps {
      let filter = step.filter.map { "filter \($0)" } ?? "no filter (everyone)"
      let because = step.because.isEmpty ? "" : " because " + step.because.joined(separator: ", ")
      let verdict = step.matched ? "matched" : (undecided?.index == step.index ? "undecided" : "no match")
      lines.append("audience \(step.index + 1): \(filter) → \(verdict)\(because)")
    }
    if let assignment, assignment.isSplit {
      lines.append("assignment: \(assignment.description)")
    }
    switch subscriberRuleSkipped {
    case .present(let id)?:
      lines.append("→ paywall \(quoting: id), but the user is active and its presentationCondition is checkUserSubscription: \(sdk.spelled) skips subscribers")
    case .skip(let reason)?:
      lines.append("→ \(reason.rawValue), but the user is active: \(sdk.spelled) skips subscribers first (userIsSubscribed, not \(reason.rawValue))")
    case nil:
      break
    }
    if let undecided {
      lines.append("→ undecided: the emulator cannot evaluate audience \(undecided.index + 1)'s \(undecided.rule.kind) rule; give --assume-rule \(undecided.key)=match or \(undecided.key)=nomatch")
      return lines
    }
    if let abandoned {
      lines.append("→ stopped: \(abandoned.message)")
      return lines
    }
    switch outcome {
    case .present(let id): lines.append("→ presents paywall \(quoting: id)")
    case .skip(let reason): lines.append("→ skipped (\(reason.rawValue)); the feature runs")
    }
    return lines
  }
}

/// Where a user falls in an audience's split: a bucket 0–99 from a stable hash of the user id,
/// the placement and the audience, so the same user always gets the same variant, on any machine.
public struct Assignment: Sendable, Hashable, CustomStringConvertible {
  /// The paywall, or nil for the holdout.
  public var paywallID: String?
  /// The user's bucket, 0–99.
  public var bucket: Int
  /// Whether the audience splits users at all (variants or a holdout); a single paywall does not.
  public var isSplit = true

  /// `bucket N of 0–99 → variant "ID"` (or `holdout`).
  public var description: String {
    "bucket \(bucket) of 0–99 → " + (paywallID.map { "variant \(quoting: $0)" } ?? "holdout")
  }

  package static func bucket(userID: String, placement: String, audience: Int) -> Int {
    // FNV-1a, 64 bit: stable across runs and platforms, unlike Swift's seeded Hasher.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "\(userID)|\(placement)|\(audience)".utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return Int(hash % 100)
  }

  /// The variant for `bucket`: the first `holdout` buckets are held out, the rest split by percent.
  package static func pick(_ variants: [AudienceOutcome.Variant], holdout: Int, bucket: Int) -> String? {
    if bucket < holdout { return nil }
    let total = variants.reduce(0) { $0 + $1.percent }
    guard total > 0 else { return nil }
    // Spread the remaining buckets over the variants in proportion to their percentages.
    let position = Double(bucket - holdout) / Double(100 - holdout) * Double(total)
    var running = 0
    for variant in variants {
      running += variant.percent
      if position < Double(running) { return variant.paywallID }
    }
    return variants.last?.paywallID
  }
}

/// Sticky assignments: once a user got a variant (or the holdout) for an audience, they keep it
/// across runs even if the percentages change, as the SDK confirms assignments.
public struct AssignmentBook: Sendable, Hashable {
  /// The user's id (`$anon:` and a random UUID for an anonymous user).
  public var userID: String
  /// "placement#audience" → paywall id, or "" for the holdout.
  public var entries: [String: String]
  /// "placement#audience" → when an audience with an occurrence limit presented or held out,
  /// oldest first (the SDK's saved `TriggerAudienceOccurrence`s, `ManagedTriggerRuleOccurrence.createdAt`).
  public var occurrences: [String: [Date]]

  /// The book of `userID`, with `entries` already assigned and `occurrences` recorded.
  public init(userID: String, entries: [String: String] = [:], occurrences: [String: [Date]] = [:]) {
    self.userID = userID
    self.entries = entries
    self.occurrences = occurrences
  }

  /// How many occurrences of `key` count at `now` for `interval`: all of them, or those at most
  /// N minutes old (the SDK's `createdAt >= now − N minutes`, `Storage/Core Data/CoreDataManager.swift`
  /// `countAudienceOccurrences`).
  public func occurrenceCount(_ key: String, within interval: OccurrenceLimit.Interval, now: Date) -> Int {
    let times = occurrences[key] ?? []
    switch interval {
    case .infinity: return times.count
    case .minutes(let minutes):
      let since = now.addingTimeInterval(-Double(minutes) * 60)
      return times.reduce(0) { $0 + ($1 >= since ? 1 : 0) }
    }
  }

  static func key(_ placement: String, _ audience: Int) -> String { "\(placement)#\(audience)" }
}

/// Decides what registering a placement does, from the project's campaigns.
public enum PlacementRules {
  /// Evaluates `placement` against the project's campaigns: audiences in order, the first whose
  /// filter matches decides; then the holdout and variant split (sticky in `book`); then, with
  /// `options.sdk` 3 only, the subscriber rule (`subscriberRule`).
  public static func evaluate(_ placement: String, project: Project, context: FilterContext,
                              book: inout AssignmentBook) -> PlacementEvaluation {
    var evaluation = campaignOutcome(placement, project: project, context: context, book: &book)
    evaluation.sdk = project.options.sdk
    // Stopped before it decided: nothing more follows from it (the registration fails).
    if evaluation.abandoned != nil { return evaluation }
    evaluation = subscriberRule(evaluation, project: project, status: context.status)
    // The SDK saves an occurrence when the paywall presents or the user is held out
    // (Operators/GetExperiment.swift, PaywallViewController.swift), not when v3 skipped a subscriber.
    if let key = evaluation.occurrenceKey {
      switch evaluation.outcome {
      case .present, .skip(.holdout): book.occurrences[key, default: []].append(context.now)
      case .skip: break
      }
    }
    return evaluation
  }

  /// v3's subscriber rule (3.9.1, `Paywall/Presentation/GetPaywallComponents.swift`): after the
  /// rules are evaluated, `Internal/Operators/CheckUserSubscription.swift` skips an active user
  /// whatever the result unless it is a paywall (a holdout, no match and an unknown placement
  /// too), before any trigger fire or holdout confirmation; then `Internal/Operators/
  /// GetPresenter.swift` skips an active user shown a paywall unless its presentation condition is
  /// `always` (`Internal/InternalPresentationLogic.swift`). Both say `userIsSubscribed`. v4 has no
  /// such rule (removed in 4.0.0-alpha.1: b3d39a952 and d0d04b208; every 4.x
  /// `Presentation State/PaywallSkippedReason.swift` lacks the case).
  static func subscriberRule(_ evaluation: PlacementEvaluation, project: Project, status: SubscriptionStatus) -> PlacementEvaluation {
    guard project.options.sdk.skipsSubscribers, status.isActive else { return evaluation }
    var skipped = evaluation
    switch evaluation.outcome {
    case .present(let paywallID):
      let condition = project.paywall(id: paywallID)?.presentationCondition ?? .checkUserSubscription
      if condition == .always { return evaluation }
      skipped.subscriberRuleSkipped = .present(paywallID: paywallID)
    case .skip(let reason):
      skipped.subscriberRuleSkipped = .skip(reason)
    }
    skipped.outcome = .skip(.userIsSubscribed)
    return skipped
  }

  /// The campaign's own answer: audiences, holdout, variants; no subscriber rule.
  static func campaignOutcome(_ placement: String, project: Project, context: FilterContext,
                              book: inout AssignmentBook) -> PlacementEvaluation {
    guard let campaign = project.campaigns.first(where: { $0.placement == placement }) else {
      return PlacementEvaluation(placement: placement, steps: [], outcome: .skip(.placementNotFound), assignment: nil)
    }
    var steps: [PlacementEvaluation.Step] = []
    // One budget for all of the registration's audiences.
    var budget = EvaluationBudget(interrupt: context.interrupt)
    for (index, audience) in campaign.audiences.enumerated() {
      let key = AssignmentBook.key(placement, index)
      var matched: Bool
      var because: [String]
      switch audience.rule {
      case .everyone:
        matched = true
        because = []
      case .filter(let filter):
        matched = filter.evaluate(context, budget: &budget)
        if let reason = budget.stopped {
          var evaluation = PlacementEvaluation(placement: placement, steps: steps, outcome: .skip(.noAudienceMatch), assignment: nil)
          evaluation.abandoned = AbandonedEvaluation(reason: reason, audienceIndex: index, placement: placement)
          return evaluation
        }
        because = filter.explain(context)
      case .unsupported(let rule):
        // Never silently true or false: the tester says what the rule decides.
        guard let assumed = context.assumedRules[key] else {
          steps.append(.init(index: index, filter: audience.ruleText, matched: false,
                             because: ["the emulator cannot evaluate \(rule.kind)"]))
          var evaluation = PlacementEvaluation(placement: placement, steps: steps, outcome: .skip(.noAudienceMatch), assignment: nil)
          evaluation.undecided = PlacementEvaluation.UndecidedRule(key: key, placement: placement, index: index, rule: rule)
          return evaluation
        }
        matched = assumed
        because = ["assumed to \(assumed ? "match" : "not match") (--assume-rule \(key)=\(assumed ? "match" : "nomatch"))"]
      }
      // An occurrence limit (Audience Logic/Expression Evaluator/ExpressionLogic.swift
      // tryToMatchOccurrence): a matching audience that has already presented or held out
      // maxCount times within its interval does not match; the next audience is tried.
      var limited = false
      if matched, let limit = audience.occurrence {
        let count = book.occurrenceCount(key, within: limit.interval, now: context.now)
        if count + 1 > limit.maxCount {
          matched = false
          limited = true
          because.append("its occurrence limit is reached (\(count) of \(limit.maxCount)\(limit.interval.phrase))")
        }
      }
      steps.append(.init(index: index, filter: audience.ruleText, matched: matched, because: because,
                         limitedByOccurrence: limited, experimentID: audience.experimentID))
      guard matched else { continue }
      guard case .paywalls(let variants, let holdout) = audience.outcome else { continue }
      let chosen: String?
      let bucket = Assignment.bucket(userID: book.userID, placement: placement, audience: index)
      if let sticky = book.entries[key], sticky.isEmpty || variants.contains(where: { $0.paywallID == sticky }) {
        chosen = sticky.isEmpty ? nil : sticky
      } else {
        chosen = Assignment.pick(variants, holdout: holdout, bucket: bucket)
        book.entries[key] = chosen ?? ""
      }
      let assignment = Assignment(paywallID: chosen, bucket: bucket, isSplit: variants.count > 1 || holdout > 0)
      var evaluation = PlacementEvaluation(placement: placement, steps: steps,
                                           outcome: chosen.map { .present(paywallID: $0) } ?? .skip(.holdout), assignment: assignment)
      if audience.occurrence != nil { evaluation.occurrenceKey = key }
      if let chosen {
        evaluation.variantID = variants.first { $0.paywallID == chosen }?.id
      } else {
        evaluation.variantID = audience.holdoutID
      }
      return evaluation
    }
    return PlacementEvaluation(placement: placement, steps: steps, outcome: .skip(.noAudienceMatch), assignment: nil)
  }
}

/// What a tester says about rules the emulator cannot evaluate: `--assume-rule PLACEMENT#N=match|nomatch`.
package enum RuleAssumptions {
  /// The audience keys (`PLACEMENT#N`) of every unsupported rule in `project`, in campaign order.
  package static func unsupportedKeys(in project: Project) -> [String] {
    project.campaigns.flatMap { campaign in
      campaign.audiences.indices.compactMap { index -> String? in
        if case .unsupported = campaign.audiences[index].rule { return AssignmentBook.key(campaign.placement, index) }
        return nil
      }
    }
  }

  /// Parses each `PLACEMENT#N=match|nomatch`, checking that it names an unsupported rule of
  /// `project`; the error is one line naming the value and the fix.
  package static func parse(_ texts: [String], project: Project) -> Result<[String: Bool], AssumptionError> {
    let keys = unsupportedKeys(in: project)
    var out: [String: Bool] = [:]
    for text in texts {
      guard let eq = text.lastIndex(of: "="), eq != text.startIndex else {
        return .failure(AssumptionError("--assume-rule \(quoting: text) must be PLACEMENT#N=match or PLACEMENT#N=nomatch"))
      }
      let key = String(text[..<eq])
      let answer = String(text[text.index(after: eq)...])
      let matches: Bool
      switch answer {
      case "match": matches = true
      case "nomatch": matches = false
      default:
        return .failure(AssumptionError("--assume-rule \(quoting: text): \(quoting: answer) must be match or nomatch\(Suggestions.hint(for: answer, in: ["match", "nomatch"]))"))
      }
      guard keys.contains(key) else {
        let known = keys.isEmpty ? "the project has no rule the emulator cannot evaluate"
          : "rules to decide: \(keys.joined(separator: ", "))\(Suggestions.hint(for: key, in: keys))"
        return .failure(AssumptionError("--assume-rule \(quoting: key) names no audience with an unsupported rule (\(known))"))
      }
      out[key] = matches
    }
    return .success(out)
  }

  /// A bad `--assume-rule` value.
  package struct AssumptionError: Error, Sendable {
    package var message: String
    init(_ message: String) { self.message = message }
  }
}
