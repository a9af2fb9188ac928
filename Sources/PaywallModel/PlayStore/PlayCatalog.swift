#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// Google Play products as the Play Developer API (androidpublisher v3) defines them: the
/// resources `monetization.subscriptions.list`, `monetization.subscriptions.basePlans.offers.list`
/// and `monetization.onetimeproducts.list` return, read by `PlayCatalogReader` from one file
/// `{"subscriptions": [...], "subscriptionOffers": [...], "oneTimeProducts": [...]}`.
package struct PlayCatalog: Sendable {
  package var subscriptions: [PlaySubscription]
  /// Every subscription offer, in file order; each names its subscription and base plan.
  package var offers: [PlaySubscriptionOffer]
  package var oneTimeProducts: [PlayOneTimeProduct]
  /// The file it was read from, for messages.
  package var file: String
  /// The buyer's region the file names (its `region`), "US" when it names none.
  package var region = "US"
  /// Products with an error in their definition (reported where it is): an id of theirs that then
  /// sells nothing follows from that error, and is said to.
  package var failedProducts: Set<String> = []

  package init(subscriptions: [PlaySubscription] = [], offers: [PlaySubscriptionOffer] = [],
               oneTimeProducts: [PlayOneTimeProduct] = [], file: String = "") {
    self.subscriptions = subscriptions
    self.offers = offers
    self.oneTimeProducts = oneTimeProducts
    self.file = file
  }

  package func subscription(id: String) -> PlaySubscription? {
    subscriptions.first { $0.productId == id }
  }

  package func oneTimeProduct(id: String) -> PlayOneTimeProduct? {
    oneTimeProducts.first { $0.productId == id }
  }

  /// The offers of one base plan, in file order.
  package func offers(productId: String, basePlanId: String) -> [PlaySubscriptionOffer] {
    offers.filter { $0.productId == productId && $0.basePlanId == basePlanId }
  }

  /// Reads and checks a Play catalog file; every problem is a `FILE:LINE:COL` diagnostic.
  package static func load(path: String) throws(ValidationFailure) -> PlayCatalog {
    let (root, diagnostics) = try SourceFile.parse(path: path)
    guard let catalog = PlayCatalogReader.read(root, file: path, diagnostics: diagnostics), !diagnostics.hasErrors else {
      throw ValidationFailure(Diagnostic.ordered(diagnostics.diagnostics))
    }
    return catalog
  }
}

/// A store listing in one language (`SubscriptionListing`, `OneTimeProductListing`).
package struct PlayListing: Sendable, Hashable {
  /// BCP-47 ("en-US").
  package var languageCode: String
  package var title: String
  package var description: String
  /// A subscription's benefits (at most four); empty for one-time products.
  package var benefits: [String]
}

/// `Subscription`: one subscription product and its base plans.
package struct PlaySubscription: Sendable, Hashable {
  package var productId: String
  package var listings: [PlayListing]
  package var basePlans: [PlayBasePlan]

  package init(productId: String, listings: [PlayListing] = [], basePlans: [PlayBasePlan]) {
    self.productId = productId
    self.listings = listings
    self.basePlans = basePlans
  }

  package func basePlan(id: String) -> PlayBasePlan? {
    basePlans.first { $0.basePlanId == id }
  }
}

/// A price in one region, and whether new buyers there may take it (`RegionalBasePlanConfig`).
package struct PlayRegionalPrice: Sendable, Hashable {
  /// ISO 3166-1 alpha-2 ("US").
  package var regionCode: String
  /// Nil when the region is not open to new subscribers (the API lets the price be left out then).
  package var price: PlayMoney?
  /// Absent in the file is false, as the API defines it.
  package var newSubscriberAvailability: Bool

  package init(regionCode: String, price: PlayMoney?, newSubscriberAvailability: Bool = true) {
    self.regionCode = regionCode
    self.price = price
    self.newSubscriberAvailability = newSubscriberAvailability
  }
}

