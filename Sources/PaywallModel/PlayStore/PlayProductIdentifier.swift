/// A Play product id as Superwall-Android splits it: `productId:basePlan:offer`
/// (`billing/DecomposedProductIds.kt`, `BasePlanType` and `OfferType` in
/// `store/abstractions/product/StoreProduct.kt`, release 2.7.19). A missing, empty or `sw-auto`
/// base plan lets the SDK choose; a missing, empty or `sw-auto` offer lets it choose one; `sw-none`
/// asks for the base plan alone. Parts after the third are ignored, as the SDK ignores them.
package struct PlayProductIdentifier: Sendable, Hashable, CustomStringConvertible {
  /// The base plan (or, for a one-time product, the purchase option) an id asks for.
  package enum BasePlan: Sendable, Hashable {
    case auto
    case specific(String)

    /// The SDK's `BasePlanType.from`: nil, "" and `sw-auto` are `auto`. Anything else, even
    /// blanks, is an id.
    package init(_ part: String?) {
      if let part, !part.isEmpty, part != PlayProductIdentifier.autoWord {
        self = .specific(part)
      } else {
        self = .auto
      }
    }

    package var specificID: String? {
      if case .specific(let id) = self { return id }
      return nil
    }
  }

  /// The offer an id asks for.
  package enum Offer: Sendable, Hashable {
    case auto
    /// `sw-none`: no offer, the base plan's own price.
    case noOffer
    case specific(String)

    /// The SDK's `OfferType.from`: nil, "" and `sw-auto` are `auto`, `sw-none` is `none`.
    package init(_ part: String?) {
      switch part {
      case nil, "", PlayProductIdentifier.autoWord?: self = .auto
      case PlayProductIdentifier.noneWord?: self = .noOffer
      case let id?: self = .specific(id)
      }
    }

    package var specificID: String? {
      if case .specific(let id) = self { return id }
      return nil
    }
  }

  package static let autoWord = "sw-auto"
  package static let noneWord = "sw-none"

  /// The Play product id (`subscriptionId` in the SDK).
  package var productId: String
  package var basePlan: BasePlan
  package var offer: Offer
  /// The id exactly as given.
  package var fullId: String

  /// Splits `id` on ':' as `DecomposedProductIds.from` does.
  package init(_ id: String) {
    let parts = id.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    productId = parts.first ?? ""
    basePlan = BasePlan(parts.count > 1 ? parts[1] : nil)
    offer = Offer(parts.count > 2 ? parts[2] : nil)
    fullId = id
  }

  package var basePlanID: String? { basePlan.specificID }

  package var description: String { fullId }

  /// The offer of a Superwall config's `PLAY_STORE` product (`store_product.offer.type`).
  package enum ConfigOffer: Sendable, Hashable {
    case automatic
    case noOffer
    case specified(String)

    /// As `PlayStoreProductSerializer` decodes it: `AUTOMATIC`, `NO_OFFER`, `SPECIFIED` with its
    /// `offer_identifier`; any other type, or none, falls back to no offer. Nil for `SPECIFIED`
    /// without an identifier, which fails the product's decoding.
    package init?(type: String?, offerIdentifier: String?) {
      switch type {
      case "AUTOMATIC": self = .automatic
      case "SPECIFIED":
        guard let offerIdentifier else { return nil }
        self = .specified(offerIdentifier)
      default: self = .noOffer
      }
    }
  }

  /// The product id a Superwall config's `PLAY_STORE` product stands for on a device
  /// (`PlayStoreProduct.fullIdentifier`, `models/product/ProductItem.kt`): the product id alone
  /// when the base plan is empty (a one-time product of the old kind, whatever the offer says),
  /// else `product:basePlan:` followed by `sw-auto`, `sw-none` or the offer's id. A missing
  /// `base_plan_identifier` is empty.
  package static func configFullIdentifier(productIdentifier: String, basePlanIdentifier: String?, offer: ConfigOffer) -> String {
    let basePlan = basePlanIdentifier ?? ""
    if basePlan.isEmpty { return productIdentifier }
    switch offer {
    case .automatic: return "\(productIdentifier):\(basePlan):\(autoWord)"
    case .noOffer: return "\(productIdentifier):\(basePlan):\(noneWord)"
    case .specified(let id): return "\(productIdentifier):\(basePlan):\(id)"
    }
  }
}
