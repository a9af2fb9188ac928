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
import Synchronization

/// Wraps any controller so QA can make it misbehave, whatever the controller: fail the next
/// purchase or restore with a named store error, answer every request late, or drop the next
/// response so the app times out waiting (the debug panel's and `play`'s fault commands).
public final class FaultInjectingController: PurchaseController {
  /// What is armed: shown in the debug panel.
  public struct Faults: Sendable, Hashable {
    /// How the next purchase fails; nil: it is not failed.
    public var nextPurchase: PurchaseFault?
    /// The message the next restore fails with; nil: it is not failed.
    public var nextRestoreFailure: String?
    /// Added before every request, on the app's clock.
    public var latency: Double = 0
    /// The next request reaches the controller, but its answer never reaches the app.
    public var dropNextResponse = false

    /// One phrase per armed fault, for the debug panel.
    public var descriptions: [String] {
      var out: [String] = []
      if let fault = nextPurchase { out.append(fault.description) }
      if let failure = nextRestoreFailure { out.append("next restore fails: \(failure)") }
      if latency > 0 { out.append("latency \(TimeRate.spell(latency))") }
      if dropNextResponse { out.append("next response dropped") }
      return out
    }
  }

  /// How the next purchase fails, one way at a time.
  public enum PurchaseFault: Sendable, Hashable, CustomStringConvertible {
    /// With this message.
    case message(String)
    /// With a StoreKit error, as `StoreError.purchaseResult` answers it (`userCancelled` comes
    /// back cancelled; a StoreKit 1 cancel is a failure the app reads as a cancel).
    case storeError(StoreError)
    /// As Google Play answers (Android; `PurchaseResult.checked` makes `USER_CANCELED` a cancel).
    case play(PlayBillingResponse)

    /// What the controller answers.
    public var result: PurchaseResult {
      switch self {
      case .message(let message): .failed(PurchaseError(message))
      case .storeError(let error): error.purchaseResult
      case .play(let response): .failed(PlayBillingFailure(response))
      }
    }

    /// The debug panel's phrase.
    public var description: String {
      switch self {
      case .storeError(.userCancelled): "next purchase: cancelled"
      case .storeError(let error) where error.isCancellation: "next purchase fails: \(error.rawValue)"
      case .storeError(let error): "next purchase fails: \(error.message)"
      case .play(let response): "next purchase fails: \(response.name)"
      case .message(let message): "next purchase fails: \(message)"
      }
    }
  }

  /// The controller requests go to when no fault stops them.
  public let inner: any PurchaseController
  private let clock: any TimeSource
  /// How long the app waits for a dropped response before giving up.
  public let responseTimeout: Double
  private let faults = Mutex(Faults())
  /// Answers given in advance (a recording's `answer`), oldest first, each with its delay.
  private let answers = Mutex<(purchases: [(PurchaseResult, Double)], restores: [(RestorationResult, Double)])>(([], []))

  /// Wraps `inner`; latency and dropped responses are timed on `clock`.
  public init(_ inner: any PurchaseController, clock: any TimeSource = LiveTimeSource(), responseTimeout: Double = 10) {
    self.inner = inner
    self.clock = clock
    self.responseTimeout = responseTimeout
  }

  /// The faults armed now.
  public var armed: Faults { faults.withLock { $0 } }

  /// The next purchase returns `.failed(message)` without reaching the wrapped controller.
  public func failNextPurchase(_ message: String) {
    faults.withLock { $0.nextPurchase = .message(message) }
  }

  /// The next purchase fails as Google Play answers `response`: the app's SDK makes of it what
  /// Superwall-Android makes of a billing result (`PurchaseResult.checked`).
  public func failNextPurchase(with response: PlayBillingResponse) {
    faults.withLock { $0.nextPurchase = .play(response) }
  }

