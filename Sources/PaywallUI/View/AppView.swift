import PaywallModel
import TerminalCore

/// Draws the whole app for a state: the paywall (or the closed screen), the log pane, the status
/// bar, and any modal on top. Pure, like `PaywallRenderer`.
package enum AppView {
  package static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
  package static let logHeight = 6

  package static func render(_ state: AppState, size: Size) -> Frame {
    guard size.width >= PaywallRenderer.minimumSize.width && size.height >= PaywallRenderer.minimumSize.height else {
      var frame = Frame(size: size)
      PaywallRenderer.drawTooSmall(into: &frame)
      return frame
    }
    let screenSize = paywallSize(state, size: size)
    let logRows = size.height - screenSize.height
    var frame: Frame
    if let session = state.session {
      var screen = Self.screen(state, session)
      screen.activityText = activity(state, session)
      frame = paywallLayout(screen, size: screenSize).frame
    } else {
      frame = HomeScreen.render(state, size: screenSize)
    }
    if logRows > 0 {
      var full = Frame(size: size)
      full.draw(frame, x: 0, y: 0)
      drawLog(state, into: &full, top: size.height - logRows - 1, rows: logRows)
      // The status bar stays the last row.
      full.draw(frame.row(frame.height - 1), x: 0, y: size.height - 1)
      frame = full
    }
    if let alert = state.presentation.callAlert ?? state.session?.alert {
      OverlayBox.box(title: alert.title, lines: [[(alert.message, .plain)]], footer: "[ \(alert.button) ]  enter", into: &frame)
    }
    if let prompt = state.session?.survey { SurveyOverlay.draw(prompt, into: &frame) }
    if let prompt = state.presentation.permissionPrompt {
      // The system's question is long (it names the app): it goes in the box, wrapped.
      let (refuse, accept) = prompt.buttons
      var lines: [OverlayBox.Line] = [[(prompt.title, .title)]]
      if !prompt.message.isEmpty { lines += [[("", .plain)], [(prompt.message, .plain)]] }
      OverlayBox.box(title: prompt.boxTitle, lines: lines, footer: "[ \(refuse) ]  esc    [ \(accept) ]  enter", into: &frame)
    }
    if state.presentation.appSession.inBackground { BackgroundScreen.draw(state, into: &frame) }
    // Drawn in this order whatever opened first (a question's keys come first all the same).
    if let top = state.overlay, top.showsFullLog { drawFullLog(state, top: top.fullLogTop, into: &frame) }
    if let ask = state.overlay?.ask { drawAsk(ask, into: &frame) }
    if let question = state.overlay?.rule { drawRuleQuestion(question, into: &frame) }
    if let panel = state.overlay?.debug {
      // Above the log pane, whose events its keys cause: the pane's header row stays in sight.
      let area = debugArea(state, size: size)
      var top = Frame(size: area)
      top.draw(frame, x: 0, y: 0)
      drawDebug(state, panel, into: &top)
      frame.draw(top, x: 0, y: 0)
    }
    if let errors = state.reloadErrors {
      OverlayBox.box(title: "The project no longer loads", lines: errors.map { [($0, .warning)] },
                     footer: "fix it and save: the screen reloads", into: &frame, preferredWidth: 76)
    }
    if let scroll = state.overlay?.helpScroll { drawHelp(scroll: scroll, into: &frame) }
    return frame
  }

  /// Where the debug panel goes: the rows above the log pane's header when the pane shows (the box
  /// leaves an area's last row free: there, the header), else all of the screen.
  package static func debugArea(_ state: AppState, size: Size) -> Size {
    guard state.showsLog, state.overlay?.showsFullLog != true else { return size }
    return paywallSize(state, size: size)
  }

  /// The paywall as drawn for `state`; clicks are hit-tested against the same layout.
  package static func screen(_ state: AppState, _ session: PaywallSession) -> PaywallScreenState {
    var screen = PaywallScreenState(paywall: session.paywall, selectedSlot: session.selectedSlot, statusText: state.status.description)
    screen.focus = state.focus
    return screen
  }

  /// The paywall in the part of the screen it gets (`paywallSize`), as drawn and as clicks hit it:
  /// the terminal as a whole was checked against `PaywallRenderer.minimumSize`.
  package static func paywallLayout(_ screen: PaywallScreenState, size: Size) -> RenderedScreen {
    PaywallRenderer.layout(screen, size: size, minimum: Size(width: PaywallRenderer.minimumSize.width, height: 2))
  }

  /// The part of the screen the paywall gets: all of it, less the log pane when it is shown.
  package static func paywallSize(_ state: AppState, size: Size? = nil) -> Size {
    let size = size ?? state.size
    let logRows = state.showsLog ? min(logHeight, size.height / 3) : 0
    return Size(width: size.width, height: size.height - logRows)
  }

  package static func drawDebug(_ state: AppState, _ panel: DebugPanel, into frame: inout Frame) {
    let content = debugContent(state, width: min(frame.width - 2, 78))
    // Typing: the prompt, last in the box, shows.
    OverlayBox.box(title: debugTitle, lines: content.lines, footer: content.footer, into: &frame, preferredWidth: content.width,
                   scroll: panel.typing != nil ? Int.max : panel.scroll)
  }

  package static let debugTitle = "Debug panel (QA)"

  /// How far the debug panel scrolls in a terminal of `size`.
  package static func debugScrollLimit(_ state: AppState, size: Size) -> Int {
    let area = debugArea(state, size: size)
    let content = debugContent(state, width: min(area.width - 2, 78))
    return OverlayBox.scrollLimit(title: debugTitle, lines: content.lines, footer: content.footer, in: area, preferredWidth: content.width)
  }

  /// The panel's lines and footer for a box `width` columns wide.
  package static func debugContent(_ state: AppState, width: Int) -> (lines: [OverlayBox.Line], footer: String, width: Int) {
    let topicWidth = 11
    // Each topic's keys, packed into rows that fit beside the topic (the box only wraps a line's
    // last piece, and these lines are many pieces).
    var lines: [[(String, CellStyle)]] = []
    // Google Play's keys only for a Play catalog: an App Store project's panel is as it was.
    for (topic, bindings) in KeyMap.debugSections where topic != KeyMap.playTopic || state.store?.testCard != nil {
      var row: [(String, CellStyle)] = [(String(topic.prefix(topicWidth)) + String(repeating: " ", count: max(0, topicWidth - topic.count)), .muted)]
      var used = 0
      for binding in bindings {
        let (key, text) = (binding.label, binding.help ?? "")
        let item = DisplayWidth.of(text) + 2
        if used > 0 && used + 3 + item > width - 4 - topicWidth {
          lines.append(row)
          row = [(String(repeating: " ", count: topicWidth), .plain)]
          used = 0
        }
        if used > 0 { row.append((" · ", .muted)) }
        row += [("\(key) ", .accent), (text, .plain)]
        used += (used > 0 ? 3 : 0) + item
      }
      lines.append(row)
    }
    lines.append([])
    if let store = state.store {
      let next = store.nextEvent.map { " · next change \(StoreDates.format($0))" } ?? ""
      lines.append([("store clock ", .muted), ("\(StoreDates.format(store.clock)) UTC (\(store.timeRate))\(next)", .plain)])
      // The newest two, a row each: `paywall-tui store` has them all.
      for subscription in store.subscriptions.suffix(2) {
        let name = "  \(subscription.productID)  "
        lines.append([(name, .plain), (TextLayout.truncate(subscription.summary, width: width - 4 - DisplayWidth.of(name)), .muted)])
        if let play = subscription.playSummary {
          lines.append([("    ", .plain), (TextLayout.truncate(play, width: width - 8), .muted)])
        }
      }
      if store.subscriptions.isEmpty { lines.append([("  the ledger is empty", .muted)]) }
      if let card = store.testCard {
        lines.append([("play        ", .muted), ("test card \(card.rawValue) · the app \(store.acknowledges ? "acknowledges" : "forgets to acknowledge")", .plain)])
      }
      if !store.pending.isEmpty {
        let pending = store.pending.map { "\($0.waitsFor) \($0.productID)" }
        lines.append([("pending     ", .muted), (pending.joined(separator: ", "), .plain)])
      }
      if !store.faults.isEmpty { lines.append([("armed       ", .muted), (store.faults.joined(separator: " · "), .plain)]) }
    }
    if let notice = state.notice { lines.append([("last        ", .muted), (notice, .plain)]) }
    var footer = "d / esc closes · \(KeyMap.scrollHint)"
    if !state.userAttributes.isEmpty {
      let attributes = state.userAttributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
      lines.append([("user        ", .muted), (attributes, .plain)])
    }
    switch state.overlay?.debug?.typing {
    case .attribute(let input)?:
      lines.append([("set         ", .accent), (input.isEmpty ? "key=value▏" : input + "▏", input.isEmpty ? .muted : .plain)])
      footer = "enter sets it · esc cancels"
    case .status(let input)?:
      lines.append([("status      ", .accent), (input.isEmpty ? "active:ENTITLEMENT,… · inactive · unknown▏" : input + "▏", input.isEmpty ? .muted : .plain)])
      footer = "enter sets it (active alone: every entitlement) · esc cancels"
    case .productID(let input)?:
      lines.append([("purchase    ", .accent), (input.isEmpty ? "product id▏" : input + "▏", input.isEmpty ? .muted : .plain)])
      footer = "enter: the app calls purchase(product) · esc cancels"
    case .offerCode(let input)?:
      lines.append([("redeem      ", .accent), (input.isEmpty ? "offer code▏" : input + "▏", input.isEmpty ? .muted : .plain)])
      footer = "enter redeems it in the store · esc cancels"
    case .appCall(let input)?:
      let prompt = input.prompt
      lines.append([(prompt.label, .accent), (input.text.isEmpty ? prompt.placeholder + "▏" : input.text + "▏", input.text.isEmpty ? .muted : .plain)])
      footer = prompt.footer
    case .duration(let input)?:
      lines.append([("advance by  ", .accent), (input + "▏", .plain)])
      footer = "a duration (90m, 3d, 1M) · enter jumps · esc cancels"
    case nil:
      break
    }
    return (lines, footer, width)
  }

  package static func activity(_ state: AppState, _ session: PaywallSession) -> String? {
    let glyph = spinner[state.spinnerFrame % spinner.count]
    switch session.activity {
    case .purchasing(let slot, _):
      return "\(glyph) Purchasing \(session.paywall.slot(named: slot)?.product.displayName ?? slot)…"
    case .restoring:
      return "\(glyph) Restoring purchases…"
    case .idle:
      return state.notice.map { "! \($0)" }
    }
  }

  /// How many entries the log pane shows in a terminal of `size` (its rows less the header).
  package static func logPaneEntries(_ state: AppState, size: Size) -> Int {
    max(1, size.height - paywallSize(state, size: size).height - 1)
  }

  package static func drawLog(_ state: AppState, into frame: inout Frame, top: Int, rows: Int) {
    frame.fill("─", x: 0, y: top, count: frame.width, style: .border)
    frame.put(" events (l hides · pgup pgdn · L full) ", x: 2, y: top, style: .muted, limit: frame.width - 4)
    let entries = rows - 1
    // Scrolled back from the newest: the window's offset counts from the oldest.
    let window = ScrollWindow(total: state.log.count, visible: entries, offset: state.log.count - entries - state.logScrollBack)
    let shown = state.log[window.rows]
    if !window.marks.isEmpty {
      let mark = " \(window.marks) "
      frame.put(mark, x: frame.width - 2 - DisplayWidth.of(mark), y: top, style: .accent)
    }
    for (i, line) in shown.enumerated() {
      frame.fill(" ", x: 0, y: top + 1 + i, count: frame.width, style: .plain)
      frame.put(TextLayout.truncate(line, width: frame.width - 2), x: 1, y: top + 1 + i, style: .muted)
    }
  }

  /// The log as the full-screen view shows it: every entry whole, wrapped to `width`, its
  /// continuation rows indented.
  package static func fullLogRows(_ log: [String], width: Int) -> [String] {
    log.flatMap { line -> [String] in
      let rows = TextLayout.wrap(line, width: max(8, width - 2))
      guard let first = rows.first else { return [""] }
      let rest = rows.dropFirst().joined(separator: " ")
      return [first] + (rest.isEmpty ? [] : TextLayout.wrap(rest, width: max(8, width - 4)).map { "  " + $0 })
    }
  }

  /// Rows of the full-screen log between its header and its footer.
  package static func fullLogVisible(size: Size) -> Int { max(1, size.height - 2) }

  /// How far the full-screen log scrolls: its last row at the bottom.
  package static func fullLogLimit(_ log: [String], size: Size) -> Int {
    max(0, fullLogRows(log, width: size.width).count - fullLogVisible(size: size))
  }

  /// The first row the full-screen log shows: `top`, or the end when it follows the newest (nil).
  package static func fullLogTop(_ top: Int?, _ log: [String], size: Size) -> Int {
    let limit = fullLogLimit(log, size: size)
    return min(top ?? limit, limit)
  }

  /// `L`: the whole log over the whole screen, each event whole, from row `top` (nil: the end).
  package static func drawFullLog(_ state: AppState, top: Int?, into frame: inout Frame) {
    let size = Size(width: frame.width, height: frame.height)
    let rows = fullLogRows(state.log, width: size.width)
    let visible = fullLogVisible(size: size)
    let top = fullLogTop(top, state.log, size: size)
    for y in 0..<frame.height { frame.fill(" ", x: 0, y: y, count: frame.width, style: .plain) }
    frame.fill("─", x: 0, y: 0, count: frame.width, style: .border)
    frame.put(" Event log (\(state.log.count)) ", x: 1, y: 0, style: .title)
    let window = ScrollWindow(total: rows.count, visible: visible, offset: top)
    if !window.marks.isEmpty {
      let mark = " \(window.marks) "
      frame.put(mark, x: max(0, frame.width - 1 - DisplayWidth.of(mark)), y: 0, style: .accent)
    }
    for (i, row) in rows[window.rows].enumerated() {
      frame.put(row, x: 1, y: 1 + i, style: row.hasPrefix("!") ? .accent : .plain, limit: frame.width - 2)
    }
    if rows.isEmpty { frame.put("no events yet", x: 1, y: 1, style: .muted) }
    frame.put(TextLayout.truncate("\(KeyMap.scrollHint) home end · esc q closes", width: frame.width - 2), x: 1,
              y: frame.height - 1, style: .muted)
  }

  /// The rule dialog: which rule, its text, and the two answers.
  package static func drawRuleQuestion(_ question: RuleDialog, into frame: inout Frame) {
    let rule = question.rule
    let lines: [[(String, CellStyle)]] = [
      [("Audience \(rule.index + 1) of \(rule.placement) is written in \(rule.rule.kind),", .plain)],
      [("which the emulator cannot evaluate:", .plain)],
      [(UntrustedText.excerpt(rule.rule.text, limit: 60), .muted)],
      [],
      [("Does this user match it?  ", .plain), (question.matches ? "[ match ]" : "  match  ", question.matches ? .selected : .plain),
       ("  ", .plain), (question.matches ? "  no match  " : "[ no match ]", question.matches ? .plain : .selected)],
    ]
    OverlayBox.box(title: "Undecided rule \(rule.key)", lines: lines,
                   footer: "←→ choose · m match · n no match · enter answer · esc leave it", into: &frame, preferredWidth: 64)
  }

  package static func drawAsk(_ ask: AskDialog, into frame: inout Frame) {
    let title: String
    switch ask.request.question {
    case .purchase(let product): title = "Purchase \(product.displayName) (\(product.id))"
    case .restore: title = "Restore purchases"
    }
    func marker(_ row: AskDialog.Row) -> (String, CellStyle) { ask.row == row ? ("▸ ", .accent) : ("  ", .plain) }
    var outcomeLine: [(String, CellStyle)] = [marker(.outcome), ("Result: ", .plain)]
    for outcome in ask.outcomes {
      let chosen = outcome == ask.outcome
      outcomeLine.append((chosen ? "[\(outcome.rawValue)]" : " \(outcome.rawValue) ", chosen ? .focusedButton : .plain))
      outcomeLine.append((" ", .plain))
    }
    var entitlementLine: [(String, CellStyle)] = [marker(.entitlements), ("Grant: ", ask.grants ? .plain : .muted)]
    if !ask.grants { entitlementLine.append(("nothing (\(ask.outcome.rawValue) grants no entitlement)", .muted)) }
    if ask.grants && ask.entitlements.isEmpty { entitlementLine.append(("(the catalog grants none)", .muted)) }
    for (i, entitlement) in ask.entitlements.enumerated() where ask.grants {
      let box = ask.granted.contains(entitlement) ? "[x] " : "[ ] "
      let focused = ask.row == .entitlements && ask.cursor == i
      entitlementLine.append((box + entitlement.id, focused ? .focusedButton : .plain))
      entitlementLine.append(("  ", .plain))
    }
    var lines = [outcomeLine, entitlementLine]
    if ask.outcome == .failed {
      if let error = ask.storeError {
        lines.append([marker(.message), ("Error: ", .plain), ("‹\(error.rawValue)›", .focusedButton),
                      (error.isCancellation ? " StoreKit's cancel: the SDK abandons" : " StoreKit's error", .muted)])
      } else {
        lines.append([marker(.message), ("Error: ", .plain),
                      (ask.message.isEmpty ? (ask.mayTypeError ? "(type a message, or ←→ a StoreKit error)" : "(type a message)") : ask.message, ask.message.isEmpty ? .muted : .plain)])
      }
    }
    let numbers = ask.outcomes.count == 5 ? "1-5" : "1-\(ask.outcomes.count)"
    OverlayBox.box(title: title, lines: lines, footer: "←→ or \(numbers) result · tab row · space tick · enter answer · esc cancel",
                   into: &frame, preferredWidth: 72)
  }

  /// What the home screen says the last registration came to.
  package static func outcomeLines(_ outcome: RegistrationOutcome) -> [String] {
    let placement = outcome.placement
    switch outcome.kind {
    case .waiting:
      return ["\(placement): waiting for the subscription status…"]
    case .failed(let code, let message):
      return ["\(placement): error (\(code))", message, "the feature did not run"]
    case .ignoredBuiltInName:
      return ["\(placement): a built-in event name; register ignored it", "no callback, the feature did not run"]
    case .undecided(let rule):
      return ["\(placement): waiting for the tester to decide audience \(rule.index + 1)'s \(rule.rule.kind) rule", "nothing ran"]
    case .skipped(let reason):
      return ["\(placement): skipped (\(reason.rawValue))", "feature ran: \(placement)"]
    case .presented(let paywallID):
      return ["\(placement): presented \(paywallName(paywallID, placement: placement))"]
    case .dismissed(let paywallID, let result, let gating, let forNextPaywall, let featureRan):
      let first = "\(placement): \(paywallName(paywallID, placement: placement)) \(result)\(forNextPaywall ? " (for the next paywall)" : "")"
      if featureRan { return [first, "feature ran: \(placement)"] }
      return [first, "feature did not run" + (forNextPaywall ? " (closed for the next paywall)" : " (\(gating == .gated ? "gated" : "non-gated"))")]
    }
  }

  /// A paywall as the home screen names it after its placement: "paywall" when the two share a
  /// name ("onboarding: paywall declined", not "onboarding: onboarding declined").
  package static func paywallName(_ paywallID: String, placement: String) -> String {
    paywallID == placement ? "paywall" : paywallID
  }

  /// What the status bar says when a registration gets somewhere the tester should hear of at once.
  package static func notice(for outcome: RegistrationOutcome) -> String? {
    switch outcome.kind {
    case .waiting: "placement \(outcome.placement): waiting up to 5 s for the subscription status"
    case .failed(_, let message): message
    case .ignoredBuiltInName:
      "placement \(outcome.placement) is a built-in event name: the SDK ignores it (no callback, no feature)"
    case .undecided(let rule): rule.message
    case .skipped(let reason): "placement \(outcome.placement): skipped (\(reason.rawValue)); the feature ran"
    case .presented, .dismissed: nil
    }
  }

  package static var helpLines: [(String, String)] { KeyMap.helpLines }

  package static let helpFooter = "\(KeyMap.scrollHint) · other keys close"

  /// The help's lines for a terminal `width` wide: keys in a column beside their text, or, when
  /// that column would leave the text too narrow, each key above its text.
  package static func helpContent(width: Int) -> [OverlayBox.Line] {
    let keyWidth = helpLines.map { DisplayWidth.of($0.0) }.max() ?? 0
    let inner = min(width - 2, 70) - 4
    if inner - keyWidth - 2 < 30 {
      return helpLines.flatMap { key, text -> [OverlayBox.Line] in [[(key, .accent)], [("  ", .plain), (text, .plain)]] }
    }
    return helpLines.map { key, text -> OverlayBox.Line in
      [(key + String(repeating: " ", count: keyWidth - DisplayWidth.of(key) + 2), .accent), (text, .plain)]
    }
  }

  /// How far the help scrolls in a terminal of `size`.
  package static func helpScrollLimit(size: Size) -> Int {
    OverlayBox.scrollLimit(title: "Keys", lines: helpContent(width: size.width), footer: helpFooter, in: size, preferredWidth: 70)
  }

  package static func drawHelp(scroll: Int = 0, into frame: inout Frame) {
    OverlayBox.box(title: "Keys", lines: helpContent(width: frame.width), footer: helpFooter, into: &frame, preferredWidth: 70,
                   scroll: scroll)
  }
}

extension Frame {
  /// Row `y` as a frame of height 1.
  package func row(_ y: Int) -> Frame {
    var out = Frame(width: width, height: 1)
    out.draw(self, x: 0, y: -y)
    return out
  }
}