/// `BasePlan`: how long a subscription runs and what it costs by region.
package struct PlayBasePlan: Sendable, Hashable {
  /// Whether the plan renews by itself, is paid ahead (prepaid), or commits to a number of payments.
  package enum Kind: Sendable, Hashable {
    case autoRenewing(PlayAutoRenewingPlan)
    case prepaid(PlayPrepaidPlan)
    case installments(PlayInstallmentsPlan)
  }

  package var basePlanId: String
  package var state: PlayState
  package var kind: Kind
  package var regionalConfigs: [PlayRegionalPrice]
  /// `offerTags[].tag`; the billing library hands them to the app with the base plan and its offers.
  package var offerTags: [String]

  package init(basePlanId: String, state: PlayState = .active, kind: Kind, regionalConfigs: [PlayRegionalPrice], offerTags: [String] = []) {
    self.basePlanId = basePlanId
    self.state = state
    self.kind = kind
    self.regionalConfigs = regionalConfigs
    self.offerTags = offerTags
  }

  package var billingPeriod: PlayDuration {
    switch kind {
    case .autoRenewing(let plan): plan.billingPeriod
    case .prepaid(let plan): plan.billingPeriod
    case .installments(let plan): plan.billingPeriod
    }
  }

  package var isAutoRenewing: Bool {
    if case .prepaid = kind { return false }
    return true
  }

  /// The configuration for `region`, if the plan has one.
  package func regional(_ region: String) -> PlayRegionalPrice? {
    regionalConfigs.first { $0.regionCode == region }
  }
}

/// What happens when a subscriber switches to a base plan from another (`SubscriptionProrationMode`).
package enum PlayProrationMode: String, Sendable, Hashable {
  /// The default: the new plan's price from the next billing date.
  case chargeOnNextBillingDate = "SUBSCRIPTION_PRORATION_MODE_CHARGE_ON_NEXT_BILLING_DATE"
  case chargeFullPriceImmediately = "SUBSCRIPTION_PRORATION_MODE_CHARGE_FULL_PRICE_IMMEDIATELY"
}

/// `AutoRenewingBasePlanType`.
package struct PlayAutoRenewingPlan: Sendable, Hashable {
  package var billingPeriod: PlayDuration
  /// Nil: Play's default for the billing period.
  package var gracePeriod: PlayDuration?
  /// Nil: Play's recommended hold, 60 days less the grace period.
  package var accountHold: PlayDuration?
  /// Whether lapsed subscribers may resubscribe from Play's surfaces (`RESUBSCRIBE_STATE_ACTIVE`, the default).
  package var resubscribe: Bool
  package var prorationMode: PlayProrationMode
  /// The one plan older billing libraries' `querySkuDetailsAsync` return.
  package var legacyCompatible: Bool
  package var legacyCompatibleOfferId: String?
}

/// `PrepaidBasePlanType`: no renewal; the buyer may top up if `timeExtension` allows it.
package struct PlayPrepaidPlan: Sendable, Hashable {
  package var billingPeriod: PlayDuration
  /// `TIME_EXTENSION_ACTIVE` (the default): buyers may extend the plan before it ends.
  package var timeExtension: Bool
}

/// `InstallmentsBasePlanType`: the buyer commits to `committedPayments` payments.
package struct PlayInstallmentsPlan: Sendable, Hashable {
  package var billingPeriod: PlayDuration
  package var committedPayments: Int
  /// `RENEWAL_TYPE_RENEWS_WITH_COMMITMENT`: the commitment starts over at its end.
  package var renewsWithCommitment: Bool
  package var gracePeriod: PlayDuration?
  package var accountHold: PlayDuration?
  package var resubscribe: Bool
  package var prorationMode: PlayProrationMode
}

