import Synchronization

/// Wraps any controller so QA can make the next purchase fail with a chosen error, whatever the
/// controller (the debug panel's "fail the next purchase").
public final class FaultInjectingController: PurchaseController {
  public let inner: any PurchaseController
  private let nextFailure = Mutex<String?>(nil)

  public init(_ inner: any PurchaseController) {
    self.inner = inner
  }

  /// The next purchase returns `.failed(message)` without reaching the wrapped controller.
  public func failNextPurchase(_ message: String) {
    nextFailure.withLock { $0 = message }
  }

  public func purchase(product: StoreProduct) async -> PurchaseResult {
    if let message = nextFailure.withLock({ failure -> String? in
      defer { failure = nil }
      return failure
    }) {
      return .failed(PurchaseError(message))
    }
    return await inner.purchase(product: product)
  }

  public func restorePurchases() async -> RestorationResult {
    await inner.restorePurchases()
  }
}
