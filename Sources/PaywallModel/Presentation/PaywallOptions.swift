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

  /// The options given, the SDK's defaults for the rest: dismiss automatically, show the purchase
  /// failure alert, the SDK's restore-failed texts.
  public init(automaticallyDismiss: Bool = true, shouldShowPurchaseFailureAlert: Bool = true,
              restoreFailed: RestoreFailedText = RestoreFailedText()) {
    self.automaticallyDismiss = automaticallyDismiss
    self.shouldShowPurchaseFailureAlert = shouldShowPurchaseFailureAlert
    self.restoreFailed = restoreFailed
  }
}
