/// Google Play Billing's answer to a purchase, as `BillingResult.getResponseCode()` gives it
/// (`BillingClient.BillingResponseCode`, developer.android.com/reference/com/android/billingclient/api/BillingClient.BillingResponseCode).
/// `OK` is no failure and is left out. The simulated Play store fails a purchase with one of these,
/// and `fail purchase NAME` in a script makes the next purchase fail with it.
public enum PlayBillingResponse: Int, Sendable, Hashable, CaseIterable {
  case serviceTimeout = -3
  case featureNotSupported = -2
  case serviceDisconnected = -1
  case userCanceled = 1
  case serviceUnavailable = 2
  case billingUnavailable = 3
  case itemUnavailable = 4
  case developerError = 5
  case error = 6
  case itemAlreadyOwned = 7
  case itemNotOwned = 8
  case networkError = 12

  /// The constant's name, as scripts write it: `ERROR`, `ITEM_ALREADY_OWNED`…
  public var name: String {
    switch self {
    case .serviceTimeout: "SERVICE_TIMEOUT"
    case .featureNotSupported: "FEATURE_NOT_SUPPORTED"
    case .serviceDisconnected: "SERVICE_DISCONNECTED"
    case .userCanceled: "USER_CANCELED"
    case .serviceUnavailable: "SERVICE_UNAVAILABLE"
    case .billingUnavailable: "BILLING_UNAVAILABLE"
    case .itemUnavailable: "ITEM_UNAVAILABLE"
    case .developerError: "DEVELOPER_ERROR"
    case .error: "ERROR"
    case .itemAlreadyOwned: "ITEM_ALREADY_OWNED"
    case .itemNotOwned: "ITEM_NOT_OWNED"
    case .networkError: "NETWORK_ERROR"
    }
  }

  /// The response named `name` (`ERROR`…), if any.
  public init?(name: String) {
    guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = found
  }

  /// Every name, for messages and did-you-means.
  public static var names: [String] { allCases.map(\.name) }

  /// What went wrong, in a sentence of our own followed by the constant's name: Superwall-Android
  /// gives the alert and `transaction_fail` a readable text for each code from 2.6.6
  /// (`store/transactions/PlayBillingErrors.kt`); the emulator's words differ, its meaning not.
  var explanation: String { "\(sentence) (\(name))" }

  /// The sentence alone, for each response.
  private var sentence: String {
    switch self {
    case .serviceTimeout: "Google Play took too long to answer; try again"
    case .featureNotSupported: "This device's Play Store cannot do this; it may need an update"
    case .serviceDisconnected: "The app lost its connection to Google Play; try again in a moment"
    case .userCanceled: "The purchase was cancelled"
    case .serviceUnavailable: "Google Play's billing service is unavailable for now; try again"
    case .billingUnavailable: "Billing is unavailable for this Google account, country or payment method"
    case .itemUnavailable: "This item cannot be bought here, or is no longer sold"
    case .developerError: "The app asked Google Play for something it does not allow"
    case .error: "Google Play had an internal error; try again later"
    case .itemAlreadyOwned: "This item is already owned"
    case .itemNotOwned: "This item is not owned, so it cannot be changed"
    case .networkError: "A network problem stopped the purchase; check the connection and try again"
    }
  }

  /// The message Superwall-Android's own purchasing (no purchase controller) gives a purchase
  /// that fails with this response: from 2.6.6 a readable text per code; before, the code's
  /// number alone, "6" (`store/AutomaticPurchaseController.kt` `onPurchasesUpdated`, 2.6.5 and
  /// 2.6.6). A change made in 2.6.6 comes here with 2.7.
  public func sdkMessage(_ sdk: SDKVersion) -> String {
    sdk.explainsPlayBillingErrors ? explanation : String(rawValue)
  }
}

/// A purchase the simulated Play store refused: the response Google Play gives, and why the
/// emulator gave it (shown where the emulator speaks, never as the SDK's message).
public struct PlayBillingFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// What Google Play answers.
  public var response: PlayBillingResponse
  /// Why, in the emulator's words; nil for a failure a script asked for.
  public var reason: String?

  /// A refusal with `response`, for `reason`.
  public init(_ response: PlayBillingResponse, reason: String? = nil) {
    self.response = response
    self.reason = reason
  }

  /// The response's explanation, and the reason when there is one.
  public var description: String { response.explanation + (reason.map { ": " + $0 } ?? "") }
}
