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

extension AppModel {

  package static func handle(_ key: Key, _ state: inout AppState, now: Date) -> [AppEffect] {
    if let overlay = state.overlay {
      // A click reaches the paywall or the home screen only: never a dialog, the panel or the help.
      if case .click = key { return [] }
      return handle(key, on: overlay, &state, now: now)
    }
    let size = state.size
    // The survey's text box takes every typed key, the global ones too.
    if let prompt = state.session?.survey, prompt.typingOther != nil { return SurveyDialog.handle(key, prompt, &state, now: now) }
    switch KeyMap.global.action(for: key) {
    case .toggleLog?:
      state.showsLog.toggle()
      state.logScrollBack = 0
      return []
    case .openFullLog?:
      state.overlay = .fullLog(top: nil)
      return []
    case .openDebug?:
      state.overlay = .debug(DebugPanel())
      return []
    case .openHelp?:
      state.overlay = .help(scroll: 0)
      return []
    case .click?:
      guard case .click(let x, let y) = key else { return [] }
      return click(x: x, y: y, &state, now: now)
    case nil:
      break
    }
    // In the background only the device's keys work: nothing of the app's screen.
    if state.presentation.appSession.inBackground { return handleInBackground(key, &state, now: now) }
    // The log pane takes the page keys and home/end (↑↓ move the focus on the paywall).
    if state.showsLog, let action = KeyMap.scroll.action(for: key), action != .lineUp && action != .lineDown {
      let entries = AppView.logPaneEntries(state, size: size)
      let limit = max(0, state.log.count - entries)
      state.logScrollBack = limit - scrolled(limit - min(state.logScrollBack, limit), action, page: entries, limit: limit)
      return []
    }
    // The system's notification prompt (and the SDK's alert after a refusal) is modal over all.
    if state.presentation.permissionPrompt != nil {
      if KeyMap.promptAccept.contains(key) { return present(.answerNotificationPrompt(accept: true), &state, now: now) }
      if KeyMap.promptRefuse.contains(key) { return present(.answerNotificationPrompt(accept: false), &state, now: now) }
      return []
    }
    // The alert a call outside a paywall showed sits over everything (the SDK presents it on the
    // top view controller): the paywall's keys wait for it.
    if state.presentation.callAlert != nil {
      guard KeyMap.alert.contains(key) else { return [] }
      return present(.dismissCallAlert, &state, now: now)
    }
    guard let session = state.session else { return handleHome(key, &state, now: now) }
    if let prompt = session.survey { return SurveyDialog.handle(key, prompt, &state, now: now) }
    if session.alert != nil {
      guard KeyMap.alert.contains(key) else { return [] }
      return present(.paywall(.dismissAlert), &state, now: now)
    }
    guard !session.isBusy, let action = KeyMap.paywall.action(for: key) else { return [] }
    let slots = session.paywall.slots.map(\.slot)
    switch action {
    case .selectNumber:
      guard case .character(let c) = key, let n = c.wholeNumberValue, n <= slots.count else { return [] }
      return present(.paywall(.select(slot: slots[n - 1])), &state, now: now)
    case .selectAdjacent:
      guard let current = session.selectedSlot.flatMap(slots.firstIndex(of:)) else { return [] }
      let next = key == .left ? max(0, current - 1) : min(slots.count - 1, current + 1)
      return present(.paywall(.select(slot: slots[next])), &state, now: now)
    case .moveFocus:
      let order = PaywallScreenState.focusOrder(of: session.paywall.definition)
      guard !order.isEmpty else { return [] }
      let forward = key == .tab || key == .down
      if let current = state.focus.flatMap(order.firstIndex(of:)) {
        state.focus = order[forward ? (current + 1) % order.count : (current + order.count - 1) % order.count]
      } else {
        state.focus = order[forward ? 0 : order.count - 1]
      }
      return []
    case .activate:
      switch state.focus {
      case .products:
        state.focus = PaywallScreenState.firstPurchaseButton(of: session.paywall.definition) ?? state.focus
        return []
      case .button(let index):
        return press(button: index, session, &state, now: now)
      case nil:
        return present(.paywall(.purchase(slot: nil)), &state, now: now)
      }
    case .activateFocused:
      guard case .button(let index) = state.focus else { return [] }
      return press(button: index, session, &state, now: now)
    case .restore:
      return present(.paywall(.restore), &state, now: now)
    case .close:
      return present(.paywall(.close), &state, now: now)
    }
  }

  /// A key for the overlay on top, as TCA's `ifLet` scopes a child: the overlay's own reducer
  /// changes its own state, then the app does what it asked, in order.
  package static func handle(_ key: Key, on overlay: Overlay, _ state: inout AppState, now: Date) -> [AppEffect] {
    var overlay = overlay
    let requests = overlay.reduce(key, in: state)
    state.overlay = requests.contains(.close) ? overlay.beneath : overlay
    return requests.flatMap { perform($0, &state, now: now) }
  }

