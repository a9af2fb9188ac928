import Foundation
import Testing
@testable import PaywallModel

/// A Play catalog where a project names its catalog: told by its keys, priced in its `region`,
/// granting what `NAME.entitlements.json` beside it says.
@Suite("Play catalog in a project")
struct PlayCatalogProjectTests {
  static func example() throws -> String {
    try String(contentsOfFile: PlayCatalogReaderTests.examplePath, encoding: .utf8)
  }

  /// The example with its region set (or any other change to its text).
  static func catalog(_ text: String, entitlements: String? = nil) throws -> (Catalog?, [Diagnostic]) {
    try withTemporaryDirectory { dir in
      let file = try dir.write("play.json", text)
      if let entitlements { _ = try dir.write("play.entitlements.json", entitlements) }
      let (root, diagnostics) = try SourceFile.parse(path: file)
      return (Catalog.read(root, file: file, diagnostics: diagnostics), diagnostics.diagnostics)
    }
  }

  @Test func aPlayCatalogIsReadWhereACatalogIs() throws {
    let (catalog, diagnostics) = try Self.catalog(try Self.example())
    #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
    let annual = try #require(catalog?.product(id: "acme_pro:annual:sw-auto"))
    #expect(annual.store == .playStore)
    #expect(annual.price == Decimal(string: "59.99") && annual.currencyCode == "USD")
    #expect(annual.introductoryOffer?.price == 0, "sw-auto takes the free week")
    // Unmapped, a product grants its product id, as the SDK's product entitlements default.
    #expect(annual.entitlements.map(\.id) == ["acme_pro"])
  }

