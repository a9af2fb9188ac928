import PaywallModel
import TerminalCore

/// Which keys a binding answers to.
package enum KeyPattern: Sendable, Hashable {
  case keys([Key])
  /// 1 to 9.
  case digits
  /// A mouse click anywhere.
  case click

  package func matches(_ key: Key) -> Bool {
    switch (self, key) {
    case (.keys(let keys), _): keys.contains(key)
    case (.digits, .character(let c)): c.wholeNumberValue.map { (1...9).contains($0) } ?? false
    case (.click, .click): true
    default: false
    }
  }
}

/// One key binding: which keys, how the help shows them, what they do. The same tables drive
/// `AppModel` and the help and debug overlays (as `bubbles/key` does in Bubble Tea), so the help
/// can never disagree with the keys.
package struct KeyBinding<Action: Sendable>: Sendable {
  package var pattern: KeyPattern
  /// How the help names the keys ("q  esc").
  package var label: String
  /// Nil: not listed on its own (another binding's line describes it).
  package var help: String?
  package var action: Action

  package init(_ pattern: KeyPattern, _ label: String, _ help: String?, _ action: Action) {
    self.pattern = pattern
    self.label = label
    self.help = help
    self.action = action
  }

  package init(_ key: Character, _ help: String, _ action: Action) {
    self.init(.keys([.character(key)]), String(key), help, action)
  }
}

extension Array {
  /// The action of the first binding that answers to `key`.
  package func action<Action>(for key: Key) -> Action? where Element == KeyBinding<Action> {
    first { $0.pattern.matches(key) }?.action
  }

  /// The bindings the help lists: (label, text).
  package func helpLines<Action>() -> [(String, String)] where Element == KeyBinding<Action> {
    compactMap { binding in binding.help.map { (binding.label, $0) } }
  }
}

