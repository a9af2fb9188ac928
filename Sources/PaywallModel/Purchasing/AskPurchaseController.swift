import Synchronization

/// For manual QA: each purchase and restore waits for the tester to choose the result, and which
/// entitlements to grant, in a dialog the app shows.
public final class AskPurchaseController: PurchaseController {
  /// What the tester is asked to decide.
  public enum Question: Sendable, Hashable {
    case purchase(StoreProduct)
    case restore
  }

  /// One question waiting for an answer.
  public struct Request: Sendable, Hashable {
    /// The question's number, to give back to `answer(_:with:)`.
    public var id: Int
    /// A purchase (of which product) or a restore.
    public var question: Question

    /// Question `id`, asking `question`.
    public init(id: Int, question: Question) {
      self.id = id
      self.question = question
    }
  }

  /// The result the tester picks; it becomes the purchase's or the restore's result.
  public enum Outcome: String, Sendable, Hashable, CaseIterable {
    case purchased, cancelled, pending, failed, restored
  }

  /// The tester's answer to one question.
  public struct Answer: Sendable, Hashable {
    /// The result the call returns.
    public var outcome: Outcome
    /// Entitlements to make active: added to the current ones on a purchase, the whole set on a restore; empty: no change.
    public var entitlements: Set<Entitlement>
    /// The error message of a `failed` outcome; empty: a default one.
    public var message: String
    /// The StoreKit error of a `failed` outcome, returned typed (the SDK reads `userCancelled`
    /// and StoreKit 1's cancels as a cancel); nil: a `PurchaseError` with `message`.
    public var error: StoreError?

    /// An answer with `outcome`, granting `entitlements`, failing with `error` or else `message`.
    public init(outcome: Outcome, entitlements: Set<Entitlement> = [], message: String = "", error: StoreError? = nil) {
      self.outcome = outcome
      self.entitlements = entitlements
      self.message = message
      self.error = error
    }
  }

  private struct State {
    var nextID = 0
    var waiting: [Int: CheckedContinuation<Answer, Never>] = [:]
    var handler: (@Sendable (Request) -> Void)?
  }

  private let status: SubscriptionStatusStore
  private let state = Mutex(State())

  /// A controller that sets the status in `status` as the answers say.
  public init(status: SubscriptionStatusStore) {
    self.status = status
  }

  /// Where questions go: the app shows a dialog and calls `answer`.
  public func setRequestHandler(_ handler: @escaping @Sendable (Request) -> Void) {
    state.withLock { $0.handler = handler }
  }

  /// Answers question `id`; the waiting call returns. An unknown or already answered id does nothing.
  public func answer(_ id: Int, with answer: Answer) {
    let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
    continuation?.resume(returning: answer)
  }

  /// Asks the tester, waits for the answer, and sets the status when it grants entitlements.
  public func purchase(product: StoreProduct) async -> PurchaseResult {
    let answer = await ask(.purchase(product))
    switch answer.outcome {
    case .purchased:
      status.set(.active(status.status.entitlements.union(answer.entitlements)))
      return .purchased
    case .cancelled: return .cancelled
    case .pending: return .pending
    case .failed:
      if let error = answer.error { return .failed(error) }
      return .failed(PurchaseError(answer.message.isEmpty ? "Failed (chosen by the tester)" : answer.message))
    case .restored:
      if !answer.entitlements.isEmpty { status.set(.active(status.status.entitlements.union(answer.entitlements))) }
      return .restored
    }
  }

  /// Asks the tester, waits for the answer, and sets the status when it grants entitlements.
  public func restorePurchases() async -> RestorationResult {
    let answer = await ask(.restore)
    switch answer.outcome {
    case .restored, .purchased:
      if !answer.entitlements.isEmpty { status.set(.active(answer.entitlements)) }
      return .restored
    case .failed, .cancelled, .pending:
      if let error = answer.error { return .failed(error) }
      return .failed(answer.message.isEmpty ? nil : PurchaseError(answer.message))
    }
  }

  private func ask(_ question: Question) async -> Answer {
    await withCheckedContinuation { continuation in
      let (request, handler) = state.withLock { state -> (Request, (@Sendable (Request) -> Void)?) in
        state.nextID += 1
        state.waiting[state.nextID] = continuation
        return (Request(id: state.nextID, question: question), state.handler)
      }
      guard let handler else {
        answer(request.id, with: Answer(outcome: .failed, message: "the ask controller has no screen to ask on"))
        return
      }
      handler(request)
    }
  }
}
