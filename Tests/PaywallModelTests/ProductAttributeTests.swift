import Foundation
import Testing
import PaywallModel

@Suite("Product attributes")
struct ProductAttributeTests {
  static func subscription(_ period: String, price: String, currency: String = "USD", locale: String = "en_US",
                           intro: IntroductoryOffer? = nil) -> StoreProduct {
    StoreProduct(id: "com.acme.\(period.lowercased())", displayName: "Plan \(period)", price: Fixture.decimal(price),
                 currencyCode: currency, locale: locale, kind: .autoRenewable,
                 subscriptionPeriod: SubscriptionPeriod(iso8601: period), introductoryOffer: intro)
  }

  static func trial(_ period: String) -> IntroductoryOffer {
    IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(iso8601: period)!)
  }

  /// 2026-01-01 00:00:00 UTC.
  static let newYear2026 = Date(timeIntervalSince1970: 1_767_225_600)

  // MARK: - Periods

  struct PeriodCase: Sendable, CustomTestStringConvertible {
    var iso: String
    var period: String
    var periodly: String
    var localizedPeriod: String
    var days: Int
    var weeks: Int
    var months: Int
    var years: Int
    var testDescription: String { iso }
  }

  // Superwall's words and whole-unit counts (a month is 30 days and 4 weeks, a year 365 days and 52 weeks).
  static let periodCases: [PeriodCase] = [
    PeriodCase(iso: "P7D", period: "week", periodly: "weekly", localizedPeriod: "7 days", days: 7, weeks: 1, months: 0, years: 0),
    PeriodCase(iso: "P1W", period: "week", periodly: "weekly", localizedPeriod: "1 week", days: 7, weeks: 1, months: 0, years: 0),
    PeriodCase(iso: "P1M", period: "month", periodly: "monthly", localizedPeriod: "1 month", days: 30, weeks: 4, months: 1, years: 0),
    PeriodCase(iso: "P2M", period: "2 months", periodly: "every 2 months", localizedPeriod: "2 months", days: 60, weeks: 8, months: 2, years: 0),
    PeriodCase(iso: "P3M", period: "quarter", periodly: "quarterly", localizedPeriod: "3 months", days: 90, weeks: 12, months: 3, years: 0),
    PeriodCase(iso: "P6M", period: "6 months", periodly: "every 6 months", localizedPeriod: "6 months", days: 180, weeks: 24, months: 6, years: 0),
    PeriodCase(iso: "P1Y", period: "year", periodly: "yearly", localizedPeriod: "1 year", days: 365, weeks: 52, months: 12, years: 1),
  ]

  @Test(arguments: periodCases)
  func periodAttributes(_ c: PeriodCase) {
    let product = Self.subscription(c.iso, price: "9.99")
    #expect(product.attribute(.period) == c.period)
    #expect(product.attribute(.periodly) == c.periodly)
    #expect(product.attribute(.localizedPeriod) == c.localizedPeriod)
    #expect(product.attribute(.periodDays) == "\(c.days)")
    #expect(product.attribute(.periodWeeks) == "\(c.weeks)")
    #expect(product.attribute(.periodMonths) == "\(c.months)")
    #expect(product.attribute(.periodYears) == "\(c.years)")
  }

  // MARK: - Unit prices

  struct UnitPriceCase: Sendable, CustomTestStringConvertible {
    var iso: String
    var price: String
    var daily: String
    var weekly: String
    var monthly: String
    var yearly: String
    var testDescription: String { "\(iso) at $\(price)" }
  }

  // Worked by hand from Superwall's rules (a month is 365/12 days and 52/12 weeks, a year 365 days
  // and 52 weeks, a week 7 days; 7 days are first made one week), then truncated to cents:
  //   P7D $2.99:  as P1W: daily 2.99/7 = 0.427…; weekly 2.99; monthly 2.99×52/12 = 12.956…;
  //               yearly 2.99×52 = 155.48
  //   P1W $4.99:  daily 4.99/7 = 0.7128…; monthly 4.99×52/12 = 21.623…; yearly 4.99×52 = 259.48
  //   P1M $9.99:  daily 9.99×12/365 = 0.3284…; weekly 9.99×12/52 = 2.3053…; yearly 9.99×12 = 119.88
  //   P2M $17.99: daily 17.99×6/365 = 0.2957…; weekly 17.99×6/52 = 2.0757…; monthly 8.995; yearly 107.94
  //   P3M $24.99: daily 24.99×4/365 = 0.2738…; weekly 24.99×4/52 = 1.9223…; monthly 8.33; yearly 99.96
  //   P6M $39.99: daily 39.99×2/365 = 0.2191…; weekly 39.99×2/52 = 1.5380…; monthly 6.665; yearly 79.98
  //   P1Y $59.99: daily 59.99/365 = 0.1643…; weekly 59.99/52 = 1.1536…; monthly 59.99/12 = 4.9991…
  static let unitPriceCases: [UnitPriceCase] = [
    UnitPriceCase(iso: "P7D", price: "2.99", daily: "$0.42", weekly: "$2.99", monthly: "$12.95", yearly: "$155.48"),
    // The SDK's own examples (SubscriptionPeriod.swift, 4.15.3+): a week is exactly 7 days, and 7 days are a week,
    // so a 7-day $6.99 product is $6.99 a week (not $7.00) and a weekly one $0.99 a day.
    UnitPriceCase(iso: "P7D", price: "6.99", daily: "$0.99", weekly: "$6.99", monthly: "$30.29", yearly: "$363.48"),
    UnitPriceCase(iso: "P14D", price: "9.99", daily: "$0.71", weekly: "$4.99", monthly: "$21.64", yearly: "$259.74"),
    UnitPriceCase(iso: "P1W", price: "6.99", daily: "$0.99", weekly: "$6.99", monthly: "$30.29", yearly: "$363.48"),
    UnitPriceCase(iso: "P1W", price: "4.99", daily: "$0.71", weekly: "$4.99", monthly: "$21.62", yearly: "$259.48"),
    UnitPriceCase(iso: "P1M", price: "9.99", daily: "$0.32", weekly: "$2.30", monthly: "$9.99", yearly: "$119.88"),
    UnitPriceCase(iso: "P3M", price: "24.99", daily: "$0.27", weekly: "$1.92", monthly: "$8.33", yearly: "$99.96"),
    UnitPriceCase(iso: "P6M", price: "39.99", daily: "$0.21", weekly: "$1.53", monthly: "$6.66", yearly: "$79.98"),
    UnitPriceCase(iso: "P1Y", price: "59.99", daily: "$0.16", weekly: "$1.15", monthly: "$4.99", yearly: "$59.99"),
  ]

  @Test(arguments: unitPriceCases)
  func unitPrices(_ c: UnitPriceCase) {
    let product = Self.subscription(c.iso, price: c.price)
    #expect(product.attribute(.dailyPrice) == c.daily)
    #expect(product.attribute(.weeklyPrice) == c.weekly)
    #expect(product.attribute(.monthlyPrice) == c.monthly)
    #expect(product.attribute(.yearlyPrice) == c.yearly)
  }

  @Test func twoMonthUnitPrices() {
    // $17.99 every 2 months: $0.2957… a day, $2.0757… a week, $8.995 a month, exactly $107.94 a year.
    let product = Self.subscription("P2M", price: "17.99")
    #expect(product.attribute(.dailyPrice) == "$0.29")
    #expect(product.attribute(.weeklyPrice) == "$2.07")
    #expect(product.attribute(.monthlyPrice) == "$8.99")
    #expect(product.attribute(.yearlyPrice) == "$107.94")
  }

  /// Every (period, unit) pair against exact rational arithmetic: the unit price is
  /// floor(cents × den / num) / 100 where one period holds num/den units. Catches any rounding of
  /// the intermediate fractions (2/12, 1/52, 7/365…) that would tip an exact result below a cent.
  @Test(arguments: ["P3D", "P7D", "P14D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P12M", "P1Y", "P2Y"])
  func unitPricesMatchExactArithmetic(_ iso: String) throws {
    let raw = try #require(SubscriptionPeriod(iso8601: iso))
    // The SDK normalizes first (4.15.3+, SubscriptionPeriod.swift): 7n days are n weeks, 12n months n years.
    let period = raw.unit == .day && raw.value % 7 == 0 ? SubscriptionPeriod(value: raw.value / 7, unit: .week)
      : raw.unit == .month && raw.value % 12 == 0 ? SubscriptionPeriod(value: raw.value / 12, unit: .year) : raw
    let n = period.value
    // Units of `unit` in one period, as num/den, from Superwall's rules (a week is exactly 7 days).
    func units(_ unit: SubscriptionPeriod.Unit) -> (num: Int, den: Int) {
      switch (unit, period.unit) {
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
      default: (n, 1)
      }
    }
    var mismatches: [String] = []
    for cents in stride(from: 1, through: 99_999, by: 37) + [99, 499, 999, 1799, 2999, 5999, 11_988, 14_999] {
      let product = StoreProduct(id: "p", displayName: "P", price: Decimal(cents) / 100, kind: .autoRenewable,
                                 subscriptionPeriod: period)
      for unit in SubscriptionPeriod.Unit.allCases {
        let (num, den) = units(unit)
        let expected = Decimal(cents * den / num) / 100
        let actual = product.unitPrice(per: unit)
        if actual != expected {
          mismatches.append("\(Decimal(cents) / 100) \(iso) per \(unit): \(actual.map { "\($0)" } ?? "nil") ≠ \(expected)")
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, e.g. \(mismatches.prefix(5))")
  }

  /// The unit price is worked out in whole cents where the price's digits fit an Int, and in
  /// decimals otherwise: both give the same value and the same text, for prices of no, two and
  /// more decimals, tiny and large, across every period shape.
  @Test func theIntegerAndDecimalUnitPricesAgree() throws {
    let prices = ["0", "0.01", "0.99", "0.999", "1", "1.5", "2.99", "4.99", "9.999", "17.99", "59.99", "99.999999",
                  "107.94", "149.99", "1000", "12345678.99", "999999999999.99"]
    let periods = ["P1D", "P3D", "P7D", "P14D", "P1W", "P2W", "P5W", "P1M", "P2M", "P3M", "P6M", "P12M", "P1Y", "P2Y"]
    var checked = 0
    for price in prices {
      for iso in periods {
        let product = Self.subscription(iso, price: price)
        var period = try #require(product.subscriptionPeriod)
        if period.unit == .day && period.value % 7 == 0 { period = SubscriptionPeriod(value: period.value / 7, unit: .week) }
        if period.unit == .month && period.value % 12 == 0 { period = SubscriptionPeriod(value: period.value / 12, unit: .year) }
        for unit in [SubscriptionPeriod.Unit.day, .week, .month, .year] {
          let cents = try #require(product.unitPriceCents(per: unit), "\(price) \(iso) per \(unit) fits an Int")
          let decimal = product.unitPriceByDecimals(period, per: unit)
          let viaCents = try #require(product.unitPrice(per: unit))
          #expect(viaCents == decimal && viaCents.description == decimal.description && Decimal(cents) / 100 == decimal,
                  "\(price) \(iso) per \(unit): \(viaCents) ≠ \(decimal)")
          checked += 1
        }
      }
    }
    #expect(checked == prices.count * periods.count * 4)
    // Past an Int's digits the decimals answer.
    let huge = Self.subscription("P1M", price: "123456789012345678901234.5")
    #expect(huge.unitPriceCents(per: .year) == nil)
    #expect(huge.unitPrice(per: .year) == huge.unitPriceByDecimals(SubscriptionPeriod(value: 1, unit: .month), per: .year))
  }

  @Test func unitPricesAreTruncatedNotRounded() {
    // $59.99 a year is $4.999… a month: truncated to $4.99, where rounding would say $5.00.
    let annual = Self.subscription("P1Y", price: "59.99")
    #expect(annual.unitPrice(per: .month) == Fixture.decimal("4.99"))
    #expect(annual.unitPrice(per: .week) == Fixture.decimal("1.15"))
    #expect(annual.unitPrice(per: .day) == Fixture.decimal("0.16"))
    // $9.99 a month is $2.3053… a week and $0.3284… a day.
    let monthly = Self.subscription("P1M", price: "9.99")
    #expect(monthly.unitPrice(per: .week) == Fixture.decimal("2.3"))
    #expect(monthly.unitPrice(per: .day) == Fixture.decimal("0.32"))
    #expect(monthly.unitPrice(per: .year) == Fixture.decimal("119.88"))
  }

  /// Found by fuzzing: Foundation on Linux traps formatting for a locale identifier that starts
  /// with a non-ASCII character, and a catalog's `locale` is any string. Such a locale formats as en_US.
  @Test(arguments: ["\u{FFFD}de_DE", "日本", "é"])
  func aLocaleThatIsNoIdentifierFormatsAsEnglish(locale: String) {
    var product = TestCatalog.annual
    product.locale = locale
    #expect(product.attribute(.price) == "$59.99")
    #expect(!product.attribute(.trialPeriodEndDate, now: Date(timeIntervalSince1970: 0)).isEmpty)
  }

  @Test func nonRecurringProductHasNoUnitPricesOrPeriod() {
    let lifetime = TestCatalog.lifetime
    for attribute: ProductAttribute in [.dailyPrice, .weeklyPrice, .monthlyPrice, .yearlyPrice] {
      #expect(lifetime.attribute(attribute) == "n/a", "\(attribute)")
    }
    #expect(lifetime.unitPrice(per: .month) == nil)
    #expect(lifetime.attribute(.period) == "")
    #expect(lifetime.attribute(.periodly) == "")
    #expect(lifetime.attribute(.localizedPeriod) == "")
    #expect(lifetime.attribute(.periodDays) == "0")
    #expect(lifetime.attribute(.periodYears) == "0")
    #expect(lifetime.attribute(.price) == "$149.99")
    #expect(lifetime.attribute(.hasFreeTrial) == "false")
    #expect(lifetime.attribute(.trialPeriodText) == "")
  }

  // MARK: - Trials

  struct TrialCase: Sendable, CustomTestStringConvertible {
    var iso: String
    var text: String
    var days: Int
    var weeks: Int
    var months: Int
    var endDate: String
    var testDescription: String { iso }
  }

  static let trialCases: [TrialCase] = [
    TrialCase(iso: "P3D", text: "3-day", days: 3, weeks: 0, months: 0, endDate: "Jan 4, 2026"),
    TrialCase(iso: "P7D", text: "7-day", days: 7, weeks: 1, months: 0, endDate: "Jan 8, 2026"),
    TrialCase(iso: "P1W", text: "7-day", days: 7, weeks: 1, months: 0, endDate: "Jan 8, 2026"),
    TrialCase(iso: "P2W", text: "14-day", days: 14, weeks: 2, months: 0, endDate: "Jan 15, 2026"),
    TrialCase(iso: "P1M", text: "30-day", days: 30, weeks: 4, months: 1, endDate: "Feb 1, 2026"),
  ]

  @Test(arguments: trialCases)
  func freeTrialAttributes(_ c: TrialCase) {
    let product = Self.subscription("P1Y", price: "59.99", intro: Self.trial(c.iso))
    #expect(product.hasFreeTrial)
    #expect(product.attribute(.hasFreeTrial) == "true")
    #expect(product.attribute(.trialPeriodText) == c.text)
    #expect(product.attribute(.trialPeriodDays) == "\(c.days)")
    #expect(product.attribute(.trialPeriodWeeks) == "\(c.weeks)")
    #expect(product.attribute(.trialPeriodMonths) == "\(c.months)")
    #expect(product.attribute(.trialPeriodYears) == "0")
    #expect(product.attribute(.trialPeriodEndDate, now: Self.newYear2026) == c.endDate)
    #expect(product.attribute(.trialPeriodPrice) == "$0.00")
  }

  /// The SDK's trial attributes read ONE period of the offer (StoreKit's `SubscriptionOffer.period`),
  /// not times its count (`SK2StoreProduct.swift`): a 1-week offer for 2 periods is a "7-day" trial.
  @Test func trialAttributesReadOnePeriodOfTheOffer() {
    let offer = IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week), periodCount: 2)
    let product = Self.subscription("P1M", price: "9.99", intro: offer)
    #expect(product.attribute(.trialPeriodText) == "7-day")
    #expect(product.attribute(.trialPeriodWeeks) == "1")
    #expect(product.attribute(.trialPeriodEndDate, now: Self.newYear2026) == "Jan 8, 2026")
  }

  /// The SDK calls any introductory offer a trial: `hasFreeTrial` is `introductoryOffer != nil` and
  /// every `trialPeriod*` attribute reads the offer's period (`SK2StoreProduct.swift`); the offer's
  /// per-unit prices are `StoreProductDiscount.pricePerUnit` (`Discount/StoreProductDiscount.swift`).
  @Test func aPaidIntroductoryOfferIsATrialAsInTheSDK() {
    let payUpFront = IntroductoryOffer(paymentMode: .payUpFront, period: SubscriptionPeriod(value: 1, unit: .year),
                                       price: Fixture.decimal("29.99"))
    let winback = Self.subscription("P1Y", price: "59.99", intro: payUpFront)
    #expect(winback.hasFreeTrial)
    #expect(winback.trialPeriod == SubscriptionPeriod(value: 1, unit: .year))
    #expect(winback.attribute(.trialPeriodText) == "365-day")
    #expect(winback.attribute(.trialPeriodDays) == "365")
    #expect(winback.attribute(.trialPeriodMonths) == "12")
    #expect(winback.attribute(.trialPeriodYears) == "1")
    #expect(winback.attribute(.trialPeriodEndDate, now: Self.newYear2026) == "Jan 1, 2027")
    #expect(winback.attribute(.trialPeriodPrice) == "$29.99")
    #expect(winback.attribute(.rawTrialPeriodPrice) == "29.99")
    #expect(winback.attribute(.trialPeriodYearlyPrice) == "$29.99")
    #expect(winback.attribute(.trialPeriodMonthlyPrice) == "$2.49")
    #expect(winback.attribute(.trialPeriodWeeklyPrice) == "$0.57")
    #expect(winback.attribute(.trialPeriodDailyPrice) == "$0.08")

    // The issue's case: a one-month intro is a "30-day" trial of 30 days.
    let payAsYouGo = IntroductoryOffer(paymentMode: .payAsYouGo, period: SubscriptionPeriod(value: 1, unit: .month),
                                       periodCount: 3, price: Fixture.decimal("0.99"))
    let intro = Self.subscription("P1M", price: "9.99", intro: payAsYouGo)
    #expect(intro.hasFreeTrial)
    #expect(intro.attribute(.trialPeriodText) == "30-day")
    #expect(intro.attribute(.trialPeriodDays) == "30")
    #expect(intro.attribute(.trialPeriodWeeks) == "4")
    #expect(intro.attribute(.trialPeriodMonths) == "1")
    #expect(intro.attribute(.trialPeriodEndDate, now: Self.newYear2026) == "Feb 1, 2026")
    #expect(intro.attribute(.trialPeriodPrice) == "$0.99")
    #expect(intro.attribute(.rawTrialPeriodPrice) == "0.99")
    // $0.99 × 3 months: $0.99 a month; a quarter of a year is under one year, so the whole $2.97.
    #expect(intro.attribute(.trialPeriodMonthlyPrice) == "$0.99")
    #expect(intro.attribute(.trialPeriodYearlyPrice) == "$2.97")
    #expect(intro.attribute(.trialPeriodWeeklyPrice) == "$0.22")
    #expect(intro.attribute(.trialPeriodDailyPrice) == "$0.03")
  }

  /// A user who used the group's intro offer pays the regular price for the first period: the
  /// offer's variables say so, and its length ones are those of a product without an offer.
  @Test func anIneligibleOfferSaysWhatTheFirstPeriodCosts() {
    let payUpFront = IntroductoryOffer(paymentMode: .payUpFront, period: SubscriptionPeriod(value: 1, unit: .year),
                                       price: Fixture.decimal("29.99"))
    let winback = Self.subscription("P1Y", price: "59.99", intro: payUpFront)
    let trial = Self.subscription("P1M", price: "9.99", intro: Self.trial("P7D"))
    let used = IntroOfferEligibility(usedGroups: [IntroOfferEligibility.group(of: winback), IntroOfferEligibility.group(of: trial)])
    for product in [winback, trial] {
      #expect(used.offer(for: product) == nil)
      #expect(IntroOfferEligibility.unknownHistory.offer(for: product) == product.introductoryOffer)
      func ineligible(_ attribute: ProductAttribute) -> String {
        product.attribute(attribute, now: Self.newYear2026, introOffer: used.offer(for: product))
      }
      #expect(ineligible(.trialPeriodPrice) == product.attribute(.price))
      #expect(ineligible(.rawTrialPeriodPrice) == product.attribute(.rawPrice))
      #expect(ineligible(.trialPeriodDailyPrice) == product.attribute(.dailyPrice))
      #expect(ineligible(.trialPeriodWeeklyPrice) == product.attribute(.weeklyPrice))
      #expect(ineligible(.trialPeriodMonthlyPrice) == product.attribute(.monthlyPrice))
      #expect(ineligible(.trialPeriodYearlyPrice) == product.attribute(.yearlyPrice))
      for attribute: ProductAttribute in [.trialPeriodDays, .trialPeriodWeeks, .trialPeriodMonths, .trialPeriodYears] {
        #expect(ineligible(attribute) == "0", "\(attribute)")
      }
      #expect(ineligible(.trialPeriodText) == "" && ineligible(.trialPeriodEndDate) == "" && ineligible(.hasFreeTrial) == "false")
      // Everything else, and the offer itself for a user who may take it, as the SDK gives them.
      for attribute in ProductAttribute.allCases {
        if !attribute.describesIntroOffer { #expect(ineligible(attribute) == product.attribute(attribute, now: Self.newYear2026)) }
        #expect(product.attribute(attribute, now: Self.newYear2026, introOffer: product.introductoryOffer)
                  == product.attribute(attribute, now: Self.newYear2026), "\(attribute)")
      }
    }
    #expect(winback.attribute(.trialPeriodPrice, introOffer: nil) == "$59.99")
    // A product with no offer at all keeps the SDK's $0.00.
    let plain = Self.subscription("P1Y", price: "59.99")
    #expect(plain.attribute(.trialPeriodPrice, introOffer: nil) == "$0.00")
    // Only auto-renewable subscriptions have introductory offers to give.
    var oneTime = winback
    oneTime.kind = .nonRenewing
    #expect(IntroOfferEligibility.unknownHistory.offer(for: oneTime) == nil)
  }

  @Test func aFreeTrialOrNoOfferCostsNothingPerUnit() {
    let trial = Self.subscription("P1Y", price: "59.99", intro: Self.trial("P7D"))
    let plain = Self.subscription("P1Y", price: "59.99")
    for product in [trial, plain] {
      #expect(product.attribute(.rawTrialPeriodPrice) == "0")
      for attribute: ProductAttribute in [.trialPeriodDailyPrice, .trialPeriodWeeklyPrice, .trialPeriodMonthlyPrice, .trialPeriodYearlyPrice] {
        #expect(product.attribute(attribute) == "$0.00", "\(attribute)")
      }
    }
    #expect(!plain.hasFreeTrial)
    #expect(plain.attribute(.trialPeriodText) == "")
  }

  /// The rest of the SDK's product variables (`StoreProduct.attributes` in `StoreProduct.swift`).
  @Test func theSDKsOtherProductVariables() {
    let annual = Self.subscription("P1Y", price: "59.99")
    #expect(annual.attribute(.periodAlt) == annual.attribute(.localizedPeriod))
    #expect(annual.attribute(.languageCode) == "en")
    #expect(Self.subscription("P1Y", price: "59.99", locale: "ja_JP").attribute(.languageCode) == "ja")
    #expect(annual.attribute(.billingPlanType) == "")
    #expect(annual.attribute(.isBillingPlanAvailable) == "false")
    #expect(annual.attribute(.isSubscribed) == "false")
  }

  @Test func freeTrialOfferIgnoresAPriceAndCountsAtLeastOnePeriod() {
    let offer = IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 7, unit: .day),
                                  periodCount: 0, price: Fixture.decimal("5"))
    #expect(offer.price == 0)
    #expect(offer.periodCount == 1)
    #expect(offer.totalPeriod == SubscriptionPeriod(value: 7, unit: .day))
  }

  @Test func trialEndDateIsComputedInUTC() throws {
    let product = Self.subscription("P1Y", price: "59.99", intro: Self.trial("P7D"))
    // 23:30 UTC on Dec 31 plus 7 days is Jan 7, whatever the machine's time zone.
    let lateEvening = Self.newYear2026.addingTimeInterval(-30 * 60)
    #expect(product.attribute(.trialPeriodEndDate, now: lateEvening) == "Jan 7, 2026")
    let end = try #require(product.trialEndDate(from: Self.newYear2026))
    #expect(end.timeIntervalSince(Self.newYear2026) == 7 * 86_400)
  }

  // MARK: - Prices and currencies

  struct PriceCase: Sendable, CustomTestStringConvertible {
    var price: String
    var currency: String
    var locale: String
    var formatted: String
    var symbol: String
    var testDescription: String { "\(currency) \(locale)" }
  }

  static let priceCases: [PriceCase] = [
    PriceCase(price: "59.99", currency: "USD", locale: "en_US", formatted: "$59.99", symbol: "$"),
    PriceCase(price: "59.99", currency: "EUR", locale: "de_DE", formatted: "59,99\u{A0}€", symbol: "€"),
    PriceCase(price: "4.99", currency: "GBP", locale: "en_GB", formatted: "£4.99", symbol: "£"),
    PriceCase(price: "1234.5", currency: "USD", locale: "en_US", formatted: "$1,234.50", symbol: "$"),
  ]

  @Test(arguments: priceCases)
  func pricesAreFormattedForCurrencyAndLocale(_ c: PriceCase) {
    let product = Self.subscription("P1M", price: c.price, currency: c.currency, locale: c.locale)
    #expect(product.attribute(.price) == c.formatted)
    #expect(product.attribute(.currencySymbol) == c.symbol)
    #expect(product.attribute(.currencyCode) == c.currency)
    #expect(product.attribute(.locale) == c.locale)
  }

  @Test func yenHasNoDecimals() {
    let product = Self.subscription("P1M", price: "600", currency: "JPY", locale: "ja_JP")
    #expect(product.attribute(.price) == "\u{A5}600")
    #expect(product.attribute(.currencySymbol) == "\u{A5}")
    #expect(product.attribute(.monthlyPrice) == "\u{A5}600")
  }

  @Test func rawPriceIsThePlainDecimal() {
    #expect(Self.subscription("P1Y", price: "59.99").attribute(.rawPrice) == "59.99")
    #expect(Self.subscription("P1Y", price: "59.99", currency: "EUR", locale: "de_DE").attribute(.rawPrice) == "59.99")
    #expect(Self.subscription("P1M", price: "600", currency: "JPY", locale: "ja_JP").attribute(.rawPrice) == "600")
  }

  @Test func identityAttributes() {
    let product = StoreProduct(id: "com.acme.pro.annual", displayName: "Annual", description: "Billed yearly",
                               price: Fixture.decimal("59.99"), kind: .autoRenewable,
                               subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .year))
    #expect(product.attribute(.identifier) == "com.acme.pro.annual")
    #expect(product.attribute(.name) == "Annual")
    #expect(product.attribute(.description) == "Billed yearly")
  }

  @Test func unitPricesUseTheProductsCurrency() {
    let product = Self.subscription("P1Y", price: "59.99", currency: "EUR", locale: "de_DE")
    #expect(product.attribute(.monthlyPrice) == "4,99\u{A0}€")
  }

  // MARK: - Periods parsing

  @Test(arguments: [("P7D", 7, SubscriptionPeriod.Unit.day), ("P1W", 1, .week), ("p3m", 3, .month), ("P1Y", 1, .year)])
  func iso8601PeriodsParse(_ text: String, _ value: Int, _ unit: SubscriptionPeriod.Unit) throws {
    let period = try #require(SubscriptionPeriod(iso8601: text))
    #expect(period.value == value)
    #expect(period.unit == unit)
    #expect(period.iso8601 == text.uppercased())
  }

  @Test(arguments: ["", "P", "P0M", "P1Q", "1M", "P1M2D", "PT1H", "P-1M", "P1.5Y", "P1001D"])
  func malformedPeriodsAreRejected(_ text: String) {
    #expect(SubscriptionPeriod(iso8601: text) == nil)
  }

  // MARK: - Savings

  @Test func annualSavesFiftyPercentAgainstMonthly() {
    let definition = PaywallDefinition(
      id: "p", name: "P",
      slots: [ProductSlot(name: "primary", productID: TestCatalog.annual.id),
              ProductSlot(name: "secondary", productID: TestCatalog.monthly.id),
              ProductSlot(name: "tertiary", productID: TestCatalog.lifetime.id)],
      components: [.products(ProductPicker())])
    let resolved = ResolvedPaywall(definition, catalog: TestCatalog.catalog)
    // $4.99 a month against $9.99: 1 − 4.99/9.99 = 50.05 % → 50. The monthly plan saves nothing, and
    // the lifetime unlock has no monthly price.
    #expect(resolved.savingsPercent == ["primary": 50])
  }

  /// Before: a plan of another group (another subscription, bought on top) and a non-renewing
  /// pass were compared too: the annual plan said "Save 83%" against a $29.99-a-month pass.
  @Test func savingsCompareOnlyRenewingPlansOfOneGroup() {
    let pass = StoreProduct(id: "pass.month", displayName: "Month pass", price: Fixture.decimal("29.99"), kind: .nonRenewing,
                            subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .month), entitlements: ["pro"])
    let music = StoreProduct(id: "music.monthly", displayName: "Music", price: Fixture.decimal("19.99"), kind: .autoRenewable,
                             subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .month), subscriptionGroup: "music", groupLevel: 1,
                             entitlements: ["music"])
    let musicAnnual = StoreProduct(id: "music.annual", displayName: "Music", price: Fixture.decimal("119.99"), kind: .autoRenewable,
                                   subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .year), subscriptionGroup: "music", groupLevel: 1,
                                   entitlements: ["music"])
    let catalog = Catalog(products: TestCatalog.catalog.products + [pass, music, musicAnnual])
    let definition = PaywallDefinition(
      id: "p", name: "P",
      slots: [ProductSlot(name: "annual", productID: TestCatalog.annual.id),
              ProductSlot(name: "monthly", productID: TestCatalog.monthly.id),
              ProductSlot(name: "pass", productID: pass.id),
              ProductSlot(name: "music", productID: music.id),
              ProductSlot(name: "musicAnnual", productID: musicAnnual.id)],
      components: [])
    let resolved = ResolvedPaywall(definition, catalog: catalog)
    // pro: 4.99 against 9.99 a month → 50. music: 9.99 against 19.99 → 50. The pass: none.
    #expect(resolved.savingsPercent == ["annual": 50, "musicAnnual": 50])
  }

  @Test func weeklyPlanIsTheMostExpensivePerMonth() {
    let definition = PaywallDefinition(
      id: "p", name: "P",
      slots: [ProductSlot(name: "weekly", productID: TestCatalog.weekly.id),
              ProductSlot(name: "monthly", productID: TestCatalog.monthly.id),
              ProductSlot(name: "annual", productID: TestCatalog.annual.id)],
      components: [])
    let resolved = ResolvedPaywall(definition, catalog: TestCatalog.catalog)
    // Per month: weekly $21.62, monthly $9.99, annual $4.99.
    // 1 − 9.99/21.62 = 53.79 % → 53; 1 − 4.99/21.62 = 76.91 % → 76.
    #expect(resolved.savingsPercent == ["monthly": 53, "annual": 76])
  }

  /// Plans whose monthly prices lie some 10^17 cents apart: the percentage in integer cents would
  /// overflow (it trapped), so the decimals answer. A second read found it with a catalog `validate` accepts.
  @Test func savingsBetweenPricesAnIntCannotSpanComeFromTheDecimals() {
    func plan(_ id: String, _ price: String) -> StoreProduct {
      StoreProduct(id: id, displayName: id, price: Fixture.decimal(price), kind: .autoRenewable,
                   subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .month), subscriptionGroup: "g", groupLevel: 1, entitlements: ["pro"])
    }
    for dear in ["922337203685478.08", "922337203685479", "1000000000000000"] {
      let catalog = Catalog(products: [plan("dear", dear), plan("cheap", "1")])
      let definition = PaywallDefinition(id: "p", name: "P", slots: [ProductSlot(name: "primary", productID: "dear"),
                                                                    ProductSlot(name: "secondary", productID: "cheap")], components: [])
      #expect(ResolvedPaywall(definition, catalog: catalog).savingsPercent == ["secondary": 99], "\(dear)")
    }
  }
}