/// `SubscriptionOffer`: phases in front of a base plan's regular price, for the users its
/// targeting admits.
package struct PlaySubscriptionOffer: Sendable, Hashable {
  package var productId: String
  package var basePlanId: String
  package var offerId: String
  package var state: PlayState
  /// One or two phases (the API allowed up to five before), received in this order.
  package var phases: [PlayOfferPhase]
  package var targeting: PlayOfferTargeting
  package var offerTags: [String]
  /// Region → whether new subscribers there may take the offer (`RegionalSubscriptionOfferConfig`).
  package var regionalAvailability: [String: Bool]

  package init(productId: String, basePlanId: String, offerId: String, state: PlayState = .active, phases: [PlayOfferPhase],
               targeting: PlayOfferTargeting = .developerDetermined, offerTags: [String] = [], regionalAvailability: [String: Bool]) {
    self.productId = productId
    self.basePlanId = basePlanId
    self.offerId = offerId
    self.state = state
    self.phases = phases
    self.targeting = targeting
    self.offerTags = offerTags
    self.regionalAvailability = regionalAvailability
  }
}

/// `SubscriptionOfferPhase`: `recurrenceCount` periods of `duration`, each charged its regional price.
package struct PlayOfferPhase: Sendable, Hashable {
  package var duration: PlayDuration
  package var recurrenceCount: Int
  /// Region → how the phase is priced there (`RegionalSubscriptionOfferPhaseConfig`).
  package var regionalPricing: [String: PlayPhasePricing]

  package init(duration: PlayDuration, recurrenceCount: Int, regionalPricing: [String: PlayPhasePricing]) {
    self.duration = duration
    self.recurrenceCount = recurrenceCount
    self.regionalPricing = regionalPricing
  }
}

/// How one phase is priced in one region: exactly one of the four the API offers.
package enum PlayPhasePricing: Sendable, Hashable {
  /// A free trial.
  case free
  /// This price for each recurrence.
  case price(PlayMoney)
  /// The base plan's price prorated over the phase, less this fraction (0.8 is 80 % off).
  case relativeDiscount(Decimal)
  /// The base plan's price prorated over the phase, less this amount.
  case absoluteDiscount(PlayMoney)
}

/// Whom Play offers a subscription offer to (`SubscriptionOfferTargeting`). Offers without
/// targeting are "developer determined": Play returns them to every user and the app decides.
package enum PlayOfferTargeting: Sendable, Hashable {
  case developerDetermined
  /// "User never had {scope} before" (new customer acquisition).
  case acquisition(PlayTargetingScope)
  /// "User currently has {scope} [with billing period …]" (upgrade).
  case upgrade(PlayTargetingScope, billingPeriod: PlayDuration?, oncePerUser: Bool)
}

/// `TargetingRuleScope`.
package enum PlayTargetingScope: Sendable, Hashable {
  case thisSubscription
  case anySubscriptionInApp
  case specificSubscription(String)
}

/// `OneTimeProduct`: a product bought once (or rented), through one or more purchase options.
package struct PlayOneTimeProduct: Sendable, Hashable {
  package var productId: String
  package var listings: [PlayListing]
  package var offerTags: [String]
  package var purchaseOptions: [PlayPurchaseOption]
}

/// `OneTimeProductPurchaseOption`: a way to buy (or rent) a one-time product, priced by region.
package struct PlayPurchaseOption: Sendable, Hashable {
  package enum Kind: Sendable, Hashable {
    case buy(legacyCompatible: Bool, multiQuantity: Bool)
    /// Held for `rentalPeriod` from purchase; `expirationPeriod` after first use, if set.
    case rent(rentalPeriod: PlayDuration, expirationPeriod: PlayDuration?)
  }

  package var purchaseOptionId: String
  package var state: PlayState
  package var kind: Kind
  /// Region → price, for regions where the option is `AVAILABLE`.
  package var regionalPrices: [String: PlayMoney]
  package var offerTags: [String]
}
