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

/// The derived attributes of a product that templates can use (`{{ products.primary.monthlyPrice }}`),
/// named and computed as the Superwall SDK does: the SDK's list is the dictionary
/// `StoreProduct.attributes` (`StoreKit/Products/StoreProduct/StoreProduct.swift`) plus
/// `isSubscribed`, added just before a paywall shows (`Paywall/View Controller/Web View/Templating/
/// TemplateLogic.swift`). `name`, `description` and `hasFreeTrial` are the emulator's own
/// (`isSuperwallVariable` is false): a device renders them empty, and `validate` warns.
public enum ProductAttribute: String, Sendable, CaseIterable {
  case identifier
  case name
  case description
  case price
  case rawPrice
  case currencyCode
  case currencySymbol
  case locale
  case languageCode
  case period
  case periodAlt
  case periodly
  case localizedPeriod
  case periodDays
  case periodWeeks
  case periodMonths
  case periodYears
  case dailyPrice
  case weeklyPrice
  case monthlyPrice
  case yearlyPrice
  case hasFreeTrial
  case trialPeriodDays
  case trialPeriodWeeks
  case trialPeriodMonths
  case trialPeriodYears
  case trialPeriodText
  case trialPeriodEndDate
  case trialPeriodPrice
  case rawTrialPeriodPrice
  case trialPeriodDailyPrice
  case trialPeriodWeeklyPrice
  case trialPeriodMonthlyPrice
  case trialPeriodYearlyPrice
  /// Apple billing plans (4.16+): the emulator sells none, so "" as the SDK gives without one.
  case billingPlanType
  /// "false": no billing plan is ever available here.
  case isBillingPlanAvailable
  /// Whether the user's latest purchase of this product is active, set by the presenter.
  case isSubscribed

  /// False for the emulator's own attributes, which a device's template renders empty.
  public var isSuperwallVariable: Bool {
    switch self {
    case .name, .description, .hasFreeTrial: false
    default: true
    }
  }

  /// True for what describes the product's introductory offer: `hasFreeTrial` and the
  /// `trialPeriod*` attributes.
  public var describesIntroOffer: Bool {
    switch self {
    case .hasFreeTrial, .trialPeriodDays, .trialPeriodWeeks, .trialPeriodMonths, .trialPeriodYears, .trialPeriodText,
         .trialPeriodEndDate, .trialPeriodPrice, .rawTrialPeriodPrice, .trialPeriodDailyPrice, .trialPeriodWeeklyPrice,
         .trialPeriodMonthlyPrice, .trialPeriodYearlyPrice: true
    default: false
    }
  }
}

extension StoreProduct {
  /// The value of one attribute as text. `now` anchors `trialPeriodEndDate`.
  public func attribute(_ attribute: ProductAttribute, now: Date = Date()) -> String {
    switch attribute {
    case .identifier: id
    case .name: displayName
    case .description: description
    case .price: formattedPrice(price)
    case .rawPrice: "\(price)"
    case .currencyCode: currencyCode
    case .currencySymbol: PriceFormatter.shared.symbol(currencyCode: currencyCode, locale: locale)
    case .locale: locale
    case .languageCode: languageCode
    case .period: periodWord
    case .periodly: periodly
    case .localizedPeriod, .periodAlt: subscriptionPeriod?.spelledOut ?? ""
    case .periodDays: "\(periodCount(in: .day))"
    case .periodWeeks: "\(periodCount(in: .week))"
    case .periodMonths: "\(periodCount(in: .month))"
    case .periodYears: "\(periodCount(in: .year))"
    case .dailyPrice: unitPrice(per: .day).map(formattedPrice) ?? "n/a"
    case .weeklyPrice: unitPrice(per: .week).map(formattedPrice) ?? "n/a"
    case .monthlyPrice: unitPrice(per: .month).map(formattedPrice) ?? "n/a"
    case .yearlyPrice: unitPrice(per: .year).map(formattedPrice) ?? "n/a"
    case .hasFreeTrial: hasFreeTrial ? "true" : "false"
    case .trialPeriodDays: "\(trialCount(in: .day))"
    case .trialPeriodWeeks: "\(trialCount(in: .week))"
    case .trialPeriodMonths: "\(trialCount(in: .month))"
    case .trialPeriodYears: "\(trialCount(in: .year))"
    case .trialPeriodText: trialPeriod.map { "\($0.approximateDays)-day" } ?? ""
    case .trialPeriodEndDate: trialEndDate(from: now).map(formattedDate) ?? ""
    case .trialPeriodPrice: formattedPrice(introductoryOffer?.price ?? 0)
    case .rawTrialPeriodPrice: "\(introductoryOffer?.price ?? 0)"
    case .trialPeriodDailyPrice: formattedPrice(introductoryPrice(per: .day))
    case .trialPeriodWeeklyPrice: formattedPrice(introductoryPrice(per: .week))
    case .trialPeriodMonthlyPrice: formattedPrice(introductoryPrice(per: .month))
    case .trialPeriodYearlyPrice: formattedPrice(introductoryPrice(per: .year))
    case .billingPlanType: ""
    case .isBillingPlanAvailable: "false"
    // Only the presenter knows the purchases; a product alone is not subscribed to.
    case .isSubscribed: "false"
    }
  }

