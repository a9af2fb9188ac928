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

/// The events whose parameters the SDK builds from something other than a paywall, shaped as the
/// SDK version in use tracks them (superwall/Superwall-iOS, `Analytics/Internal Tracking/Trackable
/// Events/TrackableSuperwallEvent.swift` at 4.16.3, `TrackableSuperwallPlacement.swift` at 4.0.x,
/// `TrackableSuperwallEvent.swift` at 3.9.1). Every parameter written here is listed in
/// `EventReference`, which the event reference (docs/reference/events.md) is generated from.
enum SDKEvents {
  /// `paywallPresentationRequest`'s `status` (`PaywallPresentationRequestStatus.swift`).
  enum RequestStatus: String {
    case presentation
    case noPresentation = "no_presentation"
    case timeout
  }

  /// `paywallPresentationRequest`'s `status_reason` (`PaywallPresentationRequestStatusReason`).
  enum RequestReason: Equatable {
    case skipped(SkipReason)
    case paywallAlreadyPresented
    case subscriptionStatusTimeout

    /// The reason's `description` in `sdk`: v3 spells the timeout `subscription_status_timeout`,
    /// v4 `subscriptionStatus_timeout`.
    func text(_ sdk: SDKVersion) -> String {
      switch self {
      case .skipped(.placementNotFound): "event_not_found"
      case .skipped(.noAudienceMatch): "no_rule_match"
      case .skipped(.holdout): "holdout"
      case .skipped(.userIsSubscribed): "user_is_subscribed"
      case .paywallAlreadyPresented: "paywall_already_presented"
      case .subscriptionStatusTimeout: sdk.major == 3 ? "subscription_status_timeout" : "subscriptionStatus_timeout"
      }
    }
  }

  /// `paywallPresentationRequest` for a `register` (the pipeline type is always `presentation`:
  /// implicit placements go through the same pipeline, `Tracking.swift` `handleImplicitTrigger`).
  /// Tracked on presenting (`Operators/PresentPaywall.swift`), on any skip or refusal
  /// (`Operators/LogErrors.swift`) and on the status timeout (`Operators/WaitForSubsStatusAndConfig.swift`).
  static func presentationRequest(_ placement: String, _ status: RequestStatus, _ reason: RequestReason?,
                                  sdk: SDKVersion) -> PaywallEvent {
    PaywallEvent(.paywallPresentationRequest, [
      ("source_event_name", .string(placement)),
      ("pipeline_type", "presentation"),
      ("status", .string(status.rawValue)),
      ("status_reason", .string(reason?.text(sdk) ?? "")),
    ])
  }

  /// `trigger_fire` for an evaluation, or nil where the SDK tracks none: an unknown placement
  /// (`Operators/GetPresenter.swift` `attemptTriggerFire` skips `placementNotFound`) and v3's
  /// subscriber skip, which comes before any trigger fire (3.9.1 `CheckUserSubscription.swift`).
  ///
  /// An audience is the SDK's experiment: `experiment_id` and `variant_id` are the dashboard's
  /// (`Audience.experimentID`, the variant's `id`: a project imported from a Superwall config has
  /// them); without them `experiment_id` is `PLACEMENT#N` (N from 0, the key sticky assignments
  /// use), and `variant_id` the paywall's id (`holdout` for the holdout).
  static func triggerFire(_ evaluation: PlacementEvaluation, sdk: SDKVersion) -> PaywallEvent? {
    var params: [(String, JSONOutput)] = [("trigger_name", .string(evaluation.placement))]
    if sdk.major == 3 { params.append(("trigger_session_id", "")) }  // 3.9.1: "Remove in v4"
    let experiment = evaluation.experimentID ?? ""
    switch evaluation.outcome {
    case .skip(.placementNotFound), .skip(.userIsSubscribed):
      return nil
    case .present(let paywallID):
      params += [("variant_id", .string(evaluation.variantID ?? paywallID)), ("experiment_id", .string(experiment)),
                 ("paywall_identifier", .string(paywallID)), ("result", "present")]
    case .skip(.holdout):
      params += [("variant_id", .string(evaluation.variantID ?? "holdout")), ("experiment_id", .string(experiment)), ("result", "holdout")]
    case .skip(.noAudienceMatch):
      params.append(("result", "no_rule_match"))
      // One per audience that did not match, saying whether its filter or its occurrence limit
      // kept the user out (`TriggerRule.swift` `Source`); v3 named them `unmatched_rule_`.
      let prefix = sdk.major == 3 ? "unmatched_rule_" : "unmatched_audience_"
      for step in evaluation.steps where !step.matched {
        let key = prefix + evaluation.experimentID(of: step)
        params.append((key, step.limitedByOccurrence ? "OCCURRENCE" : "EXPRESSION"))
      }
    }
    return PaywallEvent(.triggerFire, params)
  }

