/// Access a product grants ("pro", "lifetime"). Paywalls gate features on entitlements, never on
/// product ids, as the Superwall SDK does.
public struct Entitlement: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
  /// The entitlement's name as the catalog and the status write it (`pro`).
  public var id: String

  /// An entitlement named `id`.
  public init(_ id: String) {
    self.id = id
  }

  /// An entitlement written as a literal: `let pro: Entitlement = "pro"`.
  public init(stringLiteral value: String) {
    self.id = value
  }

  /// The entitlement's `id`.
  public var description: String { id }

  /// Orders entitlements by `id`, so lists of them print the same every time.
  public static func < (a: Entitlement, b: Entitlement) -> Bool { a.id < b.id }
}
