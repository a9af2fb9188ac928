/// Whether the user is subscribed, and to what. `active([])` is the same as `inactive`, as in the SDK.
public enum SubscriptionStatus: Sendable, Hashable, CustomStringConvertible {
  case unknown
  case inactive
  case active(Set<Entitlement>)

  /// `active([])` resolves to `inactive`; every comparison and description goes through this.
  public var normalized: SubscriptionStatus {
    if case .active(let set) = self, set.isEmpty { return .inactive }
    return self
  }

  /// Compares the normalized values: `active([])` equals `inactive`.
  public static func == (a: SubscriptionStatus, b: SubscriptionStatus) -> Bool {
    switch (a.normalized, b.normalized) {
    case (.unknown, .unknown), (.inactive, .inactive): true
    case (.active(let x), .active(let y)): x == y
    default: false
    }
  }

  /// Hashes the normalized value, consistently with `==`.
  public func hash(into hasher: inout Hasher) {
    switch normalized {
    case .unknown: hasher.combine(0)
    case .inactive: hasher.combine(1)
    case .active(let set): hasher.combine(2); hasher.combine(set)
    }
  }

  /// Whether the status is `active` with at least one entitlement.
  public var isActive: Bool {
    if case .active = normalized { true } else { false }
  }

  /// The entitlements of an `active` status; empty for `unknown` and `inactive`.
  public var entitlements: Set<Entitlement> {
    if case .active(let set) = self { set } else { [] }
  }

  /// "unknown", "inactive" or "active:pro,lifetime" (entitlements sorted), the form the command line,
  /// scripts and the cache use.
  public var description: String {
    switch self {
    case .unknown: "unknown"
    case .inactive: "inactive"
    case .active(let set): set.isEmpty ? "inactive" : "active:" + set.sorted().map(\.id).joined(separator: ",")
    }
  }

  /// `UNKNOWN`, `INACTIVE` or `ACTIVE`, as audience filters and events name it.
  public var rawName: String {
    switch self {
    case .unknown: "UNKNOWN"
    case .inactive: "INACTIVE"
    case .active(let set): set.isEmpty ? "INACTIVE" : "ACTIVE"
    }
  }

  /// Parses `unknown`, `inactive`, `active` (with `defaultEntitlements`) or `active:pro,lifetime`.
  public init?(parsing text: String, defaultEntitlements: Set<Entitlement> = []) {
    let trimmed = text.trimmingSpaces()
    switch trimmed.lowercased() {
    case "unknown": self = .unknown
    case "inactive": self = .inactive
    case "active": self = .active(defaultEntitlements)
    default:
      guard trimmed.lowercased().hasPrefix("active:") else { return nil }
      let names = trimmed.dropFirst("active:".count).split(separator: ",", omittingEmptySubsequences: false)
        .map { $0.trimmingSpaces() }
      guard !names.contains(where: \.isEmpty) else { return nil }
      self = .active(Set(names.map { Entitlement($0) }))
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
