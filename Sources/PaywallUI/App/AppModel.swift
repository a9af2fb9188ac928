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

/// The terminal app's one update function: the state and one message in, effects out. Pure. It
/// keeps only terminal concerns (focus, overlays, log, spinner, size) and scopes the presenter
/// (`Presenter`, in PaywallModel), which owns everything the SDK does; `play` is the same loop
/// with keys from a script.
package enum AppModel {
  /// `now` is the app's clock (the simulated one in `play`): the presenter formats dates with it.
  /// How long a notice stays in the status bar (wall time; the log keeps it).
  package static let noticeSeconds = 6.0

  package static func update(_ state: inout AppState, _ message: AppMessage, now: Date) -> [AppEffect] {
    let noticeBefore = state.noticeID
    var effects = handle(message, &state, now: now)
    // One timer per notice, and none while no notice shows: an idle app uses no CPU.
    if state.noticeID != noticeBefore, state.notice != nil, !state.quitRequested {
      effects.append(.expireNotice(id: state.noticeID, after: noticeSeconds))
    }
    // Ticks are asked for, one at a time, while something moves: the spinner, or the store's
    // clock in the open debug panel.
    let moving = (state.session?.isBusy ?? false) || (state.overlay?.debug != nil && state.store != nil)
    if moving && !state.tickPending && !state.quitRequested {
      state.tickPending = true
      effects.append(.tick(after: 0.1))
    }
    return effects
  }

  /// What goes with the app's process at a relaunch or a reinstall: the controller's calls in
  /// flight (`.processEnded`), the debug panel, and the ask controller's question, answered as a cancel (a failure for a restore) so its call ends and
  /// a key pressed after cannot answer it for the new process.
  static func closingForTheProcess(_ state: inout AppState) -> [AppEffect] {
    var effects: [AppEffect] = []
    if case .ask(let dialog, let over)? = state.overlay {
      let outcome: AskPurchaseController.Outcome = if case .restore = dialog.request.question { .failed } else { .cancelled }
      effects.append(.answerAsk(id: dialog.request.id, AskPurchaseController.Answer(outcome: outcome, message: "the app was killed")))
      state.overlay = over
    }
    state.overlay = state.overlay?.closingDebugPanel
    return effects + [.processEnded]
  }

  package static func handle(_ message: AppMessage, _ state: inout AppState, now: Date) -> [AppEffect] {
    switch message {
    case .key(let key):
      return handle(key, &state, now: now)
    case .presentation(let action):
      var dying: [AppEffect] = []
      switch action {
      case .relaunch:
        dying = closingForTheProcess(&state)
        state.notice = "the app was killed and launched again"
      case .reinstall:
        dying = closingForTheProcess(&state)
        state.notice = "the app was deleted and installed again"
      case .setOverrides(let overrides):
        state.notice = overrides.isEmpty ? "overrides cleared" : "overrides: " + overrides.map(\.description).joined(separator: ", ")
      default:
        break
      }
      return dying + present(action, &state, now: now)
    case .answer(let action, _):
      return handle(.presentation(action), &state, now: now)
    case .storeChanged(let panel):
      state.store = panel
      return present(.introOffersUsed(panel.usedIntroGroups), &state, now: now)
        + present(.offerHistoryChanged(panel.offerHistory), &state, now: now)
        + present(.storeSubscriptionsChanged(panel.subscriptions), &state, now: now)
    case .askRequested(let request):
      state.overlay = .asking(AskDialog(for: request, state), over: state.overlay)
      return []
    case .notice(let text):
      tell(text, &state)
      return []
    case .controllerProblem(let text):
      state.notice = text
      return record([.emit(PaywallEvent(.controllerError, [("message", .string(text))]))], &state)
    case .controllerLog(let text):
      state.appendLog("controller: \(text)")
      return []
    case .world(let action):
      return [.debug(action, announce: false)]
    case .worldChanged(let report, let announce):
      state.lastReport = NumberedReport(number: (state.lastReport?.number ?? 0) + 1, report: report)
      if announce { tell(report.message, &state) }
      return []
    case .tick(let store):
      state.tickPending = false
      if state.session?.isBusy == true { state.spinnerFrame &+= 1 }
      if let store, state.overlay?.debug != nil { state.store = store }
      return []
    case .noticeExpired(let id):
      if id == state.noticeID { state.notice = nil }
      return []
    case .resized(let size):
      state.size = size
      return []
    case .projectReloaded(let project, let warnings):
      return reload(project, warnings: warnings, &state, now: now)
    case .projectInvalid(let lines):
      state.reloadErrors = lines
      state.appendLog("! the project no longer loads: \(lines.first ?? "")")
      return []
    case .terminate(let termination):
      state.termination = state.termination ?? termination
      state.quitRequested = true
      state.notice = termination.reason
      return [.quit]
    }
  }

  /// A saved project in place of the running one (`run --watch`): the session stays (status,
  /// store, user, selection), the open paywall is drawn from its new definition, or, gone from
  /// the project, gives way to the home screen. The error overlay of a failed save goes.
  package static func reload(_ project: Project, warnings: [String], _ state: inout AppState, now: Date) -> [AppEffect] {
    state.reloadErrors = nil
    switch Presenter.reload(project, &state.presentation, now: now) {
    case .closed(let id):
      state.focus = nil
      tell("paywall \(quoting: id) is no longer in the project: back to the home screen", &state)
    case .kept:
      // A focused button that the edit removed gives the focus back to the paywall's first choice.
      if let session = state.session, case .button(let index)? = state.focus {
        let components = session.paywall.definition.components
        if !components.indices.contains(index) { state.focus = PaywallScreenState(paywall: session.paywall).focus }
        else if case .button = components[index] {} else { state.focus = PaywallScreenState(paywall: session.paywall).focus }
      }
      tell((["reloaded \(project.name)"] + warnings).joined(separator: "; "), &state)
    case .nothingOpen:
      tell((["reloaded \(project.name)"] + warnings).joined(separator: "; "), &state)
    }
    let placements = project.placements.count
    state.homeSelection = placements == 0 ? 0 : min(state.homeSelection, placements - 1)
    return []
  }

  package static func tell(_ text: String, _ state: inout AppState) {
    state.notice = text
    state.appendLog("! \(text)")
  }

  /// Runs a presenter action and carries its effects out to the runtime: events go to the log, a
  /// newly opened paywall gets its first focus, and what a registration came to reaches the status
  /// bar as the SDK's handler would report it.
  package static func present(_ action: PresentationAction, _ state: inout AppState, now: Date) -> [AppEffect] {
    let outcome = state.presentation.outcome
    let misled = misleadingTrialCopy(state)
    let effects = Presenter.update(&state.presentation, action, now: now)
    var out: [AppEffect] = []
    for effect in effects {
      switch effect {
      case .purchase(let product, let slot): out.append(.purchase(product, slot: slot))
      case .restore: out.append(.restore)
      case .emit(let event):
        state.appendLog(EventLine.text(event))
        if event.name == .paywallOpen, let session = state.session {
          state.focus = PaywallScreenState(paywall: session.paywall).focus
        }
        // A delivered notification is a banner (the notice row), as iOS shows one.
        if event.name == .notificationDeliver { state.notice = AppView.banner(for: event) }
        out.append(.emit(event))
      case .saveStatus(let status): out.append(.saveStatus(status))
      case .saveAssignments(let book): out.append(.saveAssignments(book))
      case .scheduleStatusTimeout(let id, let seconds): out.append(.startStatusTimeout(id: id, seconds: seconds))
      case .scheduleNotification(let id, let seconds): out.append(.startNotificationTimer(id: id, seconds: seconds))
      }
    }
    if state.session == nil { state.focus = nil }
    if let slot = misleadingTrialCopy(state), slot != misled {
      state.appendLog("! free-trial copy shows while \(quoting: slot) (no trial) is selected: the SDK decides it for the whole paywall, so a device shows it too")
    }
    if let now = state.presentation.outcome, now != outcome, case .undecided(let rule) = now.kind,
       let registration = state.presentation.undecidedRegistration, !registration.isImplicit {
      // `run` asks the tester what the rule decides (play fails instead, naming --assume-rule).
      state.overlay = .asking(RuleDialog(rule: rule, registration: registration), over: state.overlay)
    }
    if let now = state.presentation.outcome, now != outcome, let notice = AppView.notice(for: now) {
      // A dropped built-in name leaves no event behind: the log says so too.
      if case .ignoredBuiltInName = now.kind { tell(notice, &state) } else { state.notice = notice }
    }
    return out
  }

  /// The selected slot when the paywall on screen shows its free-trial copy over it though it has no
  /// trial (the SDK's paywall-wide `isFreeTrialAvailable`, `Paywall/Request/Operators/AddPaywallProducts.swift`).
  package static func misleadingTrialCopy(_ state: AppState) -> String? {
    guard let session = state.session, !session.isDismissed, let selected = session.selectedSlot,
          session.paywall.trialCopyMisleads(selected: selected) else { return nil }
    return selected
  }

  package static func record(_ effects: [AppEffect], _ state: inout AppState) -> [AppEffect] {
    for case .emit(let event) in effects { state.appendLog(EventLine.text(event)) }
    return effects
  }
}
