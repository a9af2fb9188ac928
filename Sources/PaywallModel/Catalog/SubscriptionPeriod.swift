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

/// A subscription or offer period such as `P1W`, `P1M`, `P3M`, `P1Y` (ISO 8601, one unit).
public struct SubscriptionPeriod: Sendable, Hashable, CustomStringConvertible {
  /// The calendar unit of a period.
  public enum Unit: String, Sendable, Hashable, CaseIterable {
    case day, week, month, year
  }

  /// How many `unit`s the period spans (positive in a catalog).
  public var value: Int
  /// The unit `value` counts.
  public var unit: Unit

  /// A period of `value` `unit`s.
  public init(value: Int, unit: Unit) {
    self.value = value
    self.unit = unit
  }

  /// Parses `P7D`, `P1W`, `P1M`, `P6M`, `P1Y`; nil for anything else (zero, mixed units, time parts).
  public init?(iso8601 text: String) {
    // Read as a Substring, not as an array of characters made into a String again: that generic
    // conversion cost the first paint the runtime's lookup of a conformance, made once per process.
    let upper = text.uppercased()
    guard upper.count >= 3, upper.first == "P", let last = upper.last,
          let value = Int(upper.dropFirst().dropLast()), value > 0, value <= 1000
    else { return nil }
    switch last {
    case "D": self.init(value: value, unit: .day)
    case "W": self.init(value: value, unit: .week)
    case "M": self.init(value: value, unit: .month)
    case "Y": self.init(value: value, unit: .year)
    default: return nil
    }
  }

  /// The ISO 8601 form: `P1W`, `P3M`, `P1Y`.
  public var iso8601: String {
    let letter = switch unit {
    case .day: "D"
    case .week: "W"
    case .month: "M"
    case .year: "Y"
    }
    return "P\(value)\(letter)"
  }

  /// The ISO 8601 form (`iso8601`).
  public var description: String { iso8601 }

  /// Whole days in the period as Superwall counts them (a month is 30 days, a year 365).
  public var approximateDays: Int {
    switch unit {
    case .day: value
    case .week: 7 * value
    case .month: 30 * value
    case .year: 365 * value
    }
  }

  /// `date` plus this period on the Gregorian calendar in UTC (a month from Jan 31 is Feb 28/29; a
  /// year from Feb 29 is Feb 28). Integer calendar arithmetic rather than `Calendar`, because the
  /// simulated store adds periods on hot paths (a ledger replay, the renewal timer): the same dates
  /// `Calendar` gives, about a hundred times faster. A negative `value` goes back.
  public func added(to date: Date) -> Date {
    switch unit {
    case .day: return date.addingTimeInterval(Double(value) * 86_400)
    case .week: return date.addingTimeInterval(Double(value) * 7 * 86_400)
    case .month, .year: break
    }
    let seconds = date.timeIntervalSince1970
    let day = (seconds / 86_400).rounded(.down)
    let timeOfDay = seconds - day * 86_400
    let (year, month, dayOfMonth) = CivilDate.from(days: Int(day))
    let months = year * 12 + (month - 1) + (unit == .month ? value : 12 * value)
    let newYear = months >= 0 ? months / 12 : (months - 11) / 12
    let newMonth = months - newYear * 12 + 1
    let newDay = min(dayOfMonth, CivilDate.days(inMonth: newMonth, year: newYear))
    let days = CivilDate.days(year: newYear, month: newMonth, day: newDay)
    return Date(timeIntervalSince1970: Double(days) * 86_400 + timeOfDay)
  }

  /// "1 week", "3 months": how a card or a template spells the length of a period.
  public var spelledOut: String {
    let noun = value == 1 ? unit.rawValue : "\(unit.rawValue)s"
    return "\(value) \(noun)"
  }
}

/// Days since 1970-01-01 and proleptic Gregorian dates, both ways (Howard Hinnant's algorithms).
enum CivilDate {
  static func from(days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func days(inMonth month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
