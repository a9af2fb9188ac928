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
  /// slot the paywall lacks, changes nothing and comes back as a warning (the SDK ignores it too).
  package func applying(_ overrides: [SlotOverride], catalog: Catalog) -> (PaywallDefinition, warnings: [String]) {
    var result = self
    var warnings: [String] = []
    for override in overrides {
      switch check(override, catalog: catalog) {
      case .slot(let index):
        // Another product: the slot's offer was the old product's.
        if result.slots[index].productID != override.productID { result.slots[index].offerID = nil }
        result.slots[index].productID = override.productID
        // A Play id sold by falling back from what it names: said, as for a paywall file's slot.
        if let fallback = catalog.play?.fallbackWarning(override.productID) {
          warnings.append("override \(excerpt: override.description): \(fallback)")
        }
      case .noSlot(let problem): warnings.append("\(problem); ignored")
      case .noProduct(let problem, let index): warnings.append("\(problem); slot \(quoting: override.slot) keeps \(result.slots[index].productID)")
      }
    }
    return (result, warnings)
  }

  /// What is wrong with each of `overrides` for this paywall, worded as errors (for `render`,
  /// whose picture would otherwise show what the tester did not ask for); empty when all apply.
  package func overrideErrors(_ overrides: [SlotOverride], catalog: Catalog) -> [String] {
    overrides.compactMap { override in
      switch check(override, catalog: catalog) {
      case .slot: nil
      case .noSlot(let problem), .noProduct(let problem, _): problem
      }
    }
  }

  private enum OverrideCheck {
    case slot(Int)
    case noSlot(String)
    case noProduct(String, slot: Int)
  }

  private func check(_ override: SlotOverride, catalog: Catalog) -> OverrideCheck {
    guard let index = slots.firstIndex(where: { $0.name == override.slot }) else {
      return .noSlot("override \(excerpt: override.description): paywall \(quoting: id) has no slot \(quoting: override.slot)\(Suggestions.hint(for: override.slot, in: slotNames))")
    }
    guard catalog.product(id: override.productID) != nil else {
      return .noProduct("override \(excerpt: override.description): \(catalog.missingProductLine(override.productID))", slot: index)
    }
    return .slot(index)
  }
}