  /// The attribute as a user sees it who starts `introOffer` (`IntroOfferEligibility.offer(for:)`)
  /// when buying the product now. With the product's own offer, or for a product without one,
  /// it is `attribute(_:now:)`, the SDK's value. Without the offer the product has (the user used
  /// its group's), the offer's attributes say what the first period really costs: the price ones
  /// the regular price (`trialPeriodPrice` is `price`, `trialPeriodMonthlyPrice` is
  /// `monthlyPrice`…), the length ones 0 or "" and `hasFreeTrial` "false", as for a product with
  /// no offer. The SDK passes the offer's values whatever the eligibility
  /// (`StoreKit/Products/StoreProduct/StoreProduct.swift`, `attributes`), so a device's paywall
  /// can promise a price StoreKit will not charge; the emulator shows what the store charges.
  ///
  /// A slot selling a win-back or promotional offer passes that offer's terms: the offer's
  /// attributes then describe it, as the SDK's `trialPeriod*` variables describe the offer a
  /// product's `introductoryOffer` holds (`StoreKit/Products/StoreProduct/SK2StoreProduct.swift`).
  public func attribute(_ attribute: ProductAttribute, now: Date = Date(), introOffer: IntroductoryOffer?) -> String {
    if let introOffer, introOffer != introductoryOffer, attribute.describesIntroOffer {
      var offered = self
      offered.introductoryOffer = introOffer
      return offered.attribute(attribute, now: now)
    }
    guard introOffer == nil, introductoryOffer != nil, attribute.describesIntroOffer else {
      return self.attribute(attribute, now: now)
    }
    switch attribute {
    case .trialPeriodPrice: return self.attribute(.price, now: now)
    case .rawTrialPeriodPrice: return self.attribute(.rawPrice, now: now)
    case .trialPeriodDailyPrice: return self.attribute(.dailyPrice, now: now)
    case .trialPeriodWeeklyPrice: return self.attribute(.weeklyPrice, now: now)
    case .trialPeriodMonthlyPrice: return self.attribute(.monthlyPrice, now: now)
    case .trialPeriodYearlyPrice: return self.attribute(.yearlyPrice, now: now)
    default:
      var plain = self
      plain.introductoryOffer = nil
      return plain.attribute(attribute, now: now)
    }
  }

  /// The locale's language ("en" for en_US), "n/a" when it has none, as the SDK's `languageCode`.
  public var languageCode: String {
    let code = locale.prefix { $0 != "_" && $0 != "-" }
    return code.isEmpty || !code.allSatisfy(\.isLetter) ? "n/a" : String(code)
  }

  /// What the introductory offer costs per `unit`, as the SDK's `trialPeriodPricePerUnit`
  /// (`StoreKit/Products/StoreProduct/Discount/StoreProductDiscount.swift`, `pricePerUnit`): 0 for
  /// a free trial or without an offer; else price × periods spread over the offer's length in
  /// `unit`s, truncated to 2 decimals, or the whole cost when the offer is shorter than one `unit`.
  public func introductoryPrice(per unit: SubscriptionPeriod.Unit) -> Decimal {
    guard let offer = introductoryOffer, offer.paymentMode != .freeTrial, offer.price != 0 else { return 0 }
    let cost = offer.price * Decimal(offer.periodCount)
    // How many `unit`s one offer period unit holds, as the SDK's `periodsPerUnit`.
    let perUnit: Decimal =
      switch (unit, offer.period.unit) {
      case (.day, .day), (.week, .week), (.month, .month), (.year, .year): 1
      case (.day, .week): Decimal(365) / Decimal(52)
      case (.day, .month): Decimal(365) / Decimal(12)
      case (.day, .year): 365
      case (.week, .day): Decimal(52) / Decimal(365)
      case (.week, .month): Decimal(52) / Decimal(12)
      case (.week, .year): 52
      case (.month, .day): Decimal(12) / Decimal(365)
      case (.month, .week): Decimal(12) / Decimal(52)
      case (.month, .year): 12
      case (.year, .day): Decimal(1) / Decimal(365)
      case (.year, .week): Decimal(1) / Decimal(52)
      case (.year, .month): Decimal(1) / Decimal(12)
      }
    let units = perUnit * Decimal(offer.periodCount) * Decimal(offer.period.value)
    return units < 1 ? cost : Self.truncated(cost / units)
  }

