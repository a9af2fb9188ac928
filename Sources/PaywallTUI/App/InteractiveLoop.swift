import Foundation
import PaywallModel
import Synchronization

/// The interactive session: the terminal feeds keys, resizes and signals into the runtime; the
/// status stream feeds changes the moment they happen; after each batch of messages the screen is
/// drawn again (ncurses sends only what changed). Nothing wakes up while nothing happens, except
/// the spinner while a controller works.
enum InteractiveLoop {
  /// How the session ended, for the exit code: 0 after `q`, 128 + the signal after one.
  struct Ending {
    var exitCode: Int32
    var summary: String?
  }

  static func run(_ runtime: AppRuntime, start: AppMessage?) throws(TerminalUnavailable) -> Ending {
    let opening = try Opening()
    return try run(runtime, opening: opening, start: start)
  }

  /// A terminal that starts opening before the app exists (ncurses starts while the project
  /// loads); what it reports waits, in order, until `run` hands it a runtime.
  final class Opening: Sendable {
    let terminal: CursesTerminal
    private let relay: Relay

    private final class Relay: Sendable {
      let state = Mutex<(runtime: AppRuntime?, pending: [TerminalEvent])>((nil, []))
      /// The exit code of the first `.terminate` (128 + its signal).
      let exitCode = Mutex<Int32?>(nil)
    }

    /// 128 + the signal that ended the session, 0 when none did.
    var exitCode: Int32 { relay.exitCode.withLock { $0 } ?? 0 }

    init() throws(TerminalUnavailable) {
      let relay = Relay()
      self.relay = relay
      terminal = CursesTerminal { event in
        if case .terminate(_, let code) = event { relay.exitCode.withLock { $0 = $0 ?? code } }
        let runtime = relay.state.withLock { state -> AppRuntime? in
          if state.runtime == nil { state.pending.append(event) }
          return state.runtime
        }
        runtime.map { Opening.deliver(event, to: $0) }
      }
      try terminal.begin()
    }

    /// Gives the terminal back without running the app (loading the project failed).
    func cancel() {
      try? terminal.waitUntilStarted()
      terminal.stop()
    }

    fileprivate func attach(_ runtime: AppRuntime) {
      relay.state.withLock { state in
        for event in state.pending { Opening.deliver(event, to: runtime) }
        state = (runtime, [])
      }
    }

    private static func deliver(_ event: TerminalEvent, to runtime: AppRuntime) {
      switch event {
      case .key(let key): runtime.send(.key(key))
      case .resized(let size): runtime.send(.resized(size))
      case .terminate(let reason, _): runtime.send(.terminate(reason: reason))
      }
    }
  }

  /// `afterFirstFrame` runs once the first frame is handed to the terminal: work that can wait
  /// (saving a new user's id) waits, and does not compete with the first paint for the CPU.
  static func run(_ runtime: AppRuntime, opening: Opening, start: AppMessage?,
                  afterFirstFrame: () -> Void = {}) throws(TerminalUnavailable) -> Ending {
    let terminal = opening.terminal
    defer { terminal.stop() }
    try terminal.waitUntilStarted()
    opening.attach(runtime)
    runtime.send(.resized(terminal.initialSize))
    if let start { runtime.send(start) }
    // The first frame is drawn before any task starts, and this thread waits until it is
    // written: where the system packs threads onto one CPU (this VM does), the terminal thread
    // would otherwise wait for whatever this thread starts next.
    runtime.drain(budget: .milliseconds(30))
    if !runtime.state.quitRequested { terminal.presentAndWait(AppView.render(runtime.state, size: runtime.state.size)) }
    afterFirstFrame()
    let observer = Task.detached {
      for await status in runtime.statusStore.updates() { runtime.send(.statusChanged(status)) }
    }
    defer { observer.cancel() }
    let state = runBlocking { await loop(runtime, terminal) }
    return ending(state, exitCode: opening.exitCode)
  }

