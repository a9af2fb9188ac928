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
    EventName.deepLinkOpen.rawValue, "survey_response", "touches_began",
  ]

  /// The lifecycle placements paywall-tui fires at a launch (and a relaunch).
  public static let firedAtLaunch: [String] = [
    EventName.appInstall.rawValue, EventName.sessionStart.rawValue, EventName.appLaunch.rawValue,
  ]

  /// The lifecycle placements the app fires here by a call to the SDK: a deep link
  /// (`Superwall.handleDeepLink`: a script's `deeplink`, the debug panel's `l`).
  public static let firedByTheApp: [String] = [EventName.deepLinkOpen.rawValue]

  /// The lifecycle placements paywall-tui fires: those of a launch, a survey's answer and a deep
  /// link the app handles. A first touch is not emulated: a campaign on one never presents here.
  public static let firedHere: [String] = firedAtLaunch + [EventName.surveyResponse.rawValue] + firedByTheApp

  /// Every placement the SDK fires itself and a campaign may present on.
  public static let sdkPlacements: Set<String> = Set(implicitPlacements + lifecyclePlacements)

  /// Whether the SDK fires the placement itself (`sdkPlacements`): not one an app registers.
  public var isImplicit: Bool { Self.sdkPlacements.contains(placement) }
}

/// Why a registration did not present a paywall, as the SDK's `PaywallSkippedReason` names it.
public enum SkipReason: String, Sendable, Hashable {
  case placementNotFound, noAudienceMatch, holdout, userIsSubscribed
}
