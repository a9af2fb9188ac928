import Synchronization
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

/// Splits a byte stream into lines, holding at most `limit` bytes of a line: the rest of a longer
/// one is dropped (and the line marked cut), so a process that never writes a newline cannot make
/// us buffer without bound.
struct LineSplitter {
  let limit: Int
  private(set) var pending: [UInt8] = []
  private var overlong = false

  init(limit: Int) {
    self.limit = limit
  }

  /// Feeds `bytes`; `emit` gets each complete line (without its newline) and whether it was cut.
  mutating func feed(_ bytes: some Collection<UInt8>, _ emit: (_ line: [UInt8], _ cut: Bool) -> Void) {
    var rest = bytes[...]
    while let newline = rest.firstIndex(of: 0x0A) {
      take(rest[..<newline])
      emit(pending, overlong)
      pending.removeAll(keepingCapacity: pending.count <= 4096)
      overlong = false
      rest = rest[rest.index(after: newline)...]
    }
    take(rest)
  }

  /// What is left at the end of the stream: a last line with no newline, if any.
  mutating func finish() -> (line: [UInt8], cut: Bool)? {
    defer {
      pending = []
      overlong = false
    }
    return pending.isEmpty && !overlong ? nil : (pending, overlong)
  }

  private mutating func take(_ bytes: some Collection<UInt8>) {
    let room = limit - pending.count
    if bytes.count > room {
      pending.append(contentsOf: bytes.prefix(max(0, room)))
      overlong = true
    } else {
      pending.append(contentsOf: bytes)
    }
  }
}

/// The last few lines a controller wrote to stderr, each cut short, for the messages that say
/// how it failed ("…; stderr: Traceback … ValueError: bad config"). Kept as bytes: a flood of
/// lines costs a copy each, and text is made only for a message.
struct StderrTail {
  static let lines = 3
  static let characters = 120
  private(set) var recent: [[UInt8]] = []

  mutating func append(_ line: [UInt8]) {
    guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { return }
    if recent.count == Self.lines { recent.removeFirst() }
    recent.append(line)
  }

  /// "; stderr: LAST LINES" (the end kept when it is too long), or "" when stderr said nothing.
  var note: String {
    guard !recent.isEmpty else { return "" }
    let text = recent.map { UntrustedText.sanitize(String(decoding: $0, as: UTF8.self)).trimmingSpaces() }
    return "; stderr: " + Self.cappedTail(text.joined(separator: " / "), Self.characters)
  }

  /// `text` when it is at most `limit` characters, else "…" and its last `limit - 1`.
  static func cappedTail(_ text: String, _ limit: Int) -> String {
    text.count <= limit ? text : "…" + text.suffix(limit - 1)
  }
}

/// At most `perSecond` problems a second reach the app; the rest are counted, and summed up in
/// one line ("1234 more lines not shown (the last: …)") when the second is over. A controller
/// that writes stderr (or junk on stdout) in a loop then costs the app a handful of messages a
/// second, not one per line queued ahead of the keys.
package final class ProblemBudget: Sendable {
  /// This second's count, and what is held back until it is over.
  private struct Window {
    var start = ContinuousClock.now
    var used = 0
    var suppressed = 0
    var last: (@Sendable () -> String)?
    var summaryDue = false
  }

  private let perSecond: Int
  private let emit: @Sendable (String) -> Void
  private let window = Mutex(Window())

  /// At most `perSecond` problems a second go to `emit`.
  package init(perSecond: Int, emit: @escaping @Sendable (String) -> Void) {
    self.perSecond = perSecond
    self.emit = emit
  }

  /// Reports `message` if this second has room; else counts it, and makes the text only if it
  /// is the last one held back when the second is over.
  package func report(_ message: @escaping @Sendable () -> String) {
    // What to do once the lock is given back: emitting under it would hold every other reporter.
    let summaryIn: Duration?? = window.withLock { window in
      let now = ContinuousClock.now
      if now - window.start >= .seconds(1) && !window.summaryDue {
        window.start = now
        window.used = 0
      }
      if window.used < perSecond {
        window.used += 1
        return .none
      }
      window.suppressed += 1
      window.last = message
      defer { window.summaryDue = true }
      return .some(window.summaryDue ? nil : window.start + .seconds(1) - now)
    }
    switch summaryIn {
    case .none:
      emit(message())
    case .some(let delay?):
      // A thread of its own, not a task: the summary is due when the second is over, whether or
      // not the cooperative pool has a thread free then (a test run that kept both of its
      // threads busy for a minute held the summary back that long).
      DetachedThread.after(delay, "problem-summary") { [weak self] in self?.summarize() }
    case .some(nil):
      break
    }
  }

  /// Reports what was held back, now (the controller ended, or the second is over).
  func summarize() {
    let (count, latest) = window.withLock { window in
      defer { window = Window() }
      return (window.suppressed, window.last)
    }
    guard count > 0, let latest else { return }
    emit("\(count) more \(count == 1 ? "line" : "lines") not shown (the last: \(UntrustedText.excerpt(latest(), limit: 100)))")
  }
}
