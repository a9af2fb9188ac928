import Foundation
import Testing
import PaywallModel

/// The Play catalog file: the Play Developer API's resources, read with `FILE:LINE:COL` errors.
@Suite("Play catalog reader")
struct PlayCatalogReaderTests {
  /// `Examples/android/play-catalog.json`, found from this source file.
  static var examplePath: String {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples/android/play-catalog.json").path
  }

  /// Writes `text` as `catalog.json` in a temporary directory and reads it.
  static func read(_ text: String) throws -> (PlayCatalog?, [Diagnostic]) {
    try withTemporaryDirectory { dir in
      let file = try dir.write("catalog.json", text)
      let (root, diagnostics) = try SourceFile.parse(path: file)
      let catalog = PlayCatalogReader.read(root, file: file, diagnostics: diagnostics)
      return (catalog, Diagnostic.ordered(diagnostics.diagnostics))
    }
  }

  /// Each diagnostic as `LINE:COL: error: MESSAGE`, without the temporary file's name.
  static func problems(_ text: String) throws -> [String] {
    try read(text).1.map { "\($0.location): \($0.severity.rawValue): \($0.message)" }
  }

  static func example() throws -> PlayCatalog {
    try PlayCatalog.load(path: examplePath)
  }

  // MARK: Reading

  @Test func theExampleReadsAsTheAPIDefinesIt() throws {
    let catalog = try Self.example()
    let pro = try #require(catalog.subscription(id: "acme_pro"))
    #expect(pro.listings.first?.title == "Acme Pro")
    #expect(pro.listings.first?.benefits == ["Unlimited projects", "No ads"])
    #expect(pro.basePlans.map(\.basePlanId) == ["monthly", "annual", "season-pass"])

    let monthly = try #require(pro.basePlan(id: "monthly"))
    guard case .autoRenewing(let plan) = monthly.kind else {
      Issue.record("monthly is not auto-renewing: \(monthly.kind)")
      return
    }
    #expect(plan.billingPeriod == PlayDuration(months: 1))
    #expect(plan.gracePeriod == PlayDuration(days: 7))
    #expect(plan.accountHold == PlayDuration(days: 30))
    #expect(plan.resubscribe)
    #expect(plan.legacyCompatible)
    #expect(plan.prorationMode == .chargeOnNextBillingDate)
    #expect(monthly.state == .active)
    #expect(monthly.regional("US")?.price == PlayMoney(currencyCode: "USD", amount: Fixture.decimal("9.99")))
    #expect(monthly.regional("DE")?.price?.currencyCode == "EUR")

    guard case .autoRenewing(let annual) = pro.basePlan(id: "annual")?.kind else {
      Issue.record("annual is not auto-renewing")
      return
    }
    #expect(annual.prorationMode == .chargeFullPriceImmediately)
    #expect(annual.accountHold == nil)
    guard case .prepaid(let prepaid) = pro.basePlan(id: "season-pass")?.kind else {
      Issue.record("season-pass is not prepaid")
      return
    }
    #expect(prepaid.billingPeriod == PlayDuration(months: 3))
    #expect(prepaid.timeExtension)

    #expect(catalog.offers.map(\.offerId) == ["free-week", "half-off-3-months", "upgrade-from-monthly", "winback"])
    let freeWeek = catalog.offers[0]
    #expect(freeWeek.targeting == .acquisition(.anySubscriptionInApp))
    #expect(freeWeek.phases.first?.regionalPricing["US"] == .free)
    #expect(freeWeek.offerTags == ["trial"])
    #expect(catalog.offers[1].phases.first?.recurrenceCount == 3)
    #expect(catalog.offers[1].phases.first?.regionalPricing["US"] == .relativeDiscount(Fixture.decimal("0.5")))
    #expect(catalog.offers[2].targeting == .upgrade(.thisSubscription, billingPeriod: PlayDuration(months: 1), oncePerUser: true))
    #expect(catalog.offers[3].state == .draft)
    #expect(catalog.offers[3].targeting == .developerDetermined)

    let lifetime = try #require(catalog.oneTimeProduct(id: "acme_lifetime"))
    #expect(lifetime.purchaseOptions.map(\.purchaseOptionId) == ["buy", "rent-30-days"])
    #expect(lifetime.purchaseOptions[0].kind == .buy(legacyCompatible: true, multiQuantity: false))
    #expect(lifetime.purchaseOptions[1].kind == .rent(rentalPeriod: PlayDuration(days: 30), expirationPeriod: PlayDuration(days: 2)))
    #expect(lifetime.purchaseOptions[0].regionalPrices["US"]?.amount == Fixture.decimal("149.99"))
  }

