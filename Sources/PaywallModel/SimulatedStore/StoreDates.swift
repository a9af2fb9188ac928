import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Dates as the store prints them: `2026-01-08 00:00:00` (UTC), without a formatter.
package enum StoreDates {
  package static func format(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970
    let day = (seconds / 86_400).rounded(.down)
    let (y, m, d) = CivilDate.from(days: Int(day))
    let time = Int((seconds - day * 86_400).rounded(.down))
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(y)-\(two(m))-\(two(d)) \(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))"
  }

  /// ISO 8601 in UTC, as JSON output carries a time: `2026-01-08T00:00:00Z`, with milliseconds
  /// only when there are any (`2026-01-08T00:00:00.500Z`), so whole seconds stay in the form
  /// `jq`'s `fromdate` reads.
  package static func iso8601(_ date: Date) -> String {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
    let whole = (milliseconds / 1000).rounded(.down)
    let fraction = Int(milliseconds - whole * 1000)
    var text = format(Date(timeIntervalSince1970: whole))
    text.replaceSubrange(text.index(text.endIndex, offsetBy: -9)...text.index(text.endIndex, offsetBy: -9), with: "T")
    if fraction > 0 { text += "." + String(String(fraction + 1000).dropFirst()) }
    return text + "Z"
  }
}
