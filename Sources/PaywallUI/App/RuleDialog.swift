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

  /// A key while the dialog is up: ←→ or m/n choose, enter answers, esc leaves the rule
  /// undecided (nothing ran).
  package static func handle(_ key: Key, _ state: inout AppState, now: Date) -> [AppEffect] {
    guard var dialog = state.ruleQuestion else { return [] }
    func answer(_ matches: Bool) -> [AppEffect] {
      state.ruleQuestion = nil
      state.presentation.assumedRules[dialog.rule.key] = matches
      AppModel.tell("\(dialog.rule.key): assumed to \(matches ? "match" : "not match") for this session", &state)
      return AppModel.present(.register(placement: dialog.registration.placement, params: dialog.registration.params), &state, now: now)
    }
    switch key {
    case .enter: return answer(dialog.matches)
    case .character("m"), .character("y"): return answer(true)
    case .character("n"): return answer(false)
    case .escape:
      state.ruleQuestion = nil
      AppModel.tell("\(dialog.rule.key) left undecided: register did nothing", &state)
      return []
    case .left, .right, .tab, .backTab, .up, .down:
      dialog.matches.toggle()
    default:
      break
    }
    state.ruleQuestion = dialog
    return []
  }
}
