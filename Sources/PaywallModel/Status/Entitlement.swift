/// Access a product grants ("pro", "lifetime"). Paywalls gate features on entitlements, never on
/// product ids, as the Superwall SDK does.
public struct Entitlement: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
  public var id: String

  public init(_ id: String) {
    self.id = id
  }

  public init(stringLiteral value: String) {
    self.id = value
  }

  public var description: String { id }

  public static func < (a: Entitlement, b: Entitlement) -> Bool { a.id < b.id }
}