/// The keys of every mode, as data.
package enum KeyMap {
  /// Keys that work over a paywall and on the home screen, unless a dialog or the panel is up.
  package enum Global: Sendable { case toggleLog, openFullLog, openDebug, click, openHelp }
  /// A paywall on screen, no alert.
  package enum Paywall: Sendable { case selectNumber, selectAdjacent, moveFocus, activate, activateFocused, restore, close }
  /// No paywall: the placements of the project.
  package enum Home: Sendable { case move, page, registerNumber, enter, quit }
  /// Scrolling what is open: the help, the debug panel and the full-screen log take every one;
  /// the log pane under a paywall takes the page keys and home/end (↑↓ move the focus there).
  package enum Scroll: Sendable { case lineUp, lineDown, pageUp, pageDown, top, bottom }
  /// A paywall's survey sheet (`SurveyDialog`).
  package enum Survey: Sendable { case pick, close }
  /// The debug panel.
  package enum Debug: Sendable {
    case world(DebugAction)
    case cycleStatus, typeStatus, relaunch, typeDuration, typeAttribute, typeProductID, typeOfferCode, callRestore, toggleLatency, close
    case toggleBackground, typePresentationResult, typeDeepLink
    /// Google Play: the next license-test card, and the app acknowledging purchases or not.
    case nextTestCard, toggleAcknowledging
  }

  package static let paywall: [KeyBinding<Paywall>] = [
    KeyBinding(.digits, "1 2 3", "select the first, second, third product", .selectNumber),
    KeyBinding(.keys([.left, .right]), "← →", "select the previous or next product", .selectAdjacent),
    KeyBinding(.keys([.tab, .down, .backTab, .up]), "tab ↓ / shift-tab ↑", "move the focus over the products and buttons", .moveFocus),
    KeyBinding(.keys([.enter]), "enter", "activate what has the focus (first: the purchase button)", .activate),
    KeyBinding(.keys([.space]), "space", "activate the focused button", .activateFocused),
    KeyBinding("r", "restore purchases", .restore),
    KeyBinding(.keys([.character("q"), .escape]), "q  esc", "close the paywall (decline); on the home screen: quit", .close),
  ]

  package static let home: [KeyBinding<Home>] = [
    KeyBinding(.keys([.up, .backTab, .down, .tab]), "↑↓ enter", "home screen: choose a placement and register it", .move),
    // The log pane, when it shows, takes the page keys first (as it does over a paywall).
    KeyBinding(.keys([.pageUp, .pageDown, .home, .end]), "pgup pgdn home end",
               "home screen: a page of placements up or down, the first or the last (the log pane's, when shown)", .page),
    KeyBinding(.digits, "1 2 3", nil, .registerNumber),
    KeyBinding(.keys([.enter]), "enter", nil, .enter),
    KeyBinding(.keys([.character("q"), .escape]), "q  esc", nil, .quit),
  ]

  package static let global: [KeyBinding<Global>] = [
    KeyBinding("l", "show or hide the event log pane", .toggleLog),
    KeyBinding("L", "the event log full screen: whole events, wrapped; esc or q closes it", .openFullLog),
    KeyBinding("d", "debug panel: clock, status, Ask to Buy, refunds, upgrades, billing, faults", .openDebug),
    KeyBinding(.click, "click", "select a product or press a button", .click),
    KeyBinding("?", "this help; any key but the scroll keys closes it", .openHelp),
  ]

  package static let scroll: [KeyBinding<Scroll>] = [
    KeyBinding(.keys([.up]), "↑ ↓", "scroll the help, the debug panel or the full-screen log by a line", .lineUp),
    KeyBinding(.keys([.down]), "↓", nil, .lineDown),
    KeyBinding(.keys([.pageUp]), "pgup pgdn", "scroll them a page; the event log pane too, when it is shown", .pageUp),
    KeyBinding(.keys([.pageDown]), "pgdn", nil, .pageDown),
    KeyBinding(.keys([.home]), "home end", "scroll to the top or the end", .top),
    KeyBinding(.keys([.end]), "end", nil, .bottom),
  ]

  /// The keys that scroll, as a footer names them.
  package static let scrollHint = "↑↓ pgup pgdn"

  /// Close the full-screen log.
  package static let closeFullLog: [Key] = [.escape, .character("q"), .character("L"), .enter]

  /// The notification prompt's buttons: accept (Allow, Open Settings) and refuse.
  package static let promptAccept: [Key] = [.enter]
  package static let promptRefuse: [Key] = [.escape]
  /// Dismiss an alert over the paywall.
  package static let alert: [Key] = [.enter, .escape, .space]

  /// A survey over a closing paywall; its "Other" text box takes typing, backspace and enter.
  package static let survey: [KeyBinding<Survey>] = [
    KeyBinding(.digits, "1 2 3", "survey: the answer of that number (\"Other\" opens a text box: type, enter submits)", .pick),
    KeyBinding(.keys([.escape]), "esc", "survey: its \"Close\", when it has one", .close),
  ]

  /// The help overlay: the paywall's keys, the home screen's, the global ones, scrolling, the
  /// survey's, then the notification prompt's.
  package static var helpLines: [(String, String)] {
    paywall.helpLines() + home.helpLines() + global.helpLines() + scroll.helpLines() + survey.helpLines()
      + [(([promptAccept, promptRefuse].map { $0.map(\.description).joined(separator: " ") }).joined(separator: "  "),
          "notification prompt: Allow or Don't Allow; the denied alert: Open Settings or Not now")]
  }

  /// The debug panel's topic of Google Play's keys, shown for a Play catalog only.
  package static let playTopic = "play"

  /// The debug panel's keys by topic, drawn in the panel itself.
  package static let debugSections: [(topic: String, bindings: [KeyBinding<Debug>])] = [
    ("clock", [KeyBinding("h", "+1 hour", .world(.advanceClock(.seconds(3600)))),
               KeyBinding("a", "+1 day", .world(.advanceClock(.seconds(86_400)))),
               KeyBinding("w", "+1 week", .world(.advanceClock(.seconds(7 * 86_400)))),
               // A calendar month, as the store's monthly period: from Jan 1 it reaches Feb 1.
               KeyBinding("m", "+1 month", .world(.advanceClock(.months(1)))),
               KeyBinding(">", "next change", .world(.advanceToNextEvent)),
               KeyBinding("+", "type a duration", .typeDuration)]),
    ("status", [KeyBinding("s", "cycle unknown → inactive → active (all entitlements)", .cycleStatus),
                KeyBinding("=", "type one: active:pro,music · inactive · unknown", .typeStatus)]),
    ("purchases", [KeyBinding("y", "approve Ask to Buy", .world(.store(.approve))),
                   KeyBinding("n", "decline", .world(.store(.decline))),
                   KeyBinding("i", "interrupt", .world(.store(.interruptNextPurchase))),
                   KeyBinding("e", "resume", .world(.store(.resolveInterrupted))),
                   // The App Store's offer-code sheet (`AppStore.presentOfferCodeRedeemSheet`), as `redeem CODE`.
                   KeyBinding("o", "redeem an offer code", .typeOfferCode)]),
    // Google Play's license-test cards and acknowledgement (a Play catalog only; elsewhere they say so).
    (playTopic, [KeyBinding("C", "next test card", .nextTestCard),
              KeyBinding("K", "app acknowledges / forgets", .toggleAcknowledging),
              KeyBinding("A", "acknowledge now", .world(.store(.acknowledge(productID: nil)))),
              KeyBinding("Z", "pause a month", .world(.store(.pause(productID: nil, .oneMonth)))),
              KeyBinding("W", "resume", .world(.store(.resume(productID: nil))))]),
    ("renewals", [KeyBinding("c", "cancel", .world(.store(.cancel(productID: nil)))),
                  KeyBinding("f", "refund", .world(.store(.refund(productID: nil)))),
                  KeyBinding("v", "revoke", .world(.store(.revoke(productID: nil)))),
                  KeyBinding("U", "upgrade", .world(.store(.upgrade(productID: nil)))),
                  KeyBinding("O", "downgrade", .world(.store(.downgrade(productID: nil))))]),
    ("billing", [KeyBinding("b", "card fails", .world(.store(.billingIssue(productID: nil, grace: nil)))),
                 KeyBinding("g", "fix it", .world(.store(.resolveBilling(productID: nil)))),
                 KeyBinding("p", "raise price", .world(.store(.priceIncrease(productID: nil, price: nil)))),
                 KeyBinding("k", "accept", .world(.store(.acceptPrice(productID: nil)))),
                 KeyBinding("j", "decline", .world(.store(.declinePrice(productID: nil))))]),
    ("family", [KeyBinding("F", "share a product", .world(.store(.familyShare(productID: nil)))),
                KeyBinding("R", "stop sharing", .world(.store(.familyRevoke(productID: nil))))]),
    ("faults", [KeyBinding("x", "fail purchase", .world(.failNextPurchase("Card declined"))),
                KeyBinding("z", "fail restore", .world(.failNextRestore(.networkError))),
                KeyBinding("t", "latency", .toggleLatency),
                KeyBinding("D", "drop reply", .world(.dropNextResponse))]),
    ("user", [KeyBinding("u", "set a user attribute (key=value) for audience filters", .typeAttribute)]),
    // `Superwall.shared.purchase(product)` / `restorePurchases()` called by the app, outside any
    // paywall's buttons (the script's `call purchase` / `call restore`).
    ("app calls", [KeyBinding("P", "purchase(product), typed", .typeProductID),
                   KeyBinding("S", "restorePurchases()", .callRestore),
                   // Not a call: the app killed and launched again (its launch events, their campaigns).
                   KeyBinding("L", "relaunch", .relaunch),
                   // Not a call either: the app resigns active and comes back (`app_close`, `app_open`).
                   KeyBinding("B", "background", .toggleBackground),
                   KeyBinding("G", "getPresentationResult", .typePresentationResult),
                   KeyBinding("l", "handleDeepLink(url)", .typeDeepLink)]),
  ]

  /// Every key of the panel: its topics' and the ones that close it (named in its footer).
  package static let debug: [KeyBinding<Debug>] = debugSections.flatMap(\.bindings) + [
    KeyBinding(.keys([.character("d"), .character("q"), .escape, .enter]), "d  esc", nil, .close),
  ]
}
