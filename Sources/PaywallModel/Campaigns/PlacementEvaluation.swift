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
