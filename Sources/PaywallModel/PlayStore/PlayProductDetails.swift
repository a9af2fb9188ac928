#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// A product as Google Play Billing hands it to an app (`ProductDetails`): what Superwall-Android
/// chooses from. Built from a `PlayCatalog` for one buyer by `PlayCatalog.productDetails(for:region:history:)`,
/// which applies what Play decides before the app sees anything: only active base plans and
/// offers available in the buyer's region, and only the offers the buyer's history qualifies for.
package struct PlayProductDetails: Sendable, Hashable {
  /// `BillingClient.ProductType`.
  package enum ProductType: String, Sendable, Hashable {
    case subs, inapp
  }

  package var productId: String
  package var productType: ProductType
  package var title: String
  package var name: String
  package var description: String
  /// A subscription's base plans and offers, each with its pricing phases (nil for a one-time product).
  package var subscriptionOfferDetails: [SubscriptionOfferDetails]?
  /// A one-time product's purchase options (and their offers) (nil for a subscription).
  package var oneTimePurchaseOfferDetailsList: [OneTimePurchaseOfferDetails]?
  /// The one purchase option older billing libraries see (`getOneTimePurchaseOfferDetails`): the
  /// legacy-compatible buy option, else the first.
  package var oneTimePurchaseOfferDetails: OneTimePurchaseOfferDetails?

  package init(productId: String, productType: ProductType, title: String = "", name: String = "", description: String = "",
               subscriptionOfferDetails: [SubscriptionOfferDetails]? = nil,
               oneTimePurchaseOfferDetailsList: [OneTimePurchaseOfferDetails]? = nil,
               oneTimePurchaseOfferDetails: OneTimePurchaseOfferDetails? = nil) {
    self.productId = productId
    self.productType = productType
    self.title = title
    self.name = name
    self.description = description
    self.subscriptionOfferDetails = subscriptionOfferDetails
    self.oneTimePurchaseOfferDetailsList = oneTimePurchaseOfferDetailsList
    self.oneTimePurchaseOfferDetails = oneTimePurchaseOfferDetails
  }

  /// `ProductDetails.RecurrenceMode`.
  package enum RecurrenceMode: Int, Sendable, Hashable {
    case infiniteRecurring = 1
    case finiteRecurring = 2
    case nonRecurring = 3
  }

  /// `ProductDetails.PricingPhase`.
  package struct PricingPhase: Sendable, Hashable {
    package var priceAmountMicros: Int64
    package var priceCurrencyCode: String
    /// ISO 8601 (`P1M`).
    package var billingPeriod: String
    /// 0 for the infinitely recurring last phase.
    package var billingCycleCount: Int
    package var recurrenceMode: RecurrenceMode

    package init(priceAmountMicros: Int64, priceCurrencyCode: String = "USD", billingPeriod: String,
                 billingCycleCount: Int = 0, recurrenceMode: RecurrenceMode = .infiniteRecurring) {
      self.priceAmountMicros = priceAmountMicros
      self.priceCurrencyCode = priceCurrencyCode
      self.billingPeriod = billingPeriod
      self.billingCycleCount = billingCycleCount
      self.recurrenceMode = recurrenceMode
    }

    /// The price as a decimal.
    package var price: Decimal { Decimal(priceAmountMicros) / 1_000_000 }
  }

  /// `ProductDetails.SubscriptionOfferDetails`: a base plan (one phase, no offer id) or an offer on
  /// it (its phases, then the base plan's).
  package struct SubscriptionOfferDetails: Sendable, Hashable {
    package var basePlanId: String
    /// Nil for the base plan itself.
    package var offerId: String?
    package var offerTags: [String]
    package var offerToken: String
    package var pricingPhases: [PricingPhase]

    package init(basePlanId: String, offerId: String?, offerTags: [String] = [], offerToken: String = "", pricingPhases: [PricingPhase]) {
      self.basePlanId = basePlanId
      self.offerId = offerId
      self.offerTags = offerTags
      self.offerToken = offerToken.isEmpty ? "\(basePlanId):\(offerId ?? "")" : offerToken
      self.pricingPhases = pricingPhases
    }
  }

  /// `ProductDetails.OneTimePurchaseOfferDetails`: one purchase option, or an offer on one.
  package struct OneTimePurchaseOfferDetails: Sendable, Hashable {
    package var priceAmountMicros: Int64
    package var priceCurrencyCode: String
    package var purchaseOptionId: String?
    package var offerId: String?
    package var offerToken: String
    /// A rental's period (`getRentalDetails().getRentalPeriod()`); nil for a purchase to keep.
    package var rentalPeriod: PlayDuration?

    package init(priceAmountMicros: Int64, priceCurrencyCode: String = "USD", purchaseOptionId: String?, offerId: String? = nil,
                 offerToken: String = "") {
      self.priceAmountMicros = priceAmountMicros
      self.priceCurrencyCode = priceCurrencyCode
      self.purchaseOptionId = purchaseOptionId
      self.offerId = offerId
      self.offerToken = offerToken.isEmpty ? "\(purchaseOptionId ?? ""):\(offerId ?? "")" : offerToken
    }

    package var price: Decimal { Decimal(priceAmountMicros) / 1_000_000 }
  }
}

