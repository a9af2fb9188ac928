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

/// What a purchase ended as, as the app's purchase controller reports it to the paywall.
public enum PurchaseResult: Sendable {
  /// The user cancelled (closed the payment sheet).
  case cancelled
  /// The product was bought; the controller has (or will) set the subscription status.
  case purchased
  /// Waiting on someone else, e.g. Ask to Buy: the paywall shows "Waiting for Approval".
  case pending
  /// The store failed; the paywall shows "An error occurred" with the error's description.
  case failed(any Error)
  /// SDK v3: the purchase found an existing purchase, and takes the restore success path.
  case restored

  /// The raw name used in logs, scripts and the `command` controller protocol.
  public var name: String {
    switch self {
    case .cancelled: "cancelled"
    case .purchased: "purchased"
    case .pending: "pending"
    case .failed: "failed"
    case .restored: "restored"
    }
  }
}

/// What a restore ended as. `.restored` means the restore itself succeeded; the paywall still
/// checks the subscription status and only treats it as a success with an active entitlement.
public enum RestorationResult: Sendable {
  case restored
  case failed((any Error)?)

  /// The raw name used in logs, scripts and the `command` controller protocol.
  public var name: String {
    switch self {
    case .restored: "restored"
    case .failed: "failed"
    }
  }
}

/// Handles purchases and restores for paywalls, as the app's own purchase controller does with the
/// Superwall SDK. Implement it to drive the emulator with your own logic:
///
/// ```swift
/// final class MyController: PurchaseController {
///   let status: SubscriptionStatusStore
///   init(status: SubscriptionStatusStore) { self.status = status }
///   func purchase(product: StoreProduct) async -> PurchaseResult {
///     status.set(.active(product.entitlements))
///     return .purchased
///   }
///   func restorePurchases() async -> RestorationResult { .restored }
/// }
/// ```
///
/// Like an app's controller, it is responsible for setting the subscription status.
public protocol PurchaseController: AnyObject, Sendable {
  /// Buys `product`. Called at most once at a time: the paywall ignores presses while one runs.
  func purchase(product: StoreProduct) async -> PurchaseResult
  /// Restores earlier purchases.
  func restorePurchases() async -> RestorationResult
}

/// An error with a message a tester wrote or a store gave, shown as is in the failure alert.
public struct PurchaseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The message, shown as is.
  public var message: String

  /// An error with `message`.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }

  /// The SDK's `PurchaseError.customProductWithoutPurchaseController`: a custom store product
  /// bought with no purchase controller (`StoreKit/Transactions/Purchasing/PurchaseError.swift`).
  public static let customProductWithoutPurchaseController = PurchaseError("Unable to purchase this product.")
  /// The SDK's `PurchaseError.noSk1Product`: StoreKit 1's purchaser has no `SKProduct` to buy
  /// (`ProductPurchaserSK1.swift`), as for a custom store product.
  public static let noSk1Product = PurchaseError("No StoreKit 1 product found.")
}

extension Error {
  /// The text the failure alert and the events show for an error.
  package var displayMessage: String {
    if let error = self as? PurchaseError { return error.message }
    if let localized = self as? LocalizedError, let text = localized.errorDescription { return text }
    return String(describing: self)
  }
}

/// Two results are the same when they say the same: a failure's error is compared by its type and
/// its description (what the paywall shows and the events carry), so a reducer's step can be
/// asserted whole.
extension PurchaseResult: Equatable {
  /// The same case, and for a failure an error of the same type that says the same.
  public static func == (lhs: PurchaseResult, rhs: PurchaseResult) -> Bool {
    switch (lhs, rhs) {
    case (.cancelled, .cancelled), (.purchased, .purchased), (.pending, .pending): true
    case (.failed(let l), .failed(let r)): FailureIdentity(l) == FailureIdentity(r)
    default: false
    }
  }
}

/// As `PurchaseResult`: a failure by its error's type and description.
extension RestorationResult: Equatable {
  /// The same case, and for a failure an error of the same type that says the same (or none on both).
  public static func == (lhs: RestorationResult, rhs: RestorationResult) -> Bool {
    switch (lhs, rhs) {
    case (.restored, .restored): true
    case (.failed(let l), .failed(let r)): l.map(FailureIdentity.init) == r.map(FailureIdentity.init)
    default: false
    }
  }
}

/// What makes two errors the same failure to the app: their type and their description.
private struct FailureIdentity: Equatable {
  let type: ObjectIdentifier
  let description: String

  init(_ error: any Error) {
    type = ObjectIdentifier(Swift.type(of: error))
    description = String(describing: error)
  }
}
