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

/// Dates as the store prints them: `2026-01-08 00:00:00` (UTC), without a formatter.
package enum StoreDates {
  package static func format(_ date: Date) -> String {
    String(decoding: text(date, between: 0x20), as: UTF8.self)
  }

  /// `format`'s text, the date and the time joined by `separator`, written in bytes: `play` writes
  /// a date on every event line, and string interpolation cost 5,000 instructions a date.
  private static func text(_ date: Date, between separator: UInt8) -> [UInt8] {
    // Whole seconds, floored, split into a day and a second of it in integers: in floating point
    // a moment a hair before a midnight could make the day after and second -1. NaN and moments
    // past ±1e17 s (3 billion years; no file holds one) are held to those bounds.
    let whole = date.timeIntervalSince1970.rounded(.down)
    let total = whole.isNaN ? 0 : Int(max(-1e17, min(1e17, whole)))
    let day = total >= 0 ? total / 86_400 : -((86_399 - total) / 86_400)
    let (y, m, d) = CivilDate.from(days: day)
    let time = total - day * 86_400
    var bytes = Array(String(y).utf8)
    bytes.reserveCapacity(bytes.count + 20)
    // Every field but the year is under 100: two digits.
    func two(_ n: Int) { bytes += [0x30 + UInt8(n / 10), 0x30 + UInt8(n % 10)] }
    bytes.append(0x2D)
    two(m)
    bytes.append(0x2D)
    two(d)
    bytes.append(separator)
    two(time / 3600)
    bytes.append(0x3A)
    two(time / 60 % 60)
    bytes.append(0x3A)
    two(time % 60)
    return bytes
  }

  /// ISO 8601 in UTC, as JSON output carries a time: `2026-01-08T00:00:00Z`, with milliseconds
  /// only when there are any (`2026-01-08T00:00:00.500Z`), so whole seconds stay in the form
  /// `jq`'s `fromdate` reads.
  package static func iso8601(_ date: Date) -> String {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
    let whole = (milliseconds / 1000).rounded(.down)
    // 0 to 999, but where a far moment's milliseconds pass a double's precision (and for NaN).
    let fraction = Int(max(0, min(999, milliseconds - whole * 1000)))
    var bytes = text(Date(timeIntervalSince1970: whole), between: 0x54)
    if fraction > 0 { bytes += [0x2E, 0x30 + UInt8(fraction / 100), 0x30 + UInt8(fraction / 10 % 10), 0x30 + UInt8(fraction % 10)] }
    bytes.append(0x5A)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `date` to the nearest millisecond, what a state file keeps of it.
  package static func wholeMilliseconds(_ date: Date) -> Date {
    Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
  }

  /// The SDK's `Date.isoString` (Superwall-iOS `Misc/Extensions/Date/Date+IsoString.swift`,
  /// `yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX` in UTC): milliseconds always, `2026-01-01T00:00:00.000Z`.
  /// The millisecond is the nearest, as the state files keep a date (`%.3f`), so a date reads
  /// back as it was written.
  package static func sdkISOString(_ date: Date) -> String {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
    let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
    let whole = iso8601(Date(timeIntervalSince1970: Double(seconds)))
    // Strings joined, no Substring among them: `Substring + String` is generic code that cost the
    // first paint the runtime's lookup of a conformance.
    return String(whole.dropLast()) + "." + String(String(fraction + 1000).dropFirst()) + "Z"
  }

  /// Reads `2026-03-01`, `2026-03-01T12:00:00Z` or `2026-03-01T12:00:00.250Z` (UTC; what
  /// `iso8601` writes); nil for anything else or a date outside the years 1970 to 9999.
  package static func parse(iso8601 text: String) -> Date? {
    let characters = Array(text.utf8)
    func number(_ from: Int, _ count: Int) -> Int? {
      guard from + count <= characters.count else { return nil }
      var value = 0
      for byte in characters[from..<(from + count)] {
        guard byte >= 48 && byte <= 57 else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      return value
    }
    func byte(_ at: Int, _ expected: Character) -> Bool { at < characters.count && characters[at] == expected.asciiValue }
    guard let year = number(0, 4), byte(4, "-"), let month = number(5, 2), byte(7, "-"), let day = number(8, 2),
          (1970...9999).contains(year), (1...12).contains(month), (1...CivilDate.days(inMonth: month, year: year)).contains(day) else { return nil }
    let days = CivilDate.days(year: year, month: month, day: day)
    if characters.count == 10 { return Date(timeIntervalSince1970: Double(days) * 86_400) }
    guard byte(10, "T"), let hour = number(11, 2), byte(13, ":"), let minute = number(14, 2), byte(16, ":"),
          let second = number(17, 2), hour < 24, minute < 60, second < 60 else { return nil }
    // Whole milliseconds, divided once: the same Double the store's millisecond rounding gives.
    var milliseconds = ((days * 86_400) + hour * 3600 + minute * 60 + second) * 1000
    var end = 19
    if byte(19, ".") {
      // One to three digits: the store keeps milliseconds.
      var digits = 0
      while digits < 3, let digit = number(20 + digits, 1) {
        milliseconds += digit * [100, 10, 1][digits]
        digits += 1
      }
      guard digits > 0 else { return nil }
      end = 20 + digits
    }
    guard end + 1 == characters.count, byte(end, "Z") else { return nil }
    let seconds = Double(milliseconds) / 1000
    return Date(timeIntervalSince1970: seconds)
  }
}