  /// `amount` formatted as a price in the product's currency and locale ("$9.99").
  public func formattedPrice(_ amount: Decimal) -> String {
    PriceFormatter.shared.format(amount, currencyCode: currencyCode, locale: locale)
  }

  /// "week", "month", "quarter", "6 months", "year" — Superwall's words; "" when not recurring.
  public var periodWord: String {
    guard let p = subscriptionPeriod else { return "" }
    switch p.unit {
    case .day: return p.value == 7 ? "week" : "day"
    case .week: return "week"
    case .month:
      switch p.value {
      case 2: return "2 months"
      case 3: return "quarter"
      case 6: return "6 months"
      default: return "month"
      }
    case .year: return "year"
    }
  }

  /// "weekly", "monthly", "quarterly", "every 6 months", "yearly" — Superwall's words.
  public var periodly: String {
    guard let p = subscriptionPeriod else { return "" }
    if p.unit == .month && (p.value == 2 || p.value == 6) { return "every \(periodWord)" }
    return "\(periodWord)ly"
  }

  /// How many whole `unit`s the subscription period spans, with Superwall's conversions.
  public func periodCount(in unit: SubscriptionPeriod.Unit) -> Int {
    guard let p = subscriptionPeriod else { return 0 }
    return Self.count(p, in: unit)
  }

  private func trialCount(in unit: SubscriptionPeriod.Unit) -> Int {
    guard let p = trialPeriod else { return 0 }
    return Self.count(p, in: unit)
  }

  private static func count(_ p: SubscriptionPeriod, in unit: SubscriptionPeriod.Unit) -> Int {
    let n = p.value
    switch (p.unit, unit) {
    case (.day, .day), (.week, .week), (.month, .month), (.year, .year): return n
    case (.week, .day): return 7 * n
    case (.month, .day): return 30 * n
    case (.year, .day): return 365 * n
    case (.day, .week): return n / 7
    case (.month, .week): return 4 * n
    case (.year, .week): return 52 * n
    case (.day, .month): return n / 30
    case (.week, .month): return n / 4
    case (.year, .month): return 12 * n
    case (.day, .year): return n / 365
    case (.week, .year): return n / 52
    case (.month, .year): return n / 12
    }
  }

  /// The price for one `unit`, truncated (not rounded) to 2 decimals; a month is 365/12 days and
  /// 52/12 weeks, a week exactly 7 days. Nil for non-recurring products (templates then show "n/a",
  /// as Superwall does). As the SDK (4.15.3+), the period is first normalized (7n days are n weeks,
  /// 12n months n years), so a 7-day product's weekly price is its price
  /// (`StoreKit/Products/StoreProduct/SubscriptionPeriod.swift`: `normalized`, `pricePerWeek`).
  public func unitPrice(per unit: SubscriptionPeriod.Unit) -> Decimal? {
    guard let p = normalizedPeriod else { return nil }
    if let cents = unitPriceCents(p, per: unit) { return Decimal(sign: .plus, exponent: -2, significand: Decimal(cents)) }
    return unitPriceByDecimals(p, per: unit)
  }

  /// The subscription period as the SDK counts unit prices from it: 7n days are n weeks, 12n
  /// months n years.
  var normalizedPeriod: SubscriptionPeriod? {
    guard let p = subscriptionPeriod else { return nil }
    if p.unit == .day && p.value % 7 == 0 { return SubscriptionPeriod(value: p.value / 7, unit: .week) }
    if p.unit == .month && p.value % 12 == 0 { return SubscriptionPeriod(value: p.value / 12, unit: .year) }
    return p
  }

