/// Results fixed in advance, for demos and CI: `--outcome purchase=pending,restore=failed`,
/// `purchase=failed:Card declined`, `purchase=failed:userCancelled` (a `StoreError` by its name is
/// that typed error, anything else a message), `latency=2s`. Like an app's controller, it sets
/// the status itself: a purchase activates the product's entitlements on top of the current ones.
public final class ScriptedPurchaseController: PurchaseController {
  /// What every purchase returns.
  public enum PurchaseOutcome: Sendable, Hashable {
    /// `restored` is SDK 3's only: a session on SDK 4 refuses it.
    case purchased, cancelled, pending, restored
    /// Fails with a message (a `PurchaseError`): a failure, never a cancel.
    case failed(String)
    /// Fails with StoreKit's typed error, as a controller returning `.failed(error)` does: the
    /// SDK reads `userCancelled` and StoreKit 1's cancels as a cancel.
    case failedWith(StoreError)
  }

  /// What every restore returns; a failure's message may be nil.
  public enum RestoreOutcome: Sendable, Hashable {
    case restored
    case failed(String?)
    /// Fails with StoreKit's typed error.
    case failedWith(StoreError)
  }

  /// The fixed results, and how long each call takes.
  public struct Outcomes: Sendable, Hashable {
    /// The result of every purchase.
    public var purchase: PurchaseOutcome = .purchased
    /// The result of every restore.
    public var restore: RestoreOutcome = .restored
    /// How long each call takes, in seconds of the app's clock.
    public var latency: Double = 0

    /// Results given in code; every call succeeds at once by default.
    public init(purchase: PurchaseOutcome = .purchased, restore: RestoreOutcome = .restored, latency: Double = 0) {
      self.purchase = purchase
      self.restore = restore
      self.latency = latency
    }

    /// Parses `purchase=pending,restore=failed:No receipt,latency=2s`; the error says what is wrong.
    package init(parsing text: String) throws(PurchaseError) {
      // A key given twice is a mistake to name, not a silent "the last one wins".
      var seen: [String: String] = [:]
      for part in text.split(separator: ",").map({ $0.trimmingSpaces() }) where !part.isEmpty {
        let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
        guard pieces.count == 2 else {
          throw PurchaseError("--outcome \(quoting: part) must be KEY=VALUE, e.g. purchase=pending")
        }
        let (key, value) = (pieces[0], pieces[1])
        if let earlier = seen[key] {
          throw PurchaseError("--outcome gives \(quoting: key) twice (\(quoting: earlier), then \(quoting: part)); give each of purchase, restore and latency once")
        }
        seen[key] = part
        let (word, message) = value.firstIndex(of: ":").map { (String(value[..<$0]), String(value[value.index(after: $0)...])) } ?? (value, nil)
        switch key {
        case "purchase":
          switch word {
          case "purchased": purchase = .purchased
          case "cancelled": purchase = .cancelled
          case "pending": purchase = .pending
          case "restored": purchase = .restored
          case "failed": purchase = message.flatMap(StoreError.init(rawValue:)).map(PurchaseOutcome.failedWith) ?? .failed(message ?? "The purchase failed")
          default:
            let names = ["purchased", "cancelled", "pending", "failed", "restored"]
            throw PurchaseError("--outcome purchase=\(quoting: word) is not a purchase result\(Suggestions.hint(for: word, in: names)) (one of \(names.joined(separator: ", ")))")
          }
        case "restore":
          switch word {
          case "restored": restore = .restored
          case "failed": restore = message.flatMap(StoreError.init(rawValue:)).map(RestoreOutcome.failedWith) ?? .failed(message)
          default:
            throw PurchaseError("--outcome restore=\(quoting: word) is not a restore result\(Suggestions.hint(for: word, in: ["restored", "failed"])) (restored or failed)")
          }
        case "latency":
          guard let seconds = Duration.seconds(parsing: value) else {
            throw PurchaseError("--outcome latency=\(quoting: value) must be a duration such as 500ms, 2s or 1m")
          }
          latency = seconds
        default:
          throw PurchaseError("--outcome key \(quoting: key) is unknown\(Suggestions.hint(for: key, in: ["purchase", "restore", "latency"])) (purchase, restore or latency)")
        }
      }
    }
  }

  /// The results it gives.
  public let outcomes: Outcomes
  private let status: SubscriptionStatusStore
  private let clock: any TimeSource

  /// A controller giving `outcomes`, setting the status in `status`, waiting on `clock`.
  public init(outcomes: Outcomes, status: SubscriptionStatusStore, clock: any TimeSource) {
    self.outcomes = outcomes
    self.status = status
    self.clock = clock
  }

