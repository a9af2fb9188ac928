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

/// `Superwall.shared.purchase(product)` and `Superwall.shared.restorePurchases()` called by the app
/// outside any paywall, as the SDK runs them (`Superwall.swift`, which hands both to
/// `StoreKit/Transactions/TransactionManager.swift`: `purchase(.purchaseFunc(product))` and
/// `tryToRestore(.external)`). No paywall is involved, so there are never paywall events, a
/// dismissal, a handler or a feature.
///
/// - With a purchase controller (`hasPurchaseController`): `prepareToPurchase` returns before
///   tracking, and `purchase` returns the result before `handle(result:)`; `tryToRestore(.external)`
///   returns the restore's result at once. Nothing is tracked and no alert shows.
/// - Without one (the SDK buys from StoreKit itself): `transaction_start`, then as the result says
///   `transaction_complete` with `freeTrial_start` / `subscription_start` /
///   `nonRecurringProduct_purchase`, `transaction_abandon`, `transaction_fail` with the pending
///   alert, or `transaction_fail` with the failure alert (unless the option is off or a campaign is
///   on `transaction_fail`: `TransactionErrorLogic.swift`); a restore tracks `restore_start`, then
///   `restore_complete` and `transaction_restore` when restored with an active entitlement, else
///   `restore_fail` and the restore-failed alert, over whatever is on screen (`presentAlert` on the
///   top view controller). Events carry no paywall (`PaywallInfo.empty()`).
///
/// Either way the call returns the controller's (or StoreKit's) result unchanged: a restore that
/// found no entitlement still returns `restored` (UI tests T133, T134). Our own `call.purchase` and
/// `call.restorePurchases` events say what it returned.
enum SDKCalls {
  /// A paywall action that would start a purchase or a restore.
  static func startsTransaction(_ action: PaywallAction) -> Bool {
    switch action {
    case .purchase, .restore: true
    case .select, .close, .dismissAlert, .surveyAnswer, .surveyEditOther, .surveyOther, .surveyClose: false
    }
  }

  /// Whether a purchase or restore is in flight anywhere: the SDK's purchasing coordinator has one.
  static func isBusy(_ state: PresentationState) -> Bool {
    state.call != nil || state.session.map { !$0.isDismissed && $0.isBusy } == true
  }

  /// `Superwall.purchase(_:)` then `TransactionManager.purchase(.purchaseFunc)`:
  /// - while `shouldObservePurchases` is on (4.1 and later) the call returns `cancelled` at once:
  ///   nothing tracked, no controller, no store;
  /// - `prepareToPurchase` tracks `transaction_start` unless a purchase controller is set and
  ///   purchases are not observed;
  /// - a custom store product (4.15 and later) never reaches the app's controller: without one it
  ///   fails "Unable to purchase this product." (`customProductWithoutPurchaseController`); with
  ///   one the SDK's own purchaser gets it and has no StoreKit product to buy: StoreKit 2's
  ///   returns `cancelled` (`ProductPurchaserSK2.swift`), StoreKit 1's fails `noSk1Product`
  ///   (`ProductPurchaserSK1.swift`), as `storeKitVersion` says; returned untracked, as any result
  ///   with a controller.
  static func purchase(_ product: StoreProduct, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    guard !isBusy(state) else { return [] }
    let options = state.options
    if options.shouldObservePurchases && options.sdk.refusesPurchaseWhileObserving {
      return [returned(.cancelled, product: product)]
    }
    state.call = .purchase(product, introOffer: state.introEligibility.offer(for: product))
    var effects: [PresentationEffect] = []
    // Superwall-Android tracks the app's own purchase only with no controller of the app's
    // (`TransactionManager.kt` `prepareToPurchase`), observing or not.
    if !state.hasPurchaseController || (options.shouldObservePurchases && options.sdk.platform == .ios) {
      effects.append(.emit(SDKEvents.shaped(PaywallEvent(.transactionStart, [("product_id", .string(product.id))]), sdk: state.options.sdk, source: .app)))
    }
    if let refusal = customProductRefusal(product, state, appsCall: true) {
      state.call = nil
      return effects + purchaseFinished(refusal, product: product, startsOffer: false, &state, now: now)
    }
    return effects + [.purchase(product, slot: "")]
  }

  /// What the SDK answers, without asking the app's purchase controller, for a custom store
  /// product: nil when it is not one (or the SDK has none, before 4.15) or the controller gets it.
  /// With no purchase controller every purchase of it fails (`TransactionManager.purchase(_:purchaseSource:)`);
  /// with one only the app's own `purchase(product)` call is kept from it (`appsCall`).
  static func customProductRefusal(_ product: StoreProduct, _ state: PresentationState, appsCall: Bool) -> PurchaseResult? {
    guard product.store == .custom, state.options.sdk.hasCustomProducts else { return nil }
    if !state.hasPurchaseController { return .failed(PurchaseError.customProductWithoutPurchaseController) }
    guard appsCall else { return nil }
    return state.options.storeKitVersion == .storeKit1 ? .failed(PurchaseError.noSk1Product) : .cancelled
  }

  private static func returned(_ result: PurchaseResult, product: StoreProduct) -> PresentationEffect {
    .emit(PaywallEvent(.callPurchase, [("product_id", .string(product.id)), ("result", .string(result.name))]))
  }

