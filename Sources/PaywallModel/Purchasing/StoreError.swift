/// The errors a store can fail a purchase or restore with, by their StoreKit 2 names
/// (`StoreKitError`, `Product.PurchaseError`) and StoreKit 1's cancels (`SKError`): for fault
/// injection (`fail purchase networkError`), and for any controller to return typed, as an app's
/// controller returns StoreKit's own error (`.failed(StoreError.userCancelled)`; `--outcome
/// purchase=failed:userCancelled`; `{"error": {"code": "userCancelled"}}` from a command
/// controller; the ask dialog's error row). The SDK reads the cancels among them as a cancel.
public enum StoreError: String, Error, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case unknown
  case userCancelled
  case networkError
  case systemError
  case notAvailableInStorefront
  case notEntitled
  case productUnavailable
  case purchaseNotAllowed
  case ineligibleForOffer
  case invalidOfferIdentifier
  case invalidOfferPrice
  case invalidOfferSignature
  case missingOfferParameters
  /// StoreKit 1: the user cancelled the payment (`SKError.paymentCancelled`).
  case paymentCancelled
  /// StoreKit 1: the user cancelled an overlay (`SKError.overlayCancelled`).
  case overlayCancelled
  /// StoreKit 1: an overlay timed out (`SKError.overlayTimeout`).
  case overlayTimeout

  /// The text a failure alert shows.
  public var message: String {
    switch self {
    case .unknown: "An unknown error occurred (StoreKitError.unknown)"
    case .userCancelled: "The user cancelled (StoreKitError.userCancelled)"
    case .networkError: "Cannot connect to the App Store (StoreKitError.networkError)"
    case .systemError: "A system error occurred (StoreKitError.systemError)"
    case .notAvailableInStorefront: "This item is not available in your country or region (StoreKitError.notAvailableInStorefront)"
    case .notEntitled: "The app is not entitled to this (StoreKitError.notEntitled)"
    case .productUnavailable: "This product is no longer available (Product.PurchaseError.productUnavailable)"
    case .purchaseNotAllowed: "Purchases are not allowed on this device (Product.PurchaseError.purchaseNotAllowed)"
    case .ineligibleForOffer: "You are not eligible for this offer (Product.PurchaseError.ineligibleForOffer)"
    case .invalidOfferIdentifier: "The offer identifier is invalid (Product.PurchaseError.invalidOfferIdentifier)"
    case .invalidOfferPrice: "The offer price is invalid (Product.PurchaseError.invalidOfferPrice)"
    case .invalidOfferSignature: "The offer signature is invalid (Product.PurchaseError.invalidOfferSignature)"
    case .missingOfferParameters: "The offer parameters are missing (Product.PurchaseError.missingOfferParameters)"
    case .paymentCancelled: "The payment was cancelled (SKError.paymentCancelled)"
    case .overlayCancelled: "The overlay was cancelled (SKError.overlayCancelled)"
    case .overlayTimeout: "The overlay timed out (SKError.overlayTimeout)"
    }
  }

  /// The message (`message`).
  public var description: String { message }

  /// Whether the SDK counts a purchase failed with this error as cancelled (`transaction_abandon`,
  /// no alert): StoreKit 2's `userCancelled` and StoreKit 1's `paymentCancelled`,
  /// `overlayCancelled`, `overlayTimeout` (`StoreKit/Transactions/TransactionErrorLogic.swift`).
  public var isCancellation: Bool {
    switch self {
    case .userCancelled, .paymentCancelled, .overlayCancelled, .overlayTimeout: true
    default: false
    }
  }

  /// What a purchase that hits this error returns: StoreKit 2 reports its cancel as a result, not
  /// an error; StoreKit 1 fails the transaction with its `SKError`, which the SDK then reads as a cancel.
  public var purchaseResult: PurchaseResult {
    switch self {
    case .userCancelled: .cancelled
    case .paymentCancelled, .overlayCancelled, .overlayTimeout: .failed(self)
    default: .failed(PurchaseError(message))
    }
  }

  package static var names: [String] { allCases.map(\.rawValue) }

  /// Every error, the cancels first: the order a tester picks one in.
  package static var cancelsFirst: [StoreError] {
    allCases.filter(\.isCancellation) + allCases.filter { !$0.isCancellation }
  }
}