  /// The next purchase fails with a store error (`userCancelled`: comes back cancelled).
  public func failNextPurchase(with error: StoreError) {
    faults.withLock { $0.nextPurchase = .storeError(error) }
  }

  /// The next restore returns `.failed` with the error's message without reaching the controller.
  public func failNextRestore(with error: StoreError) {
    faults.withLock { $0.nextRestoreFailure = error.message }
  }

  /// Every later request waits `seconds` (on the clock) first; 0 turns the latency off.
  public func setLatency(seconds: Double) {
    faults.withLock { $0.latency = max(0, seconds) }
  }

  /// The next request reaches the wrapped controller, but its answer is dropped: the call fails after `responseTimeout`.
  public func dropNextResponse() {
    faults.withLock { $0.dropNextResponse = true }
  }

  /// The next purchase returns `result` after `seconds` on the clock without reaching the
  /// wrapped controller: a recorded controller's answer replayed (`answer purchase` in a script
  /// that `run --record` wrote). Answers given so queue, oldest first.
  public func answerNextPurchase(_ result: PurchaseResult, after seconds: Double) {
    answers.withLock { $0.purchases.append((result, seconds)) }
  }

  /// The next restore returns `result` after `seconds` on the clock without reaching the wrapped
  /// controller (`answer restore`); answers queue, oldest first.
  public func answerNextRestore(_ result: RestorationResult, after seconds: Double) {
    answers.withLock { $0.restores.append((result, seconds)) }
  }

  /// Applies the armed faults, else passes the purchase to the wrapped controller.
  public func purchase(product: StoreProduct) async -> PurchaseResult {
    if let (result, delay) = answers.withLock({ $0.purchases.isEmpty ? nil : $0.purchases.removeFirst() }) {
      guard await wait(delay) else { return .failed(PurchaseError("The purchase was interrupted")) }
      return result
    }
    let (fault, latency, drop) = faults.withLock { faults in
      defer {
        faults.nextPurchase = nil
        faults.dropNextResponse = false
      }
      return (faults.nextPurchase, faults.latency, faults.dropNextResponse)
    }
    let started = clock.now
    guard await wait(latency) else { return .failed(PurchaseError("The purchase was interrupted")) }
    if let fault { return fault.result }
    let result = await inner.purchase(product: product)
    guard drop else { return result }
    return await timeOut(since: started, what: "purchase")
  }

  /// Applies the armed faults, else passes the restore to the wrapped controller.
  public func restorePurchases() async -> RestorationResult {
    if let (result, delay) = answers.withLock({ $0.restores.isEmpty ? nil : $0.restores.removeFirst() }) {
      guard await wait(delay) else { return .failed(PurchaseError("The restore was interrupted")) }
      return result
    }
    let (failure, latency, drop) = faults.withLock { faults in
      defer {
        faults.nextRestoreFailure = nil
        faults.dropNextResponse = false
      }
      return (faults.nextRestoreFailure, faults.latency, faults.dropNextResponse)
    }
    let started = clock.now
    guard await wait(latency) else { return .failed(PurchaseError("The restore was interrupted")) }
    if let failure { return .failed(PurchaseError(failure)) }
    let result = await inner.restorePurchases()
    guard drop else { return result }
    if case .failed(let error) = await timeOut(since: started, what: "restore") { return .failed(error) }
    return result
  }

  private func wait(_ seconds: Double) async -> Bool {
    guard seconds > 0 else { return true }
    do {
      try await clock.sleep(seconds: seconds)
      return true
    } catch {
      return false
    }
  }

  /// The answer was dropped: the app hears nothing until its timeout runs out.
  private func timeOut(since start: Date, what: String) async -> PurchaseResult {
    let remaining = responseTimeout - clock.now.timeIntervalSince(start)
    _ = await wait(remaining)
    return .failed(PurchaseError("No answer from the store within \(TimeRate.spell(responseTimeout)) (the \(what) response was dropped); the app gave up waiting"))
  }
}
