/// A text with an optional variant shown when a product on the paywall has an eligible free trial.
public struct TextContent: Sendable, Hashable {
  /// The text shown normally.
  public var text: TemplateText
  /// The text shown instead when a product on the paywall has an eligible free trial; nil: always `text`.
  public var freeTrialText: TemplateText?

  /// A text, with its free-trial variant when there is one.
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

/// A button: its label and what it does.
public struct PaywallButton: Sendable, Hashable {
  /// The label, which may name products' attributes.
  public var label: TextContent
  /// What pressing it does.
  public var action: ButtonAction

  /// A button labelled `label` that does `action`.
  public init(label: TextContent, action: ButtonAction) {
    self.label = label
    self.action = action
  }
}

/// The product picker: cards for the paywall's slots (all of them unless `slots` names some).
public struct ProductPicker: Sendable, Hashable {
  /// The slots shown as cards, in this order; nil: every slot of the paywall.
  public var slots: [String]?
  /// Badges the paywall names ("Most popular"); a slot without one may get a computed "Save N%".
  public var badges: [String: String]
  /// Whether to compute a "Save N%" badge for the best-value card.
  public var showsSavings: Bool

  /// A picker of `slots` (nil: all), with `badges` by slot name and computed savings badges when `showsSavings`.
  public init(slots: [String]? = nil, badges: [String: String] = [:], showsSavings: Bool = true) {
    self.slots = slots
    self.badges = badges
    self.showsSavings = showsSavings
  }
}

/// How a text component is emphasised.
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
  /// The slot's name, which templates and buttons use (`primary`).
  public var name: String
  /// The product the slot shows, by identifier.
  public var productID: String
  /// The product's promotional or win-back offer the slot sells (`{"product": …, "offer": …}`),
  /// by offer id; nil: the product as it is (with its introductory offer, if the user may take it).
  public var offerID: String? = nil
  /// The store whose entry of a slot written per store (`{"ios": …, "android": …}`) this is; nil
  /// for a slot written once.
  public var store: SDKPlatform? = nil

  /// The slot `name` showing `productID`.
  public init(name: String, productID: String) {
    self.name = name
    self.productID = productID
  }
}

/// A paywall as its JSON file defines it, validated.
public struct PaywallDefinition: Sendable, Hashable {
  /// The paywall's identifier, which campaigns and `open` name.
  public var id: String
  /// The paywall's name, for people.
  public var name: String
  /// Slots in file order; keys `1` `2` `3` select them in this order.
  public var slots: [ProductSlot]
  /// The slot selected when the paywall opens; nil: the first.
  public var selectedSlot: String?
  /// Whether the placement's feature runs only after a purchase (`gated`) or anyway (`nonGated`).
  public var featureGating: FeatureGating
  /// When the paywall is shown: only to users without an active subscription, or always.
  public var presentationCondition: PresentationCondition
  /// What the paywall shows, top to bottom.
  public var components: [PaywallComponent]
  /// The file the paywall was read from, for messages; empty for one built in code.
  public var file: String
  /// The surveys the paywall may show as it closes, in order: the first whose condition holds
  /// decides (`Survey.first`).
  public var surveys: [Survey] = []
  /// The notifications a free trial started from the paywall schedules (`LocalNotification`).
  public var localNotifications: [LocalNotification] = []
  /// Where in a Superwall config (`file`) the paywall was built from: its `paywall_responses`
  /// item, for messages about it. Nil for a paywall read from a file of its own.
  package var origin: SourcePlace?

  /// A paywall built in code (tests, tools); `ProjectLoader` reads them from files and validates them.
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

  /// The slots' names, in file order.
  public var slotNames: [String] { slots.map(\.name) }

  /// Whether a text or button of the paywall has a free-trial variant.
  public var hasFreeTrialCopy: Bool {
    components.contains { component in
      switch component {
      case .title(let t), .text(let t, _): t.freeTrialText != nil
      case .button(let b): b.label.freeTrialText != nil
      case .features, .products, .divider, .spacer, .art: false
      }
    }
  }

  /// Every product attribute a text of this paywall uses, each once, in the order the texts use
  /// them. Each presentation asks: gathered as found, with no arrays between. An array,
  /// not a Set: a Set of them is a type the runtime builds at its first use, after searching every
  /// conformance of the binary for the attribute's Hashable (260,000 instructions before the first
  /// paint).
  package var templateAttributes: [ProductAttribute] {
    var attributes: [ProductAttribute] = []
    func add(_ content: TextContent) {
      for template in [content.freeTrialText, content.text] {
        for case .variable(let variable) in template?.segments ?? [] where !attributes.contains(variable.attribute) {
          attributes.append(variable.attribute)
        }
      }
    }
    for component in components {
      switch component {
      case .title(let t), .text(let t, _): add(t)
      case .features(let title, let items):
        if let title { add(title) }
        items.forEach(add)
      case .button(let button): add(button.label)
      case .products, .divider, .spacer, .art: break
      }
    }
    return attributes
  }

  /// The product identifier bound to slot `name`, or nil when the paywall has no such slot.
  public func productID(forSlot name: String) -> String? {
    slots.first { $0.name == name }?.productID
  }
}

/// A place in a source file: a position for people and the JSON path to it.
package struct SourcePlace: Sendable, Hashable {
  package var location: SourceLocation
  package var path: JSONPath

  package init(location: SourceLocation, path: JSONPath) {
    self.location = location
    self.path = path
  }
}
