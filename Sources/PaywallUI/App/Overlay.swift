import PaywallModel
import TerminalCore

/// What is open over the screen and takes the keys, as one value: the tester's panels (help,
/// debug panel, full-screen log) exclude each other, and each keeps its own scroll and typing.
///
/// The tester opens a panel only when nothing is open (the open overlay takes every key first).
/// A question from the app's side comes when the app asks it, over whatever is open, which shows
/// again once it is answered: the ask controller's dialog (a purchase the debug panel's `P`
/// started) and an audience rule the emulator cannot evaluate. The ask dialog stays on top of a
/// rule question raised under it: it takes the keys until it is answered.
package indirect enum Overlay: Sendable, Equatable {
  /// The keys (`?`), `scroll` rows down.
  case help(scroll: Int)
  /// The QA debug panel (`d`).
  case debug(DebugPanel)
  /// The full-screen log (`L`): the first row it shows; nil: it follows the newest.
  case fullLog(top: Int?)
  /// The ask controller's question, over what was open.
  case ask(AskDialog, over: Overlay?)
  /// The question about an audience rule the emulator cannot evaluate, over what was open.
  case rule(RuleDialog, over: Overlay?)
}

/// What an overlay's reducer asks of the app after a key. The overlay changes only its own state;
/// the app (`AppModel`, the parent) carries these out in order, as TCA's parent carries out what
/// a scoped child returns.
package enum OverlayRequest: Sendable, Equatable {
  /// The overlay is done: what it covered shows again.
  case close
  /// Work for the runtime as it is: a change of the world, the ask controller's answer.
  case effect(AppEffect)
  /// A line for the status bar.
  case notice(String)
  /// A line for the status bar and the log.
  case tell(String)
  /// An action for the presenter, as the app's own keys send one.
  case present(PresentationAction)
  /// A call of the app's that the terminal reports on as it makes it.
  case call(AppCall)
  /// An undecided audience rule holds (or not) for the rest of the session, as `--assume-rule`.
  case assume(rule: String, matches: Bool)
}

extension Overlay {
  /// The ask controller's dialog, when it is open (it is then on top).
  package var ask: AskDialog? {
    if case .ask(let dialog, _) = self { dialog } else { nil }
  }

  /// The rule question, when it is open (on top, or under the ask dialog).
  package var rule: RuleDialog? {
    switch self {
    case .rule(let dialog, _): dialog
    case .ask(_, let over): over?.rule
    default: nil
    }
  }

  /// The tester's panel, under any question: help, debug panel or full-screen log.
  package var panel: Overlay? {
    switch self {
    case .help, .debug, .fullLog: self
    case .ask(_, let over), .rule(_, let over): over?.panel
    }
  }

  /// The debug panel, when it is open (under a question too).
  package var debug: DebugPanel? {
    if case .debug(let panel)? = panel { panel } else { nil }
  }

  /// How far the help is scrolled, when it is open.
  package var helpScroll: Int? {
    if case .help(let scroll)? = panel { scroll } else { nil }
  }

  package var showsFullLog: Bool {
    if case .fullLog? = panel { true } else { false }
  }

  /// The first row the full-screen log shows, when it is open and does not follow the newest.
  package var fullLogTop: Int? {
    if case .fullLog(let top)? = panel { top } else { nil }
  }

  /// What is left when this overlay, on top, closes.
  package var beneath: Overlay? {
    switch self {
    case .help, .debug, .fullLog: nil
    case .ask(_, let over), .rule(_, let over): over
    }
  }

  /// `overlay` with the ask controller's `dialog` on top; a newer request takes an open dialog's place.
  package static func asking(_ dialog: AskDialog, over overlay: Overlay?) -> Overlay {
    if case .ask(_, let over)? = overlay { return .ask(dialog, over: over) }
    return .ask(dialog, over: overlay)
  }

  /// `overlay` with the rule question `dialog`: on top, or under an open ask dialog, which keeps
  /// the keys; a newer question takes an open one's place.
  package static func asking(_ dialog: RuleDialog, over overlay: Overlay?) -> Overlay {
    switch overlay {
    case .ask(let ask, let over)?: .ask(ask, over: asking(dialog, over: over))
    case .rule(_, let over)?: .rule(dialog, over: over)
    default: .rule(dialog, over: overlay)
    }
  }

  /// This overlay without the debug panel (a relaunch closes it), questions over it kept.
  package var closingDebugPanel: Overlay? {
    switch self {
    case .debug: nil
    case .help, .fullLog: self
    case .ask(let dialog, let over): .ask(dialog, over: over?.closingDebugPanel)
    case .rule(let dialog, let over): .rule(dialog, over: over?.closingDebugPanel)
    }
  }

  /// A key for the overlay on top: its own reducer changes its own state and says what the app
  /// must do. `app` is the state around it, read only (the catalog, the size, the log).
  package mutating func reduce(_ key: Key, in app: AppState) -> [OverlayRequest] {
    switch self {
    case .help(var scroll):
      defer { self = .help(scroll: scroll) }
      return Self.reduceHelp(&scroll, key, size: app.size)
    case .debug(var panel):
      defer { self = .debug(panel) }
      return panel.reduce(key, in: app)
    case .fullLog(var top):
      defer { self = .fullLog(top: top) }
      return Self.reduceFullLog(&top, key, log: app.log, size: app.size)
    case .ask(var dialog, let over):
      defer { self = .ask(dialog, over: over) }
      return dialog.reduce(key)
    case .rule(var dialog, let over):
      defer { self = .rule(dialog, over: over) }
      return dialog.reduce(key)
    }
  }

  /// The help's keys: the scroll keys scroll it, any other key closes it.
  package static func reduceHelp(_ scroll: inout Int, _ key: Key, size: Size) -> [OverlayRequest] {
    guard let action = KeyMap.scroll.action(for: key) else { return [.close] }
    scroll = AppModel.scrolled(scroll, action, page: size.height - 6, limit: AppView.helpScrollLimit(size: size))
    return []
  }

  /// The full-screen log's keys: the scroll keys scroll it (to the end: it follows the newest
  /// again), esc q L enter close it, other keys do nothing.
  package static func reduceFullLog(_ top: inout Int?, _ key: Key, log: [String], size: Size) -> [OverlayRequest] {
    if let action = KeyMap.scroll.action(for: key) {
      let limit = AppView.fullLogLimit(log, size: size)
      let next = AppModel.scrolled(AppView.fullLogTop(top, log, size: size), action, page: AppView.fullLogVisible(size: size) - 1,
                                   limit: limit)
      top = next >= limit ? nil : next
      return []
    }
    return KeyMap.closeFullLog.contains(key) ? [.close] : []
  }
}
