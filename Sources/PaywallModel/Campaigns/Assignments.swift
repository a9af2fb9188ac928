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

/// Where a user falls in an audience's split: a bucket 0–99 from a stable hash of the user id,
/// the placement and the audience, so the same user always gets the same variant, on any machine.
public struct Assignment: Sendable, Hashable, CustomStringConvertible {
  /// The paywall, or nil for the holdout.
  public var paywallID: String?
  /// The user's bucket, 0–99.
  public var bucket: Int
  /// Whether the audience splits users at all (variants or a holdout); a single paywall does not.
  public var isSplit = true

  /// `bucket N of 0–99 → variant "ID"` (or `holdout`).
  public var description: String {
    "bucket \(bucket) of 0–99 → " + (paywallID.map { "variant \(quoting: $0)" } ?? "holdout")
  }

  package static func bucket(userID: String, placement: String, audience: Int) -> Int {
    // FNV-1a, 64 bit: stable across runs and platforms, unlike Swift's seeded Hasher.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "\(userID)|\(placement)|\(audience)".utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return Int(hash % 100)
  }

  /// The variant for `bucket`: the first `holdout` buckets are held out, the rest split by percent.
  package static func pick(_ variants: [AudienceOutcome.Variant], holdout: Int, bucket: Int) -> String? {
    if bucket < holdout { return nil }
    let total = variants.reduce(0) { $0 + $1.percent }
    guard total > 0 else { return nil }
    // Spread the remaining buckets over the variants in proportion to their percentages.
    let position = Double(bucket - holdout) / Double(100 - holdout) * Double(total)
    var running = 0
    for variant in variants {
      running += variant.percent
      if position < Double(running) { return variant.paywallID }
    }
    return variants.last?.paywallID
  }
}

/// Sticky assignments: once a user got a variant (or the holdout) for an audience, they keep it
/// across runs even if the percentages change, as the SDK confirms assignments.
public struct AssignmentBook: Sendable, Hashable {
  /// The user's id (`$anon:` and a random UUID for an anonymous user).
  public var userID: String
  /// "placement#audience" → paywall id, or "" for the holdout.
  public var entries: [String: String]
  /// "placement#audience" → when an audience with an occurrence limit presented or held out,
  /// oldest first (the SDK's saved `TriggerAudienceOccurrence`s, `ManagedTriggerRuleOccurrence.createdAt`).
  public var occurrences: [String: [Date]]
  /// The assignment key of the last survey drawn for this user, shown or held out: one key, as the
  /// SDK keeps one (`Storage/Cache/CacheKeys.swift` `SurveyAssignmentKey`, a user file, so a new
  /// user starts without it). A survey with this key is not shown again.
  public var surveyAssignmentKey: String?
  /// The app's first launch on this state (the SDK's `appInstalledAtString`, which `app_install`
  /// and every `user_attributes` carry); nil in a file written before it was kept.
  public var installedAt: Date?

  /// The book of `userID`, with `entries` already assigned and `occurrences` recorded.
  public init(userID: String, entries: [String: String] = [:], occurrences: [String: [Date]] = [:]) {
    self.userID = userID
    self.entries = entries
    self.occurrences = occurrences
  }

  /// How many occurrences of `key` count at `now` for `interval`: all of them, or those at most
  /// N minutes old (the SDK's `createdAt >= now − N minutes`, `Storage/Core Data/CoreDataManager.swift`
  /// `countAudienceOccurrences`).
  public func occurrenceCount(_ key: String, within interval: OccurrenceLimit.Interval, now: Date) -> Int {
    let times = occurrences[key] ?? []
    switch interval {
    case .infinity: return times.count
    case .minutes(let minutes):
      let since = now.addingTimeInterval(-Double(minutes) * 60)
      return times.reduce(0) { $0 + ($1 >= since ? 1 : 0) }
    }
  }

  static func key(_ placement: String, _ audience: Int) -> String { "\(placement)#\(audience)" }
}
