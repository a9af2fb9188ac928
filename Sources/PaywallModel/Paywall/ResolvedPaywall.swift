import Foundation

/// A product in a slot with every attribute already formatted, so drawing a frame never formats a price.
public struct SlotProduct: Sendable, Hashable {
  /// The slot's name in the paywall (`primary`, `secondary`): what `{{ products.primary.price }}` names.
  public var slot: String
  /// The catalog's product in the slot.
  public var product: StoreProduct
  /// True when the product has a free trial this user may still take.
  public var trialEligible: Bool
  private var values: [ProductAttribute: String]

  private var now: Date

  /// Formats `attributes` now; any other attribute is formatted when asked for.
  init(slot: String, product: StoreProduct, now: Date, trialEligible: Bool, attributes: Set<ProductAttribute>) {
    self.slot = slot
    self.product = product
    self.now = now
    self.trialEligible = product.hasFreeTrial && trialEligible
    self.values = Dictionary(uniqueKeysWithValues: attributes.map { ($0, product.attribute($0, now: now)) })
  }

  /// The product's `attribute` as a template variable shows it (`{{ products.primary.price }}`).
  public subscript(attribute: ProductAttribute) -> String {
    values[attribute] ?? product.attribute(attribute, now: now)
  }
}

/// A paywall joined with its catalog products, ready to show: what `render` and the flow use.
public struct ResolvedPaywall: Sendable, Hashable {
  /// The paywall as written (with any overrides applied).
  public var definition: PaywallDefinition
  /// The slots whose product the catalog has, in the paywall's order.
  public var slots: [SlotProduct]
  /// True when a product on the paywall has a free trial the user is eligible for: texts then use
  /// their `freeTrialText` variant.
  public var showsFreeTrial: Bool
  /// Savings of each recurring slot against the most expensive per-month recurring slot, in whole
  /// percent (truncated), for "Save 50%" badges. Only slots that save at least 1% appear.
  public let savingsPercent: [String: Int]

  /// Joins `definition` with `catalog`. Slots whose product is missing were rejected by validation;
  /// any left are dropped. `isTrialEligible` lets a store exclude trials the user already used.
  public init(_ definition: PaywallDefinition, catalog: Catalog, now: Date = Date(),
              isTrialEligible: (StoreProduct) -> Bool = { _ in true }) {
    self.definition = definition
    // Only what the paywall shows is formatted up front (formatting loads locale data; a date
    // formatter alone costs milliseconds at start-up): the templates' attributes and the cards'.
    let used = Self.cardAttributes.union(definition.templateAttributes)
    self.slots = definition.slots.compactMap { slot in
      catalog.product(id: slot.productID).map {
        SlotProduct(slot: slot.name, product: $0, now: now, trialEligible: isTrialEligible($0), attributes: used)
      }
    }
    self.showsFreeTrial = slots.contains(where: \.trialEligible)
    self.savingsPercent = Self.savings(slots)
  }

  /// What product cards draw.
  static let cardAttributes: Set<ProductAttribute> = [.price, .period, .periodly, .monthlyPrice, .trialPeriodText]

  /// The slot called `name`, if the paywall has it.
  public func slot(named name: String) -> SlotProduct? {
    slots.first { $0.slot == name }
  }

  /// The text to show for `content` with `selected` as the selected slot.
  public func string(_ content: TextContent, selected: String?) -> String {
    let template = showsFreeTrial ? (content.freeTrialText ?? content.text) : content.text
    return string(template, selected: selected)
  }

  /// `template` with its variables filled in: `{{ products.selected.price }}` from the `selected`
  /// slot, `{{ products.primary.price }}` from the slot named; a variable of a missing slot gives nothing.
  public func string(_ template: TemplateText, selected: String?) -> String {
    var out = ""
    for segment in template.segments {
      switch segment {
      case .literal(let s):
        out += s
      case .variable(let v):
        let name: String? = switch v.slot {
        case .selected: selected
        case .named(let n): n
        }
        if let product = name.flatMap(slot(named:)) {
          out += product[v.attribute]
        }
      }
    }
    return out
  }

  private static func savings(_ slots: [SlotProduct]) -> [String: Int] {
    let monthly = slots.compactMap { s in s.product.unitPrice(per: .month).map { (s.slot, $0) } }
    guard let highest = monthly.map(\.1).max(), highest > 0 else { return [:] }
    var result: [String: Int] = [:]
    for (slot, price) in monthly {
      let percent = NSDecimalNumber(decimal: (1 - price / highest) * 100).intValue
      if percent >= 1 { result[slot] = percent }
    }
    return result
  }
}
