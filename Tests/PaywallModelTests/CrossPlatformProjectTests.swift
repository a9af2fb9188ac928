import Foundation
import Testing
@testable import PaywallModel

/// A cross-platform project (a React Native or Flutter app's): app.json's `catalog` per store and
/// each slot's product per store, read for the platform a session follows (`StoreChoice`), and a
/// Superwall config imported with both stores' products.
@Suite("Cross-platform projects")
struct CrossPlatformProjectTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let example = root.appendingPathComponent("Examples/cross-platform").path
  static let storekit = root.appendingPathComponent("paywalls/acme.storekit").path
  static let playCatalog = root.appendingPathComponent("Examples/android/play-catalog.json").path

  static func load(_ path: String = example, _ platform: SDKPlatform? = nil) -> ProjectLoadResult {
    ProjectLoader.load(path: path, catalogPath: nil, sdk: SDKChoice(platform: platform))
  }

  /// A project of `paywall` (the slots' JSON) with the example's two catalogs, loaded for `platform`.
  static func load(products: String, components: String = #"{"type": "products"}"#, selected: String? = nil,
                   catalog: String? = nil, options: String = "{}", _ platform: SDKPlatform?) throws -> ProjectLoadResult {
    try withTemporaryDirectory { dir in
      let catalogs = catalog ?? #"{"ios": "\#(storekit)", "android": "\#(playCatalog)"}"#
      _ = try dir.write("app.json", #"{"name": "x", "catalog": \#(catalogs), "paywalls": ["p.json"], "options": \#(options)}"#)
      let selection = selected.map { #""selected": "\#($0)","# } ?? ""
      let file = try dir.write("p.json", #"""
        {"id": "p", "name": "P", \#(selection) "products": \#(products),
         "components": [\#(components), {"type": "button", "label": "Buy", "action": "purchase"}]}
        """#)
      return load((file as NSString).deletingLastPathComponent, platform)
    }
  }

  @Test func eachPlatformReadsItsOwnStoresCatalogAndProducts() throws {
    let ios = try #require(Self.load().project, "\(Self.load().diagnostics.map(\.description))")
    #expect(ios.catalog.play == nil && ios.stores == [.ios, .android])
    #expect(ios.paywalls[0].slots.map(\.productID) == ["com.acme.pro.annual", "com.acme.pro.monthly", "com.acme.pro.lifetime", "com.acme.pro.weekly"])
    let android = try #require(Self.load(Self.example, .android).project)
    #expect(android.catalog.play != nil)
    // The slot only the App Store fills is not on the Play side.
    #expect(android.paywalls[0].slots.map(\.productID) == ["acme_pro:annual:sw-auto", "acme_pro:monthly:sw-none", "acme_lifetime:buy"])
    #expect(android.paywalls[0].slots.map(\.name) == ["primary", "secondary", "tertiary"])
  }

  /// The other store's mistakes are found whichever store a session follows: a typo in an
  /// Android id fails an iOS run too, saying which store it is about.
  @Test func theOtherStoresProductsAreCheckedToo() throws {
    let result = try Self.load(products: #"{"primary": {"ios": "com.acme.pro.annual", "android": "acme_pro:anual:sw-auto"}}"#, .ios)
    #expect(result.project == nil)
    let error = try #require(result.errors.first)
    #expect(error.message.hasPrefix("on android (Superwall-Android): slot 'primary' names 'acme_pro:anual:sw-auto', which is not in the catalog"), "\(error.message)")
    #expect(error.message.contains("did you mean 'acme_pro:annual:sw-auto'?"))
    #expect(error.path?.description == "$.products.primary.android")
    // A typo both stores find is said once, at its place, naming no store, even where only one
    // store's catalog offers a did-you-mean.
    let typo = try Self.load(products: #"{"primary": "com.acme.pro.weeklyy"}"#, .ios)
    #expect(typo.errors.map(\.message) == ["slot 'primary' names 'com.acme.pro.weeklyy', which is not in the catalog \(Self.storekit); did you mean 'com.acme.pro.weekly'?"],
            "\(typo.errors.map(\.description))")
    // Said once, not once per store, when both stores find it.
    let both = try Self.load(products: #"{"primary": {"ios": "com.acme.pro.annual", "andriod": "acme_pro:annual:sw-auto"}}"#, .ios)
    #expect(both.errors.filter { $0.message.contains("unknown key 'andriod'; did you mean 'android'?") }.count == 1, "\(both.errors.map(\.description))")
  }

  @Test func aSessionOnAStoreTheCatalogLacksIsRefusedSayingWhich() throws {
    let result = try Self.load(products: #"{"primary": {"ios": "com.acme.pro.annual"}}"#, catalog: #"{"ios": "\#(Self.storekit)"}"#, .android)
    let error = try #require(result.errors.first)
    #expect(error.message == #"'catalog' names a catalog for ios only, and this session follows android: add "android": FILE to it, or follow ios (--platform ios, or "platform": "ios" in 'options')"#)
    let wrongType = try Self.load(products: #"{"primary": "com.acme.pro.annual"}"#, catalog: "5", .ios)
    #expect(wrongType.errors.first?.message.hasPrefix("'catalog' must be a file name, or one per store") == true)
  }

  /// A template, a picker or `selected` may name a slot only the other store fills: it loads, and
  /// shows nothing there, as a device's paywall shows nothing for a product its SDK dropped.
  @Test func aSlotOnlyTheOtherStoreFillsLoadsAndShowsNothing() throws {
    let products = #"{"primary": {"ios": "com.acme.pro.annual", "android": "acme_pro:annual:sw-auto"}, "weekly": {"ios": "com.acme.pro.weekly"}}"#
    let text = #"{"type": "text", "text": "[{{ products.weekly.price }}]"}, {"type": "products", "slots": ["weekly", "primary"]}"#
    let result = try Self.load(products: products, components: text, selected: "weekly", .android)
    let project = try #require(result.project, "\(result.diagnostics.map(\.description))")
    let paywall = project.paywalls[0]
    #expect(paywall.slots.map(\.name) == ["primary"])
    #expect(paywall.selectedSlot == "primary")
    let resolved = ResolvedPaywall(paywall, catalog: project.catalog)
    guard case .text(let content, _) = paywall.components[0] else { Issue.record("\(paywall.components[0])"); return }
    #expect(resolved.string(content, selected: paywall.selectedSlot) == "[]")
    // On iOS it is there.
    let ios = try #require(try Self.load(products: products, components: text, selected: "weekly", .ios).project)
    #expect(ios.paywalls[0].selectedSlot == "weekly")
    #expect(ResolvedPaywall(ios.paywalls[0], catalog: ios.catalog).string(content, selected: "weekly") == "[$4.99]")
  }

  @Test func aSlotWrittenPerStoreWronglyIsAnError() throws {
    let nested = try Self.load(products: #"{"primary": {"ios": {"ios": "com.acme.pro.annual"}}}"#, .ios)
    #expect(nested.errors.contains { $0.message.contains("a store's product is an id or") }, "\(nested.errors.map(\.description))")
    let mixed = try Self.load(products: #"{"primary": {"ios": "com.acme.pro.annual", "product": "com.acme.pro.weekly"}}"#, .ios)
    #expect(mixed.errors.contains { $0.message.hasPrefix("slot 'primary' is written both ways") && $0.path?.description == "$.products.primary.product" },
            "\(mixed.errors.map(\.description))")
  }

  /// A button, a picker's card or a badge of a slot only the other store fills does nothing on
  /// this store: loaded (the page is the same on every device), and warned about there.
  @Test func aButtonOfASlotOnlyTheOtherStoreFillsIsWarnedAbout() throws {
    let products = #"{"primary": {"ios": "com.acme.pro.annual", "android": "acme_pro:annual:sw-auto"}, "weekly": {"ios": "com.acme.pro.weekly"}}"#
    let components = #"{"type": "products", "slots": ["weekly", "primary"]}, {"type": "button", "label": "Weekly", "action": "purchase", "slot": "weekly"}"#
    let android = try Self.load(products: products, components: components, .android)
    let warnings = try #require(android.project).warnings.filter { $0.kind == .otherStoreSlot }
    #expect(warnings.map(\.path?.description) == ["$.components[0].slots[0]", "$.components[1].slot"])
    #expect(warnings.last?.message == #"slot 'weekly' has no product on Google Play (only another store's), so this button does nothing there; give it "android": ID in 'products'"#)
    #expect(try #require(try Self.load(products: products, components: components, .ios).project).warnings.allSatisfy { $0.kind != .otherStoreSlot })
  }

  /// `overrideProductsByName` names a product per store too; a plain id that only one store sells
  /// is an error for the other, saying how to write each store's.
  @Test func anOverrideNamesEachStoresProduct() throws {
    let products = #"{"primary": {"ios": "com.acme.pro.annual", "android": "acme_pro:annual:sw-auto"}}"#
    let perStore = #"{"overrideProductsByName": {"primary": {"ios": "com.acme.pro.weekly", "android": "acme_pro:monthly:sw-none"}}}"#
    let android = try #require(try Self.load(products: products, options: perStore, .android).project)
    #expect(android.productOverrides.map(\.productID) == ["acme_pro:monthly:sw-none"])
    let ios = try #require(try Self.load(products: products, options: perStore, .ios).project)
    #expect(ios.productOverrides.map(\.productID) == ["com.acme.pro.weekly"])
    let both = try Self.load(products: products, options: #"{"overrideProductsByName": {"primary": {"product": "com.acme.pro.weekly", "ios": "com.acme.pro.weekly"}}}"#, .ios)
    #expect(both.errors.first?.message == #"slot 'primary' is written both ways: give either one product id or one product per store, {"ios": ID, "android": ID}"#,
            "\(both.errors.map(\.description))")
    let plain = try Self.load(products: products, options: #"{"overrideProductsByName": {"primary": "com.acme.pro.weekly"}}"#, .ios)
    #expect(plain.errors.map(\.message) == [#"on android (Superwall-Android): overrideProductsByName: no product 'com.acme.pro.weekly' in the catalog (a cross-platform project names each store's product: {"ios": ID, "android": ID})"#],
            "\(plain.errors.map(\.description))")
  }

  /// A catalog in the wrong store's place is said at that place; an entry of the wrong type is
  /// said once, not also as a store without a catalog.
  @Test func aCatalogInTheOtherStoresPlaceIsAnErrorThere() throws {
    let products = #"{"primary": {"ios": "com.acme.pro.annual", "android": "acme_pro:annual:sw-auto"}}"#
    let swapped = try Self.load(products: products, catalog: #"{"ios": "\#(Self.playCatalog)", "android": "\#(Self.storekit)"}"#, .ios)
    #expect(swapped.errors.contains { $0.message.hasPrefix("on ios (Superwall-iOS): 'catalog.ios' is a Google Play catalog") && $0.path?.description == "$.catalog.ios" },
            "\(swapped.errors.map(\.description))")
    #expect(swapped.errors.contains { $0.message.hasPrefix("on android (Superwall-Android): 'catalog.android' is an Xcode .storekit file") })
    let wrongType = try Self.load(products: products, catalog: #"{"ios": 5, "android": "\#(Self.playCatalog)"}"#, .ios)
    #expect(wrongType.errors.map(\.message) == ["'ios' must be a string, found a number"], "\(wrongType.errors.map(\.description))")
    let both = try Self.load(products: #"{"primary": {"ios": "com.acme.pro.annual", "product": "com.acme.pro.weekly"}}"#, .ios)
    #expect(both.errors.first?.message.hasPrefix("slot 'primary' is written both ways") == true, "\(both.errors.map(\.description))")
  }

  /// A slot's `offer` key is the App Store's: on Google Play the offer is part of the id, and the
  /// error says so rather than speaking of promotional or win-back offers.
  @Test func aPlaySlotsOfferKeySaysTheOfferIsPartOfTheID() throws {
    let result = try Self.load(products: #"{"primary": {"ios": "com.acme.pro.annual", "android": {"product": "acme_pro:annual:sw-auto", "offer": "nope"}}}"#, .android)
    let error = try #require(result.errors.first)
    #expect(error.message.contains("on Google Play an offer is part of the product id, SKU:BASE_PLAN:OFFER"), "\(error.message)")
    #expect(!error.message.contains("promotional"))
  }

  /// `--catalog` stands for the session's store's catalog only: the other store is still checked
  /// against the one app.json names for it.
  @Test func aCommandLineCatalogReplacesOnlyTheSessionsStore() throws {
    try withTemporaryDirectory { dir in
      _ = try dir.write("app.json", #"{"name": "x", "catalog": {"ios": "\#(Self.storekit)", "android": "\#(Self.playCatalog)"}, "paywalls": ["p.json"]}"#)
      _ = try dir.write("p.json", #"""
        {"id": "p", "name": "P", "products": {"primary": {"ios": "com.acme.pro.annual", "android": "acme_pro:anual:sw-auto"}},
         "components": [{"type": "products"}]}
        """#)
      let result = ProjectLoader.load(path: dir.path, catalogPath: Self.storekit, sdk: SDKChoice())
      #expect(result.errors.contains { $0.message.hasPrefix("on android (Superwall-Android): slot 'primary' names 'acme_pro:anual:sw-auto'") },
              "\(result.errors.map(\.description))")
      // A paywall file given alone, beside that app.json, is checked for both stores too.
      let single = ProjectLoader.load(path: dir.file("p.json"), catalogPath: nil, sdk: SDKChoice())
      #expect(single.errors.contains { $0.message.hasPrefix("on android (Superwall-Android): slot 'primary' names 'acme_pro:anual:sw-auto'") },
              "\(single.errors.map(\.description))")
    }
  }

  // MARK: - Import

  /// A config whose paywall sells a plan on both stores and one on the App Store alone.
  static let configPath = root.appendingPathComponent("scenarios/projects/superwall-config/cross-platform.json").path

  @Test func anImportWithBothStoresCatalogsKeepsEachStoresProducts() throws {
    try withTemporaryDirectory { dir in
      let file = Self.configPath
      let (root, collector) = try SourceFile.parse(path: file)
      let (imported, _, diagnostics) = SuperwallImporter.importConfig(path: file, root: root, collector: collector, catalogPath: Self.storekit,
                                                                     catalogReference: "App.storekit", name: "t",
                                                                     play: (Self.playCatalog, "play-catalog.json"))
      let project = try #require(imported, "\(diagnostics.map(\.description))")
      #expect(project.app.text.contains(#""catalog":{"ios":"App.storekit","android":"play-catalog.json"}"#), "\(project.app.text)")
      #expect(!project.app.text.contains("options"), "no store's SDK is written: --platform picks")
      let paywall = project.paywalls[0].document.text
      #expect(paywall.contains(#""products":{"primary":{"ios":"com.acme.pro.annual","android":"acme_pro:annual:sw-auto"},"weekly":{"ios":"com.acme.pro.weekly"}}"#),
              "\(paywall)")
      // Only the product neither SDK sells is skipped, and said so.
      let skipped = diagnostics.filter { $0.message.hasPrefix("product skipped") }
      #expect(skipped.count == 1 && skipped[0].message.contains("'STRIPE'"), "\(skipped.map(\.message))")
      // An id neither catalog has is an error naming that store's catalog.
      let wrong = try String(contentsOfFile: Self.configPath, encoding: .utf8).replacingOccurrences(of: #""product_identifier": "acme_pro""#, with: #""product_identifier": "acme_prox""#)
      let wrongFile = try dir.write("wrong.json", wrong)
      let (wrongRoot, wrongCollector) = try SourceFile.parse(path: wrongFile)
      let (failed, _, errors) = SuperwallImporter.importConfig(path: wrongFile, root: wrongRoot, collector: wrongCollector, catalogPath: Self.storekit,
                                                               catalogReference: "App.storekit", name: "t", play: (Self.playCatalog, "play-catalog.json"))
      #expect(failed == nil)
      #expect(errors.contains { $0.message.hasPrefix("1 product id is not in the catalog \(Self.playCatalog): acme_prox:annual:sw-auto") && $0.message.contains("the app's Play catalog") },
              "\(errors.map(\.message))")
    }
  }

  /// A product only the other store sells is no unknown id to this store's session: its catalog
  /// says which store sells it and how to follow that store. Each store's own products, and an id
  /// no store sells, are as they were; a project of one store has no other to name.
  @Test func theOtherStoresProductsSayWhichStoreSellsThem() throws {
    let ios = try #require(Self.load(Self.example, .ios).project)
    let play = try #require(ios.catalog.notSoldReason("acme_pro:annual:sw-auto"))
    #expect(play.hasPrefix("only Google Play sells it (") && play.contains("play-catalog.json, this project's android catalog)")
            && play.hasSuffix("and this session follows ios (Superwall-iOS); --platform android plays that store"), "\(play)")
    #expect(ios.catalog.product(id: "com.acme.pro.annual") != nil && ios.catalog.notSoldReason("com.acme.pro.annual") == nil)
    #expect(ios.catalog.notSoldReason("acme_pro:annual:sw-nope") == nil)
    let android = try #require(Self.load(Self.example, .android).project)
    let appStore = try #require(android.catalog.notSoldReason("com.acme.pro.annual"))
    #expect(appStore.hasPrefix("only the App Store sells it (") && appStore.contains("acme.storekit, this project's ios catalog)")
            && appStore.hasSuffix("and this session follows android (Superwall-Android); --platform ios plays that store"), "\(appStore)")
    #expect(android.catalog.product(id: "acme_pro:annual:sw-auto") != nil && android.catalog.notSoldReason("acme_pro:annual:sw-auto") == nil)
    let one = try #require(Self.load(Self.root.appendingPathComponent("paywalls").path).project)
    #expect(one.catalog.notSoldReasons.isEmpty && one.catalog.notSoldReason("acme_pro:annual:sw-auto") == nil)
  }
}