/// What Play knows of a buyer's past that decides which subscription offers it returns: the
/// subscriptions they have had, the one(s) they have now and the offers they have taken.
package struct PlayPurchaseHistory: Sendable, Hashable {
  /// A subscription the buyer holds now.
  package struct CurrentSubscription: Sendable, Hashable {
    package var productId: String
    package var basePlanId: String
    package var billingPeriod: PlayDuration

    package init(productId: String, basePlanId: String, billingPeriod: PlayDuration) {
      self.productId = productId
      self.basePlanId = basePlanId
      self.billingPeriod = billingPeriod
    }
  }

  /// Every subscription product the buyer has ever had, current ones included.
  package var everSubscribed: Set<String>
  package var current: [CurrentSubscription]
  /// Offers taken, as `product:basePlan:offer`.
  package var offersTaken: Set<String>

  package init(everSubscribed: Set<String> = [], current: [CurrentSubscription] = [], offersTaken: Set<String> = []) {
    self.everSubscribed = everSubscribed.union(current.map(\.productId))
    self.current = current
    self.offersTaken = offersTaken
  }

  /// A buyer who never bought anything.
  package static let newCustomer = PlayPurchaseHistory()
}

extension PlayOfferTargeting {
  /// Whether Play returns the offer of `productId` to a buyer with `history`
  /// ("Eligibility criteria" of subscription offers in Play Console Help: new customer
  /// acquisition, upgrade, developer determined).
  package func admits(_ history: PlayPurchaseHistory, productId: String, offerKey: String) -> Bool {
    switch self {
    case .developerDetermined:
      return true
    case .acquisition(.anySubscriptionInApp):
      return history.everSubscribed.isEmpty
    case .acquisition(.thisSubscription), .acquisition(.specificSubscription):
      return !history.everSubscribed.contains(productId)
    case .upgrade(let scope, let period, let oncePerUser):
      if oncePerUser && history.offersTaken.contains(offerKey) { return false }
      let target: String? = switch scope {
      case .thisSubscription: productId
      case .specificSubscription(let other): other
      case .anySubscriptionInApp: nil
      }
      return history.current.contains { holding in
        (target == nil || holding.productId == target) && (period == nil || holding.billingPeriod == period)
      }
    }
  }
}

