/// A Play product id as Superwall-Android splits it: `productId:basePlan:offer`
/// (`billing/DecomposedProductIds.kt`, `BasePlanType` and `OfferType` in
/// `store/abstractions/product/StoreProduct.kt`, release 2.7.19). A missing, empty or `sw-auto`
/// base plan lets the SDK choose; a missing, empty or `sw-auto` offer lets it choose one; `sw-none`
/// asks for the base plan alone. Parts after the third are ignored, as the SDK ignores them.
/// Releases before 2.7 read the parts more literally (`Reading.literal`).
package struct PlayProductIdentifier: Sendable, Hashable, CustomStringConvertible {
  /// How a release of Superwall-Android reads an id's parts.
  package enum Reading: String, Sendable, Hashable {
    /// 2.7.0 on (`BasePlanType.from`, `OfferType.from`): nil, "" and `sw-auto` let the SDK
    /// choose a base plan or an offer, `sw-none` is no offer, and a one-time product's second
    /// part names one of its purchase options.
    case typed
    /// 2.0.0 to 2.6.8 (`DecomposedProductIds.from` and `RawStoreProduct` at 2.6.8, unchanged
    /// since 2.0.0). The base plan part is an id as it stands: `sw-auto` names a base plan of that
    /// name, which no product has, so nothing is selected. Only a missing offer part or `sw-auto`
    /// lets the SDK choose an offer; any other, "" and `sw-none` included, names an offer, and
    /// the base plan stands in when the plan has none of that id. A one-time product sells its
    /// one legacy purchase option (`oneTimePurchaseOfferDetails`), whatever the id names, and the
    /// controller is handed the base plan part as written, "" when there is none.
    case literal

    /// The reading of `sdk`: iOS releases, which read no Play ids of their own, keep the latest.
    package init(_ sdk: SDKVersion) {
      self = sdk.readsPlayProductIDsByType ? .typed : .literal
    }
  }

  /// The base plan (or, for a one-time product, the purchase option) an id asks for.
  package enum BasePlan: Sendable, Hashable {
    case auto
    case specific(String)

    /// The SDK's `BasePlanType.from`: nil, "" and `sw-auto` are `auto`. Anything else, even
    /// blanks, is an id.
    package init(_ part: String?, reading: Reading = .typed) {
      if let part, !part.isEmpty, reading == .literal || part != PlayProductIdentifier.autoWord {
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
    package init(_ part: String?, reading: Reading = .typed) {
      switch part {
      case nil, PlayProductIdentifier.autoWord?: self = .auto
      case let id? where reading == .literal: self = .specific(id)
      case ""?: self = .auto
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
  package var reading: Reading
  /// The second part as written; nil when the id has none.
  private var basePlanPart: String?

  /// Splits `id` on ':' as `DecomposedProductIds.from` does in the releases that read it so.
  package init(_ id: String, reading: Reading = .typed) {
    let parts = id.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    productId = parts.first ?? ""
    basePlanPart = parts.count > 1 ? parts[1] : nil
    basePlan = BasePlan(basePlanPart, reading: reading)
    offer = Offer(parts.count > 2 ? parts[2] : nil, reading: reading)
    fullId = id
    self.reading = reading
  }

  package var basePlanID: String? { basePlan.specificID }

  /// The `basePlanId` a purchase controller is handed: the base plan the id names, nil when it
  /// lets the SDK choose (`basePlanType.specificId`); before 2.7, the part as written, "" for none
  /// (`components.getOrNull(1) ?: ""`).
  package var controllerBasePlanID: String? {
    reading == .literal ? basePlanPart ?? "" : basePlanID
  }

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