  /// `subscriptionStatus_didChange`: v4 `status` (`ACTIVE`, `INACTIVE`, `UNKNOWN`) and, when
  /// active, `active_entitlement_ids` (joined with commas from 4.14, with nothing before: 4.13.0's
  /// `joined()`); v3 `subscription_status`.
  static func statusDidChange(to status: SubscriptionStatus, sdk: SDKVersion) -> PaywallEvent {
    if sdk.major == 3 {
      return PaywallEvent(.subscriptionStatusDidChange, [("subscription_status", .string(status.rawName))])
    }
    var params: [(String, JSONOutput)] = [("status", .string(status.rawName))]
    if status.isActive {
      let ids = status.entitlements.sorted().map(\.id)
      params.append(("active_entitlement_ids", .string(ids.joined(separator: sdk.joinsEntitlementsWithCommas ? "," : ""))))
    }
    return PaywallEvent(.subscriptionStatusDidChange, params)
  }

  /// `restore_fail`'s `error_message`, worded as `StoreKit/Transactions/TransactionManager.swift`
  /// `tryToRestore` words it: a restore that said `restored` with no active entitlement (v3: an
  /// inactive status) says so, and a failure quotes its error.
  static func restoreFailMessage(_ result: RestorationResult, sdk: SDKVersion) -> String {
    var message = "Transactions Failed to Restore."
    switch result {
    case .restored where sdk.major == 3:
      message += " The user's subscription status is \"inactive\", but the restoration result is \"restored\"."
        + " Ensure the subscription status is active before confirming successful restoration."
    case .restored:
      message += " The restoration result is \"restored\" but there are no active entitlements."
        + " Ensure the active entitlements are set before confirming successful restoration."
    case .failed(let error?):
      message += " Original restoration error message: \(error.displayMessage)"
    case .failed(nil):
      break
    }
    return message
  }

  /// The event after `transaction_complete`, as `StoreKit/Transactions/TransactionManager.swift`
  /// (`trackTransactionDidSucceed`) picks it: non-recurring when StoreKit gives no subscription
  /// period, which only auto-renewables have (a non-renewing pass too is non-recurring); else
  /// `freeTrial_start` when the purchase started an introductory offer, free or paid; else
  /// `subscription_start`.
  static func purchaseEvent(for product: StoreProduct, startsOffer: Bool) -> EventName {
    if product.kind != .autoRenewable { .nonRecurringProductPurchase }
    else if startsOffer { .freeTrialStart }
    else { .subscriptionStart }
  }

  /// `transaction_complete`'s `transaction_type` (`Config/Models/TransactionType.swift`), from
  /// 4.0.0 on; v3 has none.
  static func transactionType(_ kind: EventName, sdk: SDKVersion) -> [(String, JSONOutput)] {
    guard sdk.major >= 4 else { return [] }
    let text = switch kind {
    case .freeTrialStart: "FREE_TRIAL_START"
    case .nonRecurringProductPurchase: "NON_RECURRING_PRODUCT_PURCHASE"
    default: "SUBSCRIPTION_START"
    }
    return [("transaction_type", .string(text))]
  }
}

extension SDKVersion {
  /// Whether `active_entitlement_ids` separates ids with commas: from 4.14.0 (4.0–4.13 wrote them
  /// run together).
  var joinsEntitlementsWithCommas: Bool { major > 4 || (major == 4 && (minor ?? Self.latestMinor) >= 14) }
}