  /// Does one thing an overlay asked for (its closing is done by then).
  package static func perform(_ request: OverlayRequest, _ state: inout AppState, now: Date) -> [AppEffect] {
    switch request {
    case .close: return []
    case .effect(let effect): return [effect]
    case .notice(let text): state.notice = text
    case .tell(let text): tell(text, &state)
    case .present(let action): return present(action, &state, now: now)
    case .call(let call): return perform(call, &state, now: now)
    case .assume(let rule, let matches): state.presentation.assumedRules[rule] = matches
    }
    return []
  }

  /// A scroll offset (rows from the top) moved by a scroll key, within 0...limit.
  package static func scrolled(_ offset: Int, _ action: KeyMap.Scroll, page: Int, limit: Int) -> Int {
    let offset = min(offset, limit), page = max(1, page)
    let next = switch action {
    case .lineUp: offset - 1
    case .lineDown: offset + 1
    case .pageUp: offset - page
    case .pageDown: offset + page
    case .top: 0
    case .bottom: limit
    }
    return min(max(0, next), limit)
  }

  package static func press(button index: Int, _ session: PaywallSession, _ state: inout AppState, now: Date) -> [AppEffect] {
    guard case .button(let button) = session.paywall.definition.components[index] else { return [] }
    return present(.button(button.action), &state, now: now)
  }

  /// With no paywall up, the home screen: ↑↓ choose a placement and Enter registers it (without
  /// campaigns Enter shows the last paywall again); q or Esc quits.
  package static func handleHome(_ key: Key, _ state: inout AppState, now: Date) -> [AppEffect] {
    let placements = state.project.placements
    switch KeyMap.home.action(for: key) {
    case .move?:
      guard !placements.isEmpty else { return [] }
      let step = key == .up || key == .backTab ? placements.count - 1 : 1
      state.homeSelection = (min(state.homeSelection, placements.count - 1) + step) % placements.count
      followHomeSelection(&state)
      return []
    case .page?:
      guard !placements.isEmpty else { return [] }
      let page = max(1, HomeScreen.window(state, size: AppView.paywallSize(state))?.visible ?? 1)
      let current = min(state.homeSelection, placements.count - 1)
      state.homeSelection = switch key {
      case .pageUp: max(0, current - page)
      case .pageDown: min(placements.count - 1, current + page)
      case .home: 0
      default: placements.count - 1
      }
      followHomeSelection(&state)
      return []
    case .registerNumber?:
      guard case .character(let c) = key, let n = c.wholeNumberValue, n <= placements.count else { return [] }
      state.homeSelection = n - 1
      followHomeSelection(&state)
      return present(.register(placement: placements[n - 1], params: [:]), &state, now: now)
    case .enter?:
      if !placements.isEmpty {
        return present(.register(placement: placements[min(state.homeSelection, placements.count - 1)], params: [:]), &state, now: now)
      }
      guard let id = state.presentation.lastPaywallID ?? state.project.paywalls.first?.id else { return [] }
      return present(.open(paywallID: id, selected: nil), &state, now: now)
    case .quit?:
      state.quitRequested = true
      return [.quit]
    case nil:
      return []
    }
  }

  /// Keeps the home screen's scroll where the view last drew it, so the list moves only when the
  /// selection walks past its edge.
  package static func followHomeSelection(_ state: inout AppState) {
    state.homeScroll = HomeScreen.window(state, size: AppView.paywallSize(state))?.offset ?? 0
  }

  /// A click hits what the view drew there: a card selects its product (and takes the focus), a
  /// button is activated; a click anywhere on an alert dismisses it.
  package static func click(x: Int, y: Int, _ state: inout AppState, now: Date) -> [AppEffect] {
    // A click answers no prompt: its two buttons want a key each.
    if state.presentation.permissionPrompt != nil { return [] }
    guard let session = state.session else { return handleHome(.enter, &state, now: now) }
    if session.alert != nil { return present(.paywall(.dismissAlert), &state, now: now) }
    guard !session.isBusy else { return [] }
    let regions = AppView.paywallLayout(AppView.screen(state, session), size: AppView.paywallSize(state)).regions
    guard let hit = regions.first(where: { $0.contains(x: x, y: y) }) else { return [] }
    switch hit.target {
    case .slot(let slot):
      state.focus = .products
      return present(.paywall(.select(slot: slot)), &state, now: now)
    case .button(let index):
      state.focus = .button(index)
      return press(button: index, session, &state, now: now)
    }
  }
}
