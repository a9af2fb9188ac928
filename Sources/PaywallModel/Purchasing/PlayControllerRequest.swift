#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// What Superwall-Android hands a purchase controller: `purchase(activity, productDetails,
/// basePlanId, offerId)` (superwall/Superwall-Android 2.7.19,
/// `delegate/subscription_controller/PurchaseController.kt`; `TransactionManager.kt` passes the
/// raw store product's `basePlanId` and `offerId`). The command protocol's purchase request carries
/// the three in Play Billing's own names, so a controller reads them as it would on a device.
extension StoreProduct {
  /// `basePlanId`, `offerId` and `productDetails` for an Android purchase request. A product of a
  /// Play catalog gives Play's `ProductDetails` and the SDK's selection; a product of our JSON
  /// catalog or a `.storekit` file is described as Play would list it: its id split as
  /// `sku:basePlan:offer`, one base plan whose introductory offer, if any, is the first phase.
  package var androidControllerFields: [(String, JSONOutput)] {
    let selected = play ?? derivedPlaySelection
    return [
      ("basePlanId", selected.basePlanId.map { .string($0) } ?? .null),
      ("offerId", selected.offerId.map { .string($0) } ?? .null),
      ("productDetails", Self.json(selected.details, locale: locale)),
    ]
  }

  /// A Play selection for a product that has none: what Play would list for it.
  private var derivedPlaySelection: PlaySelectedProduct {
    let identifier = PlayProductIdentifier(id)
    let micros = { (price: Decimal) in PlayMoney(currencyCode: self.currencyCode, amount: price).micros }
    var details = PlayProductDetails(productId: identifier.productId, productType: kind == .autoRenewable ? .subs : .inapp,
                                     title: displayName, name: displayName, description: description)
    if kind == .autoRenewable, let period = subscriptionPeriod {
      var phases: [PlayProductDetails.PricingPhase] = []
      if let intro = introductoryOffer {
        let count = intro.paymentMode == .payUpFront ? 1 : intro.periodCount
        let phasePeriod = intro.paymentMode == .payUpFront ? intro.totalPeriod : intro.period
        phases.append(PlayProductDetails.PricingPhase(priceAmountMicros: micros(intro.price), priceCurrencyCode: currencyCode,
                                                      billingPeriod: phasePeriod.iso8601, billingCycleCount: count,
                                                      recurrenceMode: .finiteRecurring))
      }
      phases.append(PlayProductDetails.PricingPhase(priceAmountMicros: micros(price), priceCurrencyCode: currencyCode,
                                                    billingPeriod: period.iso8601, billingCycleCount: 0,
                                                    recurrenceMode: .infiniteRecurring))
      details.subscriptionOfferDetails = [PlayProductDetails.SubscriptionOfferDetails(
        basePlanId: identifier.basePlanID ?? "", offerId: nil, pricingPhases: phases)]
    } else {
      let option = PlayProductDetails.OneTimePurchaseOfferDetails(priceAmountMicros: micros(price), priceCurrencyCode: currencyCode,
                                                                  purchaseOptionId: nil)
      details.oneTimePurchaseOfferDetails = option
      details.oneTimePurchaseOfferDetailsList = [option]
    }
    return PlaySelectedProduct(details: details, identifier: identifier)
  }

  /// Play's `ProductDetails` in its getters' names (`getPricingPhases().getPricingPhaseList()` is
  /// `pricingPhases`), prices as micros with Play's formatted price beside them.
  private static func json(_ details: PlayProductDetails, locale: String) -> JSONOutput {
    // Play Billing formats a free phase "Free".
    func formatted(_ micros: Int64, _ currency: String) -> JSONOutput {
      micros == 0 ? "Free" : .string(PriceFormatter.shared.format(Decimal(micros) / 1_000_000, currencyCode: currency, locale: locale))
    }
    var fields: [(String, JSONOutput)] = [
      ("productId", .string(details.productId)), ("productType", .string(details.productType.rawValue)),
      ("title", .string(details.title)), ("name", .string(details.name)), ("description", .string(details.description)),
    ]
    if let offers = details.subscriptionOfferDetails {
      fields.append(("subscriptionOfferDetails", .array(offers.map { offer in
        .object([
          ("basePlanId", .string(offer.basePlanId)), ("offerId", offer.offerId.map { .string($0) } ?? .null),
          ("offerTags", .array(offer.offerTags.map { .string($0) })), ("offerToken", .string(offer.offerToken)),
          ("pricingPhases", .array(offer.pricingPhases.map { phase in
            .object([
              ("formattedPrice", formatted(phase.priceAmountMicros, phase.priceCurrencyCode)),
              ("priceAmountMicros", .number(String(phase.priceAmountMicros))), ("priceCurrencyCode", .string(phase.priceCurrencyCode)),
              ("billingPeriod", .string(phase.billingPeriod)), ("billingCycleCount", .number(String(phase.billingCycleCount))),
              ("recurrenceMode", .number(String(phase.recurrenceMode.rawValue))),
            ])
          })),
        ])
      })))
    }
    if let option = details.oneTimePurchaseOfferDetails {
      fields.append(("oneTimePurchaseOfferDetails", .object([
        ("formattedPrice", formatted(option.priceAmountMicros, option.priceCurrencyCode)),
        ("priceAmountMicros", .number(String(option.priceAmountMicros))), ("priceCurrencyCode", .string(option.priceCurrencyCode)),
        ("purchaseOptionId", option.purchaseOptionId.map { .string($0) } ?? .null),
        ("offerId", option.offerId.map { .string($0) } ?? .null), ("offerToken", .string(option.offerToken)),
      ] + (option.rentalPeriod.map { [("rentalDetails", .object([("rentalPeriod", .string($0.text))]))] } ?? []))))
    }
    return .object(fields)
  }
}
