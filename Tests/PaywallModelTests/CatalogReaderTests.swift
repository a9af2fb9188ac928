import Foundation
import Testing
import PaywallModel

@Suite("Catalog reader (our JSON format)")
struct CatalogReaderTests {
  static func read(_ json: String) throws -> (Catalog?, [Diagnostic]) {
    let root = try JSONParser.parse(json)
    let diagnostics = DiagnosticCollector(file: "catalog.json", source: Array(json.utf8))
    let catalog = CatalogReader.read(root, file: "catalog.json", diagnostics: diagnostics)
    return (catalog, diagnostics.diagnostics)
  }

  /// Reads `json`, expecting exactly one diagnostic, and returns it.
  static func onlyDiagnostic(_ json: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Diagnostic {
    let (_, diagnostics) = try read(json)
    #expect(diagnostics.count == 1, "expected one diagnostic, got:\n\(diagnostics.map(\.description).joined(separator: "\n"))",
            sourceLocation: sourceLocation)
    return try #require(diagnostics.first, sourceLocation: sourceLocation)
  }

  @Test func fullCatalogIsRead() throws {
    let json = #"""
      {
        "currency": "EUR",
        "locale": "de_DE",
        "storefront": "DEU",
        "products": [
          { "id": "m", "name": "Monthly", "description": "Every month", "price": "9.99", "period": "P1M",
            "group": "pro", "level": 2 },
          { "id": "y", "name": "Yearly", "price": 59.99, "period": "P1Y", "trial": "P7D", "group": "pro",
            "entitlements": ["pro", "sync"], "store": "playStore" },
          { "id": "lt", "name": "Lifetime", "price": "149.99", "currency": "USD" },
          { "id": "coins", "name": "100 coins", "price": "0.99", "type": "consumable", "store": "stripe" },
          { "id": "pass", "name": "Season pass", "price": "19.99", "type": "nonRenewing", "period": "P3M" },
          { "id": "intro1", "name": "Intro", "price": "9.99", "period": "P1M",
            "intro": { "mode": "payAsYouGo", "price": "0.99", "period": "P1M", "periods": 3 } },
          { "id": "intro2", "name": "Winback", "price": "59.99", "period": "P1Y",
            "intro": { "mode": "payUpFront", "price": "29.99", "period": "P1Y" } }
        ]
      }
      """#
    let (catalog, diagnostics) = try Self.read(json)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let c = try #require(catalog)
    #expect(c.productIDs == ["m", "y", "lt", "coins", "pass", "intro1", "intro2"])
    #expect(c.file == "catalog.json")
    #expect(c.settings.storefront == "DEU")
    #expect(c.settings.locale == "de_DE")

    let m = try #require(c.product(id: "m"))
    #expect(m.displayName == "Monthly")
    #expect(m.description == "Every month")
    #expect(m.price == Fixture.decimal("9.99"))
    #expect(m.currencyCode == "EUR")
    #expect(m.locale == "de_DE")
    #expect(m.kind == .autoRenewable)  // a period makes it auto-renewable
    #expect(m.subscriptionPeriod == SubscriptionPeriod(value: 1, unit: .month))
    #expect(m.subscriptionGroup == "pro")
    #expect(m.groupLevel == 2)
    #expect(m.entitlements == ["pro"])  // default: the group's name
    #expect(m.store == .appStore)
    #expect(m.introductoryOffer == nil)

    let y = try #require(c.product(id: "y"))
    #expect(y.price == Fixture.decimal("59.99"))  // a JSON number keeps its exact text
    #expect(y.groupLevel == 1)  // a group without a level ranks first
    #expect(y.entitlements == ["pro", "sync"])  // explicit entitlements replace the default
    #expect(y.store == .playStore)
    #expect(y.introductoryOffer == IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 7, unit: .day)))
    #expect(y.hasFreeTrial)

    let lt = try #require(c.product(id: "lt"))
    #expect(lt.kind == .nonConsumable)  // no period: a lifetime unlock
    #expect(lt.subscriptionPeriod == nil)
    #expect(lt.currencyCode == "USD")  // per-product currency overrides the catalog's
    #expect(lt.entitlements.isEmpty)
    #expect(lt.subscriptionGroup == nil)
    #expect(lt.groupLevel == nil)
    #expect(lt.description == "")

    let coins = try #require(c.product(id: "coins"))
    #expect(coins.kind == .consumable)
    #expect(coins.store == .stripe)

    let pass = try #require(c.product(id: "pass"))
    #expect(pass.kind == .nonRenewing)
    #expect(pass.subscriptionPeriod == SubscriptionPeriod(value: 3, unit: .month))

    let intro1 = try #require(c.product(id: "intro1"))
    #expect(intro1.introductoryOffer == IntroductoryOffer(paymentMode: .payAsYouGo, period: SubscriptionPeriod(value: 1, unit: .month),
                                                          periodCount: 3, price: Fixture.decimal("0.99")))
    // Not free, yet a trial to the SDK (SK2StoreProduct.hasFreeTrial is introductoryOffer != nil).
    #expect(!intro1.introductoryOfferIsFree && intro1.hasFreeTrial)

    let intro2 = try #require(c.product(id: "intro2"))
    #expect(intro2.introductoryOffer == IntroductoryOffer(paymentMode: .payUpFront, period: SubscriptionPeriod(value: 1, unit: .year),
                                                          price: Fixture.decimal("29.99")))

    #expect(c.groups == [SubscriptionGroup(id: "pro", name: "pro", productIDs: ["y", "m"])])
  }

  @Test func catalogDefaultsToUSDAndEnUS() throws {
    let (catalog, diagnostics) = try Self.read(#"{"products": [{"id": "a", "name": "A", "price": "1.99", "period": "P1W"}]}"#)
    #expect(diagnostics.isEmpty)
    let product = try #require(catalog?.products.first)
    #expect(product.currencyCode == "USD")
    #expect(product.locale == "en_US")
    #expect(product.attribute(.price) == "$1.99")
  }

  @Test func schemaAndCommentKeysAreAllowed() throws {
    let (_, diagnostics) = try Self.read(#"""
      {"$schema": "catalog.schema.json", "$comment": "demo",
       "products": [{"$comment": "x", "id": "a", "name": "A", "price": "1"}]}
      """#)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
  }

  // MARK: - Errors

  static let errorCases: [ErrorCase] = [
    ErrorCase(name: "missing required key", json: """
      {
        "products": [
          { "id": "a", "name": "A" }
        ]
      }
      """, line: 3, column: 5, path: "$.products[0]", message: "missing required key 'price'"),
    ErrorCase(name: "missing products", json: """
      {
        "currency": "USD"
      }
      """, line: 1, column: 1, path: "$", message: "missing required key 'products'"),
    ErrorCase(name: "bad period", json: """
      {
        "products": [
          { "id": "a", "name": "A", "price": "4.99",
            "period": "P1Q" }
        ]
      }
      """, line: 4, column: 17, path: "$.products[0].period",
      message: #"'period' must be an ISO 8601 period such as "P1W", "P1M" or "P1Y", found "P1Q""#),
    ErrorCase(name: "bad trial", json: """
      {"products": [{"id": "a", "name": "A", "price": "4.99", "period": "P1M", "trial": "7 days"}]}
      """, line: 1, column: 83, path: "$.products[0].trial",
      message: #"'trial' must be an ISO 8601 period such as "P1W", "P1M" or "P1Y", found "7 days""#),
    ErrorCase(name: "trial and intro together", json: """
      {
        "products": [
          { "id": "a", "name": "A", "price": "4.99", "period": "P1M", "trial": "P7D",
            "intro": { "mode": "payUpFront", "price": "0.99", "period": "P1M" } }
        ]
      }
      """, line: 4, column: 16, path: "$.products[0].intro",
      message: "a product has either 'trial' (free) or 'intro' (paid), not both"),
    ErrorCase(name: "duplicate product id", json: """
      {
        "products": [
          { "id": "a", "name": "A", "price": "4.99" },
          { "id": "b", "name": "B", "price": "4.99" },
          { "id": "a", "name": "A again", "price": "5.99" }
        ]
      }
      """, line: 5, column: 13, path: "$.products[2].id",
      message: "duplicate product id 'a' (first defined at line 3)"),
    ErrorCase(name: "unknown key with did-you-mean", json: """
      {
        "products": [
          { "id": "a", "name": "A", "price": "4.99",
            "pirce": "5.99" }
        ]
      }
      """, line: 4, column: 7, path: "$.products[0].pirce", message: "unknown key 'pirce'; did you mean 'price'?"),
    ErrorCase(name: "unknown top-level key", json: """
      {
        "currnecy": "USD",
        "products": []
      }
      """, line: 2, column: 3, path: "$.currnecy", message: "unknown key 'currnecy'; did you mean 'currency'?"),
    ErrorCase(name: "unknown key without a close match", json: """
      {"products": [{"id": "a", "name": "A", "price": "4.99", "colour": "red"}]}
      """, line: 1, column: 57, path: "$.products[0].colour", message: "unknown key 'colour'"),
    ErrorCase(name: "bad currency code", json: """
      {
        "products": [
          { "id": "a", "name": "A", "price": "4.99", "currency": "usd" }
        ]
      }
      """, line: 3, column: 60, path: "$.products[0].currency",
      message: #"'currency' must be an ISO 4217 code such as "USD", found "usd""#),
    ErrorCase(name: "non-decimal price", json: """
      {
        "products": [
          { "id": "a", "name": "A", "price": "4.99abc" }
        ]
      }
      """, line: 3, column: 40, path: "$.products[0].price",
      message: #"'price' must be a non-negative decimal such as "4.99", found "4.99abc""#),
    ErrorCase(name: "negative price", json: """
      {"products": [{"id": "a", "name": "A", "price": "-1"}]}
      """, line: 1, column: 49, path: "$.products[0].price",
      message: #"'price' must be a non-negative decimal such as "4.99", found "-1""#),
    ErrorCase(name: "type mismatch: name", json: """
      {
        "products": [
          { "id": "a", "name": 42, "price": "4.99" }
        ]
      }
      """, line: 3, column: 26, path: "$.products[0].name", message: "'name' must be a string, found a number"),
    ErrorCase(name: "type mismatch: entitlements", json: """
      {"products": [{"id": "a", "name": "A", "price": "4.99", "entitlements": "pro"}]}
      """, line: 1, column: 73, path: "$.products[0].entitlements", message: "'entitlements' must be an array, found a string"),
    ErrorCase(name: "type mismatch: price", json: """
      {"products": [{"id": "a", "name": "A", "price": true}]}
      """, line: 1, column: 49, path: "$.products[0].price",
      message: #"'price' must be a price such as "4.99", found a boolean"#),
    ErrorCase(name: "type mismatch: products", json: """
      {"products": {"id": "a"}}
      """, line: 1, column: 14, path: "$.products", message: "'products' must be an array, found an object"),
    ErrorCase(name: "product not an object", json: """
      {"products": ["com.acme.pro"]}
      """, line: 1, column: 15, path: "$.products[0]", message: "a product must be an object, found a string"),
    ErrorCase(name: "unknown product type", json: """
      {"products": [{"id": "a", "name": "A", "price": "1", "type": "nonconsumable"}]}
      """, line: 1, column: 62, path: "$.products[0].type",
      message: "unknown type 'nonconsumable'; did you mean 'nonConsumable'?"),
    ErrorCase(name: "auto-renewable without a period", json: """
      {"products": [{"id": "a", "name": "A", "price": "1", "type": "autoRenewable"}]}
      """, line: 1, column: 15, path: "$.products[0]", message: "an auto-renewable product needs a 'period'"),
    ErrorCase(name: "trial on a non-subscription", json: """
      {"products": [{"id": "a", "name": "A", "price": "1", "trial": "P7D"}]}
      """, line: 1, column: 15, path: "$.products[0]", message: "only subscriptions can have a 'trial' or 'intro' offer"),
    ErrorCase(name: "level without group", json: """
      {"products": [{"id": "a", "name": "A", "price": "1", "period": "P1M", "level": 2}]}
      """, line: 1, column: 80, path: "$.products[0].level", message: "'level' needs a 'group'"),
    ErrorCase(name: "level out of range", json: """
      {"products": [{"id": "a", "name": "A", "price": "1", "period": "P1M", "group": "g", "level": 0}]}
      """, line: 1, column: 94, path: "$.products[0].level", message: "'level' must be between 1 and 100, found 0"),
    ErrorCase(name: "bad intro mode", json: """
      {"products": [{"id": "a", "name": "A", "price": "1", "period": "P1M",
        "intro": {"mode": "payupfront", "price": "0.5", "period": "P1M"}}]}
      """, line: 2, column: 21, path: "$.products[0].intro.mode",
      message: "unknown mode 'payupfront'; did you mean 'payUpFront'?"),
    ErrorCase(name: "duplicate key in a product", json: """
      {"products": [{"id": "a", "name": "A", "price": "1", "name": "B"}]}
      """, line: 1, column: 54, path: "$.products[0].name", message: "duplicate key 'name'"),
    ErrorCase(name: "empty id", json: """
      {"products": [{"id": " ", "name": "A", "price": "1"}]}
      """, line: 1, column: 22, path: "$.products[0].id", message: "'id' must not be empty"),
  ]

  @Test(arguments: errorCases)
  func errorsHavePositionPathAndMessage(_ c: ErrorCase) throws {
    let diagnostic = try Self.onlyDiagnostic(c.json)
    #expect(diagnostic.severity == .error)
    #expect(diagnostic.location == Position(line: c.line, column: c.column))
    #expect(diagnostic.path?.description == c.path)
    #expect(diagnostic.message.contains(c.message), "message was: \(diagnostic.message)")
    #expect(diagnostic.file == "catalog.json")
  }

  @Test func misspeltRequiredKeyGivesBothProblems() throws {
    let (_, diagnostics) = try Self.read(#"{"products": [{"id": "a", "name": "A", "pirce": "4.99"}]}"#)
    #expect(diagnostics.map(\.message).sorted() == [
      "missing required key 'price'",
      "unknown key 'pirce'; did you mean 'price'?",
    ])
  }

  @Test func everyProblemIsReportedInOnePass() throws {
    let json = """
      {
        "products": [
          { "id": "a", "name": "A", "price": "4.99abc" },
          { "id": "b", "name": "B", "price": "1", "period": "P1Q" },
          { "id": "c", "name": "C", "price": "1", "currency": "euro" }
        ]
      }
      """
    let (_, diagnostics) = try Self.read(json)
    #expect(diagnostics.map(\.location) == [
      Position(line: 3, column: 40), Position(line: 4, column: 55), Position(line: 5, column: 57),
    ])
  }

  // MARK: - From files

  @Test func bundledDemoCatalog() throws {
    let catalog = try Catalog.load(path: Fixture.bundled("catalog.json"))
    #expect(catalog.productIDs == [
      "com.acme.pro.weekly", "com.acme.pro.monthly", "com.acme.pro.monthly.intro",
      "com.acme.pro.annual", "com.acme.pro.annual.winback", "com.acme.pro.lifetime",
    ])
    let weekly = try #require(catalog.product(id: "com.acme.pro.weekly"))
    #expect(weekly.price == Fixture.decimal("4.99"))
    #expect(weekly.subscriptionPeriod == SubscriptionPeriod(value: 1, unit: .week))
    #expect(weekly.groupLevel == 3)

    let intro = try #require(catalog.product(id: "com.acme.pro.monthly.intro"))
    #expect(intro.introductoryOffer?.paymentMode == .payAsYouGo)
    #expect(intro.introductoryOffer?.periodCount == 3)
    #expect(intro.introductoryOffer?.price == Fixture.decimal("0.99"))

    let annual = try #require(catalog.product(id: "com.acme.pro.annual"))
    #expect(annual.attribute(.price) == "$59.99")
    #expect(annual.attribute(.monthlyPrice) == "$4.99")
    #expect(annual.attribute(.trialPeriodText) == "7-day")
    #expect(annual.groupLevel == 1)

    let winback = try #require(catalog.product(id: "com.acme.pro.annual.winback"))
    #expect(winback.introductoryOffer?.paymentMode == .payUpFront)
    #expect(winback.attribute(.trialPeriodPrice) == "$29.99")
    #expect(winback.displayName == "Annual · 50% off")

    let lifetime = try #require(catalog.product(id: "com.acme.pro.lifetime"))
    #expect(lifetime.kind == .nonConsumable)
    #expect(lifetime.entitlements == ["pro", "lifetime"])
    #expect(catalog.products.filter { $0.kind == .autoRenewable }.count == 5)
    #expect(catalog.products.allSatisfy { $0.currencyCode == "USD" && $0.locale == "en_US" })
    #expect(catalog.groups.map(\.name) == ["pro"])
    #expect(catalog.groups.first?.productIDs.first == "com.acme.pro.annual")
    #expect(catalog.groups.first?.productIDs.last == "com.acme.pro.weekly")
  }

  @Test func loadingABadFileThrowsEveryDiagnostic() throws {
    try withTemporaryDirectory { dir in
      let file = try dir.write("bad.json", """
        {
          "products": [
            { "id": "a", "name": "A", "price": "x" },
            { "id": "b", "price": "1" }
          ]
        }
        """)
      do throws(ValidationFailure) {
        _ = try Catalog.load(path: file)
        Issue.record("a catalog with errors loaded")
      } catch {
        #expect(error.diagnostics.map(\.description) == [
          "\(file):3:40: error: 'price' must be a non-negative decimal such as \"4.99\", found \"x\" ($.products[0].price)",
          "\(file):4:5: error: missing required key 'name' ($.products[1])",
        ])
      }
    }
  }

  @Test func loadingMalformedJSONReportsTheSyntaxError() throws {
    try withTemporaryDirectory { dir in
      let file = try dir.write("broken.json", "{\n  \"products\": [\n    { \"id\": \"a\", },\n  ]\n}\n")
      do throws(ValidationFailure) {
        _ = try Catalog.load(path: file)
        Issue.record("malformed JSON loaded")
      } catch {
        #expect(error.diagnostics.count == 1)
        #expect(error.diagnostics.first?.description == "\(file):3:18: error: invalid JSON: trailing comma before '}'")
      }
    }
  }
}
