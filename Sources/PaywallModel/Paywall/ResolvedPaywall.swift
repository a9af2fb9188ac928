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

/// A product in a slot with every attribute already formatted, so drawing a frame never formats a price.
public struct SlotProduct: Sendable, Hashable {
  /// The slot's name in the paywall (`primary`, `secondary`): what `{{ products.primary.price }}` names.
  public var slot: String
  /// The catalog's product in the slot.
  public var product: StoreProduct
  /// The introductory offer buying the product now starts for this user: the product's own,
  /// or nil when it has none or the user used its group's (`IntroOfferEligibility`). The card
  /// and the offer's template variables describe this, and the simulated store charges it.
  public var introOffer: IntroductoryOffer?
  /// Whether the user's latest purchase of the product is active: `{{ products.X.isSubscribed }}`.
  public var isSubscribed: Bool
  /// The attributes formatted up front, by their raw values (a String key: see `templateAttributes`).
  private var values: [String: String]

  private var now: Date

  /// True when the product has an introductory offer (free or paid: the SDK calls both a trial)
  /// this user may still take: the SDK's `isFreeTrialAvailable(for:)` for one product.
  public var trialEligible: Bool { introOffer != nil }

  /// Formats `attributes` now; any other attribute is formatted when asked for.
  init(slot: String, product: StoreProduct, now: Date, eligibility: IntroOfferEligibility, isSubscribed: Bool = false,
       attributes: [ProductAttribute], offerID: String? = nil, history: OfferHistory = .unknownHistory) {
    self.slot = slot
    self.now = now
    var product = product
    var offer = eligibility.offer(for: product)
    // A slot selling a promotional or win-back offer: the card and the offer's variables describe
    // it (the SDK's `trialPeriod*` variables read the offer the purchase starts), and the
    // purchase names it, only when the store will give it; else the product as it is.
    if let offerID, let configured = product.offer(id: offerID),
       let terms = history.terms(of: configured, for: product, at: now) {
      offer = terms
      product.requestedOffer = configured
    }
    self.product = product
    self.introOffer = offer
    self.isSubscribed = isSubscribed
    var values: [String: String] = [:]
    for attribute in attributes { values[attribute.rawValue] = product.attribute(attribute, now: now, introOffer: offer) }
    self.values = values
  }

  /// The product's `attribute` as a template variable shows it (`{{ products.primary.price }}`),
  /// its offer's attributes as this user gets it (`StoreProduct.attribute(_:now:introOffer:)`).
  public subscript(attribute: ProductAttribute) -> String {
    if attribute == .isSubscribed { return isSubscribed ? "true" : "false" }
    return values[attribute.rawValue] ?? product.attribute(attribute, now: now, introOffer: introOffer)
  }
}

/// A paywall joined with its catalog products, ready to show: what `render` and the flow use.
public struct ResolvedPaywall: Sendable, Hashable {
  /// The paywall as written (with any overrides applied).
  public var definition: PaywallDefinition
  /// The slots whose product the catalog has, in the paywall's order.
  public var slots: [SlotProduct]
  /// The SDK's `isFreeTrialAvailable` for the paywall: true when ANY product on it has an
  /// introductory offer (free or paid) the user may still take, whichever product is selected;
  /// texts then use their `freeTrialText` variant. v4: `Paywall/Request/Operators/
  /// AddPaywallProducts.swift` (`refreshFreeTrialAvailability`, first eligible product wins); v3.9.1:
  /// `Paywall/Request/PaywallLogic.swift` (`getVariablesAndFreeTrial`), the same "any product".
  /// So a selected product without a trial can show trial copy: `trialCopyMisleads(selected:)`.
  public var showsFreeTrial: Bool
  /// The user attributes `{{ user.KEY }}` reads (empty when unset, as on a device).
  public var userAttributes: [String: String]
  /// The placement's parameters `{{ params.KEY }}` reads (the SDK's `placement?.parameters`,
  /// `Dependencies/DependencyContainer.swift` `makeJsonVariables`).
  public var params: [String: String]
  /// Savings of each recurring slot against the most expensive per-month recurring slot, in whole
  /// percent (truncated), for "Save 50%" badges. Only slots that save at least 1% appear.
  public let savingsPercent: [String: Int]

