/// The errors a store can fail a purchase or restore with, by their StoreKit 2 names
/// (`StoreKitError`, `Product.PurchaseError`), for fault injection: `fail purchase networkError`.
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
    }
  }

  /// The message (`message`).
  public var description: String { message }

  /// What a purchase that hits this error returns: StoreKit reports a cancel as a result, not an error.
  public var purchaseResult: PurchaseResult {
    self == .userCancelled ? .cancelled : .failed(PurchaseError(message))
  }

  package static var names: [String] { allCases.map(\.rawValue) }
}
