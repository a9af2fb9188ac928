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
}

extension AskDialog {
  /// The dialog for `request`: a purchase grants the product's entitlements, a restore those the
  /// paywall on screen offers; every entitlement of the catalog can be ticked.
  package init(for request: AskPurchaseController.Request, _ state: AppState) {
    let all = Array(Set(state.project.catalog.products.flatMap(\.entitlements))).sorted()
    switch request.question {
    case .purchase(let product):
      self.init(request: request, outcome: .purchased, entitlements: all, granted: product.entitlements)
      purchaseMayRestore = state.presentation.options.sdk.hasRestoredPurchaseResult
    case .restore:
      let offered = Set(state.session?.paywall.slots.flatMap(\.product.entitlements) ?? [])
      self.init(request: request, outcome: .restored, entitlements: all, granted: offered)
    }
  }

  /// A key while the dialog is up: choose the result, tick entitlements, type an error message;
  /// enter answers the controller, esc cancels.
  package static func handle(_ key: Key, _ state: inout AppState) -> [AppEffect] {
    guard var dialog = state.ask else { return [] }
    let outcomes = dialog.outcomes
    let rows: [Row] = dialog.outcome == .failed ? [.outcome, .entitlements, .message] : [.outcome, .entitlements]
    func answer(_ outcome: AskPurchaseController.Outcome) -> [AppEffect] {
      state.ask = nil
      let granted = outcome == .purchased || outcome == .restored ? dialog.granted : []
      let answer = AskPurchaseController.Answer(outcome: outcome, entitlements: granted, message: dialog.message,
                                                error: outcome == .failed ? dialog.storeError : nil)
      return [.answerAsk(id: dialog.request.id, answer)]
    }
    switch key {
    case .enter:
      return answer(dialog.outcome)
    case .escape:
      return answer(outcomes.contains(.cancelled) ? .cancelled : .failed)
    case .tab, .down:
      dialog.row = rows[((rows.firstIndex(of: dialog.row) ?? 0) + 1) % rows.count]
      dialog.cursor = 0
    case .backTab, .up:
      dialog.row = rows[((rows.firstIndex(of: dialog.row) ?? 0) + rows.count - 1) % rows.count]
      dialog.cursor = 0
    case .left, .right:
      let step = key == .left ? -1 : 1
      if dialog.row == .outcome, let index = outcomes.firstIndex(of: dialog.outcome) {
        dialog.outcome = outcomes[(index + step + outcomes.count) % outcomes.count]
      } else if dialog.row == .entitlements, !dialog.entitlements.isEmpty {
        dialog.cursor = (dialog.cursor + step + dialog.entitlements.count) % dialog.entitlements.count
      } else if dialog.row == .message {
        let choices = errorChoices
        let index = choices.firstIndex(of: dialog.storeError) ?? 0
        dialog.storeError = choices[(index + step + choices.count) % choices.count]
      }
    case .space where dialog.row == .entitlements && !dialog.entitlements.isEmpty:
      let entitlement = dialog.entitlements[dialog.cursor]
      if dialog.granted.contains(entitlement) { dialog.granted.remove(entitlement) } else { dialog.granted.insert(entitlement) }
    // Typing goes back to a message.
    case .backspace where dialog.row == .message:
      dialog.storeError = nil
      if !dialog.message.isEmpty { dialog.message.removeLast() }
    case .space where dialog.row == .message:
      dialog.storeError = nil
      dialog.message.append(" ")
    case .character(let c) where dialog.row == .message:
      dialog.storeError = nil
      if dialog.message.count < 200 { dialog.message.append(c) }
    case .character(let c) where dialog.row == .outcome:
      if let n = c.wholeNumberValue, n >= 1, n <= outcomes.count { dialog.outcome = outcomes[n - 1] }
    default:
      break
    }
    state.ask = dialog
    return []
  }
}
