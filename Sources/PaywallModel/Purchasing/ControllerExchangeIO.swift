#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

extension ControllerExchange {
  /// Fails each request still waiting when its `timeout` is up. One thread for all of them:
  /// nothing of a request outlives it (a timer per request would wait out its full time).
  func expireRequests() {
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
  func fail(_ id: Int, _ message: String) {
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
  func writeRequests() {
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

  func waitForExitMessage(upTo limit: Duration) {
    let deadline = Date().addingTimeInterval(Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18)
    changed.lock()
    while state.withLock({ $0.exitMessage == nil }) && changed.wait(until: deadline) {}
    changed.unlock()
  }

  // MARK: - Reading

  /// Reads `fd` to its end, handing each chunk to `body`.
  static func readAll(_ fd: Int32, _ body: (UnsafeRawBufferPointer) -> Void) {
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

  func notePending(_ count: Int) {
    state.withLock { $0.peakPending = max($0.peakPending, count) }
  }

  func readOutput() {
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

  func readErrors() {
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
  func waitForExit() {
    let how = endpoints.waitForExit()
    waitForReaders()
    budget.summarize()
    if logsApart { logBudget.summarize() }
    exited(how)
  }

  /// Waits until stdout and stderr are read to their end, or `drainTime` has passed (a child the
  /// process left behind may hold the pipes open).
  func waitForReaders() {
    let deadline = Date().addingTimeInterval(Double(Self.drainTime.components.seconds))
    changed.lock()
    while !state.withLock({ $0.outputDone && $0.errorsDone }) && changed.wait(until: deadline) {}
    changed.unlock()
  }

  func exited(_ how: ControllerTermination) {
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

  func handle(line bytes: [UInt8]) {
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
    case .reportedError(let message): budget.report { "the controller reported: \(message)" }
    case .answer(let id, let result, let error, let shown): answer(id: id, result: result, error: error, shown: shown)
    }
  }

  func answer(id: Int, result: String, error: CommandPurchaseController.ReplyError?, shown: String) {
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
      reply = refuse("the controller command answered request \(id) with result \"restored\": SDK \(sdk.named)'s PurchaseResult has no restored (\(sdk.platform == .ios ? "SDK 3's has" : "delegate/PurchaseResult.kt")); answer \"purchased\"\(sdk.platform == .ios ? ", or run with --sdk 3" : "")")
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
  func failure(_ error: CommandPurchaseController.ReplyError?, request id: Int) -> Result<(any Error)?, PurchaseError> {
    switch error {
    case nil:
      return .success(nil)
    case .message(let text):
      if StoreError(rawValue: text) != nil {
        // Said as a message, so a failure as in the SDK; the typed form is one key away.
        budget.report { "request \(id) failed with the message \(quoting: text), a plain failure; to return StoreKit's error send \"error\": {\"code\": \"\(text)\"}" }
      }
      return .success(PurchaseError(UntrustedText.excerpt(text, limit: 300)))
    case .code(let code) where sdk.platform == .android:
      let shown = UntrustedText.excerpt(code, limit: 60)
      return .failure(PurchaseError("the controller command answered request \(id) with error code \(quoting: shown): Superwall-Android's PurchaseResult.Failed carries a message, not a typed error; answer \"cancelled\" for a cancel, else \"error\": \"MESSAGE\""))
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
  func malformed(_ message: String) {
    let oldest = state.withLock { $0.waiting.keys.min() }
    if let oldest {
      fail(oldest, message)
    } else {
      budget.report { message }
    }
  }
}