  @Test func itsRegionPricesItAndABadOneIsAnErrorAtTheKey() throws {
    let german = try Self.example().replacingOccurrences(of: "{\n", with: "{\n  \"region\": \"DE\",\n", options: [], range: nil)
    let (catalog, diagnostics) = try Self.catalog(german)
    #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
    let monthly = try #require(catalog?.product(id: "acme_pro:monthly:sw-none"))
    #expect(monthly.currencyCode == "EUR" && monthly.price == Decimal(string: "9.99"))
    let (_, bad) = try Self.catalog(#"{"region": "Germany", "subscriptions": []}"#)
    #expect(bad.map(\.message) == [#"'region' must be a two-letter ISO 3166 region such as "US" or "DE" (the buyer's, whose prices the catalog shows), found 'Germany'"#])
    #expect(bad.first.map { "\($0.location)" } == "1:12")
  }

  @Test func theEntitlementsBesideItSayWhatEachProductGrants() throws {
    let (catalog, diagnostics) = try Self.catalog(try Self.example(),
                                                  entitlements: #"{"products": {"acme_lifetime": ["pro", "lifetime"]}, "groups": {"acme_pro": ["pro"]}}"#)
    #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
    #expect(catalog?.product(id: "acme_pro:annual:sw-auto")?.entitlements.map(\.id) == ["pro"])
    #expect(catalog?.product(id: "acme_lifetime")?.entitlements.map(\.id).sorted() == ["lifetime", "pro"])
  }

  @Test func aPlayCatalogFileAloneLoadsAsACatalog() throws {
    let result = ProjectLoader.load(path: PlayCatalogReaderTests.examplePath)
    #expect(result.errors.isEmpty, "\(result.diagnostics)")
    #expect(result.project?.catalog.products.count == 17)
  }
}

/// What the second read of the Play catalog's wiring found: each was a silent or misleading answer.
@Suite("Play catalog in a project: refusals")
struct PlayCatalogRefusalTests {
  /// A paywall naming an id the catalog defines but does not sell in its region is told that,
  /// with the region, as the cause (before: "failed to load, see above", with nothing above).
  @Test func anIdNotSoldInTheRegionIsTheCauseNamingTheRegion() throws {
    let text = try PlayCatalogProjectTests.example().replacingOccurrences(of: "{\n", with: "{\n  \"region\": \"FR\",\n", options: [], range: nil)
    let errors = try withTemporaryDirectory { dir -> [Diagnostic] in
      _ = try dir.write("play.json", text)
      _ = try dir.write("app.json", #"{"catalog": "play.json", "paywalls": ["p.json"]}"#)
      _ = try dir.write("p.json", #"{"id": "p", "products": {"primary": "acme_lifetime:buy"}, "components": [{"type": "products"}]}"#)
      return ProjectLoader.load(path: dir.path).errors
    }
    let slot = try #require(errors.first { $0.message.hasPrefix("slot 'primary'") })
    #expect(slot.message.contains("sells nothing under it to a buyer in FR") && slot.isConsequence == false, "\(errors)")
  }

  /// A price that does not read is the cause; the slot naming the plan it priced follows from it
  /// (it was an error of its own, first, telling the user to price the plan in Play Console).
  @Test func aSlotWhosePlanHasABadPriceFollowsFromThePrice() throws {
    let example = try PlayCatalogProjectTests.example()
    let text = example.replacingOccurrences(of: #""currencyCode": "USD", "units": "9", "nanos": 990000000}},"#,
                                            with: #""currencyCode": "USD", "units": "9.5", "nanos": 990000000}},"#)
    #expect(text != example, "the example prices its monthly plan in the US as this test expects")
    let errors = try withTemporaryDirectory { dir -> [Diagnostic] in
      _ = try dir.write("play.json", text)
      _ = try dir.write("app.json", #"{"catalog": "play.json", "paywalls": ["p.json"]}"#)
      _ = try dir.write("p.json", #"{"id": "p", "name": "P", "products": {"primary": "acme_pro:monthly:sw-none"}, "components": [{"type": "products"}]}"#)
      return ProjectLoader.load(path: dir.path).errors
    }
    #expect(errors.filter { !$0.isConsequence }.map(\.message).allSatisfy { $0.hasPrefix("'units' must be the whole units") }, "\(errors)")
    let slot = try #require(errors.first { $0.message.hasPrefix("slot 'primary'") })
    #expect(slot.isConsequence && slot.message.contains("failed to load, see above"), "\(slot.message)")
  }

  /// A file with our `products` and a Play catalog's lists is refused at the Play key: read as
  /// ours, the Play lists were ignored without a word.
  @Test func ourProductsBesidePlaysListsIsAnError() throws {
    let (catalog, diagnostics) = try PlayCatalogProjectTests.catalog(#"{"products": [], "subscriptions": []}"#)
    #expect(catalog == nil)
    #expect(diagnostics.map(\.message) == ["a catalog has our 'products' list or a Play catalog's lists ('subscriptions', 'subscriptionOffers', 'oneTimeProducts'), not both: keep one"])
  }

  /// An App Store storefront does not re-label a Play product's price: the amount is its region's.
  @Test func aStorefrontLeavesAPlayPriceItsCurrency() throws {
    let (catalog, _) = try PlayCatalogProjectTests.catalog(try PlayCatalogProjectTests.example())
    let german = try #require(catalog).localized(storefront: "DEU", locale: nil)
    let annual = try #require(german.product(id: "acme_pro:annual:sw-auto"))
    #expect(annual.currencyCode == "USD" && annual.price == Decimal(string: "59.99"))
  }
}

/// An entitlements map whose name is not in its catalog would grant nothing without a word: it
/// is an error at the name, with a did-you-mean (a Play map names products by product id).
@Suite("Entitlements map names")
struct EntitlementMapNameTests {
  @Test func aNameThatIsNotInThePlayCatalogIsAnError() throws {
    let (catalog, diagnostics) = try PlayCatalogProjectTests.catalog(try PlayCatalogProjectTests.example(),
                                                                     entitlements: #"{"groups": {"acme_pr": ["pro"]}, "products": {"acme_pro:annual:sw-auto": ["pro"]}}"#)
    #expect(catalog != nil)
    let errors = diagnostics.filter { $0.severity == .error }
    #expect(errors.map(\.message) == [
      "'acme_pr' is not in \(try #require(catalog).file), so it would grant nothing: a name under 'groups' is a subscription's product id; did you mean 'acme_pro'?",
      "'acme_pro:annual:sw-auto' is not in \(try #require(catalog).file), so it would grant nothing: a name under 'products' is a Play product id (without base plan or offer, e.g. 'acme_pro')",
    ])
    #expect(errors.map { "\($0.location)" } == ["1:13", "1:47"])
    #expect(errors.allSatisfy { $0.file.hasSuffix("play.entitlements.json") })
  }

  @Test func theDemosStoreKitMapNamesOnlyWhatItsCatalogHas() throws {
    let demo = URL(fileURLWithPath: PlayCatalogReaderTests.examplePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("paywalls/acme.storekit").path
    let (root, diagnostics) = try SourceFile.parse(path: demo)
    #expect(Catalog.read(root, file: demo, diagnostics: diagnostics) != nil)
    #expect(diagnostics.diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics.diagnostics)")
  }
}
