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

/// Which store a product is sold through; it changes nothing in the emulator but is shown and
/// passed to purchase controllers, which often branch on it.
public enum Store: String, Sendable, Hashable, CaseIterable {
  case appStore, playStore, stripe, custom
}

/// What kind of purchase a product is, which decides renewals and which transaction event fires.
public enum ProductKind: String, Sendable, Hashable {
  case autoRenewable
  case nonRenewing
  case consumable
  case nonConsumable

  /// Whether the product is a subscription (auto-renewable or non-renewing).
  public var isSubscription: Bool { self == .autoRenewable || self == .nonRenewing }
}

/// An introductory offer: a free trial or a paid introductory price.
public struct IntroductoryOffer: Sendable, Hashable {
  /// How the buyer pays during the offer.
  public enum PaymentMode: String, Sendable, Hashable {
    /// Free for `period` × `periodCount`.
    case freeTrial
    /// `price` each period for `periodCount` periods.
    case payAsYouGo
    /// `price` once, covering `period` × `periodCount`.
    case payUpFront
  }

  /// Free, or paid per period or up front.
  public var paymentMode: PaymentMode
  /// The length of one offer period.
  public var period: SubscriptionPeriod
  /// How many periods the offer lasts (at least 1).
  public var periodCount: Int
  /// The price of one period (`payAsYouGo`) or of the whole offer (`payUpFront`); 0 for a free trial.
  public var price: Decimal

  /// An offer; `periodCount` below 1 counts as 1, and a free trial's price is always 0.
  public init(paymentMode: PaymentMode, period: SubscriptionPeriod, periodCount: Int = 1, price: Decimal = 0) {
    self.paymentMode = paymentMode
    self.period = period
    self.periodCount = max(1, periodCount)
    self.price = paymentMode == .freeTrial ? 0 : price
  }

  /// The whole offer as one period (a 1-week trial for 2 periods is 2 weeks).
  public var totalPeriod: SubscriptionPeriod {
    SubscriptionPeriod(value: period.value * periodCount, unit: period.unit)
  }
}

/// A subscription offer other than the introductory one, as App Store Connect and Xcode's StoreKit
/// configuration files define them: a promotional offer (`subscriptionOffers`/`adHocOffers`,
/// bought with its id and a signature), an offer code (`codeOffers`, redeemed by code) or a
/// win-back offer (`winbackOffers`, iOS 18, for lapsed subscribers who meet its rules).
public struct SubscriptionOffer: Sendable, Hashable {
  /// StoreKit's `Product.SubscriptionOffer.OfferType`, without `introductory` (that is `IntroductoryOffer`).
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case promotional, winBack, code
  }

  /// Promotional, win-back or offer code.
  public var kind: Kind
  /// The offer identifier (`offerID`); for an offer code without one, its reference name: the code `redeem` takes.
  public var id: String
  /// What the buyer pays during the offer, and for how long.
  public var terms: IntroductoryOffer
  /// A win-back offer's customer rules; ignored for other kinds.
  public var winBackRules: WinBackRules
  /// Who may redeem an offer code (App Store Connect's customer eligibility, the `.storekit`
  /// file's `eligibility`); every customer unless the file narrows it. Ignored for other kinds.
  public var codeEligibility: Set<CustomerStanding>

  /// An offer of `kind` called `id` on `terms`.
  public init(kind: Kind, id: String, terms: IntroductoryOffer, winBackRules: WinBackRules = WinBackRules(),
              codeEligibility: Set<CustomerStanding> = Set(CustomerStanding.allCases)) {
    self.kind = kind
    self.id = id
    self.terms = terms
    self.winBackRules = winBackRules
    self.codeEligibility = codeEligibility
  }
}

/// Where a customer stands in a subscription group, in the words App Store Connect uses for who
/// may redeem an offer code (`eligibility` in a `.storekit` file: `new`, `existing`, `expired`).
public enum CustomerStanding: String, Sendable, Hashable, CaseIterable {
  /// Never subscribed in the group.
  case new
  /// Subscribed now (also in a grace period or billing retry).
  case existing
  /// Subscribed once; the subscription has ended (expired, refunded or revoked).
  case expired
}

/// Who may take a win-back offer, in App Store Connect's terms (`customerEligibility…InMonths`
/// of the App Store Connect API's `WinBackOffer`), on top of StoreKit's own rule that the
/// subscription is churned: expired, and not set to renew ("Supporting win-back offers in your
/// app", developer.apple.com/documentation/storekit/supporting-win-back-offers-in-your-app).
public struct WinBackRules: Sendable, Hashable {
  /// At least this many months paid in the subscription group, in total.
  public var paidMonths: Int
  /// Lapsed at least this many months.
  public var minimumMonthsSinceLapse: Int
  /// Lapsed at most this many months; nil: no limit.
  public var maximumMonthsSinceLapse: Int?
  /// Months that must pass after the end of this offer's period before it is offered again; nil: never again.
  public var waitBetweenOffersMonths: Int?

