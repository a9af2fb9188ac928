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

    /// The reason's `description` in `sdk`: iOS v3 and Android spell the timeout
    /// `subscription_status_timeout` (Superwall-Android `paywall/presentation/internal/
    /// PaywallPresentationRequestStatus.kt`), iOS v4 `subscriptionStatus_timeout`.
    func text(_ sdk: SDKVersion) -> String {
      switch self {
      case .skipped(.placementNotFound): "event_not_found"
      case .skipped(.noAudienceMatch): "no_rule_match"
      case .skipped(.holdout): "holdout"
      case .skipped(.userIsSubscribed): "user_is_subscribed"
      case .paywallAlreadyPresented: "paywall_already_presented"
      case .subscriptionStatusTimeout: sdk.isV3 || sdk.platform == .android ? "subscription_status_timeout" : "subscriptionStatus_timeout"
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
    if sdk.isV3 { params.append(("trigger_session_id", "")) }  // 3.9.1: "Remove in v4"
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
      // Superwall-Android's `TriggerFire` writes only the result for no match
      // (`analytics/internal/trackable/TrackableSuperwallEvent.kt`).
      guard sdk.platform == .ios else { break }
      // One per audience that did not match, saying whether its filter or its occurrence limit
      // kept the user out (`TriggerRule.swift` `Source`); v3 named them `unmatched_rule_`.
      let prefix = sdk.isV3 ? "unmatched_rule_" : "unmatched_audience_"
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
  /// Superwall-Android's `SubscriptionStatusDidChange` writes `subscription_status` in lower case
  /// and, when active, `active_entitlement_ids` joined with commas (from 2.7.4); 2.0.0's none.
  static func statusDidChange(to status: SubscriptionStatus, sdk: SDKVersion) -> PaywallEvent {
    if sdk.isV3 {
      return PaywallEvent(.subscriptionStatusDidChange, [("subscription_status", .string(status.rawName))])
    }
    let android = sdk.platform == .android
    guard sdk.statusChangeCarriesTheStatus else { return PaywallEvent(.subscriptionStatusDidChange, []) }
    var params: [(String, JSONOutput)] = android ? [("subscription_status", .string(status.rawName.lowercased()))] : [("status", .string(status.rawName))]
    if status.isActive, sdk.statusChangeNamesEntitlements {
      let ids = status.entitlements.sorted().map(\.id)
      params.append(("active_entitlement_ids", .string(ids.joined(separator: sdk.joinsEntitlementsWithCommas ? "," : ""))))
    }
    return PaywallEvent(.subscriptionStatusDidChange, params)
  }

  /// `restore_fail`'s `error_message`, worded as `StoreKit/Transactions/TransactionManager.swift`
  /// `tryToRestore` words it: a restore that said `restored` with no active entitlement (v3 and
  /// Android: an inactive status) says so, and a failure quotes its error.
  static func restoreFailMessage(_ result: RestorationResult, sdk: SDKVersion) -> String {
    var message = "Transactions Failed to Restore."
    let android = sdk.platform == .android
    switch result {
    // Superwall-Android words a failure with its error, "null" when it has none
    // (`store/transactions/TransactionManager.kt` `tryToRestorePurchases`).
    case .failed(let error) where android:
      message += " Original restoration error message: \(error?.displayMessage ?? "null")"
    case .restored where sdk.isV3 || android:
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
  /// Superwall-Android writes none either.
  static func transactionType(_ kind: EventName, sdk: SDKVersion) -> [(String, JSONOutput)] {
    guard sdk.platform == .ios, !sdk.isV3 else { return [] }
    let text = switch kind {
    case .freeTrialStart: "FREE_TRIAL_START"
    case .nonRecurringProductPurchase: "NON_RECURRING_PRODUCT_PURCHASE"
    default: "SUBSCRIPTION_START"
    }
    return [("transaction_type", .string(text))]
  }
}

extension SDKEvents {
  /// Who started a transaction, as Superwall-Android's `TransactionSource` names it: a paywall's
  /// button (`INTERNAL`, written `SUPERWALL`) or the app's own `purchase(product)` (`EXTERNAL`, `APP`).
  enum TransactionSource: String {
    case paywall = "SUPERWALL"
    case app = "APP"
  }

  /// `event` as the SDK in use writes it. iOS events are made in its shapes already; Superwall-Android
  /// (`analytics/internal/trackable/TrackableSuperwallEvent.kt`, 2.7.19) adds to every transaction
  /// event the store (`PLAY_STORE`), to start, abandon and complete its source (each from the
  /// release that added it: `SDKVersion.transactionEventsNameTheStore`), and writes
  /// `paywall_close` with no `close_reason` (`PaywallClose` has only the survey's keys).
  /// `userAttributes`: the user's attributes, as `user_attributes` shows them, which Android's
  /// `paywall_open` and `transaction_complete` carry too (from 2.5.3: `PaywallOpen`,
  /// `Transaction` in its complete state); asked for only then.
  static func shaped(_ event: PaywallEvent, sdk: SDKVersion, source: TransactionSource,
                     userAttributes: () -> JSONOutput = { .object([]) }) -> PaywallEvent {
    guard sdk.platform == .android else { return event }
    let store: (String, JSONOutput) = ("store", "PLAY_STORE")
    let attributes: [(String, JSONOutput)] = sdk.openAndCompleteCarryUserAttributes && [.paywallOpen, .transactionComplete].contains(event.name)
      ? [("user_attributes", userAttributes())] : []
    switch event.name {
    case .paywallOpen:
      return PaywallEvent(event.name, event.params + attributes)
    case .transactionStart, .transactionAbandon, .transactionComplete:
      guard sdk.transactionEventsNameTheStore else { return PaywallEvent(event.name, event.params + attributes) }
      return PaywallEvent(event.name, event.params + [store, ("source", .string(source.rawValue))] + attributes)
    case .transactionFail, .transactionRestore:
      guard sdk.failAndRestoreNameTheStore else { return event }
      return PaywallEvent(event.name, event.params + [store])
    case .paywallClose:
      return PaywallEvent(event.name, event.params.filter { $0.0 != "close_reason" })
    default:
      return event
    }
  }
}

extension SDKVersion {
  /// Whether `active_entitlement_ids` separates ids with commas: iOS from 4.14.0 (4.0–4.13 wrote
  /// them run together), and Android (`joinToString(",")`).
  var joinsEntitlementsWithCommas: Bool { platform == .android || isAtLeast(major: 4, minor: 14) }
}
