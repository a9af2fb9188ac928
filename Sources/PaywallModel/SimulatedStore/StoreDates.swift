import Foundation

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
}
