import Foundation

/// A subscription or offer period such as `P1W`, `P1M`, `P3M`, `P1Y` (ISO 8601, one unit).
public struct SubscriptionPeriod: Sendable, Hashable, CustomStringConvertible {
  public enum Unit: String, Sendable, Hashable, CaseIterable {
    case day, week, month, year
  }

  public var value: Int
  public var unit: Unit

  public init(value: Int, unit: Unit) {
    self.value = value
    self.unit = unit
  }

  /// Parses `P7D`, `P1W`, `P1M`, `P6M`, `P1Y`; nil for anything else (zero, mixed units, time parts).
  public init?(iso8601 text: String) {
    let chars = Array(text.uppercased())
    guard chars.count >= 3, chars.first == "P", let last = chars.last,
          let value = Int(String(chars[1..<(chars.count - 1)])), value > 0, value <= 1000
    else { return nil }
    switch last {
    case "D": self.init(value: value, unit: .day)
    case "W": self.init(value: value, unit: .week)
    case "M": self.init(value: value, unit: .month)
    case "Y": self.init(value: value, unit: .year)
    default: return nil
    }
  }

  public var iso8601: String {
    let letter = switch unit {
    case .day: "D"
    case .week: "W"
    case .month: "M"
    case .year: "Y"
    }
    return "P\(value)\(letter)"
  }

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

  /// `date` plus this period on the Gregorian calendar in UTC (a month from Jan 31 is Feb 28/29).
  public func added(to date: Date) -> Date {
    var components = DateComponents()
    switch unit {
    case .day: components.day = value
    case .week: components.day = 7 * value
    case .month: components.month = value
    case .year: components.year = value
    }
    return Self.calendar.date(byAdding: components, to: date) ?? date
  }

  private static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()

  /// "1 week", "3 months": how a card or a template spells the length of a period.
  public var spelledOut: String {
    let noun = value == 1 ? unit.rawValue : "\(unit.rawValue)s"
    return "\(value) \(noun)"
  }
}
