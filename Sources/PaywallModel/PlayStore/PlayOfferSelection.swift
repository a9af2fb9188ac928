#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// Which base plan and offer (or purchase option) Superwall-Android sells for a product id, and
/// what its paywall variables and `freeTrial_start` make of that choice: a port of
/// `RawStoreProduct.getSelectedOfferDetails` and the properties that read the selection
/// (`store/abstractions/product/RawStoreProduct.kt`, release 2.7.19), and of the trial check in
/// `TransactionManager.purchase` (`store/transactions/TransactionManager.kt`).
package struct PlaySelectedProduct: Sendable, Hashable {
  /// The SDK's `SelectedOfferDetails`.
  package enum Selection: Sendable, Hashable {
    case subscription(PlayProductDetails.SubscriptionOfferDetails)
    case oneTime(PlayProductDetails.OneTimePurchaseOfferDetails)
  }

  package var details: PlayProductDetails
  package var identifier: PlayProductIdentifier
  /// Nil when nothing matches (a base plan the product lacks): the SDK then shows a price of 0
  /// and never reports a trial.
  package var selection: Selection?

  /// Selects as the SDK does for `identifier` (the paywall's product id, `product:basePlan:offer`).
  package init(details: PlayProductDetails, identifier: PlayProductIdentifier) {
    self.details = details
    self.identifier = identifier
    self.selection = Self.select(details, identifier)
  }

  // MARK: The choice (getSelectedOfferDetails)

  private static func select(_ details: PlayProductDetails, _ id: PlayProductIdentifier) -> Selection? {
    // Before 2.7 the SDK knows a one-time product's legacy purchase option alone.
    if id.reading == .literal, let legacy = details.oneTimePurchaseOfferDetails { return .oneTime(legacy) }
    if let list = details.oneTimePurchaseOfferDetailsList, !list.isEmpty {
      return selectOneTime(list, details, id)
    }
    if let legacy = details.oneTimePurchaseOfferDetails { return .oneTime(legacy) }
    guard let offers = details.subscriptionOfferDetails else { return nil }
    // No base plan named: the first base plan (a single-phase entry), whatever the offer part says.
    guard let basePlanID = id.basePlanID else {
      return offers.first { $0.pricingPhases.count == 1 }.map(Selection.subscription)
    }
    let forPlan = offers.filter { $0.basePlanId == basePlanID }
    guard let basePlan = forPlan.first(where: { $0.pricingPhases.count == 1 }) else { return nil }
    switch id.offer {
    case .noOffer:
      return .subscription(basePlan)
    case .specific(let offerID):
      return .subscription(forPlan.first { $0.offerId == offerID } ?? basePlan)
    case .auto:
      return .subscription(automaticOffer(forPlan) ?? basePlan)
    }
  }

  /// `automaticallySelectSubscriptionOffer`: among the base plan's offers (not the base plan,
  /// not one tagged `…-ignore-offer`), the longest free trial, else the cheapest first paid phase.
  /// Ties go to the first in the list, as Kotlin's `maxByOrNull`/`minByOrNull` keep the first.
  private static func automaticOffer(_ forPlan: [PlayProductDetails.SubscriptionOfferDetails]) -> PlayProductDetails.SubscriptionOfferDetails? {
    let valid = forPlan.filter { offer in
      offer.pricingPhases.count != 1 && !offer.offerTags.contains { $0.contains("-ignore-offer") }
    }
    var longest: (offer: PlayProductDetails.SubscriptionOfferDetails, days: Int)?
    for offer in valid {
      guard let free = offer.pricingPhases.dropLast().first(where: { $0.priceAmountMicros == 0 }) else { continue }
      let days = trialDays(free.billingPeriod)
      if longest == nil || days > longest!.days { longest = (offer, days) }
    }
    if let longest { return longest.offer }
    var cheapest: (offer: PlayProductDetails.SubscriptionOfferDetails, micros: Int64)?
    for offer in valid {
      guard let paid = offer.pricingPhases.dropLast().first(where: { $0.priceAmountMicros > 0 }) else { continue }
      if cheapest == nil || paid.priceAmountMicros < cheapest!.micros { cheapest = (offer, paid.priceAmountMicros) }
    }
    return cheapest?.offer
  }

  /// The SDK's measure of a trial: `Period.toTotalMonths() * 30 + days` (threetenbp's `Period`
  /// keeps weeks as days: P1W is 7).
  static func trialDays(_ period: String) -> Int {
    guard let duration = PlayDuration(iso8601: period) else { return 0 }
    return (duration.years * 12 + duration.months) * 30 + duration.weeks * 7 + duration.days
  }

  /// The one-time cases of `getSelectedOfferDetails` (purchase option in the base plan's place).
  private static func selectOneTime(_ list: [PlayProductDetails.OneTimePurchaseOfferDetails], _ details: PlayProductDetails,
                                    _ id: PlayProductIdentifier) -> Selection? {
    func cheapest(_ options: [PlayProductDetails.OneTimePurchaseOfferDetails]) -> PlayProductDetails.OneTimePurchaseOfferDetails? {
      var best: PlayProductDetails.OneTimePurchaseOfferDetails?
      for option in options where best == nil || option.priceAmountMicros < best!.priceAmountMicros { best = option }
      return best
    }
    func hasNoOffer(_ option: PlayProductDetails.OneTimePurchaseOfferDetails) -> Bool { (option.offerId ?? "").isEmpty }
    let optionID = id.basePlanID
    let selected: PlayProductDetails.OneTimePurchaseOfferDetails?
    switch (optionID, id.offer) {
    case (_, .noOffer):
      selected = cheapest(list.filter { hasNoOffer($0) && (optionID == nil || $0.purchaseOptionId == optionID) })
    case (let optionID?, .specific(let offerID)):
      selected = list.first { $0.purchaseOptionId == optionID && $0.offerId == offerID } ?? list.first { $0.purchaseOptionId == optionID }
    case (nil, .specific(let offerID)):
      selected = cheapest(list.filter { $0.offerId == offerID })
    case (let optionID?, .auto):
      selected = cheapest(list.filter { $0.purchaseOptionId == optionID })
    case (nil, .auto):
      let withBoth = list.filter { !($0.purchaseOptionId ?? "").isEmpty && !hasNoOffer($0) }
      selected = cheapest(withBoth) ?? cheapest(list)
    }
    // Only `sw-none` goes without the legacy fallback.
    if selected == nil, id.offer != .noOffer, let legacy = details.oneTimePurchaseOfferDetails { return .oneTime(legacy) }
    return selected.map(Selection.oneTime)
  }

  // MARK: What the SDK reads from the choice

  /// The offer id the SDK passes to the purchase controller (`offerId`): nil for a base plan, and
  /// for any one-time product before 2.7, which selects no offer for one (its price is read from
  /// the product).
  package var offerId: String? {
    switch selection {
    case .subscription(let offer): offer.offerId
    case .oneTime(let option): identifier.reading == .literal ? nil : option.offerId
    case nil: nil
    }
  }

  /// A rented one-time option's period; nil for anything bought to keep.
  package var rentalPeriod: PlayDuration? {
    if case .oneTime(let option) = selection { return option.rentalPeriod }
    return nil
  }

  /// The base plan id the SDK passes to the purchase controller: the one the product id names,
  /// nil when it names none (`RawStoreProduct.basePlanId` is `basePlanType.specificId`); before
  /// 2.7 the part as written.
  package var basePlanId: String? { identifier.controllerBasePlanID }

  private var phases: [PlayProductDetails.PricingPhase] {
    if case .subscription(let offer) = selection { return offer.pricingPhases }
    return []
  }

  /// `price`: the last phase's price (the base plan's), cut to 2 decimals as the SDK's
  /// `RoundingMode.DOWN` does; a one-time option's price; 0 with no selection.
  package var price: Decimal {
    switch selection {
    case .subscription(let offer): (offer.pricingPhases.last?.price ?? 0).rounded(2, .down)
    case .oneTime(let option): option.price.rounded(2, .down)
    case nil: 0
    }
  }

  package var currencyCode: String? {
    switch selection {
    case .subscription(let offer): offer.pricingPhases.last?.priceCurrencyCode
    case .oneTime(let option): option.priceCurrencyCode
    case nil: nil
    }
  }

  /// The last phase's billing period; nil for a one-time product.
  package var subscriptionPeriod: SubscriptionPeriod? {
    phases.last.flatMap { PlayDuration(iso8601: $0.billingPeriod)?.subscriptionPeriod }
  }

  /// `hasFreeTrial`: the selected offer has any phase before the base plan's, free or paid (the
  /// SDK, like iOS's, calls a paid introductory phase a trial).
  package var hasFreeTrial: Bool { phases.count > 1 }

  /// `selectedOfferPricingPhase`: the first free phase (the last included), else the first paid
  /// phase before the last.
  package var trialPhase: PlayProductDetails.PricingPhase? {
    phases.first { $0.priceAmountMicros == 0 } ?? phases.dropLast().first { $0.priceAmountMicros != 0 }
  }

  /// `trialPeriodPrice`: 0 for a free phase, else the first paid phase before the last, cut to 2 decimals.
  package var trialPeriodPrice: Decimal {
    let before = phases.dropLast()
    if before.isEmpty || before.contains(where: { $0.priceAmountMicros == 0 }) { return 0 }
    return (before.first { $0.priceAmountMicros > 0 }?.price ?? 0).rounded(2, .down)
  }

  /// The trial phase's period (one billing period of it, as `trialPeriodDays` reads it).
  package var trialPeriod: SubscriptionPeriod? {
    trialPhase.flatMap { PlayDuration(iso8601: $0.billingPeriod)?.subscriptionPeriod }
  }

  /// Whether a purchase of this selection that succeeds fires `freeTrial_start`: the SDK's
  /// `isEligibleForTrial && product.hasFreeTrial`, where eligibility is only that an offer was
  /// selected at all: Play has already left out the offers the buyer may not take.
  package var startsFreeTrialWhenPurchased: Bool { selection != nil && hasFreeTrial }
}
