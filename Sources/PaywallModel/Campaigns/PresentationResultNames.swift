/// What `Superwall.shared.getPresentationResult(forPlacement:params:)` returns for an evaluation,
/// as `explain --json` writes it and as the script's `call getPresentationResult` reports it.
package enum PresentationResultNames {
  /// The SDK's `PresentationResult` case for an evaluation, in the names of the chosen SDK
  /// (Paywall/Presentation/Get Presentation Result/PresentationResult.swift and
  /// GetPresentationResultLogic.swift: placementNotFound, noAudienceMatch, paywall(experiment),
  /// holdout(experiment), paywallNotAvailable; v3 (3.9.1) spells the first two eventNotFound and
  /// noRuleMatch and has userIsSubscribed).
  package static func name(_ evaluation: PlacementEvaluation) -> String {
    let v3 = evaluation.sdk.isV3
    switch evaluation.outcome {
    case .present: return "paywall"
    case .skip(.holdout): return "holdout"
    case .skip(.placementNotFound): return v3 ? "eventNotFound" : "placementNotFound"
    case .skip(.noAudienceMatch): return v3 ? "noRuleMatch" : "noAudienceMatch"
    case .skip(.userIsSubscribed): return "userIsSubscribed"
    }
  }

  /// The SDK's `Experiment` (Models/Triggers/Experiment.swift) for a paywall or holdout result:
  /// `id`, `groupId`, `variant` {`id`, `type` TREATMENT or HOLDOUT, `paywallId`}. The dashboard's
  /// experiment and variant ids when the project has them (imported from a Superwall config), else
  /// made from the placement and the audience's position.
  package static func experiment(_ evaluation: PlacementEvaluation) -> JSONOutput {
    let paywallID = experimentPaywallID(evaluation)
    let holdout = evaluation.outcome == .skip(.holdout)
    let variant: JSONOutput = .object([
      ("id", .string(variantID(evaluation))),
      ("type", .string(holdout ? "HOLDOUT" : "TREATMENT")),
      ("paywallId", holdout ? .null : paywallID.map { .string($0) } ?? .null),
    ])
    return .object([
      ("id", .string(evaluation.experimentID ?? "")),
      ("groupId", .string(evaluation.placement)),
      ("variant", variant),
    ])
  }

  /// The experiment's variant id: the dashboard's, else the paywall's id, or `holdout`.
  package static func variantID(_ evaluation: PlacementEvaluation) -> String {
    let holdout = evaluation.outcome == .skip(.holdout)
    return evaluation.variantID ?? (holdout ? "holdout" : (experimentPaywallID(evaluation) ?? "holdout"))
  }

  private static func experimentPaywallID(_ evaluation: PlacementEvaluation) -> String? {
    switch evaluation.outcome {
    case .present(let id): id
    default: evaluation.assignment?.paywallID
    }
  }
}
