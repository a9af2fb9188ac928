/// `--override primary=com.acme.promo`: replaces a slot's product by name before display, as the
/// SDK's `overrideProductsByName` does. The purchase controller then receives the new product.
public struct SlotOverride: Sendable, Hashable, CustomStringConvertible {
  /// The slot whose product is replaced.
  public var slot: String
  /// The product it shows instead, by identifier.
  public var productID: String

  /// Replaces slot `slot`'s product with `productID`.
  public init(slot: String, productID: String) {
    self.slot = slot
    self.productID = productID
  }

  /// Parses `NAME=ID`.
  package init?(argument: String) {
    let parts = argument.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
    self.init(slot: parts[0], productID: parts[1])
  }

  /// `SLOT=PRODUCT_ID`, as `--override` takes it.
  public var description: String { "\(slot)=\(productID)" }
}

extension PaywallDefinition {
  /// The paywall with `overrides` applied. An override naming a product the catalog lacks, or a
  /// slot the paywall lacks, changes nothing and comes back as a warning.
  package func applying(_ overrides: [SlotOverride], catalog: Catalog) -> (PaywallDefinition, warnings: [String]) {
    var result = self
    var warnings: [String] = []
    for override in overrides {
      guard let index = result.slots.firstIndex(where: { $0.name == override.slot }) else {
        warnings.append("override \(excerpt: override.description): paywall \(quoting: id) has no slot \(quoting: override.slot)\(Suggestions.hint(for: override.slot, in: slotNames)); ignored")
        continue
      }
      guard catalog.product(id: override.productID) != nil else {
        warnings.append("override \(excerpt: override.description): no product \(quoting: override.productID) in the catalog\(Suggestions.hint(for: override.productID, in: catalog.productIDs)); slot \(quoting: override.slot) keeps \(result.slots[index].productID)")
        continue
      }
      result.slots[index].productID = override.productID
    }
    return (result, warnings)
  }
}