extension PlayCatalog {
  /// The `ProductDetails` Play returns for `productId` to a buyer in `region` with `history`, or
  /// nil when Play would return none (no such product, or nothing of it on sale there).
  ///
  /// A subscription lists, base plan by base plan in the file's order, the base plan (one phase)
  /// and then each of its offers the buyer qualifies for, in the file's order: the offer's phases
  /// followed by the base plan's. Play does not document the order; the SDK depends on it only to
  /// pick "the first base plan" when a product id names none, where the file's order is the
  /// natural reading.
  package func productDetails(for productId: String, region: String = "US", history: PlayPurchaseHistory = .newCustomer) -> PlayProductDetails? {
    if let subscription = subscription(id: productId) {
      var details: [PlayProductDetails.SubscriptionOfferDetails] = []
      for plan in subscription.basePlans where plan.state.isSold {
        guard let regional = plan.regional(region), regional.newSubscriberAvailability, let price = regional.price else { continue }
        let basePhase = PlayProductDetails.PricingPhase(
          priceAmountMicros: price.micros, priceCurrencyCode: price.currencyCode, billingPeriod: plan.billingPeriod.text,
          billingCycleCount: plan.isAutoRenewing ? 0 : 1, recurrenceMode: plan.isAutoRenewing ? .infiniteRecurring : .nonRecurring)
        details.append(.init(basePlanId: plan.basePlanId, offerId: nil, offerTags: plan.offerTags,
                             offerToken: "\(productId):\(plan.basePlanId)", pricingPhases: [basePhase]))
        for offer in offers(productId: productId, basePlanId: plan.basePlanId) where offer.state.isSold {
          guard offer.regionalAvailability[region] == true,
                offer.targeting.admits(history, productId: productId, offerKey: "\(productId):\(plan.basePlanId):\(offer.offerId)"),
                let phases = offer.pricingPhases(region: region, basePrice: price, basePeriod: plan.billingPeriod) else { continue }
          details.append(.init(basePlanId: plan.basePlanId, offerId: offer.offerId, offerTags: plan.offerTags + offer.offerTags,
                               offerToken: "\(productId):\(plan.basePlanId):\(offer.offerId)", pricingPhases: phases + [basePhase]))
        }
      }
      guard !details.isEmpty else { return nil }
      let listing = subscription.listings.first
      return PlayProductDetails(productId: productId, productType: .subs, title: listing?.title ?? productId,
                                name: listing?.title ?? productId, description: listing?.description ?? "",
                                subscriptionOfferDetails: details)
    }
    if let product = oneTimeProduct(id: productId) {
      var options: [PlayProductDetails.OneTimePurchaseOfferDetails] = []
      var legacy: PlayProductDetails.OneTimePurchaseOfferDetails?
      for option in product.purchaseOptions where option.state.isSold {
        guard let price = option.regionalPrices[region] else { continue }
        var details = PlayProductDetails.OneTimePurchaseOfferDetails(
          priceAmountMicros: price.micros, priceCurrencyCode: price.currencyCode, purchaseOptionId: option.purchaseOptionId,
          offerId: nil, offerToken: "\(productId):\(option.purchaseOptionId)")
        if case .rent(let period, _) = option.kind { details.rentalPeriod = period }
        options.append(details)
        if case .buy(legacyCompatible: true, _) = option.kind { legacy = details }
      }
      guard !options.isEmpty else { return nil }
      let listing = product.listings.first
      return PlayProductDetails(productId: productId, productType: .inapp, title: listing?.title ?? productId,
                                name: listing?.title ?? productId, description: listing?.description ?? "",
                                oneTimePurchaseOfferDetailsList: options, oneTimePurchaseOfferDetails: legacy ?? options.first)
    }
    return nil
  }
}

extension PlaySubscriptionOffer {
  /// The offer's phases as Play Billing reports them in `region`, given the base plan's price there:
  /// a free phase costs 0; a discount is taken off the base price prorated over the phase's
  /// duration (the API's example: $12 a year less $1 over 3 months is $2), rounded to the
  /// currency's decimals. Nil when a phase has no price in the region.
  package func pricingPhases(region: String, basePrice: PlayMoney, basePeriod: PlayDuration) -> [PlayProductDetails.PricingPhase]? {
    var out: [PlayProductDetails.PricingPhase] = []
    let digits = CurrencyMinorUnits.digits(basePrice.currencyCode)
    for phase in phases {
      guard let pricing = phase.regionalPricing[region] else { return nil }
      let prorated = (basePrice.amount * (phase.duration.fraction(of: basePeriod) ?? 1))
      let amount: Decimal
      var currency = basePrice.currencyCode
      switch pricing {
      case .free: amount = 0
      case .price(let money): amount = money.amount; currency = money.currencyCode
      case .relativeDiscount(let fraction): amount = (prorated * (1 - fraction)).rounded(digits, .plain)
      case .absoluteDiscount(let money): amount = max(0, prorated - money.amount).rounded(digits, .plain)
      }
      out.append(PlayProductDetails.PricingPhase(
        priceAmountMicros: PlayMoney(currencyCode: currency, amount: amount).micros, priceCurrencyCode: currency,
        billingPeriod: phase.duration.text, billingCycleCount: phase.recurrenceCount, recurrenceMode: .finiteRecurring))
    }
    return out
  }
}
