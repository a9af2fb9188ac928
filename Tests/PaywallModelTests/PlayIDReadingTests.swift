import Foundation
import Testing
import PaywallModel

/// A Play catalog answers every spelling of an id the SDK reads, as the release followed reads it,
/// and keeps the Play data it makes products from through every change of view.
@Suite("A Play catalog's ids as the SDK release reads them")
struct PlayIDReadingTests {
  static let entitlements: [String: Set<Entitlement>] = ["acme_pro": ["pro"], "acme_lifetime": ["lifetime", "pro"]]

  static func catalog(_ sdk: SDKVersion = .android) throws -> Catalog {
    try PlayCatalog.load(path: PlayCatalogReaderTests.examplePath).catalog(entitlements: entitlements).following(sdk)
  }

  static let v26 = try! SDKVersion.parse("2.6").get()

  /// `acme_pro:sw-auto:sw-auto` and `acme_pro:annual:` are not among the listed ids, yet 2.7 reads
  /// them (`DecomposedProductIdsTest`): the first base plan, and the annual plan's own choice.
  @Test func spellingsTheCatalogDoesNotListAreReadAsTheSDKReadsThem() throws {
    let catalog = try Self.catalog()
    #expect(!catalog.productIDs.contains("acme_pro:sw-auto:sw-auto"))
    let auto = try #require(catalog.product(id: "acme_pro:sw-auto:sw-auto"))
    #expect(auto.id == "acme_pro:sw-auto:sw-auto")
    #expect(auto.price == catalog.product(id: "acme_pro")?.price)
    #expect(auto.entitlements == [Entitlement("pro")])
    #expect(catalog.product(id: "acme_pro:annual:")?.introductoryOffer?.paymentMode == .freeTrial)
    #expect(catalog.product(id: "acme_pro:weekly") == nil)
    #expect(catalog.notSoldReason("acme_pro:sw-auto:sw-auto") == nil)
  }

  @Test func releasesBefore27ReadTheCatalogLiterally() throws {
    let catalog = try Self.catalog(Self.v26)
    #expect(catalog.play?.reading == .literal)
    // `sw-auto` is a base plan's id there, one acme_pro lacks: nothing is sold, and the reason says so.
    #expect(catalog.product(id: "acme_pro:sw-auto:sw-auto") == nil)
    let reason = try #require(catalog.notSoldReason("acme_pro:sw-auto:sw-auto"))
    // The fix keeps what 2.7 sells under the id: the first base plan alone, which the bare id is.
    #expect(reason.contains("before 2.7") && reason.contains("name the product alone ('acme_pro'") && reason.contains("--sdk 2.7"))
    #expect(catalog.notSoldReason("acme_pro:weekly") == nil)
    // An empty offer names no offer: the base plan, where 2.7 chooses the free week.
    #expect(catalog.product(id: "acme_pro:annual:")?.introductoryOffer == nil)
    #expect(try Self.catalog().product(id: "acme_pro:annual:")?.introductoryOffer != nil)
    // A one-time product's purchase options are unknown to it: the rental sells the legacy option.
    #expect(catalog.product(id: "acme_lifetime:rent-30-days")?.price == Fixture.decimal("149.99"))
    #expect(catalog.product(id: "acme_lifetime:rent-30-days")?.play?.rentalPeriod == nil)
    #expect(try Self.catalog().product(id: "acme_lifetime:rent-30-days")?.price == Fixture.decimal("4.99"))
    // Following 2.7 again gives back the catalog 2.7 reads.
    #expect(catalog.following(.android) == (try Self.catalog()))
  }

  /// A spelling the catalog does not list, of a plan not sold in the region, says so as the
  /// listed one does; a typo in it is no product, with a did-you-mean from the listed ids.
  @Test func anUnlistedSpellingOfAPlanNotSoldThereSaysWhy() throws {
    let german = try PlayCatalog.load(path: PlayCatalogReaderTests.examplePath).catalog(region: "DE")
    #expect(german.product(id: "acme_pro:season-pass:") == nil)
    #expect(german.notSoldReason("acme_pro:season-pass:")?.contains("to a buyer in DE") == true)
    #expect(german.notSoldReason("acme_pro:season-pas:") == nil)
    #expect(german.notSoldReason("acme_lifetime:rent-30-days:sw-none")?.contains("to a buyer in DE") == true)
  }

