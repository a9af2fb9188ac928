#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// The conversation with one controller process: requests out on its stdin, lines in from its
/// stdout, a bounded tail of its stderr, and its end. Five threads of its own (writer, two
/// readers, the exit waiter, the timeouts) keep every blocking call off the app's loop and the
/// task pool.
final class ControllerExchange: @unchecked Sendable {
  enum Kind { case purchase, restore }

  enum Reply {
    case purchase(PurchaseResult)
    case restore(RestorationResult)
    case problem(String)
  }

  struct Waiting {
    var kind: Kind
    var continuation: CheckedContinuation<Reply, Never>
  }

  struct State {
    var nextID = 0
    var waiting: [Int: Waiting] = [:]
    /// Set once the process has ended: every later request fails at once with it.
    var exitMessage: String?
    var stderr = StderrTail()
    /// The reader reached the end of the stream.
    var outputDone = false
    var errorsDone = false
    /// A last line of stdout cut off by the end of the process.
    var cutLine: String?
    /// Lines waiting for the writer; nil once it must stop.
    var outbox: [(id: Int, bytes: [UInt8])]? = []
    /// The most bytes a reader held of one unfinished line (the fuzz target checks the bound).
    var peakPending = 0
    /// Its threads still running.
    var threads = 0
    /// When each waiting request times out.
    var deadlines: [Int: Date] = [:]
    /// The controller has sent a `setSubscriptionStatus` line (any status, `unknown` too).
    var statusSent = false
  }

  /// Longest stdout line kept (longer ones are cut and reported as malformed); stderr lines are
  /// cut at `stderrLineLimit`.
  static let outputLineLimit = 1 << 20
  static let stderrLineLimit = 300
  /// How much stderr is read a second at most (a log, however chatty, stays well below).
  static let stderrBytesPerSecond = 2 << 20
  /// How long the exit waits for the last bytes of stdout and stderr after the process ended
  /// (a child it left behind may hold the pipes open).
  static let drainTime: Duration = .seconds(1)

  let endpoints: ControllerEndpoints
  let status: SubscriptionStatusStore
  let timeout: Double
  /// The SDK the session follows: SDK 4's purchase results have no `restored`.
  let sdk: SDKVersion
  let onProblem: @Sendable (String) -> Void
  let budget: ProblemBudget
  /// The stderr lines' own budget, so a chatty log never crowds out a problem (and the reverse).
  let logBudget: ProblemBudget
  /// Whether stderr goes to a log of its own (else it is reported as problems).
  let logsApart: Bool
  let state = Mutex(State())
  /// Wakes the writer (a line to write, or stop) and the exit waiter (a stream ended).
  let changed = Condition()

  init(endpoints: ControllerEndpoints, status: SubscriptionStatusStore, timeout: Double, sdk: SDKVersion = .latest,
       onLog: (@Sendable (String) -> Void)? = nil, onProblem: @escaping @Sendable (String) -> Void) {
    self.endpoints = endpoints
    self.status = status
    self.timeout = timeout
    self.sdk = sdk
    self.onProblem = onProblem
    budget = ProblemBudget(perSecond: 10, emit: onProblem)
    logsApart = onLog != nil
    logBudget = onLog.map { ProblemBudget(perSecond: 10, emit: $0) } ?? budget
  }

  /// False when the system refuses a thread (errno says why).
  func startThreads() -> Bool {
    func start(_ name: String, _ body: @escaping @Sendable (ControllerExchange) -> Void) -> Bool {
      state.withLock { $0.threads += 1 }
      let started = DetachedThread.start(name) {
        body(self)
        self.changed.lock()
        self.state.withLock { $0.threads -= 1 }
        self.changed.broadcast()
        self.changed.unlock()
      }
      if !started { state.withLock { $0.threads -= 1 } }
      return started
    }
    return start("controller-out") { $0.readOutput() }
      && start("controller-err") { $0.readErrors() }
      && start("controller-in") { $0.writeRequests() }
      && start("controller-exit") { $0.waitForExit() }
      && start("controller-time") { $0.expireRequests() }
  }

  /// Waits until its threads have all ended (after the process ended and `stop()`); false if
  /// they still run after `seconds`. For the fuzz target, which checks that nothing lingers.
  func waitForThreads(within seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    changed.lock()
    defer { changed.unlock() }
    while state.withLock({ $0.threads > 0 }) {
      if !changed.wait(until: deadline) { return state.withLock { $0.threads == 0 } }
    }
    return true
  }

  /// Waits, at most `seconds` of wall time, until the controller has sent a status or its output
  /// has ended (it exited or closed stdout: waiting longer cannot bring one).
  func waitForFirstStatus(within seconds: Double) -> LaunchStatus {
    let deadline = Date().addingTimeInterval(seconds)
    changed.lock()
    defer { changed.unlock() }
    while true {
      let (sent, ended) = state.withLock { ($0.statusSent, $0.outputDone) }
      if sent { return .sent }
      if ended { return .ended }
      if !changed.wait(until: deadline) {
        return state.withLock { $0.statusSent } ? .sent : .timedOut
      }
    }
  }

  /// The most bytes held of one unfinished line so far.
  var peakPendingBytes: Int { state.withLock { $0.peakPending } }

  /// Ends the process, then waits (at most `drainTime`) for the last of what it wrote: a log
  /// line it wrote just before its answer reaches the log even when the session ends at once.
  func stop() {
    changed.lock()
    state.withLock { $0.outbox = nil }
    changed.broadcast()
    changed.unlock()
    endpoints.terminate()
    waitForReaders()
  }

  // MARK: - Requests

  func request(_ kind: Kind, _ fields: [(String, JSONOutput)]) async -> Reply {
    await withCheckedContinuation { continuation in
      let registered = state.withLock { state -> (id: Int?, refusal: String?) in
        if let exit = state.exitMessage { return (nil, "the controller command is not running (\(exit))") }
        guard state.outbox != nil else { return (nil, "the controller command was stopped") }
        state.nextID += 1
        state.waiting[state.nextID] = Waiting(kind: kind, continuation: continuation)
        return (state.nextID, nil)
      }
      guard let id = registered.id else {
        continuation.resume(returning: .problem(registered.refusal ?? "the controller command is not running"))
        return
      }
      let line = JSONOutput.object([("id", .number(String(id)))] + fields).text + "\n"
      let deadline = Date().addingTimeInterval(timeout)
      changed.lock()
      state.withLock {
        $0.outbox?.append((id, Array(line.utf8)))
        $0.deadlines[id] = deadline
      }
      changed.broadcast()
      changed.unlock()
    }
  }

}
