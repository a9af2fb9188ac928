import Foundation
import PaywallModel
import PaywallUI
import Testing

/// Exhaustive steps of a reducer, as The Composable Architecture's `TestStore`: each `send` says
/// every change the action makes to the state and every effect it asks for. A field that changed
/// and was not named, a field named that did not change as said, or an effect more or less, fails
/// the test, with the fields that differ named.
package struct ReducerTestStore<State: Equatable, Action, Effect: Equatable> {
  package private(set) var state: State
  private let reduce: (inout State, Action) -> [Effect]

  package init(_ state: State, reduce: @escaping (inout State, Action) -> [Effect]) {
    self.state = state
    self.reduce = reduce
  }

  /// Runs `action`; the state after it must be the state before with `change` applied, and its
  /// effects exactly `effects`, in order.
  package mutating func send(_ action: Action, effects: [Effect] = [], sourceLocation: Testing.SourceLocation = #_sourceLocation,
                             _ change: (inout State) -> Void = { _ in }) {
    var expected = state
    change(&expected)
    let actual = reduce(&state, action)
    if state != expected {
      Issue.record("the state after \(action) differs from the one expected in: \(Self.differences(expected, state).joined(separator: "; "))",
                   sourceLocation: sourceLocation)
    }
    if actual != effects {
      Issue.record("the effects of \(action) were \(actual), expected \(effects)", sourceLocation: sourceLocation)
    }
    // The next step starts from what the reducer did, not from the expectation.
  }

  /// The top-level fields whose values differ (each with both values, shortened), found by reflection.
  static func differences(_ expected: State, _ actual: State) -> [String] {
    let wanted = Mirror(reflecting: expected).children, got = Mirror(reflecting: actual).children
    var out: [String] = []
    for (a, b) in zip(wanted, got) where String(describing: a.value) != String(describing: b.value) {
      out.append("\(a.label ?? "?"): expected \(Self.short(a.value)), got \(Self.short(b.value))")
    }
    return out.isEmpty ? ["a nested value (the fields print the same)"] : out
  }

  private static func short(_ value: Any) -> String {
    let text = String(describing: value)
    return text.count > 160 ? String(text.prefix(160)) + "…" : text
  }
}

extension ReducerTestStore where State == AppState, Action == AppMessage, Effect == AppEffect {
  /// The app's reducer at the fixtures' fixed moment.
  package init(app state: AppState) {
    self.init(state) { state, message in AppModel.update(&state, message, now: Fixtures.now) }
  }
}

extension ReducerTestStore where State == PresentationState, Action == PresentationAction, Effect == PresentationEffect {
  /// The presenter at the fixtures' fixed moment.
  package init(presenter state: PresentationState) {
    self.init(state) { state, action in Presenter.update(&state, action, now: Fixtures.now) }
  }
}