  /// Money is `units` + `nanos` exactly, `units` written as the API writes int64 (a string) or as
  /// a number; either part may be left out.
  @Test func moneyIsExact() throws {
    for (money, expected) in [("{\"currencyCode\": \"USD\", \"units\": \"4\", \"nanos\": 990000000}", "4.99"),
                              ("{\"currencyCode\": \"USD\", \"units\": 12}", "12"),
                              ("{\"currencyCode\": \"USD\", \"nanos\": 500000000}", "0.5"),
                              ("{\"currencyCode\": \"JPY\", \"units\": \"1200\"}", "1200")] {
      let (catalog, diagnostics) = try Self.read(Self.oneSubscription(price: money))
      #expect(diagnostics.isEmpty, "\(diagnostics)")
      #expect(catalog?.subscriptions.first?.basePlans.first?.regional("US")?.price?.amount == Fixture.decimal(expected), "\(money)")
    }
  }

  /// Before: any diagnostic on a subscription, even a warning about a price's decimals, marked it
  /// failed, and its offers were then dropped without a word.
  @Test func aWarningOnASubscriptionKeepsItsOffers() throws {
    let text = Self.withOffer(#"{"productId": "pro", "basePlanId": "m", "offerId": "o", "phases": [\#(Self.freePhase)], "regionalConfigs": [{"regionCode": "US", "newSubscriberAvailability": true}]}"#)
      .replacingOccurrences(of: #""currencyCode": "USD", "units": "4", "nanos": 990000000"#, with: #""currencyCode": "JPY", "units": "480", "nanos": 500000000"#)
    let (catalog, diagnostics) = try Self.read(text)
    #expect(diagnostics.map(\.severity) == [.warning], "\(diagnostics)")
    #expect(diagnostics.first?.kind == .currencyDecimals)
    #expect(catalog?.offers.map(\.offerId) == ["o"])
  }

  /// Durations compare by what they span: an upgrade rule written `P12M` matches a `P1Y` plan.
  @Test func durationsCompareByWhatTheySpan() {
    #expect(PlayDuration(iso8601: "P1W") == PlayDuration(iso8601: "P7D"))
    #expect(PlayDuration(iso8601: "P12M") == PlayDuration(years: 1))
    #expect(PlayDuration(iso8601: "P1M") != PlayDuration(iso8601: "P30D"))
    let yearly = PlayPurchaseHistory(current: [.init(productId: "p", basePlanId: "y", billingPeriod: PlayDuration(years: 1))])
    #expect(PlayOfferTargeting.upgrade(.thisSubscription, billingPeriod: PlayDuration(iso8601: "P12M"), oncePerUser: false)
              .admits(yearly, productId: "p", offerKey: "p:y:o"))
  }

  @Test func durationsReadAsISO8601() {
    #expect(PlayDuration(iso8601: "P1M") == PlayDuration(months: 1))
    #expect(PlayDuration(iso8601: "P0D")?.isZero == true)
    #expect(PlayDuration(iso8601: "P1Y6M")?.subscriptionPeriod == nil)
    #expect(PlayDuration(iso8601: "P1W")?.subscriptionPeriod == SubscriptionPeriod(value: 1, unit: .week))
    for bad in ["P", "1M", "PT1H", "P1M1Y", "P1.5M", "P-1D", "P1X", "p1m", "P1MM"] {
      #expect(PlayDuration(iso8601: bad) == nil, "\(bad)")
    }
  }

  /// Keys the API adds over time are ignored inside resources (our own top-level keys are not:
  /// `errorCases`).
  @Test func unknownResourceKeysAreIgnored() throws {
    let (catalog, diagnostics) = try Self.read(Self.oneSubscription(price: Self.usd499, extra: "\"someFutureField\": {\"x\": 1},"))
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    #expect(catalog?.subscriptions.count == 1)
  }

  /// The message format is the `.storekit` reader's: file, line, column, what is wrong, the fix,
  /// the JSON path.
  @Test func aProblemIsOneLineWithFileLineColumnAndFix() throws {
    let text = Self.oneSubscription(price: Self.usd499).replacingOccurrences(of: "\"P1M\"", with: "\"monthly\"")
    try withTemporaryDirectory { dir in
      let file = try dir.write("play.json", text)
      do throws(ValidationFailure) {
        _ = try PlayCatalog.load(path: file)
        Issue.record("a catalog with a bad billing period loaded")
      } catch {
        #expect(error.description == """
          \(file):6:62: error: 'billingPeriodDuration' must be an ISO 8601 duration in days, weeks, months or years such as "P1M", "P1Y" or "P7D", found 'monthly' ($.subscriptions[0].basePlans[0].autoRenewingBasePlanType.billingPeriodDuration)
          """)
      }
    }
  }

  static let usd499 = "{\"currencyCode\": \"USD\", \"units\": \"4\", \"nanos\": 990000000}"

  /// One subscription with one monthly base plan priced `price` in the US, one key per line so
  /// positions are easy to state.
  static func oneSubscription(price: String, extra: String = "", planExtra: String = "") -> String {
    """
    {"subscriptions": [
      {
        \(extra)"productId": "pro",
        "basePlans": [
          {"basePlanId": "m", \(planExtra)
           "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"},
           "regionalConfigs": [{"regionCode": "US", "newSubscriberAvailability": true, "price": \(price)}]}
        ]
      }
    ]}
    """
  }

  /// A catalog with `offer` as its only subscription offer on `pro`'s base plan `m`.
  static func withOffer(_ offer: String) -> String {
    Self.oneSubscription(price: Self.usd499).dropLast(1) + ",\n\"subscriptionOffers\": [\n\(offer)\n]}"
  }

  static let freePhase = #"{"duration": "P7D", "recurrenceCount": 1, "regionalConfigs": [{"regionCode": "US", "free": {}}]}"#

  // MARK: Errors

  /// Each case: the file, the text at whose first character the error must point (`at`, the
  /// `{` of an object, the first character of a value) and the start of the message.
  static let errorCases: [PlayErrorCase] = [
    PlayErrorCase("not an object", "[]", at: "[", "a Play catalog must be an object"),
    PlayErrorCase("subscriptions not a list", #"{"subscriptions": {}}"#, at: "{}",
                  "'subscriptions' must be an array of Subscription resources (monetization.subscriptions.list's 'subscriptions'), found an object; wrap it in [ ]"),
    PlayErrorCase("no product id", #"{"subscriptions": [{"basePlans": []}]}"#, at: #"{"basePlans""#,
                  "missing 'productId'; add \"productId\": \"premium_monthly\""),
    PlayErrorCase("a colon in a product id", #"{"subscriptions": [{"productId": "pro:x"}]}"#, at: #""pro:x""#,
                  "productId 'pro:x' has a ':'"),
    PlayErrorCase("duplicate product id",
                  #"{"subscriptions": [{"productId": "pro"}], "oneTimeProducts": [{"productId": "pro", "purchaseOptions": []}]}"#,
                  at: #""pro", "purchaseOptions""#, "duplicate productId 'pro' (first at line 1)"),
    PlayErrorCase("base plan without type", #"{"subscriptions": [{"productId": "pro", "basePlans": [{"basePlanId": "m"}]}]}"#,
                  at: #"{"basePlanId""#,
                  "base plan 'm' has no type; give it one of 'autoRenewingBasePlanType', 'prepaidBasePlanType', 'installmentsBasePlanType'"),
    PlayErrorCase("base plan with two types",
                  #"{"subscriptions": [{"productId": "pro", "basePlans": [{"basePlanId": "m", "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"}, "prepaidBasePlanType": {}}]}]}"#,
                  at: "{}}]", "base plan 'm' has 'autoRenewingBasePlanType' and 'prepaidBasePlanType'; a base plan has exactly one type, keep one"),
    PlayErrorCase("zero billing period",
                  #"{"subscriptions": [{"productId": "pro", "basePlans": [{"basePlanId": "m", "autoRenewingBasePlanType": {"billingPeriodDuration": "P0D"}}]}]}"#,
                  at: #""P0D""#, "'billingPeriodDuration' must be longer than zero, found 'P0D'; give a duration such as \"P1M\""),
    PlayErrorCase("misspelt enum",
                  #"{"subscriptions": [{"productId": "pro", "basePlans": [{"basePlanId": "m", "state": "ACTIVATED", "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"}}]}]}"#,
                  at: #""ACTIVATED""#, #"'state' must be one of "ACTIVE", "INACTIVE", "DRAFT", "STATE_UNSPECIFIED", found 'ACTIVATED'"#),
    PlayErrorCase("nanos out of range", oneSubscription(price: #"{"currencyCode": "USD", "units": "4", "nanos": 1990000000}"#),
                  at: "1990000000", "'nanos' must be a whole number from 0 to 999999999 (990000000 is .99), found 1990000000"),
    PlayErrorCase("units not digits", oneSubscription(price: #"{"currencyCode": "USD", "units": "4.99"}"#), at: #""4.99""#,
                  "'units' must be the whole units of a price as a string of digits, such as \"4\" for 4.99, found '4.99'"),
    PlayErrorCase("no currency", oneSubscription(price: #"{"units": "4"}"#), at: #"{"units""#,
                  "'price' needs a 'currencyCode', three capital letters such as \"USD\""),
    PlayErrorCase("available without price",
                  #"{"subscriptions": [{"productId": "pro", "basePlans": [{"basePlanId": "m", "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"}, "regionalConfigs": [{"regionCode": "US", "newSubscriberAvailability": true}]}]}]}"#,
                  at: #"{"regionCode""#, "base plan 'm' is available to new subscribers in US but has no 'price' there"),
    PlayErrorCase("lower-case region", oneSubscription(price: usd499).replacingOccurrences(of: "\"US\"", with: "\"us\""), at: #""us""#,
                  "'regionCode' must be a two-letter ISO 3166 region such as \"US\", found 'us'"),
    PlayErrorCase("duplicate base plan",
                  oneSubscription(price: usd499).replacingOccurrences(
                    of: "\n    ]", with: ",\n    {\"basePlanId\": \"m\", \"prepaidBasePlanType\": {\"billingPeriodDuration\": \"P1M\"}}]"),
                  at: #""m", "prepaid"#, "duplicate basePlanId 'm' in subscription 'pro' (first at line 5); give each base plan its own id"),
    PlayErrorCase("offer on an unknown subscription",
                  withOffer(#"{"productId": "prp", "basePlanId": "m", "offerId": "o", "phases": [\#(freePhase)]}"#), at: #""prp""#,
                  "offer 'o' names subscription 'prp', which 'subscriptions' does not define; did you mean 'pro'?; add the subscription or fix 'productId'"),
    PlayErrorCase("offer on an unknown base plan",
                  withOffer(#"{"productId": "pro", "basePlanId": "monthly", "offerId": "o", "phases": [\#(freePhase)]}"#), at: #""monthly""#,
                  "offer 'o' names base plan 'monthly', which subscription 'pro' does not have; its base plans: 'm'"),
    PlayErrorCase("offer on a prepaid plan",
                  withOffer(#"{"productId": "pro", "basePlanId": "m", "offerId": "o", "phases": [\#(freePhase)]}"#)
                    .replacingOccurrences(of: "autoRenewingBasePlanType", with: "prepaidBasePlanType"), at: #""m", "offerId""#,
                  "offer 'o' is on prepaid base plan 'm'; Play allows offers only on auto-renewing base plans, move it to one"),
    PlayErrorCase("offer without phases", withOffer(#"{"productId": "pro", "basePlanId": "m", "offerId": "o"}"#), at: #"{"productId": "pro", "basePlanId""#,
                  "offer 'o' has no 'phases'; give it one or two"),
    PlayErrorCase("phase priced twice",
                  withOffer(#"{"productId": "pro", "basePlanId": "m", "offerId": "o", "phases": [{"duration": "P7D", "recurrenceCount": 1, "regionalConfigs": [{"regionCode": "US", "free": {}, "price": \#(usd499)}]}]}"#),
                  at: #"{}, "price""#,
                  "the phase is priced 2 ways in US ('price', 'free'); keep exactly one"),
    PlayErrorCase("relative discount out of range",
                  withOffer(#"{"productId": "pro", "basePlanId": "m", "offerId": "o", "phases": [{"duration": "P1M", "recurrenceCount": 1, "regionalConfigs": [{"regionCode": "US", "relativeDiscount": 80}]}]}"#),
                  at: "80}", "'relativeDiscount' must be a fraction strictly between 0 and 1 (0.8 is 80 % off), found 80"),
    PlayErrorCase("zero recurrences",
                  withOffer(#"{"productId": "pro", "basePlanId": "m", "offerId": "o", "phases": [{"duration": "P1M", "recurrenceCount": 0, "regionalConfigs": [{"regionCode": "US", "free": {}}]}]}"#),
                  at: "0, \"regionalConfigs", "'recurrenceCount' must be a whole number from 1, found 0"),
    PlayErrorCase("phase missing a region the offer has",
                  withOffer(#"{"productId": "pro", "basePlanId": "m", "offerId": "o", "phases": [\#(freePhase)], "regionalConfigs": [{"regionCode": "DE", "newSubscriberAvailability": true}]}"#),
                  at: #"{"duration""#, "phase 1 of offer 'o' has no regional config for DE, where the offer is configured"),
    PlayErrorCase("acquisition with a specific subscription",
                  withOffer(#"{"productId": "pro", "basePlanId": "m", "offerId": "o", "phases": [\#(freePhase)], "targeting": {"acquisitionRule": {"scope": {"specificSubscriptionInApp": "pro"}}}}"#),
                  at: #""pro"}"#,
                  "the scope of 'acquisitionRule' must be one of 'thisSubscription' or 'anySubscriptionInApp', found 'specificSubscriptionInApp'; keep exactly one of those"),
    PlayErrorCase("upgrade from an unknown subscription",
                  withOffer(#"{"productId": "pro", "basePlanId": "m", "offerId": "o", "phases": [\#(freePhase)], "targeting": {"upgradeRule": {"scope": {"specificSubscriptionInApp": "basic"}}}}"#),
                  at: #""basic""#, "'specificSubscriptionInApp' names 'basic', which 'subscriptions' does not define; name a subscription of this app"),
    PlayErrorCase("both targeting rules",
                  withOffer(#"{"productId": "pro", "basePlanId": "m", "offerId": "o", "phases": [\#(freePhase)], "targeting": {"acquisitionRule": {"scope": {"thisSubscription": {}}}, "upgradeRule": {"scope": {"thisSubscription": {}}}}}"#),
                  at: #"{"scope": {"thisSubscription": {}}}}}"#,
                  "'targeting' has both 'acquisitionRule' and 'upgradeRule'; an offer targets new customers or upgrades, keep one"),
    PlayErrorCase("duplicate offer",
                  withOffer(#"{"productId": "pro", "basePlanId": "m", "offerId": "o", "phases": [\#(freePhase)]}, {"productId": "pro", "basePlanId": "m", "offerId": "o2", "phases": [\#(freePhase)]}"#)
                    .replacingOccurrences(of: "\"o2\"", with: "\"o\" "), at: "\"o\" ",
                  "duplicate offer 'o' on base plan 'm' of 'pro' (first at line 12); offer ids are unique within a base plan"),
    PlayErrorCase("one-time product without options", #"{"oneTimeProducts": [{"productId": "life"}]}"#, at: #"{"productId""#,
                  "one-time product 'life' has no 'purchaseOptions'"),
    PlayErrorCase("an offer tag that is a bare string",
                  #"{"oneTimeProducts": [{"productId": "life", "offerTags": ["x"], "purchaseOptions": [{"purchaseOptionId": "buy", "buyOption": {}}]}]}"#,
                  at: #""x""#, "an offer tag must be an object {\"tag\": \"…\"}, found 'x'"),
    PlayErrorCase("rent without a period",
                  #"{"oneTimeProducts": [{"productId": "life", "purchaseOptions": [{"purchaseOptionId": "rent", "rentOption": {}}]}]}"#,
                  at: "{}}", "missing 'rentalPeriod'; add \"rentalPeriod\": \"P1M\""),
    PlayErrorCase("unknown top-level key", #"{"subscription": []}"#, at: #""subscription""#,
                  "unknown key 'subscription'; did you mean 'subscriptions'?; a Play catalog has 'subscriptions', 'subscriptionOffers', 'oneTimeProducts'"),
  ]

  /// Each bad file gives exactly one error, at the place to fix, saying what to do; none crashes.
  @Test(arguments: errorCases)
  func badFilesSayWhereAndHow(_ errorCase: PlayErrorCase) throws {
    let problems = try Self.problems(errorCase.text)
    #expect(problems.count == 1, "\(problems)")
    #expect(problems.first?.hasPrefix(errorCase.expected) == true, "\(problems)")
  }

  /// Every error case also fails `PlayCatalog.load`, and a syntax error is a positioned diagnostic too.
  @Test func loadRefusesWhatTheReaderReports() throws {
    try withTemporaryDirectory { dir in
      for (i, errorCase) in (Self.errorCases + [PlayErrorCase("syntax", "{\"subscriptions\": [}", at: "}", "invalid JSON")]).enumerated() {
        let file = try dir.write("bad\(i).json", errorCase.text)
        do throws(ValidationFailure) {
          _ = try PlayCatalog.load(path: file)
          Issue.record("\(errorCase.name) loaded")
        } catch {
          #expect(error.diagnostics.first.map { "\($0.location): error: \($0.message)" }?.hasPrefix(errorCase.expected) == true,
                  "\(errorCase.name): \(error)")
        }
      }
    }
  }

  // MARK: What Play returns to a buyer

  /// The API's own example of an absolute discount: $12 a year, less $1 over a 3-month phase, is $2;
  /// a relative discount of 0.5 on 9.99 a month is 5.00 (4.995 rounded to cents).
  @Test func discountsProrateTheBasePrice() {
    let offer = PlaySubscriptionOffer(
      productId: "p", basePlanId: "y", offerId: "o", state: .active,
      phases: [PlayOfferPhase(duration: PlayDuration(months: 3), recurrenceCount: 1,
                              regionalPricing: ["US": .absoluteDiscount(PlayMoney(currencyCode: "USD", amount: 1))])],
      targeting: .developerDetermined, offerTags: [], regionalAvailability: ["US": true])
    let phases = offer.pricingPhases(region: "US", basePrice: PlayMoney(currencyCode: "USD", amount: 12), basePeriod: PlayDuration(years: 1))
    #expect(phases?.first?.priceAmountMicros == 2_000_000)
    #expect(phases?.first?.billingPeriod == "P3M")

    var relative = offer
    relative.phases[0] = PlayOfferPhase(duration: PlayDuration(months: 1), recurrenceCount: 3, regionalPricing: ["US": .relativeDiscount(Fixture.decimal("0.5"))])
    let monthly = relative.pricingPhases(region: "US", basePrice: PlayMoney(currencyCode: "USD", amount: Fixture.decimal("9.99")),
                                         basePeriod: PlayDuration(months: 1))
    #expect(monthly?.first?.priceAmountMicros == 5_000_000)
    #expect(monthly?.first?.billingCycleCount == 3)
  }

  @Test func aNewCustomerSeesTheAcquisitionOffersNotTheUpgradeOrTheDraft() throws {
    let details = try #require(try Self.example().productDetails(for: "acme_pro"))
    #expect(details.productType == .subs)
    let entries = (details.subscriptionOfferDetails ?? []).map { "\($0.basePlanId):\($0.offerId ?? "-")" }
    #expect(entries == ["monthly:-", "monthly:half-off-3-months", "annual:-", "annual:free-week", "season-pass:-"])
    let freeWeek = try #require(details.subscriptionOfferDetails?.first { $0.offerId == "free-week" })
    #expect(freeWeek.pricingPhases.map(\.priceAmountMicros) == [0, 59_990_000])
    #expect(freeWeek.pricingPhases.map(\.billingPeriod) == ["P1W", "P1Y"])
    #expect(freeWeek.offerTags == ["trial"])
    let prepaid = try #require(details.subscriptionOfferDetails?.last)
    #expect(prepaid.pricingPhases.first?.recurrenceMode == .nonRecurring)
  }

  @Test func aMonthlySubscriberSeesOnlyTheUpgradeOfferOnce() throws {
    let catalog = try Self.example()
    let monthly = PlayPurchaseHistory(current: [.init(productId: "acme_pro", basePlanId: "monthly", billingPeriod: PlayDuration(months: 1))])
    let offers = catalog.productDetails(for: "acme_pro", history: monthly)?.subscriptionOfferDetails?.compactMap(\.offerId)
    #expect(offers == ["upgrade-from-monthly"])
    let upgraded = PlayPurchaseHistory(current: monthly.current, offersTaken: ["acme_pro:annual:upgrade-from-monthly"])
    #expect(catalog.productDetails(for: "acme_pro", history: upgraded)?.subscriptionOfferDetails?.compactMap(\.offerId) == [])
    // Having had another subscription of the app ends the any-subscription trial, not this-subscription's offer.
    let other = PlayPurchaseHistory(everSubscribed: ["acme_basic"])
    #expect(catalog.productDetails(for: "acme_pro", history: other)?.subscriptionOfferDetails?.compactMap(\.offerId) == ["half-off-3-months"])
  }

  @Test func aRegionGetsItsOwnPricesAndOnlyItsOffers() throws {
    let details = try #require(try Self.example().productDetails(for: "acme_pro", region: "DE"))
    let entries = (details.subscriptionOfferDetails ?? []).map { "\($0.basePlanId):\($0.offerId ?? "-")" }
    #expect(entries == ["monthly:-", "monthly:half-off-3-months", "annual:-", "annual:free-week"])
    #expect(details.subscriptionOfferDetails?.first?.pricingPhases.first?.priceCurrencyCode == "EUR")
    #expect(try Self.example().productDetails(for: "acme_pro", region: "FR") == nil)
  }

  // MARK: Into our catalog

  @Test func aPaywallsPlayIDBecomesACatalogProduct() throws {
    let catalog = try Self.example()
    let annual = try #require(catalog.storeProduct(paywallProductID: "acme_pro:annual:sw-auto"))
    #expect(annual.id == "acme_pro:annual:sw-auto")
    #expect(annual.store == .playStore)
    #expect(annual.kind == .autoRenewable)
    #expect(annual.price == Fixture.decimal("59.99"))
    #expect(annual.subscriptionPeriod == SubscriptionPeriod(value: 1, unit: .year))
    #expect(annual.introductoryOffer == IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week)))
    #expect(annual.displayName == "Acme Pro")
    #expect(annual.entitlements == [Entitlement("acme_pro")])

    let discounted = try #require(catalog.storeProduct(paywallProductID: "acme_pro:monthly", entitlements: ["pro"]))
    #expect(discounted.introductoryOffer == IntroductoryOffer(paymentMode: .payAsYouGo, period: SubscriptionPeriod(value: 1, unit: .month),
                                                              periodCount: 3, price: 5))
    #expect(discounted.entitlements == [Entitlement("pro")])

    // No base plan named: the first base plan, with no offer.
    let first = try #require(catalog.storeProduct(paywallProductID: "acme_pro"))
    #expect(first.price == Fixture.decimal("9.99"))
    #expect(first.introductoryOffer == nil)

    let season = try #require(catalog.storeProduct(paywallProductID: "acme_pro:season-pass"))
    #expect(season.kind == .nonRenewing)
    #expect(season.subscriptionPeriod == SubscriptionPeriod(value: 3, unit: .month))

    let lifetime = try #require(catalog.storeProduct(paywallProductID: "acme_lifetime:buy"))
    #expect(lifetime.kind == .nonConsumable)
    #expect(lifetime.price == Fixture.decimal("149.99"))
    // With no purchase option named the SDK takes the cheapest of all options (none has an
    // offer), and the rental is cheaper than buying: a paywall naming "acme_lifetime" sells the rental.
    #expect(catalog.storeProduct(paywallProductID: "acme_lifetime")?.price == Fixture.decimal("4.99"))

    // A subscriber has no trial left: the same id now sells the plain annual plan.
    let subscriber = PlayPurchaseHistory(everSubscribed: ["acme_pro"])
    #expect(catalog.storeProduct(paywallProductID: "acme_pro:annual:sw-auto", history: subscriber)?.introductoryOffer == nil)
    #expect(catalog.storeProduct(paywallProductID: "nothing") == nil)
  }
}

/// A bad Play catalog and the start of the one diagnostic it must produce, `LINE:COL: error: …`,
/// where LINE:COL is the first character of `at` in the text.
struct PlayErrorCase: Sendable, CustomTestStringConvertible {
  var name: String
  var text: String
  var expected: String

  init(_ name: String, _ text: String, at needle: String, _ message: String) {
    self.name = name
    self.text = text
    let before = text.range(of: needle).map { text[..<$0.lowerBound] } ?? ""
    let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
    let line = text.contains(needle) ? lines.count : 0
    let column = (lines.last?.count ?? 0) + 1
    self.expected = "\(line):\(column): error: \(message)"
  }

  var testDescription: String { name }
}

@Suite("A Play catalog as our catalog")
struct PlayCatalogConversionTests {
  @Test func everyIDAPaywallCanNameIsAProductOrSaysWhyNot() throws {
    let play = try PlayCatalog.load(path: PlayCatalogReaderTests.examplePath)
    #expect(play.paywallProductIDs == [
      "acme_pro",
      "acme_pro:monthly", "acme_pro:monthly:sw-auto", "acme_pro:monthly:sw-none", "acme_pro:monthly:half-off-3-months",
      "acme_pro:annual", "acme_pro:annual:sw-auto", "acme_pro:annual:sw-none", "acme_pro:annual:free-week",
      "acme_pro:annual:upgrade-from-monthly", "acme_pro:annual:winback",
      "acme_pro:season-pass", "acme_pro:season-pass:sw-auto", "acme_pro:season-pass:sw-none",
      "acme_lifetime", "acme_lifetime:buy", "acme_lifetime:rent-30-days",
    ])
    let catalog = play.catalog(entitlements: ["acme_pro": ["pro"], "acme_lifetime": ["pro"]])
    #expect(catalog.product(id: "acme_pro:annual:free-week")?.introductoryOffer?.paymentMode == .freeTrial)
    // An offer the buyer does not qualify for: the SDK falls back to the base plan.
    #expect(catalog.product(id: "acme_pro:annual:upgrade-from-monthly")?.introductoryOffer == nil)
    #expect(catalog.product(id: "acme_pro:annual:upgrade-from-monthly")?.price == Fixture.decimal("59.99"))
    #expect(catalog.product(id: "acme_pro:monthly")?.entitlements == [Entitlement("pro")])
    #expect(catalog.groups.map(\.id) == ["acme_pro"])
    #expect(catalog.groups.first?.productIDs.contains("acme_pro:season-pass") == false)
    #expect(catalog.groups.first?.productIDs.first == "acme_pro")

    // In Germany the season pass and the lifetime unlock are not sold: defined, and said why.
    let german = play.catalog(region: "DE")
    #expect(german.product(id: "acme_pro:annual")?.currencyCode == "EUR")
    #expect(german.product(id: "acme_pro:season-pass") == nil)
    #expect(german.notSoldReasons["acme_pro:season-pass"]?.contains("to a buyer in DE") == true)
    #expect(german.notSoldReasons["acme_lifetime"]?.contains("to a buyer in DE") == true)
    #expect(german.unloadedReason("nothing") == nil)
  }
}

/// "Never a crash": every value of the example replaced, one at a time, by each other JSON type.
@Suite("Play catalog reader on mangled files")
struct PlayCatalogMangledTests {
  /// `node` with the value at `path` (indices into members and elements) replaced by `replacement`.
  static func replacing(_ node: JSONNode, at path: ArraySlice<Int>, with replacement: JSONValue) -> JSONNode {
    guard let step = path.first else { return JSONNode(replacement, at: node.location) }
    var copy = node
    switch node.value {
    case .object(var members):
      members[step].value = replacing(members[step].value, at: path.dropFirst(), with: replacement)
      copy.value = .object(members)
    case .array(var elements):
      elements[step] = replacing(elements[step], at: path.dropFirst(), with: replacement)
      copy.value = .array(elements)
    default:
      break
    }
    return copy
  }

  /// The path of every value in `node`, depth first.
  static func paths(_ node: JSONNode, _ prefix: [Int] = []) -> [[Int]] {
    var out = [prefix]
    switch node.value {
    case .object(let members):
      for (i, member) in members.enumerated() { out += paths(member.value, prefix + [i]) }
    case .array(let elements):
      for (i, element) in elements.enumerated() { out += paths(element, prefix + [i]) }
    default:
      break
    }
    return out
  }

  @Test func everyValueOfEveryTypeIsReadWithoutACrash() throws {
    let bytes = try SourceFile.read(path: PlayCatalogReaderTests.examplePath)
    let root = try JSONParser.parse(bytes: bytes)
    let replacements: [JSONValue] = [.null, .bool(true), .number("-1"), .number("1e400"), .string(""), .string("P0D"), .array([]), .object([])]
    var reads = 0
    var refused = 0
    for path in Self.paths(root).dropFirst() {
      for replacement in replacements {
        let mangled = Self.replacing(root, at: path[...], with: replacement)
        let diagnostics = DiagnosticCollector(file: "mangled.json", source: bytes)
        let catalog = PlayCatalogReader.read(mangled, file: "mangled.json", diagnostics: diagnostics)
        reads += 1
        if diagnostics.hasErrors { refused += 1 }
        // Whatever was read is usable: every id a paywall can name resolves or says why not.
        if let catalog {
          let ours = catalog.catalog()
          for id in catalog.paywallProductIDs where ours.product(id: id) == nil && ours.unloadedReason(id) == nil && ours.notSoldReasons[id] == nil {
            Issue.record("\(id) is neither a product nor unloaded after replacing \(path) with \(replacement.typeName)")
          }
        }
      }
    }
    #expect(reads > 1_000)
    #expect(refused > reads / 4, "\(refused) of \(reads) mangled files refused")
  }
}

/// docs/android.md's example is a Play catalog that reads clean, and what it says is sold is.
@Suite("docs/android.md")
struct PlayCatalogDocsTests {
  @Test func theDocsExampleReadsCleanAndSellsWhatItSays() throws {
    let docs = URL(fileURLWithPath: PlayCatalogReaderTests.examplePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/android.md").path
    let text = try String(contentsOfFile: docs, encoding: .utf8)
    let start = try #require(text.range(of: "```json\n"), "docs/android.md has no json example")
    let end = try #require(text[start.upperBound...].range(of: "\n```"))
    let (catalog, diagnostics) = try PlayCatalogReaderTests.read(String(text[start.upperBound..<end.lowerBound]))
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let annual = try #require(catalog?.storeProduct(paywallProductID: "acme_pro:annual:sw-auto"))
    #expect(annual.price == Fixture.decimal("59.99"))
    #expect(annual.introductoryOffer == IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week)))
  }
}