  /// `unitPrice(per:)` in decimal arithmetic, for a price whose digits pass an Int's; `p` is the
  /// normalized period.
  package func unitPriceByDecimals(_ p: SubscriptionPeriod, per unit: SubscriptionPeriod.Unit) -> Decimal {
    let n = Decimal(p.value)
    // How many `unit`s one subscription period holds.
    let periods: Decimal =
      switch (unit, p.unit) {
      case (.day, .year): Decimal(365) * n
      case (.day, .month): Decimal(365) / Decimal(12) * n
      case (.day, .week): Decimal(7) * n
      case (.week, .year): Decimal(52) * n
      case (.week, .month): Decimal(52) / Decimal(12) * n
      case (.week, .day): n / Decimal(7)
      case (.month, .year): Decimal(12) * n
      case (.month, .week): n * Decimal(12) / Decimal(52)
      case (.month, .day): n * Decimal(12) / Decimal(365)
      case (.year, .month): n / Decimal(12)
      case (.year, .week): n / Decimal(52)
      case (.year, .day): n / Decimal(365)
      case (.day, .day), (.week, .week), (.month, .month), (.year, .year): n
      }
    return Self.truncated(price / periods)
  }

  /// `unitPrice(per:)` in whole cents, computed exactly in integers: floor(price × 100 × den / num)
  /// where one period holds num/den units (what the decimal division and truncation give, without
  /// their cost: printing a 38-digit quotient to cut it took most of opening a paywall). Nil for a
  /// price the integers cannot hold, which takes the decimal path.
  package func unitPriceCents(per unit: SubscriptionPeriod.Unit) -> Int? {
    normalizedPeriod.flatMap { unitPriceCents($0, per: unit) }
  }

  /// `unitPriceCents(per:)` for the normalized period `p`.
  private func unitPriceCents(_ p: SubscriptionPeriod, per unit: SubscriptionPeriod.Unit) -> Int? {
    guard price >= 0 else { return nil }
    let n = p.value
    // How many `unit`s one subscription period holds, as num/den.
    let (num, den): (Int, Int) =
      switch (unit, p.unit) {
      case (.day, .year): (365 * n, 1)
      case (.day, .month): (365 * n, 12)
      case (.day, .week): (7 * n, 1)
      case (.week, .year): (52 * n, 1)
      case (.week, .month): (52 * n, 12)
      case (.week, .day): (n, 7)
      case (.month, .year): (12 * n, 1)
      case (.month, .week): (12 * n, 52)
      case (.month, .day): (12 * n, 365)
      case (.year, .month): (n, 12)
      case (.year, .week): (n, 52)
      case (.year, .day): (n, 365)
      case (.day, .day), (.week, .week), (.month, .month), (.year, .year): (n, 1)
      }
    guard num > 0, let (digits, exponent) = price.integerDigits else { return nil }
    // price = digits × 10^exponent; cents = floor(digits × 10^(exponent + 2) × den / num).
    let shift = exponent + 2
    var numerator = digits
    var denominator = num
    if shift >= 0 {
      guard let scale = Self.powerOfTen(shift) else { return nil }
      numerator = Self.product(numerator, scale)
    } else {
      guard let scale = Self.powerOfTen(-shift) else { return nil }
      denominator = Self.product(denominator, scale)
    }
    numerator = Self.product(numerator, den)
    guard numerator >= 0, denominator > 0 else { return nil }
    return numerator / denominator
  }

  /// 10^k, or nil past what an Int holds.
  private static func powerOfTen(_ k: Int) -> Int? {
    guard k >= 0 && k <= 18 else { return nil }
    var value = 1
    for _ in 0..<k { value *= 10 }
    return value
  }

  /// a × b, or -1 when it overflows (the callers take -1 for "no exact answer").
  private static func product(_ a: Int, _ b: Int) -> Int {
    guard a >= 0 && b >= 0 else { return -1 }
    let (value, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? -1 : value
  }

  static func truncated(_ value: Decimal) -> Decimal {
    value.rounded(2, .down)
  }

  /// When a trial started at `now` would end.
  public func trialEndDate(from now: Date) -> Date? {
    trialPeriod?.added(to: now)
  }

  private func formattedDate(_ date: Date) -> String {
    PriceFormatter.shared.mediumDate(date, locale: locale)
  }
}