  private static func loop(_ runtime: AppRuntime, _ terminal: CursesTerminal) async -> AppState {
    var ticker: Task<Void, Never>?
    defer { ticker?.cancel() }
    while true {
      let state = runtime.state
      if state.quitRequested { return state }
      // Ticks drive the spinner, and keep the debug panel's store clock current while it is open.
      let busy = (state.session?.isBusy ?? false) || (state.showsDebug && state.store != nil)
      if busy && ticker == nil {
        ticker = Task.detached {
          while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: 100_000_000)
            runtime.send(.tick)
          }
        }
      } else if !busy, let running = ticker {
        running.cancel()
        ticker = nil
      }
      await runtime.waitForMessages()
      runtime.drain(budget: .milliseconds(30))
      if !runtime.state.quitRequested { terminal.present(AppView.render(runtime.state, size: runtime.state.size)) }
    }
  }

  private static func ending(_ state: AppState, exitCode code: Int32) -> Ending {
    var summary = "status: \(state.status)"
    if let (id, result) = state.closed { summary = "\(id): \(result) · " + summary }
    return Ending(exitCode: code, summary: summary)
  }
}

/// The interactive app as a library, for Swift users who plug in their own `PurchaseController`:
///
/// ```swift
/// let project = try PaywallApp.loadProject("paywalls")
/// let status = SubscriptionStatusStore()
/// try PaywallApp(project: project, controller: MyController(status: status), status: status).run()
/// ```
public final class PaywallApp {
  public struct Options: Sendable {
    /// The paywall to open first (default: the project's first).
    public var paywall: String?
    /// Where the status is cached between launches; nil keeps it in memory.
    public var stateDirectory: StateDirectory?
    /// Also called with every event, in order (e.g. to log them).
    public var onEvent: (@Sendable (PaywallEvent) -> Void)?

    public init(paywall: String? = nil, stateDirectory: StateDirectory? = nil, onEvent: (@Sendable (PaywallEvent) -> Void)? = nil) {
      self.paywall = paywall
      self.stateDirectory = stateDirectory
      self.onEvent = onEvent
    }
  }

  public let project: Project
  public let controller: any PurchaseController
  public let status: SubscriptionStatusStore
  public let options: Options

  public init(project: Project, controller: any PurchaseController, status: SubscriptionStatusStore, options: Options = Options()) {
    self.project = project
    self.controller = controller
    self.status = status
    self.options = options
  }

  /// Loads a project directory, app.json or paywall file; the error lists every problem.
  public static func loadProject(_ path: String, catalog: String? = nil) throws(ValidationFailure) -> Project {
    let result = ProjectLoader.load(path: path, catalogPath: catalog)
    guard let project = result.project else { throw ValidationFailure(result.errors) }
    return project
  }

  /// Runs in the terminal until the user quits; the terminal is restored on every exit path.
  /// Returns the exit code: 0, 128 + N after signal N, 141 when stdout's reader went away before
  /// the summary line, 1 when it could not be written otherwise. Throws when stdin/stdout are not
  /// a terminal, TERM is unknown or cannot move the cursor.
  @discardableResult
  public func run() throws(TerminalUnavailable) -> Int32 {
    // Like the command line: one writer per state directory, a second session only reads.
    let access = options.stateDirectory.map(StateAccess.open)
    // A refused directory (another user's, writable by others) is not even read.
    let cache = access?.refusal == nil ? options.stateDirectory.map(StatusCache.init(directory:)) : nil
    if let cache, status.status == .unknown { status.set(cache.load(repair: access?.canWrite ?? false).0) }
    let onEvent = options.onEvent
    let runtime = AppRuntime(state: AppState(project: project, options: project.options), controller: FaultInjectingController(controller),
                             statusStore: status, clock: LiveTimeSource(), statusCache: access?.canWrite == true ? cache : nil) { event in onEvent?(event) }
    if let warning = access?.warning { runtime.send(.notice(warning)) }
    let first = options.paywall ?? project.paywalls.first?.id
    let ending = try InteractiveLoop.run(runtime, start: first.map { .open(paywallID: $0, selected: nil) })
    runtime.flushState()
    withExtendedLifetime(access) {}
    // The summary goes through the same checked write as the command line's output: a reader that
    // went away gives 141, another failure a line on stderr and 1, never a trap or a silent 0.
    if let summary = ending.summary, let code = FileSystem.writeAll(summary + "\n", to: STDOUT_FILENO) {
      if code == EPIPE { return 141 }
      _ = FileSystem.writeAll(OutputFailure(target: OutputFailure.standardOutput, code: code).message + "\n", to: STDERR_FILENO)
      return ending.exitCode == 0 ? 1 : ending.exitCode
    }
    return ending.exitCode
  }
}
