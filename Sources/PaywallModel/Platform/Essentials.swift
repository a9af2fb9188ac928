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
import Synchronization

// What the app used from Foundation beyond FoundationEssentials, written out so the shipped
// binary links neither Foundation nor ICU (a small static binary). Each does what the
// Foundation call it replaces did for the inputs the app gives it.

extension String {
  /// Every occurrence of `target` replaced, compared scalar by scalar as NSString compares
  /// (so "\n" is found inside "\r\n", which Character comparison would not find).
  package func replacingOccurrences(of target: String, with replacement: String) -> String {
    let needle = Array(target.unicodeScalars)
    guard !needle.isEmpty else { return self }
    let scalars = Array(unicodeScalars)
    var out = String.UnicodeScalarView()
    var i = 0
    var changed = false
    while i < scalars.count {
      // As NSString, a match does not split a letter from the marks that follow it ("e" is not
      // found in "e\u{301}").
      if scalars[i] == needle[0], i + needle.count <= scalars.count, Array(scalars[i..<(i + needle.count)]) == needle,
         i + needle.count == scalars.count || !scalars[i + needle.count].properties.isGraphemeExtend {
        out.append(contentsOf: replacement.unicodeScalars)
        i += needle.count
        changed = true
      } else {
        out.append(scalars[i])
        i += 1
      }
    }
    return changed ? String(out) : self
  }

  /// The first (or with `backwards`, the last) range of `target` within `range` (the whole
  /// string by default), compared scalar by scalar.
  package func range(of target: String, backwards: Bool = false, range: Range<Index>? = nil) -> Range<Index>? {
    let view = unicodeScalars
    let bounds = range ?? startIndex..<endIndex
    let needle = Array(target.unicodeScalars)
    guard !needle.isEmpty else { return nil }
    var starts: [Index] = []
    var index = bounds.lowerBound
    while index < bounds.upperBound {
      starts.append(index)
      index = view.index(after: index)
    }
    if backwards { starts.reverse() }
    for start in starts {
      var cursor = start
      var matched = true
      for scalar in needle {
        guard cursor < bounds.upperBound, view[cursor] == scalar else { matched = false; break }
        cursor = view.index(after: cursor)
      }
      if matched { return start..<cursor }
    }
    return nil
  }

  // MARK: Paths, as NSString's path methods did them

  /// The last component ("c" of "/a/b/c/"); "/" for "/".
  package var lastPathComponent: String {
    let trimmed = withoutTrailingSlashes
    if trimmed == "/" || trimmed.isEmpty { return trimmed }
    return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? trimmed
  }

  /// The path without its last component ("/a/b" for "/a/b/c"; "/" for "/a"; "" for "a").
  package var deletingLastPathComponent: String {
    let trimmed = withoutTrailingSlashes
    if trimmed == "/" { return "/" }
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    let head = String(trimmed[..<slash])
    let kept = head.withoutTrailingSlashes
    return kept.isEmpty ? "/" : kept
  }

  /// The path from the current directory ("cwd/" + it) unless it is absolute already; a path
  /// that cannot be made absolute (the current directory is gone) does not start with "/".
  package var absolutePath: String {
    if hasPrefix("/") { return self }
    let here = FileManager.default.currentDirectoryPath
    return (here.hasSuffix("/") ? here : here + "/") + self
  }