  /// Joins `definition` with `catalog`. Slots whose product is missing were rejected by validation;
  /// any left are dropped. `eligibility` says which introductory offers the user may still take
  /// (the store's history; unknown: every offer, as a new user sees them), as StoreKit answers
  /// the SDK (`IntroOfferEligibility`); `isSubscribed` answers `{{ products.X.isSubscribed }}`.
  public init(_ definition: PaywallDefinition, catalog: Catalog, now: Date = Date(),
              eligibility: IntroOfferEligibility = .unknownHistory, offerHistory: OfferHistory = .unknownHistory,
              isSubscribed: (StoreProduct) -> Bool = { _ in false },
              userAttributes: [String: String] = [:], params: [String: String] = [:]) {
    self.userAttributes = userAttributes
    self.params = params
    self.definition = definition
    // Only what the paywall shows is formatted up front (formatting loads locale data; a date
    // formatter alone costs milliseconds at start-up): the templates' attributes and the cards'.
    let used = Self.cardAttributes + definition.templateAttributes.filter { !Self.cardAttributes.contains($0) }
    self.slots = definition.slots.compactMap { slot in
      // A Play product as Play offers it to this buyer (its selected offer, which the controller's
      // request names); the catalog's is a new customer's.
      catalog.product(id: slot.productID).map { product in
        eligibility.play.flatMap { $0.source.product(product, for: $0.history) } ?? product
      }.map {
        SlotProduct(slot: slot.name, product: $0, now: now, eligibility: eligibility,
                    isSubscribed: isSubscribed($0), attributes: used, offerID: slot.offerID, history: offerHistory)
      }
    }
    self.showsFreeTrial = slots.contains(where: \.trialEligible)
    self.savingsPercent = Self.savings(slots)
  }

  /// What product cards draw.
  static let cardAttributes: [ProductAttribute] = [.price, .period, .periodly, .monthlyPrice, .trialPeriodText]

  /// The slot called `name`, if the paywall has it.
  public func slot(named name: String) -> SlotProduct? {
    slots.first { $0.slot == name }
  }

  /// True when the paywall's free-trial copy shows while the `selected` product has no trial the
  /// user can take: what the SDK does (the copy follows the whole paywall), and a real bug in real paywalls.
  public func trialCopyMisleads(selected: String?) -> Bool {
    guard showsFreeTrial, definition.hasFreeTrialCopy, let selected, let slot = slot(named: selected) else { return false }
    return !slot.trialEligible
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
      case .context(let v):
        switch v.scope {
        case .user: out += userAttributes[v.key] ?? ""
        case .params: out += params[v.key] ?? ""
        case .device: break
        }
      }
    }
    return out
  }

  /// "Save N%" compares a plan with the dearest plan a month of its own subscription group: the
  /// choices a subscriber really has between (a plan of another group is another subscription,
  /// bought on top, and a one-time purchase or a non-renewing pass has no renewing price to
  /// compare). Auto-renewable products a catalog puts in no group are compared with each other.
  private static func savings(_ slots: [SlotProduct]) -> [String: Int] {
    var result: [String: Int] = [:]
    let renewing = slots.filter { $0.product.kind == .autoRenewable }
    for members in Dictionary(grouping: renewing, by: { $0.product.subscriptionGroup ?? "" }).values {
      // In whole cents where every price allows: the same percentages, in integers.
      let cents = members.compactMap { s in s.product.unitPriceCents(per: .month).map { (s.slot, $0) } }
      if cents.count == members.count {
        guard let highest = cents.map(\.1).max(), highest > 0 else { continue }
        // Past an Int (a gap of some 10^17 cents a month), the decimals answer as below.
        let percents = cents.map { slot, price in
          let (saved, overflow) = (highest - price).multipliedReportingOverflow(by: 100)
          return overflow ? nil : (slot, saved / highest)
        }
        if percents.allSatisfy({ $0 != nil }) {
          for case let (slot, percent)? in percents where percent >= 1 { result[slot] = percent }
          continue
        }
      }
      let monthly = members.compactMap { s in s.product.unitPrice(per: .month).map { (s.slot, $0) } }
      guard let highest = monthly.map(\.1).max(), highest > 0 else { continue }
      for (slot, price) in monthly {
        let saved = (1 - price / highest) * 100
        let percent = Int(saved.rounded(0, saved < 0 ? .up : .down).description) ?? 0
        if percent >= 1 { result[slot] = percent }
      }
    }
    return result
  }
}
