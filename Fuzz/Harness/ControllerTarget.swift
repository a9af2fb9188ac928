import Foundation
@testable import PaywallModel

/// The `command` controller's whole exchange, with no process: the real reader, writer and exit
/// threads of `CommandPurchaseController` talk to pipes this target holds. The input is
///
///     byte 0   requests: count (low 2 bits + 1, up to 4) and kinds (bits 2–5: restore when set)
///     byte 1   how the "process" ends: bit 7 set, killed by signal (bits 0–5); else exit status
///     rest     chunks separated by 0xFF, written in turn to its stdout (even) and stderr (odd)
///
/// Each input sends the requests, checks that each arrived on stdin once as a JSON line, writes
/// the chunks (lines, partial lines, junk, stderr noise), closes both pipes and ends the process.
/// Properties: every request gets exactly one result, within a bound (no hang); a request after
/// the end fails at once saying the controller is not running; every message is one line free of
/// control characters and of bounded length; the problems reported stay within the budget; no
/// unfinished line is held past its limit; every thread of the exchange ends.
let controllerTarget = FuzzTarget(name: "controller") { bytes in
  guard bytes.count >= 2 else { return }
  let count = Int(bytes[0] & 0x03) + 1
  let kinds = (0..<count).map { (bytes[0] >> (2 + $0)) & 1 == 1 ? "restore" : "purchase" }
  let ending: ControllerTermination = bytes[1] & 0x80 != 0 ? .killed(signal: Int32(bytes[1] & 0x3f) + 1) : .exited(Int32(bytes[1] & 0x7f))
  let chunks = bytes[2...].split(separator: 0xFF, omittingEmptySubsequences: false)

  var stdin: [Int32] = [0, 0], stdout: [Int32] = [0, 0], stderr: [Int32] = [0, 0]
  require(pipe(&stdin) == 0 && pipe(&stdout) == 0 && pipe(&stderr) == 0, "pipe: \(String(cString: strerror(errno)))")
  let exit = DispatchSemaphore(value: 0)
  let endpoints = ControllerEndpoints(
    input: stdin[1], output: stdout[0], errors: stderr[0],
    waitForExit: {
      exit.wait()
      return ending
    },
    terminate: {})

  let problems = FuzzLocked<[String]>([])
  let status = SubscriptionStatusStore(.inactive)
  let controller = CommandPurchaseController(command: "fuzz", status: status, timeout: 60) { message in
    problems.withLock { $0.append(message) }
  }
  do throws(PurchaseError) {
    try controller.begin(endpoints)
  } catch {
    require(false, "cannot start the exchange: \(error.message)")
  }

  // The requests, each in its own task; a result is recorded once per request.
  let results = FuzzLocked<[Int: [String]]>([:])
  let done = DispatchSemaphore(value: 0)
  for (index, kind) in kinds.enumerated() {
    Task.detached {
      let outcome: String
      if kind == "restore" {
        switch await controller.restorePurchases() {
        case .restored: outcome = "restored"
        case .failed(let error): outcome = "failed: " + (error?.displayMessage ?? "")
        }
      } else {
        switch await controller.purchase(product: fuzzProduct) {
        case .failed(let error): outcome = "failed: " + error.displayMessage
        case let other: outcome = other.name
        }
      }
      results.withLock { $0[index, default: []].append(outcome) }
      done.signal()
    }
  }

  // Every request reaches stdin once, as one JSON object with its own id.
  var sent = [UInt8]()
  var buffer = [UInt8](repeating: 0, count: 4096)
  let sendDeadline = Date().addingTimeInterval(10)
  while sent.filter({ $0 == 0x0A }).count < count && Date() < sendDeadline {
    var poller = pollfd(fd: stdin[0], events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, 100) > 0 else { continue }
    let read = POSIX.read(stdin[0], &buffer, buffer.count)
    if read > 0 { sent += buffer[..<read] }
  }
  let requestLines = sent.split(separator: 0x0A)
  require(requestLines.count == count, "\(requestLines.count) request lines on stdin for \(count) requests")
  var ids = Set<Int>()
  for line in requestLines {
    let node = try? JSONParser.parse(bytes: Array(line))
    guard case .number(let text)? = node?["id"]?.value, let id = Int(text) else {
      require(false, "a request line without an id: \(String(decoding: line, as: UTF8.self))")
      return
    }
    ids.insert(id)
  }
  require(ids == Set(1...count), "request ids \(ids.sorted()) for \(count) requests")

  // The controller's output, in the fuzzer's order, then its end.
  for (index, chunk) in chunks.enumerated() where !chunk.isEmpty {
    let fd = index % 2 == 0 ? stdout[1] : stderr[1]
    _ = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  }
  close(stdout[1])
  close(stderr[1])
  exit.signal()

  for _ in 0..<count {
    require(done.wait(timeout: .now() + 10) == .success, "a request was never answered; results: \(results.withLock { $0 })")
  }
  let all = results.withLock { $0 }
  require(all.count == count && all.values.allSatisfy { $0.count == 1 }, "results \(all) for \(count) requests")
  for outcome in all.values.flatMap({ $0 }) {
    require(controlScalars(in: outcome, allowNewline: false).isEmpty, "result has control characters: \(outcome.debugDescription)")
    require(outcome.count <= 600, "a result of \(outcome.count) characters")
  }

  // The end is reported (as the failure of what still waited, or on its own)…
  let endDeadline = Date().addingTimeInterval(10)
  while !problems.withLock({ $0.contains { $0.hasPrefix("the controller command \(ending)") } }) {
    require(Date() < endDeadline, "the end was never reported: \(problems.withLock { $0.suffix(5) })")
    usleep(200)
  }
  // …and after it, a new request fails at once, saying why.
  let late = FuzzLocked<String?>(nil)
  let lateDone = DispatchSemaphore(value: 0)
  Task.detached {
    if case .failed(let error) = await controller.purchase(product: fuzzProduct) {
      late.withLock { $0 = error.displayMessage }
    }
    lateDone.signal()
  }
  require(lateDone.wait(timeout: .now() + 10) == .success, "a request after the end hung")
  let lateMessage = late.withLock { $0 } ?? ""
  require(lateMessage.hasPrefix("the controller command is not running (the controller command \(ending)"),
          "a request after the end: \(lateMessage.debugDescription)")

  controller.stop()
  let exchange = controller.currentExchange
  require(exchange?.waitForThreads(within: 10) == true, "the exchange's threads still run after the end")
  close(stdin[0])
  require((exchange?.peakPendingBytes ?? 0) <= ControllerExchange.outputLineLimit, "held \(exchange?.peakPendingBytes ?? 0) bytes of a line")

  let reported = problems.withLock { $0 }
  // Ten a second from the budget (two seconds at most here) and its summaries, one failure per
  // request, the end, and the late request.
  require(reported.count <= 24 + 2 * count, "\(reported.count) problems reported: \(reported.suffix(5))")
  for message in reported {
    require(controlScalars(in: message, allowNewline: false).isEmpty, "problem has control characters: \(message.debugDescription)")
    require(message.count <= 600, "a problem of \(message.count) characters")
  }
}

private let fuzzProduct = StoreProduct(
  id: "com.acme.pro.annual", displayName: "Annual", price: Decimal(string: "59.99")!, kind: .autoRenewable,
  subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .year), subscriptionGroup: "pro", groupLevel: 1, entitlements: ["pro"])

/// A value shared by the target's tasks.
final class FuzzLocked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<T>(_ body: (inout Value) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
