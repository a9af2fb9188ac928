/// A text with an optional variant shown when a product on the paywall has an eligible free trial.
public struct TextContent: Sendable, Hashable {
  public var text: TemplateText
  public var freeTrialText: TemplateText?

  public init(text: TemplateText, freeTrialText: TemplateText? = nil) {
    self.text = text
    self.freeTrialText = freeTrialText
  }
}

/// What a button does when activated.
public enum ButtonAction: Sendable, Hashable {
  /// Buy the named slot's product, or the selected one when nil.
  case purchase(slot: String?)
  case restore
  case close
  /// Select a slot without buying.
  case select(slot: String)
  /// Register a custom placement.
  case placement(String)

  package static let names = ["purchase", "restore", "close", "select", "placement"]
}

public struct PaywallButton: Sendable, Hashable {
  public var label: TextContent
  public var action: ButtonAction

  public init(label: TextContent, action: ButtonAction) {
    self.label = label
    self.action = action
  }
}

/// The product picker: cards for the paywall's slots (all of them unless `slots` names some).
public struct ProductPicker: Sendable, Hashable {
  public var slots: [String]?
  /// Badges the paywall names ("Most popular"); a slot without one may get a computed "Save N%".
  public var badges: [String: String]
  /// Whether to compute a "Save N%" badge for the best-value card.
  public var showsSavings: Bool

  public init(slots: [String]? = nil, badges: [String: String] = [:], showsSavings: Bool = true) {
    self.slots = slots
    self.badges = badges
    self.showsSavings = showsSavings
  }
}

public enum TextStyle: String, Sendable, Hashable, CaseIterable {
  case body, muted, accent
}

/// One piece of a paywall, drawn top to bottom in order.
public enum PaywallComponent: Sendable, Hashable {
  case title(TextContent)
  case text(TextContent, style: TextStyle)
  case features(title: TextContent?, items: [TextContent])
  case products(ProductPicker)
  case button(PaywallButton)
  case divider
  case spacer(lines: Int)
  case art(lines: [String])

  package static let typeNames = ["title", "text", "features", "products", "button", "divider", "spacer", "art"]
}

/// Whether the feature behind a placement runs when the user declines the paywall.
public enum FeatureGating: String, Sendable, Hashable, CaseIterable {
  case gated, nonGated
}

/// Who the paywall is shown to: by default subscribers are skipped; `always` is the v3 rule
/// "present even to subscribers", leaving the decision to audience filters.
public enum PresentationCondition: String, Sendable, Hashable, CaseIterable {
  case checkUserSubscription, always
}

/// A product slot: a name ("primary") bound to a product id.
public struct ProductSlot: Sendable, Hashable {
  public var name: String
  public var productID: String

  public init(name: String, productID: String) {
    self.name = name
    self.productID = productID
  }
}

/// A paywall as its JSON file defines it, validated.
public struct PaywallDefinition: Sendable, Hashable {
  public var id: String
  public var name: String
  /// Slots in file order; keys `1` `2` `3` select them in this order.
  public var slots: [ProductSlot]
  public var selectedSlot: String?
  public var featureGating: FeatureGating
  public var presentationCondition: PresentationCondition
  public var components: [PaywallComponent]
  public var file: String

  public init(id: String, name: String, slots: [ProductSlot], selectedSlot: String? = nil,
              featureGating: FeatureGating = .nonGated, presentationCondition: PresentationCondition = .checkUserSubscription,
              components: [PaywallComponent], file: String = "") {
    self.id = id
    self.name = name
    self.slots = slots
    self.selectedSlot = selectedSlot
    self.featureGating = featureGating
    self.presentationCondition = presentationCondition
    self.components = components
    self.file = file
  }

  public var slotNames: [String] { slots.map(\.name) }

  /// Every product attribute a text of this paywall uses.
  package var templateAttributes: Set<ProductAttribute> {
    var texts: [TextContent] = []
    for component in components {
      switch component {
      case .title(let t), .text(let t, _): texts.append(t)
      case .features(let title, let items): texts += (title.map { [$0] } ?? []) + items
      case .button(let button): texts.append(button.label)
      case .products, .divider, .spacer, .art: break
      }
    }
    return Set(texts.flatMap { ($0.freeTrialText.map { [$0] } ?? []) + [$0.text] }.flatMap(\.variables).map(\.attribute))
  }

  public func productID(forSlot name: String) -> String? {
    slots.first { $0.name == name }?.productID
  }
}
