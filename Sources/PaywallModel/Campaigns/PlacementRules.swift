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
