import PaywallModel
import TerminalCore

/// The ask controller's dialog: the question and the tester's choices so far.
package struct AskDialog: Sendable, Hashable {
  package enum Row: Sendable, Hashable { case outcome, entitlements, message }

  package var request: AskPurchaseController.Request
  package var outcome: AskPurchaseController.Outcome
  /// Every entitlement the catalog knows, in order, and which are ticked.
  package var entitlements: [Entitlement]
  package var granted: Set<Entitlement>
  package var message: String = ""
  /// A failure's StoreKit error, chosen with the arrows on the error row; nil: the typed message.
  package var storeError: StoreError?
  /// Whether a purchase may come back `restored`: SDK 3 only (4.x `PurchaseResult` has no such case).
  package var purchaseMayRestore = true
  /// Whether a failure may carry StoreKit's typed error: Superwall-iOS only (Superwall-Android's
  /// `PurchaseResult.Failed` carries a message, `delegate/PurchaseResult.kt`).
  package var mayTypeError = true
  package var row: Row = .outcome
  package var cursor = 0

  package var outcomes: [AskPurchaseController.Outcome] {
    switch request.question {
    case .purchase: AskPurchaseController.Outcome.allCases.filter { $0 != .restored || purchaseMayRestore }
    case .restore: [.restored, .failed]
    }
  }

  /// What the error row's arrows go through: the typed message (nil), then StoreKit's errors,
  /// the cancels first.
  package static let errorChoices: [StoreError?] = [nil] + StoreError.cancelsFirst.map(Optional.some)

  /// Whether the chosen result grants the ticked entitlements: a cancel, a pending purchase and a
  /// failure grant none, so their Grant row says so and ticks nothing. The row stays where it is,
  /// so tab goes the same way whatever the result (a recording's keys mean what they meant).
  package var grants: Bool { Self.grants(outcome) }

  /// Whether `outcome` hands the controller the ticked entitlements.
  static func grants(_ outcome: AskPurchaseController.Outcome) -> Bool { outcome == .purchased || outcome == .restored }

  /// The rows tab moves through for the chosen result.
  package var rows: [Row] { outcome == .failed ? [.outcome, .entitlements, .message] : [.outcome, .entitlements] }
}

extension AskDialog {
  /// The dialog for `request`: a purchase grants the product's entitlements, a restore those the
  /// paywall on screen offers; every entitlement of the catalog can be ticked.
  package init(for request: AskPurchaseController.Request, _ state: AppState) {
    let all = state.project.catalog.entitlements.sorted()
    switch request.question {
    case .purchase(let product):
      self.init(request: request, outcome: .purchased, entitlements: all, granted: product.entitlements)
      purchaseMayRestore = state.presentation.options.sdk.hasRestoredPurchaseResult
      mayTypeError = state.presentation.options.sdk.platform == .ios
    case .restore:
      let offered = Set(state.session?.paywall.slots.flatMap(\.product.entitlements) ?? [])
      self.init(request: request, outcome: .restored, entitlements: all, granted: offered)
    }
  }

  /// A key while the dialog is up: choose the result, tick entitlements, type an error message;
  /// enter answers the controller, esc cancels. The dialog's own reducer: the answer closes it.
  package mutating func reduce(_ key: Key) -> [OverlayRequest] {
    let outcomes = self.outcomes
    let rows = self.rows
    func answer(_ outcome: AskPurchaseController.Outcome) -> [OverlayRequest] {
      let granted = Self.grants(outcome) ? self.granted : []
      let answer = AskPurchaseController.Answer(outcome: outcome, entitlements: granted, message: message,
                                                error: outcome == .failed ? storeError : nil)
      return [.close, .effect(.answerAsk(id: request.id, answer))]
    }
    switch key {
    case .enter:
      return answer(outcome)
    case .escape:
      return answer(outcomes.contains(.cancelled) ? .cancelled : .failed)
    case .tab, .down:
      row = rows[((rows.firstIndex(of: row) ?? 0) + 1) % rows.count]
      cursor = 0
    case .backTab, .up:
      row = rows[((rows.firstIndex(of: row) ?? 0) + rows.count - 1) % rows.count]
      cursor = 0
    case .left, .right:
      let step = key == .left ? -1 : 1
      if row == .outcome, let index = outcomes.firstIndex(of: outcome) {
        outcome = outcomes[(index + step + outcomes.count) % outcomes.count]
      } else if row == .entitlements, !entitlements.isEmpty {
        cursor = (cursor + step + entitlements.count) % entitlements.count
      } else if row == .message, mayTypeError {
        let choices = Self.errorChoices
        let index = choices.firstIndex(of: storeError) ?? 0
        storeError = choices[(index + step + choices.count) % choices.count]
      }
    case .space where row == .entitlements && !entitlements.isEmpty && grants:
      let entitlement = entitlements[cursor]
      if granted.contains(entitlement) { granted.remove(entitlement) } else { granted.insert(entitlement) }
    // Typing goes back to a message.
    case .backspace where row == .message:
      storeError = nil
      if !message.isEmpty { message.removeLast() }
    case .space where row == .message:
      storeError = nil
      message.append(" ")
    case .character(let c) where row == .message:
      storeError = nil
      if message.count < 200 { message.append(c) }
    case .character(let c) where row == .outcome:
      if let n = c.wholeNumberValue, n >= 1, n <= outcomes.count { outcome = outcomes[n - 1] }
    default:
      break
    }
    return []
  }
}
