#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// A Google Play catalog kept beside the products made from it, so each product can be made
/// again for the buyer in front of it. Play returns a buyer only the offers the buyer qualifies
/// for (`queryProductDetailsAsync`: "Eligibility criteria" in Play Console Help: new customer
/// acquisition, upgrade, developer determined), and Superwall-Android picks among those
/// (`RawStoreProduct.getSelectedOfferDetails`), so a returning subscriber sees no new customer's
/// trial and may see an offer a new customer does not. The catalog's products are a new
/// customer's; `product(_:for:)` is the same product for a buyer with a history.
package struct PlaySource: Sendable, Hashable {
  package var catalog: PlayCatalog
  package var region: String
  /// Play product id → what it grants (Superwall's product entitlements).
  package var entitlements: [String: Set<Entitlement>]
  /// How the SDK release followed reads a paywall's product ids.
  package var reading: PlayProductIdentifier.Reading

  package init(catalog: PlayCatalog, region: String, entitlements: [String: Set<Entitlement>], reading: PlayProductIdentifier.Reading = .typed) {
    self.catalog = catalog
    self.region = region
    self.entitlements = entitlements
    self.reading = reading
  }

  /// The product a paywall's id that the catalog does not list stands for, as the SDK reads it
  /// (`acme_pro:sw-auto:sw-auto`, `acme_pro:annual:`); nil when it sells nothing.
  package func unlisted(_ id: String, locale: String?) -> StoreProduct? {
    unlisted(id, locale: locale, reading: reading)
  }

  /// The same, as `reading` reads the id.
  package func unlisted(_ id: String, locale: String?, reading: PlayProductIdentifier.Reading) -> StoreProduct? {
    let productId = PlayProductIdentifier(id, reading: reading).productId
    guard var product = catalog.storeProduct(paywallProductID: id, region: region, entitlements: entitlements[productId],
                                             reading: reading) else { return nil }
    if let locale { product.locale = locale }
    return product
  }

  /// Why an id the catalog does not list sells nothing, when the file defines what it names:
  /// before 2.7, `sw-auto` in the base plan's place names a base plan called so; otherwise the
  /// base plan or purchase option it names (or the product, naming none) is not sold in the
  /// region. Nil for an id naming what the file lacks (a typo: "no product", with a did-you-mean).
  package func unsoldReason(_ id: String) -> String? {
    let identifier = PlayProductIdentifier(id, reading: reading)
    let productId = identifier.productId
    if let subscription = catalog.subscription(id: productId) {
      if reading == .literal, identifier.basePlan == .specific(PlayProductIdentifier.autoWord),
         subscription.basePlan(id: PlayProductIdentifier.autoWord) == nil {
        return "Superwall-Android before 2.7 reads \(quoting: PlayProductIdentifier.autoWord) in the base plan's place as a base plan's id, and \(productId) has no base plan of that name, so the SDK selects nothing: a price of 0, and no offer token to buy with; name the product alone (\(quoting: productId), its first base plan, as 2.7 reads this id) or one of its base plans, or follow 2.7 or later (--sdk 2.7)"
      }
      guard identifier.basePlanID.map({ subscription.basePlan(id: $0) != nil }) ?? true else { return nil }
    } else if let product = catalog.oneTimeProduct(id: productId) {
      guard reading == .literal || identifier.basePlanID.map({ option in product.purchaseOptions.contains { $0.purchaseOptionId == option } }) ?? true else {
        return nil
      }
    } else {
      return nil
    }
    return PlayCatalog.notSoldReason(file: catalog.file, region: region)
  }

  /// What a paywall naming `id` should hear though the SDK sells something under it: the offer or
  /// purchase option it names is not the product's, so the SDK falls back to the base plan or the
  /// legacy option (a typo, most likely), or, before 2.7, a one-time product's purchase option is
  /// not read at all. Nil when the id sells what it names.
  package func fallbackWarning(_ id: String) -> String? {
    let identifier = PlayProductIdentifier(id, reading: reading)
    let productId = identifier.productId
    if let planID = identifier.basePlanID, case .specific(let offerID) = identifier.offer,
       catalog.subscription(id: productId)?.basePlan(id: planID) != nil {
      // Before 2.7 an empty offer or `sw-none` names no offer on purpose: the base plan.
      if reading == .literal && (offerID.isEmpty || offerID == PlayProductIdentifier.noneWord) { return nil }
      let offers = catalog.offers(productId: productId, basePlanId: planID).map(\.offerId)
      guard !offers.contains(offerID) else { return nil }
      return "base plan \(quoting: planID) of \(productId) has no offer \(quoting: offerID), so the SDK sells the base plan without one\(Suggestions.hint(for: offerID, in: offers))"
    }
    guard let product = catalog.oneTimeProduct(id: productId), let optionID = identifier.basePlanID else { return nil }
    let options = product.purchaseOptions.map(\.purchaseOptionId)
    let legacy = product.purchaseOptions.first { if case .buy(legacyCompatible: true, _) = $0.kind { true } else { false } }?.purchaseOptionId
      ?? options.first
    if reading == .literal {
      guard let legacy, optionID != legacy else { return nil }
      return "Superwall-Android before 2.7 knows one purchase option of \(productId), its legacy one (\(quoting: legacy)), and sells that whatever the id names, not \(quoting: optionID)"
    }
    guard !options.contains(optionID) else { return nil }
    return "\(productId) has no purchase option \(quoting: optionID), so the SDK sells its legacy option\(legacy.map { " (\(quoting: $0))" } ?? "")\(Suggestions.hint(for: optionID, in: options))"
  }

  /// `product`, one of this catalog's, as Play and the SDK offer it to a buyer with `history`:
  /// the same base plan's price, the offer the SDK selects among those Play returns. Nil for a
  /// product that is not one of the catalog's Play products.
  package func product(_ product: StoreProduct, for history: PlayPurchaseHistory) -> StoreProduct? {
    guard let selected = product.play else { return nil }
    let id = selected.identifier.productId
    guard var fresh = catalog.storeProduct(paywallProductID: product.id, region: region, history: history,
                                           entitlements: entitlements[id], reading: reading) else { return nil }
    // What the catalog's product was given since (a storefront's locale) stays.
    fresh.locale = product.locale
    return fresh
  }

  /// The terms of Play offer `offerId` on `product`'s base plan, whoever it was sold to: what a
  /// renewal inside the offer is charged, as the buyer bought it. The catalog's product is a new
  /// customer's, whose offer may be another (a returning buyer's developer-determined offer). Nil
  /// when the catalog has no such offer in the region.
  package func offerTerms(_ product: StoreProduct, offerId: String) -> IntroductoryOffer? {
    guard let selected = product.play, case .subscription(let current)? = selected.selection else { return nil }
    let productId = selected.identifier.productId
    guard let plan = catalog.subscription(id: productId)?.basePlan(id: current.basePlanId),
          let price = plan.regional(region)?.price,
          let offer = catalog.offers(productId: productId, basePlanId: plan.basePlanId).first(where: { $0.offerId == offerId }),
          let phases = offer.pricingPhases(region: region, basePrice: price, basePeriod: plan.billingPeriod) else { return nil }
    // The base plan's phase last, as `ProductDetails` lists an offer's phases.
    let base = PlayProductDetails.PricingPhase(priceAmountMicros: price.micros, priceCurrencyCode: price.currencyCode,
                                               billingPeriod: plan.billingPeriod.text, billingCycleCount: 0, recurrenceMode: .infiniteRecurring)
    return PlaySelectedProduct.introductoryOffer(phases + [base])
  }

  // The catalog is the project's: one file, read once. Two sources of the same file and region
  // are the same source.
  package static func == (a: PlaySource, b: PlaySource) -> Bool {
    a.catalog.file == b.catalog.file && a.region == b.region && a.entitlements == b.entitlements && a.reading == b.reading
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(catalog.file)
    hasher.combine(region)
  }
}