  /// Waits the latency, then returns the scripted result; a success adds the product's entitlements to the status.
  public func purchase(product: StoreProduct) async -> PurchaseResult {
    do {
      try await clock.sleep(seconds: outcomes.latency)
    } catch {
      return .failed(PurchaseError("The purchase was interrupted"))
    }
    switch outcomes.purchase {
    case .purchased:
      status.set(.active(status.status.entitlements.union(product.entitlements)))
      return .purchased
    case .cancelled: return .cancelled
    case .pending: return .pending
    case .restored: return .restored
    case .failed(let message): return .failed(PurchaseError(message))
    case .failedWith(let error): return .failed(error)
    }
  }

  /// Waits the latency, then returns the scripted result.
  public func restorePurchases() async -> RestorationResult {
    do {
      try await clock.sleep(seconds: outcomes.latency)
    } catch {
      return .failed(PurchaseError("The restore was interrupted"))
    }
    switch outcomes.restore {
    case .restored: return .restored
    case .failed(let message): return .failed(message.map(PurchaseError.init))
    case .failedWith(let error): return .failed(error)
    }
  }
}

extension Duration {
  /// Why a duration's text was refused.
  package enum ParseError: Error, Sendable, Hashable {
    /// Not a number followed by a unit.
    case notADuration
    /// Longer than `longestSeconds` (or a number too large for a Double).
    case tooLong
    /// A fraction of a calendar unit (`1.5M`): months and years take whole numbers.
    case fractionalCalendarUnit
  }

  /// The longest duration anything accepts: the span of dates a ledger holds, 1970 to the end
  /// of 9999 (about 8,000 years). A longer one could only move a clock past them.
  package static let longestSeconds = LedgerFile.dateRange.upperBound - LedgerFile.dateRange.lowerBound

  /// Seconds in `500ms`, `30s`, `2m`, `2h`, `1d`, `1w`, `1M` (a month: 365/12 days) or `1y`; nil
  /// for anything else, and for durations longer than `longestSeconds`.
  package static func seconds(parsing text: String) -> Double? {
    try? parseSeconds(text).get()
  }

  /// As `seconds(parsing:)`, saying whether the text is no duration or too long a one.
  package static func parseSeconds(_ text: String) -> Result<Double, ParseError> {
    let trimmed = text.trimmingSpaces()
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400), ("w", 604_800),
                                     ("M", 86_400 * 365 / 12), ("y", 86_400 * 365)]
    for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
      let number = trimmed.dropLast(suffix.count)
      // "ms" also ends in "s": only accept a suffix whose number parses.
      guard let value = Double(number), value >= 0 else { continue }
      // 1e400 reads as infinity: a number, far too large ("inf" is no number at all).
      if value.isInfinite && number.contains(where: \.isNumber) { return .failure(.tooLong) }
      guard value.isFinite else { continue }
      let seconds = value * scale
      return seconds <= longestSeconds ? .success(seconds) : .failure(.tooLong)
    }
    return .failure(.notADuration)
  }

  /// `longestSeconds` in years, for messages.
  package static var longestYears: Int { Int(longestSeconds / (86_400 * 365)) }

  /// How far a clock moves for `advance` and the debug panel's typed duration: as
  /// `parseSeconds`, except that `M` and `y` are calendar units, as the store's periods are
  /// (`SubscriptionPeriod.added(to:)`): from 2026-01-01, `advance 1M` reaches 2026-02-01, the
  /// day a monthly plan renews. They take whole numbers.
  package static func parseDistance(_ text: String) -> Result<ClockDistance, ParseError> {
    let trimmed = text.trimmingSpaces()
    let seconds: Double
    switch parseSeconds(trimmed) {
    case .success(let parsed): seconds = parsed
    case .failure(let error): return .failure(error)
    }
    for (suffix, months) in [("M", 1), ("y", 12)] where trimmed.hasSuffix(suffix) {
      guard let count = Int(trimmed.dropLast()) else { return .failure(.fractionalCalendarUnit) }
      return .success(.months(count * months))
    }
    return .success(.seconds(seconds))
  }
}

/// How far to move a clock: a fixed number of seconds, or calendar months (Gregorian, UTC), which
/// differ in length as the store's monthly and yearly periods do.
package enum ClockDistance: Sendable, Hashable, CustomStringConvertible {
  case seconds(Double)
  /// `1M` is one month, `1y` twelve.
  case months(Int)

  /// Where a clock at `start` ends up.
  package func end(from start: Date) -> Date {
    switch self {
    case .seconds(let seconds): start.addingTimeInterval(seconds)
    case .months(let months): SubscriptionPeriod(value: months, unit: .month).added(to: start)
    }
  }

  /// The seconds from `start` to `end(from: start)`.
  package func seconds(from start: Date) -> Double {
    end(from: start).timeIntervalSince(start)
  }

  /// `90s`, `3d`, `1M`, `2y`: how a notice names it.
  package var description: String {
    switch self {
    case .seconds(let seconds): TimeRate.spell(seconds)
    case .months(let months): months % 12 == 0 && months > 0 ? "\(months / 12)y" : "\(months)M"
    }
  }
}

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
