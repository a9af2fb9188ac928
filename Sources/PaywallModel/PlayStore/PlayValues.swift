#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// An amount of money as the Play Developer API writes it (`Money`: `currencyCode`, `units`,
/// `nanos`), kept exact: `units` + `nanos` × 10⁻⁹.
package struct PlayMoney: Sendable, Hashable, CustomStringConvertible {
  /// ISO 4217 code ("USD").
  package var currencyCode: String
  /// The amount, exact.
  package var amount: Decimal

  package init(currencyCode: String, amount: Decimal) {
    self.currencyCode = currencyCode
    self.amount = amount
  }

  /// The amount in millionths, as Play Billing's `priceAmountMicros` carries it.
  package var micros: Int64 {
    Int64((amount * 1_000_000).rounded(0, .plain).description) ?? 0
  }

  /// `4.99 USD`.
  package var description: String { "\(amount) \(currencyCode)" }
}

/// An ISO 8601 duration of whole days, weeks, months and years, as the Play Developer API writes
/// billing periods (`P1M`), grace periods (`P7D`), account holds (`P0D` to `P60D`) and phase
/// durations. Unlike `SubscriptionPeriod` it may be zero (`P0D`: no grace period) and may mix
/// units (`P1Y6M`); time parts (`PT1H`) are not Play durations and are refused.
package struct PlayDuration: Sendable, Hashable, CustomStringConvertible {
  package var years: Int
  package var months: Int
  package var weeks: Int
  package var days: Int
  /// The text as the file wrote it.
  package var text: String

  package init(years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0) {
    self.years = years
    self.months = months
    self.weeks = weeks
    self.days = days
    var text = "P"
    if years > 0 { text += "\(years)Y" }
    if months > 0 { text += "\(months)M" }
    if weeks > 0 { text += "\(weeks)W" }
    if days > 0 || text == "P" { text += "\(days)D" }
    self.text = text
  }

  /// Parses `P1M`, `P3M`, `P1Y`, `P1W`, `P7D`, `P0D`, `P1Y6M`; nil for anything else.
  package init?(iso8601: String) {
    let scalars = Array(iso8601.unicodeScalars)
    guard scalars.count >= 3, scalars[0] == "P" else { return nil }
    var years = 0, months = 0, weeks = 0, days = 0
    var number = ""
    var order = 0  // Y, M, W, D each at most once, in that order
    for scalar in scalars.dropFirst() {
      if scalar.properties.numericType != nil, scalar.isASCII {
        number.unicodeScalars.append(scalar)
        guard number.count <= 4 else { return nil }
        continue
      }
      guard let value = Int(number) else { return nil }
      number = ""
      let position: Int
      switch scalar {
      case "Y": position = 1; years = value
      case "M": position = 2; months = value
      case "W": position = 3; weeks = value
      case "D": position = 4; days = value
      default: return nil
      }
      guard position > order else { return nil }
      order = position
    }
    guard number.isEmpty, order > 0 else { return nil }
    self.years = years
    self.months = months
    self.weeks = weeks
    self.days = days
    self.text = iso8601
  }

  /// "3-day", "1-week", "2-month" for a duration of one unit; the ISO text otherwise.
  package var spelledAsLength: String {
    let parts = [(years, "year"), (months, "month"), (weeks, "week"), (days, "day")].filter { $0.0 != 0 }
    guard parts.count == 1, let (count, unit) = parts.first else { return text }
    return "\(count)-\(unit)"
  }

  package var isZero: Bool { years == 0 && months == 0 && weeks == 0 && days == 0 }

  /// Days as Superwall and our catalog count them: a month is 30 days, a year 365.
  package var approximateDays: Int { years * 365 + months * 30 + weeks * 7 + days }

  /// The duration as one catalog period (`P1M`, `P1Y`, `P7D`), or nil when it mixes units or is zero.
  package var subscriptionPeriod: SubscriptionPeriod? {
    let parts = [(years, SubscriptionPeriod.Unit.year), (months, .month), (weeks, .week), (days, .day)].filter { $0.0 > 0 }
    guard parts.count == 1 else { return nil }
    return SubscriptionPeriod(value: parts[0].0, unit: parts[0].1)
  }

  /// `self` ÷ `other`, for prorating a base plan's price over an offer phase: in months when both
  /// are whole months and years (3 months of a year is exactly a quarter), else in days (a month
  /// 30 days, a year 365). Nil when `other` is zero.
  package func fraction(of other: PlayDuration) -> Decimal? {
    if weeks == 0 && days == 0 && other.weeks == 0 && other.days == 0 {
      let mine = years * 12 + months
      let theirs = other.years * 12 + other.months
      return theirs == 0 ? nil : Decimal(mine) / Decimal(theirs)
    }
    return other.approximateDays == 0 ? nil : Decimal(approximateDays) / Decimal(other.approximateDays)
  }

  package var description: String { text }

  /// Equal when they span the same months and the same days (a week is 7 days): `P1W` is `P7D`,
  /// `P12M` is `P1Y`, whatever the text.
  package static func == (a: PlayDuration, b: PlayDuration) -> Bool {
    a.years * 12 + a.months == b.years * 12 + b.months && a.weeks * 7 + a.days == b.weeks * 7 + b.days
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(years * 12 + months)
    hasher.combine(weeks * 7 + days)
  }
}

/// A resource's state as the Play Developer API reports it (base plans, subscription offers,
/// purchase options). Only `ACTIVE` is sold to new buyers.
package enum PlayState: String, Sendable, Hashable, CaseIterable {
  case active = "ACTIVE"
  case inactive = "INACTIVE"
  case draft = "DRAFT"
  /// A one-time product's purchase option made inactive after it was published.
  case inactivePublished = "INACTIVE_PUBLISHED"
  /// `STATE_UNSPECIFIED`, or no `state` at all (a resource written by hand): read as active, since
  /// a catalog someone wrote to test against means its products to be on sale.
  case unspecified = "STATE_UNSPECIFIED"

  package var isSold: Bool { self == .active || self == .unspecified }
}