  /// An id the SDK sells under by falling back (an offer or purchase option the product lacks,
  /// or, before 2.7, any purchase option but the legacy one) is said, with a did-you-mean.
  @Test func aFallbackFromWhatTheIDNamesIsSaid() throws {
    let play = try #require(try Self.catalog().play)
    #expect(play.fallbackWarning("acme_pro:annual:free-wek") == "base plan 'annual' of acme_pro has no offer 'free-wek', so the SDK sells the base plan without one; did you mean 'free-week'?")
    #expect(play.fallbackWarning("acme_lifetime:rent-30-dayz")?.hasPrefix("acme_lifetime has no purchase option 'rent-30-dayz', so the SDK sells its legacy option ('buy')") == true)
    for id in ["acme_pro:annual:free-week", "acme_pro:annual", "acme_pro:annual:sw-none", "acme_lifetime:rent-30-days", "acme_lifetime", "acme_pro"] {
      #expect(play.fallbackWarning(id) == nil, "\(id)")
    }
    let old = try #require(try Self.catalog(Self.v26).play)
    #expect(old.fallbackWarning("acme_lifetime:rent-30-days")?.contains("its legacy one ('buy')") == true)
    #expect(old.fallbackWarning("acme_lifetime:buy") == nil)
    // Before 2.7 an empty offer or sw-none names the base plan on purpose.
    #expect(old.fallbackWarning("acme_pro:annual:") == nil && old.fallbackWarning("acme_pro:annual:sw-none") == nil)
    #expect(old.fallbackWarning("acme_pro:annual:free-wek") != nil)
  }

  /// A storefront or locale changes how prices read, not the Play data: a returning buyer's offer
  /// is still made from it.
  @Test func aLocalizedPlayCatalogKeepsItsPlayData() throws {
    let catalog = try Self.catalog(Self.v26)
    let german = catalog.localized(storefront: nil, locale: "de_DE")
    #expect(german.play == catalog.play)
    #expect(german.product(id: "acme_pro:annual")?.locale == "de_DE")
    #expect(german.following(.android).product(id: "acme_pro:annual")?.locale == "de_DE")
    #expect(german.product(id: "acme_pro:annual:")?.locale == "de_DE")
  }

