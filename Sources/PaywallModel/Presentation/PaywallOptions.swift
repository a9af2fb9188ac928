/// The restore-failed alert's texts (the SDK's `PaywallOptions.RestoreFailed`).
public struct RestoreFailedText: Sendable, Hashable {
  /// The alert's title.
  public var title: String
  /// The alert's text under the title.
  public var message: String
  /// The alert's one button, which closes it.
  public var closeButtonTitle: String

  /// The texts given, the SDK's defaults for the rest.
  public init(title: String = "No Subscription Found",
              message: String = "We couldn't find an active subscription for your account.",
              closeButtonTitle: String = "Okay") {
    self.title = title
    self.message = message
    self.closeButtonTitle = closeButtonTitle
  }
}

/// How paywalls behave around purchases, as the SDK's `PaywallOptions` sets it.
public struct PaywallOptions: Sendable, Hashable {
  /// Dismiss the paywall after a purchase or restore succeeds.
  public var automaticallyDismiss: Bool
  /// Show "An error occurred" with the error when a purchase fails.
  public var shouldShowPurchaseFailureAlert: Bool
  /// The alert shown when a restore finds no active subscription (the SDK's `restoreFailed`).
  public var restoreFailed: RestoreFailedText
  /// Which SDK's rules apply where versions differ (`"sdk"`; default: the latest 4.x).
  public var sdk: SDKVersion
  /// The SDK's `SuperwallOptions.storeKitVersion` (4.x): which StoreKit the SDK's own purchaser
  /// uses. Here it decides what `Superwall.shared.purchase(product)` answers for a custom store
  /// product with a purchase controller: StoreKit 2 `cancelled`, StoreKit 1 `noSk1Product`.
  public var storeKitVersion: StoreKitVersion
  /// The SDK's `SuperwallOptions.shouldObservePurchases`: from 4.1 `Superwall.shared.purchase(product)`
  /// refuses to run while it is on (returns `cancelled`, tracks nothing); before, the call still
  /// tracks its `transaction_start` with a purchase controller (`Superwall.swift`, `TransactionManager.swift`).
  public var shouldObservePurchases: Bool
  /// The SDK's `PaywallOptions.notificationPermissionsDenied`: the alert a trial's reminders show
  /// when notifications are refused; nil (the SDK's default) shows none.
  public var notificationPermissionsDenied: NotificationDeniedAlert? = nil

  /// The options given, the SDK's defaults for the rest: dismiss automatically, show the purchase
  /// failure alert, the SDK's restore-failed texts, the latest 4.x, StoreKit 2, not observing.
  public init(automaticallyDismiss: Bool = true, shouldShowPurchaseFailureAlert: Bool = true,
              restoreFailed: RestoreFailedText = RestoreFailedText(), sdk: SDKVersion = .latest,
              storeKitVersion: StoreKitVersion = .storeKit2, shouldObservePurchases: Bool = false) {
    self.automaticallyDismiss = automaticallyDismiss
    self.shouldShowPurchaseFailureAlert = shouldShowPurchaseFailureAlert
    self.restoreFailed = restoreFailed
    self.sdk = sdk
    self.storeKitVersion = storeKitVersion
    self.shouldObservePurchases = shouldObservePurchases
  }
}

/// The SDK's `SuperwallOptions.StoreKitVersion`: the StoreKit its own purchaser uses (StoreKit 2
/// by default on iOS 15 and later; `Config/Options/SuperwallOptions.swift`).
public enum StoreKitVersion: String, Sendable, Hashable, CaseIterable {
  case storeKit1, storeKit2
}
