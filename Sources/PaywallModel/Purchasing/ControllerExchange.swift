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

  private struct Waiting {
    var kind: Kind
    var continuation: CheckedContinuation<Reply, Never>
  }

  private struct State {
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

  private let endpoints: ControllerEndpoints
  private let status: SubscriptionStatusStore
  private let timeout: Double
  /// The SDK the session follows: SDK 4's purchase results have no `restored`.
  private let sdk: SDKVersion
  private let onProblem: @Sendable (String) -> Void
  private let budget: ProblemBudget
  /// The stderr lines' own budget, so a chatty log never crowds out a problem (and the reverse).
  private let logBudget: ProblemBudget
  /// Whether stderr goes to a log of its own (else it is reported as problems).
  private let logsApart: Bool
  private let state = Mutex(State())
  /// Wakes the writer (a line to write, or stop) and the exit waiter (a stream ended).
  private let changed = Condition()

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

  func stop() {
    changed.lock()
    state.withLock { $0.outbox = nil }
    changed.broadcast()
    changed.unlock()
    endpoints.terminate()
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

  /// Fails each request still waiting when its `timeout` is up. One thread for all of them:
  /// nothing of a request outlives it (a timer per request would wait out its full time).
  private func expireRequests() {
    changed.lock()
    while true {
      let (stopped, next, expired) = state.withLock { state -> (Bool, Date?, [Int]) in
        let now = Date()
        let expired = state.deadlines.filter { $0.value <= now }.keys.sorted()
        for id in expired { state.deadlines[id] = nil }
        return (state.outbox == nil, state.deadlines.values.min(), expired)
      }
      if stopped { break }
      if !expired.isEmpty {
        changed.unlock()
        let note = state.withLock { $0.stderr.note }
        for id in expired {
          fail(id, "the controller command did not answer request \(id) within \(CommandPurchaseController.format(timeout))" + note)
        }
        changed.lock()
        continue
      }
      if let next {
        _ = changed.wait(until: next)
      } else {
        changed.wait()
      }
    }
    changed.unlock()
  }

  /// Fails request `id` with `message` (reported as a problem), if it is still waiting.
  private func fail(_ id: Int, _ message: String) {
    guard let waiting = state.withLock({ state -> Waiting? in
      state.deadlines[id] = nil
      return state.waiting.removeValue(forKey: id)
    }) else { return }
    onProblem(message)
    waiting.continuation.resume(returning: .problem(message))
  }

  // MARK: - Writing

  /// Writes queued requests to the controller's stdin, in order, on this thread alone: a
  /// controller that stops reading blocks no one else, and SIGPIPE is blocked here, so a closed
  /// stdin is an error code (EPIPE) rather than the end of the app.
  private func writeRequests() {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
    defer { close(endpoints.input) }
    while true {
      changed.lock()
      var next: (id: Int, bytes: [UInt8])?
      while true {
        let (stopped, first) = state.withLock { state -> (Bool, (id: Int, bytes: [UInt8])?) in
          guard let outbox = state.outbox else { return (true, nil) }
          guard !outbox.isEmpty else { return (false, nil) }
          return (false, state.outbox!.removeFirst())
        }
        if stopped { changed.unlock(); return }
        if let first { next = first; break }
        changed.wait()
      }
      changed.unlock()
      guard let (id, bytes) = next else { continue }
      if let code = bytes.withUnsafeBytes({ FileSystem.writeAll($0, to: endpoints.input) }) {
        // Most often the process has ended and its end is about to be noticed: that says more
        // than "Broken pipe", so the request waits a moment for it before failing on its own.
        // Once the end is known, `exited` fails this request with how it ended (it holds every
        // request registered before the end): failing it here too would race it and could win
        // with only "Broken pipe".
        waitForExitMessage(upTo: .milliseconds(1000))
        let (ended, note) = state.withLock { ($0.exitMessage != nil, $0.stderr.note) }
        if ended { continue }
        fail(id, "cannot send request \(id) to the controller command: \(String(cString: strerror(code)))"
          + (code == EPIPE ? " (it closed its stdin)" : "") + note)
      }
    }
  }

  private func waitForExitMessage(upTo limit: Duration) {
    let deadline = Date().addingTimeInterval(Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18)
    changed.lock()
    while state.withLock({ $0.exitMessage == nil }) && changed.wait(until: deadline) {}
    changed.unlock()
  }

  // MARK: - Reading

  /// Reads `fd` to its end, handing each chunk to `body`.
  private static func readAll(_ fd: Int32, _ body: (UnsafeRawBufferPointer) -> Void) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
    defer { buffer.deallocate() }
    while true {
      let count = read(fd, buffer.baseAddress, buffer.count)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }
    close(fd)
  }

  private func notePending(_ count: Int) {
    state.withLock { $0.peakPending = max($0.peakPending, count) }
  }

  private func readOutput() {
    var lines = LineSplitter(limit: Self.outputLineLimit)
    Self.readAll(endpoints.output) { chunk in
      lines.feed(chunk) { line, _ in handle(line: line) }
      notePending(lines.pending.count)
    }
    // A last line with no newline counts when it is whole; one cut off by the process ending (a
    // kill mid-write) is reported as that, not as a malformed line.
    var cut: String?
    if let (last, _) = lines.finish() {
      if (try? JSONParser.parse(bytes: last))?.members != nil {
        handle(line: last)
      } else {
        cut = UntrustedText.sanitize(String(decoding: last.prefix(120), as: UTF8.self))
      }
    }
    changed.lock()
    state.withLock {
      $0.cutLine = cut
      $0.outputDone = true
    }
    changed.broadcast()
    changed.unlock()
  }

  private func readErrors() {
    var lines = LineSplitter(limit: Self.stderrLineLimit)
    func take(_ line: [UInt8]) {
      guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { return }
      state.withLock { $0.stderr.append(line) }
      let prefix = logsApart ? "" : "controller stderr: "
      logBudget.report { prefix + UntrustedText.sanitize(String(decoding: line, as: UTF8.self)) }
    }
    // Past `stderrBytesPerSecond`, this thread pauses until the second is over: the controller
    // then waits on its own writes, and a flood costs us a bounded share of a CPU.
    let clock = ContinuousClock()
    var second = clock.now
    var bytesThisSecond = 0
    Self.readAll(endpoints.errors) { chunk in
      lines.feed(chunk) { line, _ in take(line) }
      notePending(lines.pending.count)
      bytesThisSecond += chunk.count
      if bytesThisSecond >= Self.stderrBytesPerSecond {
        let rest = second + .seconds(1) - clock.now
        if rest > .zero { usleep(UInt32(rest.components.attoseconds / 1_000_000_000_000)) }
        second = clock.now
        bytesThisSecond = 0
      }
    }
    if let (last, _) = lines.finish() { take(last) }
    changed.lock()
    state.withLock { $0.errorsDone = true }
    changed.broadcast()
    changed.unlock()
  }

  /// Waits for the process to end, then (for a bounded time) for the last of its output, so an
  /// answer it wrote just before exiting is never lost; then fails whatever still waits.
  private func waitForExit() {
    let how = endpoints.waitForExit()
    let deadline = Date().addingTimeInterval(Double(Self.drainTime.components.seconds))
    changed.lock()
    while !state.withLock({ $0.outputDone && $0.errorsDone }) && changed.wait(until: deadline) {}
    changed.unlock()
    budget.summarize()
    if logsApart { logBudget.summarize() }
    exited(how)
  }

  private func exited(_ how: ControllerTermination) {
    let base = "the controller command \(how)"
    changed.lock()
    let (waiting, note, cut) = state.withLock { state -> ([Int], String, String?) in
      state.exitMessage = base + state.stderr.note
      return (state.waiting.keys.sorted(), state.stderr.note, state.cutLine)
    }
    changed.broadcast()
    changed.unlock()
    let midLine = cut.map { " in the middle of a line (\($0))" }
    if waiting.isEmpty {
      onProblem(base + (midLine ?? "") + note)
    }
    for id in waiting { fail(id, base + (midLine ?? " before answering") + note) }
  }

  // MARK: - Lines

  private func handle(line bytes: [UInt8]) {
    switch CommandPurchaseController.decode(line: bytes) {
    case .blank: return
    case .malformed(let message): malformed(message)
    case .setStatus(let newStatus):
      status.set(newStatus)
      changed.lock()
      state.withLock { $0.statusSent = true }
      changed.broadcast()
      changed.unlock()
    case .badStatus(let message): budget.report { message }
    case .answer(let id, let result, let error, let shown): answer(id: id, result: result, error: error, shown: shown)
    }
  }

  private func answer(id: Int, result: String, error: CommandPurchaseController.ReplyError?, shown: String) {
    guard let waiting = state.withLock({ state -> Waiting? in
      state.deadlines[id] = nil
      return state.waiting.removeValue(forKey: id)
    }) else {
      budget.report { "the controller command answered request \(id), which is not waiting (late or unknown): \(shown)" }
      return
    }
    func refuse(_ message: String) -> Reply {
      onProblem(message)
      return .problem(message)
    }
    let reply: Reply
    switch (waiting.kind, result) {
    case (.purchase, "purchased"): reply = .purchase(.purchased)
    case (.purchase, "cancelled"): reply = .purchase(.cancelled)
    case (.purchase, "pending"): reply = .purchase(.pending)
    case (.purchase, "restored") where !sdk.hasRestoredPurchaseResult:
      // 4.x `PurchaseResult` has no `.restored` (StoreKit/Purchase Controller/PurchaseResult.swift).
      reply = refuse("the controller command answered request \(id) with result \"restored\": SDK \(sdk)'s PurchaseResult has no restored (SDK 3's has); answer \"purchased\", or run with --sdk 3")
    case (.purchase, "restored"): reply = .purchase(.restored)
    case (.purchase, "failed"):
      switch failure(error, request: id) {
      case .success(let error): reply = .purchase(.failed(error ?? PurchaseError("The purchase failed")))
      case .failure(let problem): reply = refuse(problem.message)
      }
    case (.restore, "restored"): reply = .restore(.restored)
    case (.restore, "failed"):
      switch failure(error, request: id) {
      case .success(let error): reply = .restore(.failed(error))
      case .failure(let problem): reply = refuse(problem.message)
      }
    default:
      let purchaseResults = !sdk.hasRestoredPurchaseResult ? "purchased, cancelled, pending or failed" : "purchased, cancelled, pending, failed or restored"
      let expected = waiting.kind == .purchase ? purchaseResults : "restored or failed"
      reply = refuse("the controller command answered request \(id) with result \(quoting: result); expected \(expected)")
    }
    waiting.continuation.resume(returning: reply)
  }

  /// The error of a `failed` answer: a message is a `PurchaseError` (a failure, whatever it says),
  /// `{"code": NAME}` StoreKit's typed error. An unknown code is a problem that fails the request.
  private func failure(_ error: CommandPurchaseController.ReplyError?, request id: Int) -> Result<(any Error)?, PurchaseError> {
    switch error {
    case nil:
      return .success(nil)
    case .message(let text):
      if StoreError(rawValue: text) != nil {
        // Said as a message, so a failure as in the SDK; the typed form is one key away.
        budget.report { "request \(id) failed with the message \(quoting: text), a plain failure; to return StoreKit's error send \"error\": {\"code\": \"\(text)\"}" }
      }
      return .success(PurchaseError(UntrustedText.excerpt(text, limit: 300)))
    case .code(let code):
      guard let typed = StoreError(rawValue: code) else {
        let shown = UntrustedText.excerpt(code, limit: 60)
        return .failure(PurchaseError("the controller command answered request \(id) with error code \(quoting: shown)\(Suggestions.hint(for: shown, in: StoreError.names)); codes: \(StoreError.names.joined(separator: ", "))"))
      }
      return .success(typed)
    case .unreadable:
      return .failure(PurchaseError("the controller command answered request \(id) with an error that is neither a message nor {\"code\": NAME}"))
    }
  }

  /// A malformed line fails the oldest waiting request, so its caller hears of it at once.
  private func malformed(_ message: String) {
    let oldest = state.withLock { $0.waiting.keys.min() }
    if let oldest {
      fail(oldest, message)
    } else {
      budget.report { message }
    }
  }
}
