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

/// How fast subscription time passes in the simulated store, in StoreKit Testing's terms:
/// `realtime`; `UNIT=DURATION`, where a UNIT of store time passes every DURATION of wall time
/// (`month=30s` is Xcode's "monthly renewal every 30 seconds", `day=1s` its "1 second is 1 day");
/// or `renewal=DURATION`, where every subscription renews every DURATION whatever its period
/// (Xcode's "one renewal every 10 seconds"). `play` runs on a clock that only `advance` moves, so
/// there only `renewal=` changes anything (the length of every period).
package enum TimeRate: Sendable, Hashable, CustomStringConvertible {
  case realTime
  /// One `unit` of store time every `every` seconds of wall time.
  case scaled(unit: Unit, every: Double)
  /// Every period (trial, intro, regular) lasts `seconds`, and the clock runs in real time.
  case renewalEvery(seconds: Double)

  package enum Unit: String, Sendable, Hashable, CaseIterable {
    case hour, day, week, month, year

    package var seconds: Double {
      switch self {
      case .hour: 3600
      case .day: 86_400
      case .week: 7 * 86_400
      case .month: 86_400 * 365 / 12
      case .year: 365 * 86_400
      }
    }
  }

  /// Store seconds per wall second: 1 in real time.
  package var clockRate: Double {
    switch self {
    case .realTime, .renewalEvery: 1
    case .scaled(let unit, let every): unit.seconds / every
    }
  }

  /// The fixed length of every period, for `renewal=` rates.
  package var renewalInterval: Double? {
    if case .renewalEvery(let seconds) = self { seconds } else { nil }
  }

  package var description: String {
    switch self {
    case .realTime: "realtime"
    case .scaled(let unit, let every): "\(unit.rawValue)=\(Self.spell(every))"
    case .renewalEvery(let seconds): "renewal=\(Self.spell(seconds))"
    }
  }

  package static let usage = "use realtime, UNIT=DURATION (UNIT: hour, day, week, month or year; e.g. month=30s, day=1s) or renewal=DURATION (e.g. renewal=10s)"

  /// Parses `realtime`, `month=30s`, `day=1s`, `renewal=10s`; nil for anything else.
  package init?(parsing text: String) {
    let trimmed = text.trimmingSpaces()
    if ["realtime", "real-time", "real"].contains(trimmed.lowercased()) {
      self = .realTime
      return
    }
    let parts = trimmed.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, let seconds = Duration.seconds(parsing: parts[1]), seconds > 0, seconds.isFinite else { return nil }
    if parts[0].lowercased() == "renewal" {
      self = .renewalEvery(seconds: seconds)
    } else if let unit = Unit(rawValue: parts[0].lowercased()) {
      self = .scaled(unit: unit, every: seconds)
    } else {
      return nil
    }
  }

  /// StoreKit's `SKTestSession.TimeRate` raw values, as a `.storekit` file's `_timeRate` holds them.
  package init?(storeKitValue value: Int) {
    switch value {
    case 0: self = .realTime
    case 1: self = .scaled(unit: .day, every: 3600)
    case 2: self = .scaled(unit: .day, every: 1800)
    case 3: self = .scaled(unit: .day, every: 300)
    case 4: self = .scaled(unit: .day, every: 60)
    case 5: self = .scaled(unit: .day, every: 30)
    case 6: self = .scaled(unit: .day, every: 1)
    case 10: self = .scaled(unit: .month, every: 3600)
    case 11: self = .scaled(unit: .month, every: 1800)
    case 12: self = .scaled(unit: .month, every: 900)
    case 13: self = .scaled(unit: .month, every: 300)
    case 15: self = .scaled(unit: .month, every: 30)
    case 1000: self = .renewalEvery(seconds: 900)
    case 1001: self = .renewalEvery(seconds: 300)
    case 1002: self = .renewalEvery(seconds: 60)
    case 1003: self = .renewalEvery(seconds: 30)
    case 1004: self = .renewalEvery(seconds: 10)
    case 1005: self = .renewalEvery(seconds: 2)
    default: return nil
    }
  }

  /// `30s`, `5m`, `1h`, `1d`: the shortest exact spelling of a duration.
  package static func spell(_ seconds: Double) -> String {
    for (suffix, scale) in [("y", 365.0 * 86_400), ("w", 7.0 * 86_400), ("d", 86_400.0), ("h", 3600.0), ("m", 60.0), ("s", 1.0)]
    where seconds >= scale && (seconds / scale).rounded() == seconds / scale {
      return "\(Int(seconds / scale))\(suffix)"
    }
    if seconds < 1 { return "\(Int((seconds * 1000).rounded()))ms" }
    return cFormat("%gs", seconds)
  }
}

/// What decides the store's lifecycle besides the ledger: how long periods, grace and billing
/// retry last, and whether renewals fail. Saved in the ledger file, so `paywall-tui store` replays
/// it as the last session did.
public struct StoreRules: Sendable, Hashable {
  /// Every period lasts this many seconds (`renewal=` time rates); nil for calendar periods.
  public var renewalInterval: Double?
  /// A billing failure starts with a grace period during which the subscription stays active.
  public var gracePeriodEnabled: Bool
  /// Every renewal fails with a billing issue (Xcode's "renewal billing issues"), until resolved.
  public var renewalBillingIssues: Bool

  /// Rules as given; a non-positive `renewalInterval` means calendar periods.
  public init(renewalInterval: Double? = nil, gracePeriodEnabled: Bool = false, renewalBillingIssues: Bool = false) {
    self.renewalInterval = renewalInterval.flatMap { $0 > 0 ? $0 : nil }
    self.gracePeriodEnabled = gracePeriodEnabled
    self.renewalBillingIssues = renewalBillingIssues
  }

  /// The end of a period of `period` starting at `start`.
  package func end(of period: SubscriptionPeriod, from start: Date) -> Date {
    if let renewalInterval { return start.addingTimeInterval(renewalInterval) }
    return period.added(to: start)
  }

  /// App Store grace periods: 6 days for weekly subscriptions, 16 for longer ones; one renewal
  /// interval at `renewal=` rates.
  package func graceDuration(for period: SubscriptionPeriod?) -> Double {
    if let renewalInterval { return renewalInterval }
    return (period?.approximateDays ?? 30) <= 7 ? 6 * 86_400 : 16 * 86_400
  }

  /// The App Store retries billing for 60 days; four renewal intervals at `renewal=` rates.
  package func retryDuration(for period: SubscriptionPeriod?) -> Double {
    if let renewalInterval { return 4 * renewalInterval }
    return 60 * 86_400
  }
}
