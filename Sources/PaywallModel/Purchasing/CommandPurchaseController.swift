import Foundation
import Synchronization

/// A purchase controller written in any language: an external process that reads one JSON
/// request a line on stdin and answers on stdout.
///
///     → {"id":1,"method":"purchase","product":{"id":"com.acme.pro.annual","price":"59.99",…}}
///     ← {"id":1,"result":"purchased"}
///     → {"id":2,"method":"restorePurchases"}
///     ← {"id":2,"result":"failed","error":"No receipt"}
///     ← {"method":"setSubscriptionStatus","status":"active","entitlements":["pro"]}   (any time)
///
/// A malformed line, the process exiting, or no answer within `timeout` seconds (wall time: a
/// real process cannot run on a simulated clock) fails the waiting request with a message that
/// says which, reported through `onProblem`; the app never hangs.
public final class CommandPurchaseController: PurchaseController {
  private enum Kind { case purchase, restore }

  private struct Waiting {
    var kind: Kind
    var continuation: CheckedContinuation<Reply, Never>
  }

  private enum Reply {
    case purchase(PurchaseResult)
    case restore(RestorationResult)
    case problem(String)
  }

  private struct State {
    var nextID = 0
    var waiting: [Int: Waiting] = [:]
    var exitMessage: String?
  }

  public let command: String
  public let timeout: Double
  private let status: SubscriptionStatusStore
  private let onProblem: @Sendable (String) -> Void
  private let state = Mutex(State())
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let errors = Pipe()
  /// Writes go through here, so a controller that stops reading can never block a task.
  private let writer = DispatchQueue(label: "command-controller-writer")

  public init(command: String, status: SubscriptionStatusStore, timeout: Double = 10,
              onProblem: @escaping @Sendable (String) -> Void) {
    self.command = command
    self.status = status
    self.timeout = timeout
    self.onProblem = onProblem
  }

  /// Starts the process. Throws when it cannot be started at all.
  public func start() throws(PurchaseError) {
    // A controller that dies must not take us with it when we write to its closed stdin.
    signal(SIGPIPE, SIG_IGN)
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // A simple command replaces the shell, so stopping the process stops the controller itself.
    let isSimple = !command.contains { ";&|()<>`$\n".contains($0) }
    process.arguments = ["-c", isSimple ? "exec " + command : command]
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    do {
      try process.run()
    } catch {
      throw PurchaseError("cannot start the controller command '\(command)': \(error.localizedDescription)")
    }
    guard DetachedThread.start("controller-out", { [weak self] in self?.readLines() }),
          DetachedThread.start("controller-err", { [weak self] in self?.readErrors() }) else {
      process.terminate()
      throw PurchaseError("cannot start a thread to read the controller command '\(command)': \(String(cString: strerror(errno)))")
    }
  }

  public func stop() {
    try? input.fileHandleForWriting.close()
    if process.isRunning { process.terminate() }
  }

  deinit {
    stop()
  }

  public func purchase(product: StoreProduct) async -> PurchaseResult {
    switch await request(.purchase, [("method", "purchase"), ("product", Self.describe(product))]) {
    case .purchase(let result): return result
    case .restore: return .failed(PurchaseError("controller answered a purchase with a restore result"))
    case .problem(let message): return .failed(PurchaseError(message))
    }
  }

  public func restorePurchases() async -> RestorationResult {
    switch await request(.restore, [("method", "restorePurchases")]) {
    case .restore(let result): return result
    case .purchase: return .failed(PurchaseError("controller answered a restore with a purchase result"))
    case .problem(let message): return .failed(PurchaseError(message))
    }
  }

  // MARK: - Requests