  /// `component` after this path and one "/" ("a/b" for "a" and "b"; "b" for "" and "b"), repeated
  /// slashes made one (but a leading "//", which POSIX leaves to the system) and no trailing slash.
  package func appendingPathComponent(_ component: String) -> String {
    let joined = component.isEmpty ? self : isEmpty ? component : hasSuffix("/") ? self + component : self + "/" + component
    // An ASCII path is read in bytes, each byte a character: character by character, a project's
    // load spent 16,000 instructions on each path it joined.
    guard joined.utf8.allSatisfy({ $0 < 0x80 }) else { return joined.collapsingSlashes.withoutTrailingSlashes }
    var bytes: [UInt8] = joined.hasPrefix("//") && !joined.hasPrefix("///") ? [0x2F] : []
    bytes.reserveCapacity(joined.utf8.count)
    var previousSlash = false
    for byte in joined.utf8 where !(byte == 0x2F && previousSlash) {
      previousSlash = byte == 0x2F
      bytes.append(byte)
    }
    while bytes.count > 1 && bytes.last == 0x2F { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The last component without its extension ("a/b" for "a/b.json"; ".hidden" stays).
  package var deletingPathExtension: String {
    let trimmed = withoutTrailingSlashes
    let name = trimmed.lastPathComponent
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return trimmed }
    return String(trimmed.dropLast(name.distance(from: dot, to: name.endIndex)))
  }

  /// `~` expanded, empty and "." components removed, ".." resolved in an absolute path, and no
  /// trailing slash.
  package var standardizingPath: String {
    var path = self
    if path == "~" || path.hasPrefix("~/"), let home = ProcessEnvironment.value("HOME") {
      path = home + path.dropFirst()
    }
    let absolute = path.hasPrefix("/")
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      if part == "." { continue }
      if part == "..", absolute {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    let joined = parts.joined(separator: "/")
    return absolute ? "/" + joined : (joined.isEmpty ? (path.isEmpty ? "" : ".") : joined)
  }

  private var withoutTrailingSlashes: String {
    var s = Substring(self)
    while s.count > 1 && s.hasSuffix("/") { s = s.dropLast() }
    return String(s)
  }

  private var collapsingSlashes: String {
    var out = hasPrefix("//") && !hasPrefix("///") ? "/" : ""
    var previousSlash = false
    for c in self {
      if c == "/" && previousSlash { continue }
      previousSlash = c == "/"
      out.append(c)
    }
    return out
  }
}

/// How `Decimal.rounded(_:_:)` rounds, as NSDecimalRound's modes: `plain` halves away from zero,
/// `down` toward minus infinity, `up` toward plus infinity, `bankers` halves to even.
package enum DecimalRounding: Sendable {
  case plain, down, up, bankers
}

/// A decimal's text, kept with what fixes it: its value and its exponent together (the exponent
/// fixes the mantissa: 4.90 and 4.9 are one value, written from two mantissas).
private struct DecimalText {
  var value: Decimal
  var exponent: Int
  var text: String
}

/// `Decimal.plainText`'s texts, one in each slot of a table indexed by a hash of value and
/// exponent (a text of another value in the slot is written again). A table, not a Dictionary:
/// a Dictionary's types cost the first paint 265,000 instructions, the runtime's search for the
/// key's Hashable conformance among every conformance of the binary.
private let decimalTexts = Mutex<[DecimalText?]>([])
private let decimalTextSlots = 512

extension Decimal {
  /// A non-negative decimal as an integer and a power of ten (59.99 is 5999 and -2), nil when its
  /// digits pass what an Int holds. Read from the significand's few digits, not the whole value's.
  package var integerDigits: (digits: Int, exponent: Int)? {
    guard isFinite, !isNaN, self >= 0 else { return nil }
    if isZero { return (0, 0) }
    // Int's parse refuses digits past Int.max.
    guard let digits = Int(significand.plainText) else { return nil }
    return (digits, exponent)
  }

  /// The text `description` gives (59.99 is "59.99", 5E3 "5000", 5E-3 "0.005"), written once for
  /// each value and exponent: `description` takes about 10,000 instructions (2 µs) for a price,
  /// and a paywall's prices are written again at each presentation.
  package var plainText: String {
    guard !isNaN else { return description }
    var hasher = Hasher()
    hasher.combine(self)
    hasher.combine(exponent)
    let slot = Int(UInt(bitPattern: hasher.finalize()) % UInt(decimalTextSlots))
    if let kept = decimalTexts.withLock({ $0.isEmpty ? nil : $0[slot] }), kept.value == self, kept.exponent == exponent { return kept.text }
    let text = description
    decimalTexts.withLock { table in
      if table.isEmpty { table = Array(repeating: nil, count: decimalTextSlots) }
      table[slot] = DecimalText(value: self, exponent: exponent, text: text)
    }
    return text
  }

  /// Rounded to `scale` digits after the point, as `NSDecimalRound` rounds.
  package func rounded(_ scale: Int, _ mode: DecimalRounding) -> Decimal {
    guard isFinite, !isNaN else { return self }
    let negative = self < 0
    let magnitude = negative ? -self : self
    let text = magnitude.plainText  // plain digits: "123.4567"
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return self }
    let integer = String(parts[0])
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    guard fraction.count > scale else { return self }
    let keptDigits = integer + fraction.prefix(max(scale, 0))
    let dropped = Array(fraction.dropFirst(max(scale, 0)))
    let first = dropped.first?.wholeNumberValue ?? 0
    let restNonZero = dropped.dropFirst().contains { $0 != "0" }
    let anyDropped = first != 0 || restNonZero
    let lastKept = keptDigits.last?.wholeNumberValue ?? 0
    let awayFromZero: Bool = switch mode {
    case .plain: first >= 5
    case .bankers: first > 5 || (first == 5 && (restNonZero || lastKept % 2 == 1))
    case .down: negative && anyDropped
    case .up: !negative && anyDropped
    }
    var digits = Array(keptDigits)
    if awayFromZero {
      var i = digits.count - 1
      while i >= 0 {
        if digits[i] == "9" { digits[i] = "0"; i -= 1 } else { digits[i] = Character(String(digits[i].wholeNumberValue! + 1)); break }
      }
      if i < 0 { digits.insert("1", at: 0) }
    }
    let whole = String(digits)
    let cut = whole.count - max(scale, 0)
    let literal = scale > 0 ? whole.prefix(cut) + "." + whole.suffix(scale) : Substring(whole)
    guard var result = Decimal(string: String(literal)) else { return self }
    if negative && result != 0 { result = -result }
    return result
  }
}

/// The process's environment, read a variable at a time with getenv(3): ProcessInfo's
/// `environment` builds a dictionary of every variable at each call, which the way to the first
/// paint cannot afford.
package enum ProcessEnvironment {
  /// The variable `name`, nil when it is not set.
  package static func value(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}

/// The C library's calls whose names a type's own methods shadow (`read`, `write`, `exit`):
/// what `Foundation.read` named before.
package enum POSIX {
  /// read(2).
  package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
  }

  /// write(2).
  package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
  }

