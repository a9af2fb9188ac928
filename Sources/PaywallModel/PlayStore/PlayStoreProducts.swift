#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

extension PlaySelectedProduct {
  /// The selection as our catalog's product, so a paywall can show a Play product: the product id
  /// as the paywall names it (`sku:basePlan:offer`), the base plan's price and period, the
  /// selected offer's first phase as the introductory offer, `store: .playStore`.
  ///
  /// What does not line up, and how it is bridged:
  /// - An offer of two phases (a free week, then 3 months at a discount) keeps only the first: our
  ///   `IntroductoryOffer` is one phase, and the SDK's trial variables read one (`selectedOfferPricingPhase`).
  /// - A phase whose duration is not one unit (`P1Y6M`) or a prepaid plan's fixed term has no
  ///   `SubscriptionPeriod`: the product becomes non-renewing with no period.
  /// - Prepaid plans are `nonRenewing`; installment plans are `autoRenewable` (their commitment
  ///   is not modelled).
  /// - Play has no subscription group ranks: each subscription is its own group (its product id),
  ///   with no level, since base plans of one subscription replace each other by Play's
  ///   replacement modes, not by rank.
  /// - Entitlements are not in Play's data: `entitlements` gives them (Superwall's product
  ///   entitlements), else the product id is the entitlement.
  package func storeProduct(entitlements: Set<Entitlement>? = nil, locale: String = "en_US") -> StoreProduct? {
    guard let selection else { return nil }
    let granted = entitlements ?? [Entitlement(details.productId)]
    var product: StoreProduct
    switch selection {
    case .oneTime(let option):
      product = StoreProduct(id: identifier.fullId, displayName: details.title, description: details.description,
                             price: option.price, currencyCode: option.priceCurrencyCode, locale: locale, kind: .nonConsumable,
                             entitlements: granted, store: .playStore)
    case .subscription(let offer):
      guard let base = offer.pricingPhases.last else { return nil }
      let renews = base.recurrenceMode == .infiniteRecurring
      let intro = Self.introductoryOffer(offer.pricingPhases)
      product = StoreProduct(id: identifier.fullId, displayName: details.title, description: details.description,
                             price: base.price, currencyCode: base.priceCurrencyCode, locale: locale,
                             kind: renews ? .autoRenewable : .nonRenewing,
                             subscriptionPeriod: PlayDuration(iso8601: base.billingPeriod)?.subscriptionPeriod,
                             introductoryOffer: intro, subscriptionGroup: renews ? details.productId : nil,
                             entitlements: granted, store: .playStore)
    }
    product.play = self
    return product
  }

  /// An offer's first phase, before the base plan's (the last), as our one-phase offer terms: a
  /// free trial for a phase that costs nothing, else so many periods at its price. Nil for a base
  /// plan alone, or a phase of no whole period.
  static func introductoryOffer(_ phases: [PlayProductDetails.PricingPhase]) -> IntroductoryOffer? {
    guard phases.count > 1, let first = phases.first, let period = PlayDuration(iso8601: first.billingPeriod)?.subscriptionPeriod else {
      return nil
    }
    if first.priceAmountMicros == 0 { return IntroductoryOffer(paymentMode: .freeTrial, period: period, periodCount: first.billingCycleCount) }
    return IntroductoryOffer(paymentMode: .payAsYouGo, period: period, periodCount: first.billingCycleCount, price: first.price)
  }
}

extension PlayCatalog {
  /// The catalog product a paywall's Play product id stands for, for a buyer in `region` with
  /// `history`: Play's `ProductDetails`, then the SDK's choice of base plan and offer. Nil when
  /// Play would return nothing for the id, or the SDK selects nothing.
  package func storeProduct(paywallProductID: String, region: String = "US", history: PlayPurchaseHistory = .newCustomer,
                            entitlements: Set<Entitlement>? = nil, reading: PlayProductIdentifier.Reading = .typed) -> StoreProduct? {
    let identifier = PlayProductIdentifier(paywallProductID, reading: reading)
    guard let details = productDetails(for: identifier.productId, region: region, history: history) else { return nil }
    let selected = PlaySelectedProduct(details: details, identifier: identifier)
    var product = selected.storeProduct(entitlements: entitlements)
    if case .subscription(let offer)? = selected.selection,
       let plan = subscription(id: identifier.productId)?.basePlan(id: offer.basePlanId) {
      product?.playPlan = PlayPlanRules(plan)
    }
    return product
  }
}

