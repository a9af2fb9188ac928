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
  /// `reading` is how the SDK release followed reads `id` when the product is not a Play
  /// catalog's (whose selection was made by it).
  package func androidControllerFields(reading: PlayProductIdentifier.Reading) -> [(String, JSONOutput)] {
    let selected = play ?? derivedPlaySelection(reading)
    return [
      ("basePlanId", selected.basePlanId.map { .string($0) } ?? .null),
      ("offerId", selected.offerId.map { .string($0) } ?? .null),
      ("productDetails", Self.json(selected.details, locale: locale)),
    ]
  }

  /// A Play selection for a product that has none: what Play would list for it.
  private func derivedPlaySelection(_ reading: PlayProductIdentifier.Reading) -> PlaySelectedProduct {
    let identifier = PlayProductIdentifier(id, reading: reading)
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
  /// `pricingPhases`), prices as micros with Play's formatted price beside them. Each part is
  /// built by a function of its own, with its type written, so each compiles in milliseconds.
  private static func json(_ details: PlayProductDetails, locale: String) -> JSONOutput {
    var fields: [(String, JSONOutput)] = [
      ("productId", .string(details.productId)), ("productType", .string(details.productType.rawValue)),
      ("title", .string(details.title)), ("name", .string(details.name)), ("description", .string(details.description)),
    ]
    if let offers = details.subscriptionOfferDetails {
      let list: [JSONOutput] = offers.map { json($0, locale: locale) }
      fields.append(("subscriptionOfferDetails", .array(list)))
    }
    if let option = details.oneTimePurchaseOfferDetails {
      fields.append(("oneTimePurchaseOfferDetails", json(option, locale: locale)))
    }
    return .object(fields)
  }

  private static func json(_ offer: PlayProductDetails.SubscriptionOfferDetails, locale: String) -> JSONOutput {
    let phases: [JSONOutput] = offer.pricingPhases.map { json($0, locale: locale) }
    let tags: [JSONOutput] = offer.offerTags.map { .string($0) }
    let offerID: JSONOutput = offer.offerId.map { .string($0) } ?? .null
    return .object([
      ("basePlanId", .string(offer.basePlanId)), ("offerId", offerID), ("offerTags", .array(tags)),
      ("offerToken", .string(offer.offerToken)), ("pricingPhases", .array(phases)),
    ])
  }

  private static func json(_ phase: PlayProductDetails.PricingPhase, locale: String) -> JSONOutput {
    let fields: [(String, JSONOutput)] = [
      ("formattedPrice", formatted(phase.priceAmountMicros, phase.priceCurrencyCode, locale: locale)),
      ("priceAmountMicros", .number(String(phase.priceAmountMicros))), ("priceCurrencyCode", .string(phase.priceCurrencyCode)),
      ("billingPeriod", .string(phase.billingPeriod)), ("billingCycleCount", .number(String(phase.billingCycleCount))),
      ("recurrenceMode", .number(String(phase.recurrenceMode.rawValue))),
    ]
    return .object(fields)
  }

  private static func json(_ option: PlayProductDetails.OneTimePurchaseOfferDetails, locale: String) -> JSONOutput {
    let optionID: JSONOutput = option.purchaseOptionId.map { .string($0) } ?? .null
    let offerID: JSONOutput = option.offerId.map { .string($0) } ?? .null
    var fields: [(String, JSONOutput)] = [
      ("formattedPrice", formatted(option.priceAmountMicros, option.priceCurrencyCode, locale: locale)),
      ("priceAmountMicros", .number(String(option.priceAmountMicros))), ("priceCurrencyCode", .string(option.priceCurrencyCode)),
      ("purchaseOptionId", optionID), ("offerId", offerID), ("offerToken", .string(option.offerToken)),
    ]
    if let rental = option.rentalPeriod {
      fields.append(("rentalDetails", .object([("rentalPeriod", .string(rental.text))])))
    }
    return .object(fields)
  }

  /// Play Billing formats a free phase "Free".
  private static func formatted(_ micros: Int64, _ currency: String, locale: String) -> JSONOutput {
    if micros == 0 { return "Free" }
    return .string(PriceFormatter.shared.format(Decimal(micros) / 1_000_000, currencyCode: currency, locale: locale))
  }
}