  /// Rules; the defaults take any churned subscriber once.
  public init(paidMonths: Int = 0, minimumMonthsSinceLapse: Int = 0, maximumMonthsSinceLapse: Int? = nil,
              waitBetweenOffersMonths: Int? = nil) {
    self.paidMonths = paidMonths
    self.minimumMonthsSinceLapse = minimumMonthsSinceLapse
    self.maximumMonthsSinceLapse = maximumMonthsSinceLapse
    self.waitBetweenOffersMonths = waitBetweenOffersMonths
  }
}

/// A product as a paywall shows it and a purchase controller receives it.
public struct StoreProduct: Sendable, Hashable, Identifiable {
  /// The product identifier, as the store and the purchase controller know it.
  public var id: String
  /// The name shown to buyers.
  public var displayName: String
  /// The description shown to buyers; may be empty.
  public var description: String
  /// The regular price, in `currencyCode`.
  public var price: Decimal
  /// ISO 4217 code ("USD").
  public var currencyCode: String
  /// The locale prices are formatted for ("en_US"); from the catalog or the storefront.
  public var locale: String
  /// Subscription, non-renewing, consumable or non-consumable.
  public var kind: ProductKind
  /// Nil for non-recurring products (consumables, lifetime unlocks).
  public var subscriptionPeriod: SubscriptionPeriod?
  /// The introductory offer new subscribers get, if any.
  public var introductoryOffer: IntroductoryOffer?
  /// The subscription group's identifier, for auto-renewables that have one.
  public var subscriptionGroup: String?
  /// Level inside the subscription group: 1 is the highest tier, as in App Store Connect.
  public var groupLevel: Int?
  /// The entitlements the product grants while active.
  public var entitlements: Set<Entitlement>
  /// The store the product is sold through.
  public var store: Store
  /// Whether family members share the purchase (Family Sharing).
  public var familyShareable: Bool
  /// Promotional, win-back and code offers configured for the product (auto-renewables only).
  public var offers: [SubscriptionOffer] = []
  /// The offer this purchase asks for: the one a paywall slot names (`"primary": {"product": …,
  /// "offer": …}`); the purchase controller receives it with the product and passes it on (to
  /// StoreKit's `Product.PurchaseOption.winBackOffer`/`promotionalOffer`, or RevenueCat's).
  public var requestedOffer: SubscriptionOffer?
  /// For a product of a Play catalog: Play's `ProductDetails` and the base plan and offer
  /// Superwall-Android selects, which its purchase controller receives.
  package var play: PlaySelectedProduct?
  /// A Google Play base plan's own rules the simulated store follows (nil off Play).
  package var playPlan: PlayPlanRules?
  /// Google Play: how a purchase of this plan replaces another of its subscription (nil: the
  /// plan's default), as the app's `SubscriptionUpdateParams` says.
  package var replacementMode: PlayReplacementMode?

  /// A product built in code (tests, controllers); catalogs build them from files.
  public init(
    id: String, displayName: String, description: String = "", price: Decimal, currencyCode: String = "USD",
    locale: String = "en_US", kind: ProductKind, subscriptionPeriod: SubscriptionPeriod? = nil,
    introductoryOffer: IntroductoryOffer? = nil, subscriptionGroup: String? = nil, groupLevel: Int? = nil,
    entitlements: Set<Entitlement> = [], store: Store = .appStore, familyShareable: Bool = false,
    offers: [SubscriptionOffer] = []
  ) {
    self.offers = offers
    self.id = id
    self.displayName = displayName
    self.description = description
    self.price = price
    self.currencyCode = currencyCode
    self.locale = locale
    self.kind = kind
    self.subscriptionPeriod = subscriptionPeriod
    self.introductoryOffer = introductoryOffer
    self.subscriptionGroup = subscriptionGroup
    self.groupLevel = groupLevel
    self.entitlements = entitlements
    self.store = store
    self.familyShareable = familyShareable
  }

  /// True when the product has any introductory offer, free or paid: the SDK calls every
  /// introductory offer a trial (`hasFreeTrial` is `introductoryOffer != nil` in
  /// `StoreKit/Products/StoreProduct/SK2StoreProduct.swift`), so templates, the free-trial copy and
  /// `freeTrial_start` treat a paid intro as one too.
  public var hasFreeTrial: Bool { introductoryOffer != nil }

  /// True when the introductory offer costs nothing (what the store and the cards call a free trial).
  public var introductoryOfferIsFree: Bool { introductoryOffer?.paymentMode == .freeTrial }

  /// The trial's length as the SDK's `trialPeriod*` attributes read it: ONE period of the
  /// introductory offer (StoreKit's `SubscriptionOffer.period`), not times its `periodCount`
  /// (`SK2StoreProduct.swift`); nil without an offer. The store still grants the whole offer.
  public var trialPeriod: SubscriptionPeriod? { introductoryOffer?.period }

  /// The configured offer called `id`, if any.
  public func offer(id: String) -> SubscriptionOffer? {
    offers.first { $0.id == id }
  }
}