/// A Play catalog and the buyer's purchase history: which offer each Play product starts for
/// this buyer (`IntroOfferEligibility.offer(for:)`), the one answer the cards, the simulated
/// store's charge and the purchase event follow.
package struct PlayBuyer: Sendable, Hashable {
  package var source: PlaySource
  package var history: PlayPurchaseHistory

  package init(source: PlaySource, history: PlayPurchaseHistory) {
    self.source = source
    self.history = history
  }
}

extension LedgerReplay {
  /// The buyer's history as Play's offer eligibility reads it, from the ledger: every
  /// subscription product ever bought, those live now with their base plan and billing period,
  /// and the offers taken (each purchase line names its offer). Nil for a catalog that is not
  /// Google Play's.
  package var playHistory: PlayPurchaseHistory? {
    guard isPlay else { return nil }
    var ever: Set<String> = []
    var current: [PlayPurchaseHistory.CurrentSubscription] = []
    for subscription in subscriptions {
      guard let play = owned(subscription.productID)?.play,
            case .subscription(let offer)? = play.selection else { continue }
      let productId = play.identifier.productId
      ever.insert(productId)
      if subscription.isLive, let base = offer.pricingPhases.last, let period = PlayDuration(iso8601: base.billingPeriod) {
        current.append(.init(productId: productId, basePlanId: offer.basePlanId, billingPeriod: period))
      }
    }
    return PlayPurchaseHistory(everSubscribed: ever, current: current, offersTaken: playOffersTaken)
  }
}