  private func request(_ kind: Kind, _ fields: [(String, JSONOutput)]) async -> Reply {
    await withCheckedContinuation { continuation in
      let registered = state.withLock { state -> (Int?, String?) in
        if let exit = state.exitMessage { return (nil, exit) }
        state.nextID += 1
        state.waiting[state.nextID] = Waiting(kind: kind, continuation: continuation)
        return (state.nextID, nil)
      }
      guard let id = registered.0 else {
        continuation.resume(returning: .problem("the controller command is not running (\(registered.1 ?? "it exited"))"))
        return
      }
      let line = JSONOutput.object([("id", .number(String(id)))] + fields).text + "\n"
      let timeout = self.timeout
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in
        self?.fail(id, "the controller command did not answer request \(id) within \(Self.format(timeout))")
      }
      writer.async { [input] in
        do {
          try input.fileHandleForWriting.write(contentsOf: Data(line.utf8))
        } catch {
          self.fail(id, "cannot write to the controller command: \(error.localizedDescription)")
        }
      }
    }
  }

  /// Fails request `id` with `message` (reported as a problem), if it is still waiting.
  private func fail(_ id: Int, _ message: String) {
    guard let waiting = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
    onProblem(message)
    waiting.continuation.resume(returning: .problem(message))
  }

  private func exited(status: Int32, reason: Process.TerminationReason, cutLine: String? = nil) {
    let message = reason == .uncaughtSignal ? "the controller command was killed by signal \(status)"
      : "the controller command exited with status \(status)"
    let waiting = state.withLock { state -> [Int] in
      state.exitMessage = message
      return state.waiting.keys.sorted()
    }
    let how = cutLine.map { " in the middle of a line (\($0))" }
    if waiting.isEmpty {
      onProblem(message + (how ?? ""))
    }
    for id in waiting { fail(id, message + (how ?? " before answering")) }
  }

  // MARK: - Reading

  private func readLines() {
    let handle = output.fileHandleForReading
    var buffer = Data()
    while true {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      buffer.append(chunk)
      while let newline = buffer.firstIndex(of: 0x0A) {
        let line = buffer[buffer.startIndex..<newline]
        buffer.removeSubrange(buffer.startIndex...newline)
        self.handle(line: Array(line))
      }
      if buffer.count > 1 << 20 {
        self.handle(line: Array(buffer.prefix(200)))
        buffer.removeAll()
      }
    }
    // A last line with no newline counts when it is whole; one cut off by the process ending (a
    // kill mid-write) is reported as that, not as a malformed line.
    var cut: String?
    if !buffer.isEmpty {
      if (try? JSONParser.parse(bytes: Array(buffer)))?.members != nil {
        self.handle(line: Array(buffer))
      } else {
        cut = UntrustedText.sanitize(String(decoding: buffer.prefix(120), as: UTF8.self))
      }
    }
    // Reported only after every line it wrote has been handled, so a last answer is never lost.
    process.waitUntilExit()
    exited(status: process.terminationStatus, reason: process.terminationReason, cutLine: cut)
  }

  private func readErrors() {
    let handle = errors.fileHandleForReading
    while true {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      for line in String(decoding: chunk, as: UTF8.self).split(separator: "\n") {
        onProblem("controller stderr: " + UntrustedText.sanitize(String(line.prefix(300))))
      }
    }
  }

  /// One line from the controller process, decoded without touching any state, so what a
  /// line means can be tested (and fuzzed) apart from the process and the waiting requests.
  enum ReplyLine: Sendable, Equatable {
    /// Only spaces, tabs and carriage returns: ignored.
    case blank
    /// Not a JSON object, or an object with neither a request id nor a method.
    case malformed(String)
    case setStatus(SubscriptionStatus)
    /// `setSubscriptionStatus` with a status other than active, inactive or unknown.
    case badStatus(String)
    /// An answer to request `id`; `shown` is the line as messages quote it (sanitised, cut short).
    case answer(id: Int, result: String, error: String?, shown: String)
  }

  static func decode(line bytes: [UInt8]) -> ReplyLine {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .blank }
    let shown = UntrustedText.sanitize(String(decoding: bytes.prefix(120), as: UTF8.self))
    guard let node = try? JSONParser.parse(bytes: bytes), node.members != nil else {
      return .malformed("the controller command sent a line that is not a JSON object: \(shown)")
    }
    if node["method"]?.stringValue == "setSubscriptionStatus" {
      let names = (node["entitlements"]?.elements ?? []).compactMap(\.stringValue)
      switch node["status"]?.stringValue {
      case "active": return .setStatus(.active(Set(names.map { Entitlement($0) })))
      case "inactive": return .setStatus(.inactive)
      case "unknown": return .setStatus(.unknown)
      default: return .badStatus("setSubscriptionStatus needs status active, inactive or unknown: \(shown)")
      }
    }
    guard case .number(let idText)? = node["id"]?.value, let id = Int(idText) else {
      return .malformed("the controller command sent a line with no request id or method: \(shown)")
    }
    return .answer(id: id, result: node["result"]?.stringValue ?? "", error: node["error"]?.stringValue, shown: shown)
  }

  private func handle(line bytes: [UInt8]) {
    switch Self.decode(line: bytes) {
    case .blank: return
    case .malformed(let message): malformed(message)
    case .setStatus(let newStatus): status.set(newStatus)
    case .badStatus(let message): onProblem(message)
    case .answer(let id, let result, let error, let shown): answer(id: id, result: result, error: error, shown: shown)
    }
  }

  private func answer(id: Int, result: String, error: String?, shown: String) {
    guard let waiting = state.withLock({ $0.waiting.removeValue(forKey: id) }) else {
      onProblem("the controller command answered request \(id), which is not waiting (late or unknown): \(shown)")
      return
    }
    let reply: Reply
    switch (waiting.kind, result) {
    case (.purchase, "purchased"): reply = .purchase(.purchased)
    case (.purchase, "cancelled"): reply = .purchase(.cancelled)
    case (.purchase, "pending"): reply = .purchase(.pending)
    case (.purchase, "restored"): reply = .purchase(.restored)
    case (.purchase, "failed"): reply = .purchase(.failed(PurchaseError(error ?? "The purchase failed")))
    case (.restore, "restored"): reply = .restore(.restored)
    case (.restore, "failed"): reply = .restore(.failed(error.map(PurchaseError.init)))
    default:
      let expected = waiting.kind == .purchase ? "purchased, cancelled, pending, failed or restored" : "restored or failed"
      let message = "the controller command answered request \(id) with result '\(result)'; expected \(expected)"
      onProblem(message)
      reply = .problem(message)
    }
    waiting.continuation.resume(returning: reply)
  }

  /// A malformed line fails the oldest waiting request, so its caller hears of it at once.
  private func malformed(_ message: String) {
    let oldest = state.withLock { $0.waiting.keys.min() }
    if let oldest {
      fail(oldest, message)
    } else {
      onProblem(message)
    }
  }

  static func describe(_ product: StoreProduct) -> JSONOutput {
    var fields: [(String, JSONOutput)] = [
      ("id", .string(product.id)), ("name", .string(product.displayName)), ("price", .string("\(product.price)")),
      ("currency", .string(product.currencyCode)), ("type", .string(product.kind.rawValue)),
      ("store", .string(product.store.rawValue)),
      ("entitlements", .array(product.entitlements.sorted().map { .string($0.id) })),
    ]
    if let period = product.subscriptionPeriod { fields.append(("period", .string(period.iso8601))) }
    if let trial = product.trialPeriod { fields.append(("trial", .string(trial.iso8601))) }
    if let group = product.subscriptionGroup { fields.append(("group", .string(group))) }
    return .object(fields)
  }

  static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
  }
}