  /// realpath(3) into a buffer the C library allocates: the caller frees it.
  package static func realpath(_ path: String) -> UnsafeMutablePointer<CChar>? {
    #if canImport(Glibc)
    Glibc.realpath(path, nil)
    #else
    Darwin.realpath(path, nil)
    #endif
  }

  /// exit(3).
  package static func exit(_ code: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(code)
    #else
    Darwin.exit(code)
    #endif
  }
}

/// A lock with a condition to wait on (what `NSCondition` was here): take it with `lock()`,
/// then `wait()` or `wait(until:)` releases it while waiting; `signal()`/`broadcast()` wake.
package final class Condition: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  /// An unlocked condition.
  package init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Waits for the lock and takes it.
  package func lock() { pthread_mutex_lock(mutex) }
  /// Gives the lock back.
  package func unlock() { pthread_mutex_unlock(mutex) }
  /// Wakes one waiter.
  package func signal() { pthread_cond_signal(condition) }
  /// Wakes every waiter.
  package func broadcast() { pthread_cond_broadcast(condition) }
  /// Waits (holding the lock) until woken.
  package func wait() { pthread_cond_wait(condition, mutex) }

  /// Waits (holding the lock) until woken or `deadline` (wall clock); false when the deadline passed.
  @discardableResult
  package func wait(until deadline: Date) -> Bool {
    let seconds = deadline.timeIntervalSince1970
    guard seconds.isFinite else { wait(); return true }
    let whole = seconds.rounded(.down)
    var time = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1_000_000_000))
    return pthread_cond_timedwait(condition, mutex, &time) == 0
  }
}

/// A count a thread waits on, built on `Condition`: `signal()` adds one and wakes a waiter,
/// `wait()` takes one, waiting until there is one. What a thread of ours (the terminal's, the
/// recording's, a blocking caller of async code) waits with; the package uses no Dispatch.
package final class Semaphore: @unchecked Sendable {
  private let condition = Condition()
  /// Guarded by `condition`'s lock.
  private var count: Int

  package init(value: Int = 0) { count = value }

  package func signal() {
    condition.lock()
    count += 1
    condition.signal()
    condition.unlock()
  }

  package func wait() {
    condition.lock()
    while count == 0 { condition.wait() }
    count -= 1
    condition.unlock()
  }

  /// Waits until there is one or `deadline` (wall clock) passes; false when it passed first.
  package func wait(until deadline: Date) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while count == 0 {
      if !condition.wait(until: deadline) && count == 0 { return false }
    }
    count -= 1
    return true
  }
}

/// Why a file operation failed, in the system's words ("Permission denied", "Not a directory"),
/// not an error dump: what `localizedDescription` and NSError's POSIX domain gave before.
package func systemReason(_ error: any Error) -> String {
  if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
  if let cocoa = error as? CocoaError {
    if let underlying = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
      return String(cString: strerror(underlying.code.rawValue))
    }
    let code: Int32? = switch cocoa.code {
    case .fileNoSuchFile, .fileReadNoSuchFile: ENOENT
    case .fileReadNoPermission, .fileWriteNoPermission: EACCES
    case .fileWriteOutOfSpace: ENOSPC
    case .fileWriteVolumeReadOnly: EROFS
    case .fileWriteFileExists: EEXIST
    default: nil
    }
    if let code { return String(cString: strerror(code)) }
  }
  return "\(error)"
}