extension PlayCatalog {
  /// Every product id a paywall can name for this catalog, in file order (the ids listed; the SDK
  /// reads other spellings too, which `Catalog.product(id:)` answers as it does): for a subscription the
  /// bare id, then for each base plan `id:plan`, `id:plan:sw-auto`, `id:plan:sw-none` and
  /// `id:plan:OFFER` for each of its offers; for a one-time product the bare id and
  /// `id:option` for each purchase option. (`sw-auto` as the base plan, and an empty one, are
  /// the bare id's choice and are not listed again.)
  package var paywallProductIDs: [String] {
    var ids: [String] = []
    for subscription in subscriptions {
      ids.append(subscription.productId)
      for plan in subscription.basePlans {
        let prefix = "\(subscription.productId):\(plan.basePlanId)"
        ids += [prefix, "\(prefix):\(PlayProductIdentifier.autoWord)", "\(prefix):\(PlayProductIdentifier.noneWord)"]
        ids += offers(productId: subscription.productId, basePlanId: plan.basePlanId).map { "\(prefix):\($0.offerId)" }
      }
    }
    for product in oneTimeProducts {
      ids.append(product.productId)
      ids += product.purchaseOptions.map { "\(product.productId):\($0.purchaseOptionId)" }
    }
    return ids
  }

  /// Our catalog for a buyer in `region` with `history`: one product per id of
  /// `paywallProductIDs` that sells something there, each as the SDK would show it. Each
  /// subscription is a group of its auto-renewing products. `entitlements` maps a Play product id
  /// to what it grants (Superwall's product entitlements); unmapped, the product id itself.
  /// `reading` is how the SDK release followed reads the ids.
  package func catalog(region: String = "US", history: PlayPurchaseHistory = .newCustomer,
                       entitlements: [String: Set<Entitlement>] = [:], reading: PlayProductIdentifier.Reading = .typed) -> Catalog {
    var products: [StoreProduct] = []
    var groups: [SubscriptionGroup] = []
    var unloaded: [String] = []
    for id in paywallProductIDs {
      let productId = PlayProductIdentifier(id).productId
      if let product = storeProduct(paywallProductID: id, region: region, history: history, entitlements: entitlements[productId],
                                    reading: reading) {
        products.append(product)
      } else {
        unloaded.append(id)
      }
    }
    for subscription in subscriptions {
      let members = products.filter { $0.kind == .autoRenewable && $0.subscriptionGroup == subscription.productId }.map(\.id)
      if !members.isEmpty {
        groups.append(SubscriptionGroup(id: subscription.productId, name: subscription.listings.first?.title ?? subscription.productId,
                                        productIDs: members))
      }
    }
    var catalog = Catalog(products: products, groups: groups, file: file)
    catalog.store = .playStore
    catalog.play = PlaySource(catalog: self, region: region, entitlements: entitlements, reading: reading)
    // An id that sells nothing in the region (a draft offer, a plan not on sale there) is defined
    // by the file: a paywall naming it is told why, not that the id is unknown.
    // An id of a product whose definition had an error (a price that did not read) failed to load:
    // a reference to it follows from that error, which comes first.
    for id in unloaded {
      if failedProducts.contains(PlayProductIdentifier(id).productId) {
        catalog.unloadedProductIDs.insert(id)
      } else {
        catalog.notSoldReasons[id] = Self.notSoldReason(file: file, region: region)
      }
    }
    return catalog
  }

  /// Why an id the file defines sells nothing to a buyer in `region`.
  static func notSoldReason(file: String, region: String) -> String {
    "\(file) defines it but sells nothing under it to a buyer in \(region) (its base plan, offer or purchase option is not active, or has no price for \(region)); price it for \(region) in Play Console, or set the catalog's \"region\" to one it is sold in"
  }
}
