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

/// What the terminal app holds around the presenter: focus, the overlay (help, debug, ask…), the log,
/// the spinner and the size. Only `AppModel.update` changes it; the presenter's state is scoped in.
package struct AppState: Sendable, Equatable {
  /// The SDK's side: the project, the status, the paywall on screen and why.
  package var presentation: PresentationState
  package var focus: FocusTarget?
  /// What is open over the screen and takes the keys: the help, the debug panel, the full-screen
  /// log, a question (the ask dialog, an undecided rule); nil: the screen has them.
  package var overlay: Overlay?
  /// The event log pane (`l`): not modal, it shows beside whatever is open.
  package var showsLog = false
  /// The simulated store as the debug panel shows it; nil with other controllers.
  package var store: StorePanel?
  /// The terminal's size, for mouse hit-testing (the same layout the view draws).
  package var size = Size(width: 80, height: 24)
  /// The newest events and notices, oldest first, at most `logLimit`.
  package private(set) var log: [String] = []
  package static let logLimit = 500
  /// Controller problems and warnings, shown in the status bar until their timer clears them
  /// (`AppModel.noticeSeconds`); the log keeps them.
  package var notice: String? {
    didSet { if notice != nil { noticeID &+= 1 } }
  }
  /// Counts the notices set, so a timer clears only the notice it was started for.
  package private(set) var noticeID = 0
  /// How many entries the log pane is scrolled back from the newest; 0: it follows the newest.
  package var logScrollBack = 0
  package var spinnerFrame = 0
  /// Asked for a tick that has not come back yet (ticks drive the spinner and the panel's clock).
  package var tickPending = false
  package var quitRequested = false
  /// The signal (or the terminal closing) that ended the session, if one did: the first one wins.
  package var termination: Termination?
  /// What the last world change (a debug key, a script step) did, numbered so a script can tell
  /// its own report from an older one.
  package var lastReport: NumberedReport?
  /// The highlighted placement on the home screen.
  package var homeSelection = 0
  /// The first placement the home screen shows when they do not all fit; the view moves it as
  /// little as it must to keep the selection in sight.
  package var homeScroll = 0
  /// `run --watch`: the diagnostics of the project as last saved, when it does not load; drawn
  /// over the last good screen until a save that loads.
  package var reloadErrors: [String]?

  package init(project: Project, options: PaywallOptions? = nil, status: SubscriptionStatus = .unknown,
              assignments: AssignmentBook = AssignmentBook(userID: "anonymous")) {
    presentation = PresentationState(project: project, options: options, status: status, assignments: assignments)
  }

  package var project: Project { presentation.project }
  package var status: SubscriptionStatus { presentation.status }
  /// The paywall on screen, if any.
  package var session: PaywallSession? { presentation.session }
  package var closed: ClosedPaywall? { presentation.closed }
  package var registration: Registration? { presentation.registration }
  package var userAttributes: [String: String] { presentation.userAttributes }

  package mutating func appendLog(_ line: String) {
    log.append(line)
    if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
    // A pane scrolled back stays on what it shows.
    if logScrollBack > 0 { logScrollBack = min(logScrollBack + 1, log.count - 1) }
  }
}

/// What a change of the world did, in one line, or why it did nothing.
/// A world report with its place in the session's sequence: `play` tells its own step's report
/// from an earlier one by the number.
package struct NumberedReport: Sendable, Hashable {
  package var number: Int
  package var report: WorldReport
}

package struct WorldReport: Sendable, Hashable {
  package var message: String
  package var failed: Bool

  package init(_ message: String, failed: Bool = false) {
    self.message = message
    self.failed = failed
  }
}

/// What the debug panel shows of the simulated store: its clock, subscriptions, pending purchases
/// and armed faults, as of the store's last change.
package struct StorePanel: Sendable, Hashable {
  package var clock: Date
  package var timeRate: String
  package var subscriptions: [StoreSubscription]
  package var pending: [PendingPurchase]
  package var nextEvent: Date?
  /// Subscription groups whose introductory offer is used: their trials are not offered again.
  package var usedIntroGroups: Set<String>
  /// What win-back offers' rules read from the store.
  package var offerHistory: OfferHistory = .unknownHistory
  package var faults: [String]
  /// A Play catalog's store: the license-test card purchases pay with (nil: not a Play catalog).
  package var testCard: PlayTestCard?
  /// A Play catalog's store: whether the app acknowledges purchases.
  package var acknowledges = true

  package init(clock: Date, timeRate: String, subscriptions: [StoreSubscription], pending: [PendingPurchase],
              nextEvent: Date?, usedIntroGroups: Set<String>, faults: [String]) {
    self.clock = clock
    self.timeRate = timeRate
    self.subscriptions = subscriptions
    self.pending = pending
    self.nextEvent = nextEvent
    self.usedIntroGroups = usedIntroGroups
    self.faults = faults
  }
}

