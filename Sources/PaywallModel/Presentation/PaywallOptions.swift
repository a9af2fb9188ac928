/// The restore-failed alert's texts (the SDK's `PaywallOptions.RestoreFailed`).
public struct RestoreFailedText: Sendable, Hashable {
  public var title: String
  public var message: String
  public var closeButtonTitle: String

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
  public var restoreFailed: RestoreFailedText

  public init(automaticallyDismiss: Bool = true, shouldShowPurchaseFailureAlert: Bool = true,
              restoreFailed: RestoreFailedText = RestoreFailedText()) {
    self.automaticallyDismiss = automaticallyDismiss
    self.shouldShowPurchaseFailureAlert = shouldShowPurchaseFailureAlert
    self.restoreFailed = restoreFailed
  }
}