  static func restore(_ state: inout PresentationState) -> [PresentationEffect] {
    guard !isBusy(state) else { return [] }
    state.call = .restore
    var effects: [PresentationEffect] = []
    if !state.hasPurchaseController {
      effects.append(.emit(PaywallEvent(.restoreStart, [])))
    }
    return effects + [.restore]
  }

  static func purchaseFinished(_ answer: PurchaseResult, product: StoreProduct, startsOffer: Bool,
                               _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    let result = answer.checked(for: state.options.sdk)
    let returned = returned(result, product: product)
    guard !state.hasPurchaseController else { return [returned] }
    let productParams: [(String, JSONOutput)] = [("product_id", .string(product.id))]
    let sdk = state.options.sdk
    let attributes = state
    func track(_ name: EventName, _ params: [(String, JSONOutput)]) -> PresentationEffect {
      .emit(SDKEvents.shaped(PaywallEvent(name, params), sdk: sdk, source: .app) { Presenter.userAttributesValue(attributes) })
    }
    // Superwall-Android alerts only on a paywall's purchase (`TransactionManager.kt`: `presentAlert`
    // and the pending alert are for `PurchaseSource.Internal`); the app's own call shows none.
    let alerts = sdk.platform == .ios
    var effects: [PresentationEffect] = []
    switch result {
    case .purchased:
      // `trackTransactionDidSucceed`, as for a paywall's purchase (`PaywallFlow.purchaseFinished`):
      // the offer as eligibility stood when the call started (the store has since used it).
      let kind = SDKEvents.purchaseEvent(for: product, startsOffer: startsOffer)
      effects.append(track(.transactionComplete, productParams + SDKEvents.transactionType(kind, sdk: sdk)))
      effects.append(.emit(PaywallEvent(kind, productParams)))
      if !state.purchasedProducts.contains(product.id) { state.purchasedProducts.append(product.id) }
    case .cancelled:
      effects.append(track(.transactionAbandon, productParams))
    case .failed(let error as StoreError) where error.isCancellation:
      effects.append(track(.transactionAbandon, productParams))
    case .pending:
      // `handlePendingTransaction`: no product on the event, and (iOS) the alert whatever the options.
      effects.append(track(.transactionFail, [("message", "Needs parental approval")]))
      if alerts {
        state.callAlert = PaywallAlert(kind: .pendingApproval, title: PaywallAlert.pendingTitle,
                                       message: PaywallAlert.pendingMessage, button: PaywallAlert.doneButton)
      }
    case .failed(let error):
      let message = error.displayMessage
      effects.append(track(.transactionFail, productParams + [("message", .string(message))]))
      let triggers = Set(state.project.campaigns.map(\.placement))
      if alerts && state.options.shouldShowPurchaseFailureAlert && !triggers.contains(EventName.transactionFail.rawValue) {
        state.callAlert = PaywallAlert(kind: .purchaseFailed, title: PaywallAlert.failureTitle, message: message,
                                       button: PaywallAlert.doneButton)
      }
    case .restored:
      // v3's restored purchase takes the restore success path (`didRestore`, via a purchase).
      effects.append(track(.transactionRestore, productParams + [("restore_via_purchase_attempt", true)]))
    }
    return effects + [returned] + implicitPaywall(after: effects, &state, now: now)
  }

  /// `transaction_abandon` and `transaction_fail` are tracked like any event, so a campaign on them
  /// presents its paywall (`Analytics/Internal Tracking/TrackingLogic.swift` `canTriggerPaywall`:
  /// only when the result would be a paywall): with none on screen it answers to no `register`;
  /// over a paywall on screen it closes that one for the next (`Presenter.replace`), unless one of
  /// the chain-ending placements opened it (`Presenter.mayChain`).
  static func implicitPaywall(after effects: [PresentationEffect], _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    // `closePaywallThenTriggerPaywall` returns early while `presentationItems.last` is nil: in a
    // session where no paywall has been presented, a campaign on these events presents nothing.
    guard state.hasPresentedPaywall else { return [] }
    let onScreen = state.session.map { !$0.isDismissed } ?? false
    let events = effects.compactMap { if case .emit(let event) = $0 { event } else { nil } }
    // The app's own purchase is tracked with `PaywallInfo.empty()` (`TransactionManager.swift`, `.external`).
    guard let candidate = Presenter.implicitCandidate(after: events, from: nil, onScreen: onScreen, &state, now: now) else { return [] }
    return onScreen ? Presenter.replace(with: candidate, &state, now: now) : Presenter.evaluate(candidate, &state, now: now)
  }

  static func restoreFinished(_ result: RestorationResult, status: SubscriptionStatus, _ state: inout PresentationState) -> [PresentationEffect] {
    let returned = PresentationEffect.emit(PaywallEvent(.callRestorePurchases, [("result", .string(result.name))]))
    guard !state.hasPurchaseController else { return [returned] }
    if case .restored = result, status.isActive {
      return [.emit(PaywallEvent(.restoreComplete, [])),
              .emit(SDKEvents.shaped(PaywallEvent(.transactionRestore, [("restore_via_purchase_attempt", false)]), sdk: state.options.sdk, source: .app)),
              returned]
    }
    let reason = SDKEvents.restoreFailMessage(result, sdk: state.options.sdk)
    let texts = state.options.restoreFailed
    state.callAlert = PaywallAlert(kind: .restoreFailed, title: texts.title, message: texts.message, button: texts.closeButtonTitle)
    return [.emit(PaywallEvent(.restoreFail, [("error_message", .string(reason))])), returned]
  }
}