/// A change of the world around the app: what the debug panel's keys and a play script's steps
/// (`status`, store commands, `fail`, `latency`, `drop`, `advance`) do. The runtime carries it out
/// and answers with `.worldChanged`.
package enum DebugAction: Sendable, Hashable {
  case setStatus(SubscriptionStatus)
  /// Move the clocks; months (`1M`, `1y`) are calendar months from the store's now.
  case advanceClock(ClockDistance)
  /// Jump the clock to the store's next renewal, expiry or grace period end.
  case advanceToNextEvent
  /// Anything a play script can do to the simulated store.
  case store(StoreAction)
  case failNextPurchase(String)
  /// The next purchase fails with a store error (`userCancelled`: it comes back cancelled).
  case failNextPurchaseWith(StoreError)
  /// The next purchase fails as Google Play answers (Android).
  case failNextPurchaseWithPlay(PlayBillingResponse)
  case failNextRestore(StoreError)
  /// Every request waits this long (0: no latency).
  case setLatency(seconds: Double)
  case dropNextResponse
  /// What the next purchase or restore returns, and after how long (a recording's `answer`).
  case answerNext(RecordedAnswer)
}

/// Work `update` asks the runtime to do; results come back as messages.
package enum AppEffect: Sendable, Equatable {
  /// Change the world; `announce`: tell the tester what it did (the panel does, a script does not).
  case debug(DebugAction, announce: Bool)
  case purchase(StoreProduct, slot: String)
  case restore
  case emit(PaywallEvent)
  case saveStatus(SubscriptionStatus)
  case answerAsk(id: Int, AskPurchaseController.Answer)
  /// Send `.registrationTimedOut(id)` after `seconds` of the app's clock.
  case startStatusTimeout(id: Int, seconds: Double)
  /// Send `.presentation(.notificationDue(id:))` after `seconds` of the store's time.
  case startNotificationTimer(id: String, seconds: Double)
  case saveAssignments(AssignmentBook)
  /// Send `.tick` after `seconds` of real time, with the store as it is then (only an animated
  /// front end ticks: `play` has no spinner).
  case tick(after: Double)
  /// Send `.noticeExpired(id)` after `seconds` of real time (only an animated front end: in `play`
  /// a notice stays, so a script's screen does not depend on the wall clock).
  case expireNotice(id: Int, after: Double)
  /// The app's process died (a relaunch, a reinstall, however asked for): the controller's calls
  /// it made end, and their answers reach no one.
  case processEnded
  /// The session is over: the loop stops.
  case quit
}

/// What reaches `update`: keys, results of effects, and changes from outside.
package enum AppMessage: Sendable {
  /// Messages of which only the newest queued one matters: 1 the status, 2 the store.
  package var newestOnly: Int? {
    switch self {
    case .presentation(.statusChanged): 1
    case .storeChanged: 2
    default: nil
    }
  }

  case key(Key)
  /// What the SDK's side of the app does, from outside its keys: the app's calls (`register`,
  /// `purchase(product)`, `restorePurchases()`, attributes, overrides, a paywall opened directly,
  /// the launch and a relaunch), the controller's answers, the status and its timeout. The model
  /// hands it to the presenter unchanged (as TCA's `Scope` does), adding only what the terminal
  /// shows of it.
  case presentation(PresentationAction)
  /// The controller's answer (`.purchaseFinished`, `.restoreFinished`) to a call the app's
  /// process `process` made: the runtime hands it on as `.presentation` only while that process lives.
  case answer(PresentationAction, process: Int)
  case askRequested(AskPurchaseController.Request)
  /// Something to tell the tester (a warning): the status bar and the log.
  case notice(String)
  /// The purchase controller misbehaved (a malformed line, a crash, a timeout): also a
  /// `controller_error` event, so `--events` and `play` record it.
  case controllerProblem(String)
  /// A line of the command controller's stderr, its log: the log pane only (no notice, no event).
  case controllerLog(String)
  /// The simulated store changed (or its clock moved while the debug panel is open).
  case storeChanged(StorePanel)
  /// Change the world (a play script's step); the runtime answers with `.worldChanged`.
  case world(DebugAction)
  /// What a change of the world did; `announce`: show it to the tester.
  case worldChanged(WorldReport, announce: Bool)
  /// The tick the model asked for; `store` is the store as it is now (nil without one).
  case tick(store: StorePanel?)
  /// The timer of notice `id` ran out: the status bar lets it go if it still shows it.
  case noticeExpired(id: Int)
  case resized(Size)
  /// Ctrl-C, SIGTERM, SIGHUP, the terminal closing: leave cleanly.
  case terminate(Termination)
  /// `run --watch`: the project's files were saved and it loaded again (with its warnings).
  case projectReloaded(Project, warnings: [String])
  /// `run --watch`: the project's files were saved and it no longer loads: its diagnostics, one line each.
  case projectInvalid([String])
}
