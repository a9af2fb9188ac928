import PaywallModel
import TerminalCore

/// The question `run` asks when a registration stops at an audience rule the emulator cannot
/// evaluate (`expression`, `expression_js`): does this user match it? The answer is kept for the
/// session (as `--assume-rule` would) and the placement is registered again.
package struct RuleDialog: Sendable, Hashable {
  package var rule: PlacementEvaluation.UndecidedRule
  package var registration: Registration
  /// The choice under the cursor: match (true) or no match.
  package var matches = true

  /// A key while the dialog is up: ←→ or m/n choose, enter answers (the answer holds for the
  /// session and the placement is registered again), esc leaves the rule undecided (nothing ran).
  /// The dialog's own reducer: an answer closes it.
  package mutating func reduce(_ key: Key) -> [OverlayRequest] {
    func answer(_ matches: Bool) -> [OverlayRequest] {
      [.close, .assume(rule: rule.key, matches: matches),
       .tell("\(rule.key): assumed to \(matches ? "match" : "not match") for this session"),
       .present(.register(placement: registration.placement, params: registration.params))]
    }
    switch key {
    case .enter: return answer(matches)
    case .character("m"), .character("y"): return answer(true)
    case .character("n"): return answer(false)
    case .escape: return [.close, .tell("\(rule.key) left undecided: register did nothing")]
    case .left, .right, .tab, .backTab, .up, .down: matches.toggle()
    default: break
    }
    return []
  }
}