  /// What a purchase controller is handed for an id without a base plan: null from 2.7, "" before.
  @Test func theControllerIsHandedTheBasePlanAsTheReleaseReadsIt() throws {
    func basePlanId(_ catalog: Catalog, _ id: String) throws -> String {
      let product = try #require(catalog.product(id: id))
      let fields = product.androidControllerFields(reading: try #require(catalog.play).reading)
      return try #require(fields.first { $0.0 == "basePlanId" }).1.text
    }
    #expect(try basePlanId(Self.catalog(), "acme_pro") == "null")
    #expect(try basePlanId(Self.catalog(Self.v26), "acme_pro") == "\"\"")
    #expect(try basePlanId(Self.catalog(Self.v26), "acme_pro:annual:sw-auto") == "\"annual\"")
    // A product of our own catalog, described as Play would list it.
    #expect(try #require(TestCatalog.annual.androidControllerFields(reading: .literal).first { $0.0 == "basePlanId" }).1.text == "\"\"")
    #expect(try #require(TestCatalog.annual.androidControllerFields(reading: .typed).first { $0.0 == "basePlanId" }).1.text == "null")
  }

  /// What a buyer owns is a product and a base plan on Play, whatever spelling the paywall that
  /// sold it used: a subscription bought under 2.7 as `acme_pro:sw-auto:sw-auto` (its first base
  /// plan) renews in a later session that follows 2.6, where that spelling names nothing, instead of
  /// being ended as if the catalog had lost the product; the other way round renews too.
  @Test func aSubscriptionBoughtUnderOneReleaseRenewsUnderTheOther() throws {
    for (bought, replayed, id) in [(SDKVersion.android, Self.v26, "acme_pro:sw-auto:sw-auto"), (Self.v26, .android, "acme_pro:annual:")] {
      let first = try Self.catalog(bought)
      let product = try #require(first.product(id: id))
      let rig = try SimulatedStoreRig(catalog: first)
      defer { rig.remove() }
      #expect(rig.makeStore().purchaseNow(product) == .purchased)

      let status = SubscriptionStatusStore()
      let later = SimulatedStore(catalog: try Self.catalog(replayed), status: status, clock: rig.clock, directory: rig.state, fresh: false,
                                 writable: true, askToBuy: nil, settings: nil)
      rig.advance(later, by: days(400))
      #expect(later.derived.issues.isEmpty, "\(id): \(later.derived.issues)")
      #expect(later.kinds().filter { $0 == .renewal }.count >= 1 && !later.kinds().contains(.expiry), "\(id): \(later.kinds())")
      #expect(status.status == .active(["pro"]), "\(id)")
      #expect(later.subscription(id)?.entitlements == [Entitlement("pro")], "\(id)")
      #expect(later.entries.first?.playIDReading == PlayProductIdentifier.Reading(bought), "the purchase line says how its id was read")
    }
  }

  /// A prepaid plan bought as `acme_pro:season-pass:` under 2.7 and topped up by a session that
  /// follows 2.6 under another spelling: the top-up line names the held id, and keeps the reading
  /// its purchase had; read as 2.6 reads ids, that id would name another choice of plan.
  @Test func aTopUpUnderAnotherReleaseKeepsTheHeldIDsReading() throws {
    let first = try Self.catalog()
    let held = try #require(first.product(id: "acme_pro:season-pass:"))
    let rig = try SimulatedStoreRig(catalog: first)
    defer { rig.remove() }
    #expect(rig.makeStore().purchaseNow(held) == .purchased)

    let literal = try Self.catalog(Self.v26)
    let later = SimulatedStore(catalog: literal, status: SubscriptionStatusStore(), clock: rig.clock, directory: rig.state, fresh: false,
                               writable: true, askToBuy: nil, settings: nil)
    #expect(later.purchaseNow(try #require(literal.product(id: "acme_pro:season-pass"))) == .purchased)
    let topUp = try #require(later.entries.last { $0.kind == .topUp }, "\(later.kinds())")
    #expect(topUp.productID == held.id)
    #expect(topUp.playIDReading == .typed, "the top-up changed how the held id is read")
  }

  /// A ledger written before its lines said how their ids were read: the id is read as the
  /// catalog reads it, then as the other release does.
  @Test func aLedgerWrittenBeforeTheReadingWasRecordedStillRenews() throws {
    let typed = try Self.catalog()
    let rig = try SimulatedStoreRig(catalog: typed)
    defer { rig.remove() }
    #expect(rig.makeStore().purchaseNow(try #require(typed.product(id: "acme_pro:sw-auto:sw-auto"))) == .purchased)
    let text = try String(contentsOfFile: rig.ledgerPath, encoding: .utf8)
    #expect(text.contains(#""playIDReading":"typed""#))
    try text.replacingOccurrences(of: #","playIDReading":"typed""#, with: "").write(toFile: rig.ledgerPath, atomically: true, encoding: .utf8)

    let status = SubscriptionStatusStore()
    let later = SimulatedStore(catalog: try Self.catalog(Self.v26), status: status, clock: rig.clock, directory: rig.state, fresh: false,
                               writable: true, askToBuy: nil, settings: nil)
    #expect(later.entries.first?.playIDReading == nil)
    rig.advance(later, by: days(40))
    #expect(later.derived.issues.isEmpty, "\(later.derived.issues)")
    #expect(status.status == .active(["pro"]))
  }

  /// A base plan may really be called `sw-auto`, which 2.6 names as `acme_pro:sw-auto`. Bought so
  /// and then taken out of the catalog, it is gone: the subscription ends, and is not renewed as
  /// the plan 2.7 would read that spelling as (the first base plan, at another price and period).
  @Test func aPlanTakenOutOfTheCatalogIsNotFoundUnderAnotherReading() throws {
    var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: PlayCatalogReaderTests.examplePath))) as? [String: Any])
    var subscriptions = try #require(root["subscriptions"] as? [[String: Any]])
    var plans = try #require(subscriptions[0]["basePlans"] as? [[String: Any]])
    plans.insert(["basePlanId": "sw-auto", "state": "ACTIVE", "autoRenewingBasePlanType": ["billingPeriodDuration": "P1W"],
                  "regionalConfigs": [["regionCode": "US", "newSubscriberAvailability": true,
                                       "price": ["currencyCode": "USD", "units": "99", "nanos": 0]]]], at: 1)
    subscriptions[0]["basePlans"] = plans
    root["subscriptions"] = subscriptions
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write("play-catalog.json", String(decoding: try JSONSerialization.data(withJSONObject: root), as: UTF8.self))
    let withPlan = try PlayCatalog.load(path: path).catalog(entitlements: Self.entitlements).following(Self.v26)
    let weekly = try #require(withPlan.product(id: "acme_pro:sw-auto"))
    #expect(weekly.subscriptionPeriod == SubscriptionPeriod(value: 1, unit: .week))

    let rig = try SimulatedStoreRig(catalog: withPlan)
    defer { rig.remove() }
    #expect(rig.makeStore().purchaseNow(weekly) == .purchased)
    let later = SimulatedStore(catalog: try Self.catalog(Self.v26), status: SubscriptionStatusStore(), clock: rig.clock, directory: rig.state,
                               fresh: false, writable: true, askToBuy: nil, settings: nil)
    rig.advance(later, by: days(30))
    #expect(!later.kinds().contains(.renewal), "\(later.kinds())")
    #expect(later.kinds().contains(.expiry), "\(later.kinds())")
    #expect(later.derived.issues.contains { $0.contains("acme_pro:sw-auto") }, "\(later.derived.issues)")
  }
}
