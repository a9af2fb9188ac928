import Foundation
import Testing
import PaywallModel

/// `.storekit` fixtures in the shape Xcode writes them (`"key" : value`, keys sorted), one per
/// format version the reader supports.
enum StoreKitFixtures {
  /// Xcode 12: format 1.1, empty settings, `introductoryOffer` written as null when there is none.
  static let version1 = """
    {
      "identifier" : "A1B2C3D4",
      "nonRenewingSubscriptions" : [
        {
          "displayPrice" : "19.99",
          "familyShareable" : false,
          "internalID" : "100000003",
          "localizations" : [
            {
              "description" : "Three months of premium",
              "displayName" : "Season Pass",
              "locale" : "en_US"
            }
          ],
          "productID" : "com.example.season",
          "referenceName" : "Season Pass",
          "type" : "NonRenewingSubscription"
        }
      ],
      "products" : [
        {
          "displayPrice" : "0.99",
          "familyShareable" : false,
          "internalID" : "100000001",
          "localizations" : [
            {
              "description" : "A handful of coins",
              "displayName" : "100 Coins",
              "locale" : "en_US"
            }
          ],
          "productID" : "com.example.coins",
          "referenceName" : "Coins",
          "type" : "Consumable"
        },
        {
          "displayPrice" : "4.99",
          "familyShareable" : true,
          "internalID" : "100000002",
          "localizations" : [
            {
              "description" : "Unlock everything",
              "displayName" : "",
              "locale" : "en_US"
            }
          ],
          "productID" : "com.example.unlock",
          "referenceName" : "Full Unlock",
          "type" : "NonConsumable"
        }
      ],
      "settings" : {

      },
      "subscriptionGroups" : [
        {
          "id" : "20000001",
          "localizations" : [

          ],
          "name" : "Premium",
          "subscriptions" : [
            {
              "adHocOffers" : [

              ],
              "displayPrice" : "4.99",
              "familyShareable" : false,
              "groupNumber" : 2,
              "internalID" : "100000004",
              "introductoryOffer" : {
                "internalID" : "100000014",
                "numberOfPeriods" : 1,
                "paymentMode" : "free",
                "subscriptionPeriod" : "P1W"
              },
              "localizations" : [
                {
                  "description" : "Premium, billed monthly",
                  "displayName" : "Monthly",
                  "locale" : "en_US"
                }
              ],
              "productID" : "com.example.monthly",
              "recurringSubscriptionPeriod" : "P1M",
              "referenceName" : "Monthly",
              "subscriptionGroupID" : "20000001",
              "type" : "RecurringSubscription"
            },
            {
              "adHocOffers" : [

              ],
              "displayPrice" : "29.99",
              "familyShareable" : false,
              "groupNumber" : 1,
              "internalID" : "100000005",
              "introductoryOffer" : null,
              "localizations" : [
                {
                  "description" : "Premium, billed yearly",
                  "displayName" : "Yearly",
                  "locale" : "en_US"
                }
              ],
              "productID" : "com.example.yearly",
              "recurringSubscriptionPeriod" : "P1Y",
              "referenceName" : "Yearly",
              "subscriptionGroupID" : "20000001",
              "type" : "RecurringSubscription"
            }
          ]
        }
      ],
      "version" : {
        "major" : 1,
        "minor" : 1
      }
    }
    """

  /// Xcode 14: format 3.0 with the full settings block and code offers.
  static let version3 = """
    {
      "identifier" : "C3D4E5F6",
      "nonRenewingSubscriptions" : [

      ],
      "products" : [

      ],
      "settings" : {
        "_applicationInternalID" : "1234567890",
        "_askToBuyEnabled" : true,
        "_billingGracePeriodEnabled" : true,
        "_billingIssuesEnabled" : false,
        "_developerTeamID" : "ABCDE12345",
        "_disableDialogs" : false,
        "_failTransactionsEnabled" : false,
        "_locale" : "en_GB",
        "_storefront" : "GBR",
        "_storeKitErrors" : [

        ],
        "_timeRate" : 6
      },
      "subscriptionGroups" : [
        {
          "id" : "21000001",
          "localizations" : [

          ],
          "name" : "Plus",
          "subscriptions" : [
            {
              "adHocOffers" : [

              ],
              "codeOffers" : [

              ],
              "displayPrice" : "4.99",
              "familyShareable" : false,
              "groupNumber" : 2,
              "internalID" : "200000001",
              "introductoryOffer" : {
                "displayPrice" : "0.99",
                "internalID" : "200000011",
                "numberOfPeriods" : 3,
                "paymentMode" : "payAsYouGo",
                "subscriptionPeriod" : "P1M"
              },
              "localizations" : [
                {
                  "description" : "Plus, every month",
                  "displayName" : "Monthly (US)",
                  "locale" : "en_US"
                },
                {
                  "description" : "Plus, every month, in British",
                  "displayName" : "Monthly",
                  "locale" : "en_GB"
                }
              ],
              "productID" : "com.example.plus.monthly",
              "recurringSubscriptionPeriod" : "P1M",
              "referenceName" : "Plus Monthly",
              "subscriptionGroupID" : "21000001",
              "type" : "RecurringSubscription"
            },
            {
              "adHocOffers" : [

              ],
              "codeOffers" : [

              ],
              "displayPrice" : "39.99",
              "familyShareable" : false,
              "groupNumber" : 1,
              "internalID" : "200000002",
              "introductoryOffer" : {
                "displayPrice" : "19.99",
                "internalID" : "200000012",
                "numberOfPeriods" : 1,
                "paymentMode" : "payUpFront",
                "subscriptionPeriod" : "P6M"
              },
              "localizations" : [
                {
                  "description" : "Plus, every year",
                  "displayName" : "Annual",
                  "locale" : "en_GB"
                }
              ],
              "productID" : "com.example.plus.annual",
              "recurringSubscriptionPeriod" : "P1Y",
              "referenceName" : "Plus Annual",
              "subscriptionGroupID" : "21000001",
              "type" : "RecurringSubscription"
            }
          ]
        }
      ],
      "version" : {
        "major" : 3,
        "minor" : 0
      }
    }
    """

  /// Xcode 15/16: format 4.0, with `_storeKitErrors` entries and `winbackOffers`.
  static let version4 = """
    {
      "identifier" : "D4E5F6A7",
      "nonRenewingSubscriptions" : [

      ],
      "products" : [
        {
          "displayPrice" : "9.99",
          "familyShareable" : false,
          "internalID" : "300000001",
          "localizations" : [
            {
              "description" : "Keep it forever",
              "displayName" : "Lifetime",
              "locale" : "de"
            }
          ],
          "productID" : "com.example.lifetime",
          "referenceName" : "Lifetime",
          "type" : "NonConsumable"
        }
      ],
      "settings" : {
        "_applicationInternalID" : "1234567890",
        "_askToBuyEnabled" : false,
        "_billingGracePeriodEnabled" : false,
        "_billingIssuesEnabled" : false,
        "_disableDialogs" : false,
        "_failTransactionsEnabled" : false,
        "_locale" : "de_DE",
        "_renewalBillingIssuesEnabled" : false,
        "_storefront" : "DEU",
        "_storeKitErrors" : [
          {
            "current" : null,
            "enabled" : false,
            "name" : "Load Products"
          },
          {
            "current" : {
              "index" : 0,
              "type" : "generic"
            },
            "enabled" : true,
            "name" : "Purchase"
          }
        ],
        "_timeRate" : 0
      },
      "subscriptionGroups" : [
        {
          "id" : "22000001",
          "localizations" : [

          ],
          "name" : "Pro",
          "subscriptions" : [
            {
              "adHocOffers" : [

              ],
              "codeOffers" : [

              ],
              "displayPrice" : "2.99",
              "familyShareable" : false,
              "groupNumber" : 1,
              "internalID" : "300000002",
              "localizations" : [
                {
                  "description" : "Pro jede Woche",
                  "displayName" : "Wöchentlich",
                  "locale" : "de_DE"
                }
              ],
              "productID" : "com.example.pro.weekly",
              "recurringSubscriptionPeriod" : "P1W",
              "referenceName" : "Pro Weekly",
              "subscriptionGroupID" : "22000001",
              "type" : "RecurringSubscription",
              "winbackOffers" : [
                {
                  "displayPrice" : "0.99",
                  "eligibility" : {
                    "customerType" : "lapsed"
                  },
                  "internalID" : "300000022",
                  "numberOfPeriods" : 1,
                  "offerID" : "weekly.winback",
                  "paymentMode" : "payAsYouGo",
                  "referenceName" : "Winback",
                  "subscriptionPeriod" : "P1W"
                }
              ]
            }
          ]
        }
      ],
      "version" : {
        "major" : 4,
        "minor" : 0
      }
    }
    """

  static let fakePrivateKey = "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQgFAKEfakeFAKEfakeFAKEfakeKEYDATA0123456789"

  /// Xcode 26: format 5.0, with `appPolicies` and a subscription-offers key pair.
  static let version5 = """
    {
      "appPolicies" : {
        "eula" : "",
        "policies" : [
          {
            "locale" : "en_US",
            "policyText" : "",
            "policyURL" : ""
          }
        ]
      },
      "identifier" : "E5F6A7B8",
      "nonRenewingSubscriptions" : [

      ],
      "products" : [

      ],
      "settings" : {
        "_askToBuyEnabled" : false,
        "_billingGracePeriodEnabled" : false,
        "_locale" : "en_US",
        "_storefront" : "USA",
        "_storeKitErrors" : [

        ],
        "_timeRate" : 0
      },
      "subscriptionGroups" : [
        {
          "id" : "23000001",
          "localizations" : [

          ],
          "name" : "Premium",
          "subscriptions" : [
            {
              "adHocOffers" : [

              ],
              "codeOffers" : [

              ],
              "displayPrice" : "4.99",
              "familyShareable" : false,
              "groupNumber" : 2,
              "internalID" : "400000001",
              "localizations" : [
                {
                  "description" : "Premium, monthly",
                  "displayName" : "Monthly",
                  "locale" : "en_US"
                }
              ],
              "productID" : "com.example.premium.monthly",
              "recurringSubscriptionPeriod" : "P1M",
              "referenceName" : "Premium Monthly",
              "subscriptionGroupID" : "23000001",
              "type" : "RecurringSubscription",
              "winbackOffers" : [

              ]
            },
            {
              "adHocOffers" : [

              ],
              "codeOffers" : [

              ],
              "displayPrice" : "29.99",
              "familyShareable" : false,
              "groupNumber" : 1,
              "internalID" : "400000002",
              "introductoryOffer" : {
                "internalID" : "400000012",
                "numberOfPeriods" : 1,
                "paymentMode" : "free",
                "subscriptionPeriod" : "P3D"
              },
              "localizations" : [
                {
                  "description" : "Premium, yearly",
                  "displayName" : "Yearly",
                  "locale" : "en_US"
                }
              ],
              "productID" : "com.example.premium.yearly",
              "recurringSubscriptionPeriod" : "P1Y",
              "referenceName" : "Premium Yearly",
              "subscriptionGroupID" : "23000001",
              "type" : "RecurringSubscription",
              "winbackOffers" : [

              ]
            }
          ]
        }
      ],
      "subscriptionOffersKeyPair" : {
        "id" : "ABCD1234EF",
        "privateKey" : "\(fakePrivateKey)"
      },
      "version" : {
        "major" : 5,
        "minor" : 0
      }
    }
    """

  /// Three mistakes: a product without a price, a bad period, a misspelt payment mode; and a key pair.
  static let withErrors = """
    {
      "products" : [
        {
          "productID" : "com.example.unlock",
          "type" : "NonConsumable"
        }
      ],
      "subscriptionGroups" : [
        {
          "id" : "1",
          "name" : "Premium",
          "subscriptions" : [
            {
              "displayPrice" : "9.99",
              "groupNumber" : 1,
              "productID" : "com.example.monthly",
              "recurringSubscriptionPeriod" : "P1X"
            },
            {
              "displayPrice" : "49.99",
              "groupNumber" : 2,
              "introductoryOffer" : {
                "paymentMode" : "fre",
                "subscriptionPeriod" : "P1W"
              },
              "productID" : "com.example.yearly",
              "recurringSubscriptionPeriod" : "P1Y"
            }
          ]
        }
      ],
      "subscriptionOffersKeyPair" : {
        "id" : "ABCD1234EF",
        "privateKey" : "\(fakePrivateKey)"
      },
      "version" : {
        "major" : 3,
        "minor" : 0
      }
    }
    """
}

@Suite("StoreKit configuration reader")
struct StoreKitTests {
  /// Writes `text` as `name` (plus an optional side file) in a temporary directory and reads it.
  static func read(_ text: String, name: String = "Products.storekit", entitlements: String? = nil) throws -> (Catalog?, [Diagnostic]) {
    try withTemporaryDirectory { dir in
      let file = try dir.write(name, text)
      if let entitlements {
        try dir.write(String(name.dropLast(".storekit".count)) + ".entitlements.json", entitlements)
      }
      let (root, diagnostics) = try SourceFile.parse(path: file)
      let catalog = StoreKitConfigurationReader.read(root, file: file, diagnostics: diagnostics)
      return (catalog, diagnostics.diagnostics)
    }
  }

  static func product(_ catalog: Catalog?, _ id: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> StoreProduct {
    try #require(catalog?.product(id: id), "no product \(id)", sourceLocation: sourceLocation)
  }

  // MARK: - Versions

  @Test func version1WithMinimalSettings() throws {
    let (catalog, diagnostics) = try Self.read(StoreKitFixtures.version1)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let c = try #require(catalog)
    // Products, then non-renewing subscriptions, then each group's subscriptions in file order.
    #expect(c.productIDs == ["com.example.coins", "com.example.unlock", "com.example.season",
                             "com.example.monthly", "com.example.yearly"])
    #expect(c.settings == StoreSettings())

    let coins = try Self.product(c, "com.example.coins")
    #expect(coins.kind == .consumable)
    #expect(coins.displayName == "100 Coins")
    #expect(coins.description == "A handful of coins")
    #expect(coins.price == Fixture.decimal("0.99"))
    #expect(coins.currencyCode == "USD")
    #expect(coins.locale == "en_US")
    #expect(coins.entitlements.isEmpty)
    #expect(coins.store == .appStore)

    let unlock = try Self.product(c, "com.example.unlock")
    #expect(unlock.kind == .nonConsumable)
    #expect(unlock.displayName == "Full Unlock")  // empty displayName falls back to the reference name
    #expect(unlock.familyShareable)
    #expect(unlock.entitlements == ["com.example.unlock"])

    let season = try Self.product(c, "com.example.season")
    #expect(season.kind == .nonRenewing)
    #expect(season.entitlements == ["com.example.season"])
    #expect(season.price == Fixture.decimal("19.99"))

    let monthly = try Self.product(c, "com.example.monthly")
    #expect(monthly.kind == .autoRenewable)
    #expect(monthly.subscriptionPeriod == SubscriptionPeriod(value: 1, unit: .month))
    #expect(monthly.groupLevel == 2)
    #expect(monthly.subscriptionGroup == "Premium")
    #expect(monthly.entitlements == ["Premium"])
    #expect(monthly.introductoryOffer == IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week)))
    #expect(monthly.attribute(.trialPeriodText) == "7-day")

    let yearly = try Self.product(c, "com.example.yearly")
    #expect(yearly.introductoryOffer == nil)  // `null` in version 1 files
    #expect(yearly.groupLevel == 1)
    #expect(yearly.entitlements == ["Premium"])

    // Ranked by groupNumber, not by file order.
    #expect(c.groups == [SubscriptionGroup(id: "20000001", name: "Premium",
                                           productIDs: ["com.example.yearly", "com.example.monthly"])])
  }

  @Test func version3SettingsStorefrontAndLocale() throws {
    let (catalog, diagnostics) = try Self.read(StoreKitFixtures.version3)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let c = try #require(catalog)
    #expect(c.settings == StoreSettings(storefront: "GBR", locale: "en_GB", timeRate: 6,
                                        askToBuyEnabled: true, billingGracePeriodEnabled: true))

    let monthly = try Self.product(c, "com.example.plus.monthly")
    #expect(monthly.currencyCode == "GBP")  // from the GBR storefront
    #expect(monthly.locale == "en_GB")
    #expect(monthly.displayName == "Monthly")  // the en_GB localization, not the first one
    #expect(monthly.description == "Plus, every month, in British")
    #expect(monthly.attribute(.price) == "£4.99")
    #expect(monthly.introductoryOffer == IntroductoryOffer(paymentMode: .payAsYouGo, period: SubscriptionPeriod(value: 1, unit: .month),
                                                           periodCount: 3, price: Fixture.decimal("0.99")))
    // Not free, yet a trial to the SDK (SK2StoreProduct.hasFreeTrial is introductoryOffer != nil).
    #expect(!monthly.introductoryOfferIsFree && monthly.hasFreeTrial)
    #expect(monthly.attribute(.trialPeriodPrice) == "£0.99")

    let annual = try Self.product(c, "com.example.plus.annual")
    #expect(annual.introductoryOffer == IntroductoryOffer(paymentMode: .payUpFront, period: SubscriptionPeriod(value: 6, unit: .month),
                                                          price: Fixture.decimal("19.99")))
    #expect(annual.attribute(.price) == "£39.99")
    #expect(annual.entitlements == ["Plus"])
    #expect(c.groups.first?.productIDs == ["com.example.plus.annual", "com.example.plus.monthly"])
  }

  @Test func version4WithStoreKitErrorsAndWinbackOffers() throws {
    let (catalog, diagnostics) = try Self.read(StoreKitFixtures.version4)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let c = try #require(catalog)
    #expect(c.productIDs == ["com.example.lifetime", "com.example.pro.weekly"])
    #expect(c.settings.storefront == "DEU")
    #expect(c.settings.locale == "de_DE")
    #expect(c.settings.timeRate == 0)
    #expect(!c.settings.askToBuyEnabled)

    let weekly = try Self.product(c, "com.example.pro.weekly")
    #expect(weekly.currencyCode == "EUR")
    #expect(weekly.displayName == "Wöchentlich")
    #expect(weekly.attribute(.price) == "2,99\u{A0}€")
    #expect(weekly.introductoryOffer == nil)  // a win-back offer is not an introductory offer
    #expect(weekly.subscriptionPeriod == SubscriptionPeriod(value: 1, unit: .week))

    let lifetime = try Self.product(c, "com.example.lifetime")
    // No localization for de_DE: the first one is used.
    #expect(lifetime.displayName == "Lifetime")
    #expect(lifetime.entitlements == ["com.example.lifetime"])
  }

  @Test func version5WithAppPoliciesAndKeyPair() throws {
    let (catalog, diagnostics) = try Self.read(StoreKitFixtures.version5)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let c = try #require(catalog)
    #expect(c.productIDs == ["com.example.premium.monthly", "com.example.premium.yearly"])
    let yearly = try Self.product(c, "com.example.premium.yearly")
    #expect(yearly.attribute(.price) == "$29.99")
    #expect(yearly.attribute(.trialPeriodText) == "3-day")
    #expect(yearly.hasFreeTrial)
    #expect(c.groups.first?.productIDs == ["com.example.premium.yearly", "com.example.premium.monthly"])
    #expect(!String(reflecting: c).contains(StoreKitFixtures.fakePrivateKey))
  }

  @Test func version6IsReadWithAWarning() throws {
    let text = StoreKitFixtures.version5.replacingOccurrences(of: "\"major\" : 5", with: "\"major\" : 6")
    let (catalog, diagnostics) = try Self.read(text)
    #expect(catalog?.products.count == 2)
    #expect(diagnostics.count == 1)
    let warning = try #require(diagnostics.first)
    #expect(warning.severity == .warning)
    #expect(warning.message == "format version 6.0 is outside the versions read here (1.x to 5.x); reading it as 5.x")
    #expect(warning.path?.description == "$.version")
    // At the version object's '{', near the end of the file.
    let versionLine = text.split(separator: "\n", omittingEmptySubsequences: false)
      .firstIndex { $0.contains("\"version\" : {") }.map { $0 + 1 }
    #expect(warning.location == Position(line: try #require(versionLine), column: 15))
  }

  @Test func version6LoadsAsACatalog() throws {
    try withTemporaryDirectory { dir in
      let file = try dir.write("Future.storekit",
                               StoreKitFixtures.version5.replacingOccurrences(of: "\"major\" : 5", with: "\"major\" : 6"))
      let catalog = try Catalog.load(path: file)
      #expect(catalog.products.count == 2)
    }
  }

  @Test func missingVersionIsAnError() throws {
    let (_, diagnostics) = try Self.read(#"{"products": []}"#)
    #expect(diagnostics.map(\.message) == ["missing 'version'; is this a StoreKit configuration file from Xcode?"])
    #expect(diagnostics.first?.severity == .error)
  }

  @Test func badTimeRateIsAnError() throws {
    let text = StoreKitFixtures.version5.replacingOccurrences(of: "\"_timeRate\" : 0", with: "\"_timeRate\" : \"fast\"")
    let (_, diagnostics) = try Self.read(text)
    #expect(diagnostics.map { "\($0.location) \($0.path?.description ?? "-") \($0.message)" } == [
      "27:19 $.settings._timeRate '_timeRate' must be a whole number (0 is real time)",
    ])
  }

  // MARK: - Entitlements

  @Test func sideFileOverridesDefaultEntitlements() throws {
    let map = """
      {
        "groups" : { "Premium" : ["pro"] },
        "products" : { "com.example.unlock" : ["pro", "lifetime"], "com.example.yearly" : ["pro", "yearly"] }
      }
      """
    let (catalog, diagnostics) = try Self.read(StoreKitFixtures.version1, name: "Shop.storekit", entitlements: map)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let c = try #require(catalog)
    #expect(try Self.product(c, "com.example.monthly").entitlements == ["pro"])  // by group
    #expect(try Self.product(c, "com.example.yearly").entitlements == ["pro", "yearly"])  // a product entry wins
    #expect(try Self.product(c, "com.example.unlock").entitlements == ["pro", "lifetime"])
    #expect(try Self.product(c, "com.example.season").entitlements == ["com.example.season"])  // unmapped: default
    #expect(try Self.product(c, "com.example.coins").entitlements.isEmpty)
  }

  @Test func sideFileMayNameAGroupByItsID() throws {
    let map = #"{"groups": {"20000001": ["vip"]}}"#
    let (catalog, _) = try Self.read(StoreKitFixtures.version1, name: "Shop.storekit", entitlements: map)
    #expect(try Self.product(catalog, "com.example.monthly").entitlements == ["vip"])
  }

  @Test func badSideFileIsReportedWithItsPosition() throws {
    let map = """
      {
        "groups" : { "Premium" : "pro" },
        "prodcts" : {}
      }
      """
    let (_, diagnostics) = try Self.read(StoreKitFixtures.version1, name: "Shop.storekit", entitlements: map)
    #expect(diagnostics.count == 2)
    #expect(diagnostics.allSatisfy { $0.file.hasSuffix("Shop.entitlements.json") })
    #expect(diagnostics.map(\.location) == [Position(line: 2, column: 28), Position(line: 3, column: 3)])
    #expect(diagnostics.map { $0.path?.description } == ["$.groups.Premium", "$.prodcts"])
    #expect(diagnostics.last?.message == "unknown key 'prodcts'; did you mean 'products'?")
  }

  // MARK: - Errors

  @Test func errorsHavePositionsPathsAndSuggestions() throws {
    let (catalog, diagnostics) = try Self.read(StoreKitFixtures.withErrors)
    let found = diagnostics.map { "\($0.location) \($0.path?.description ?? "-") \($0.message)" }
    #expect(found == [
      "3:5 $.products[0] missing 'displayPrice'",
      "17:43 $.subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod 'recurringSubscriptionPeriod' must be an ISO 8601 period such as \"P1M\"",
      "23:29 $.subscriptionGroups[0].subscriptions[1].introductoryOffer.paymentMode 'paymentMode' must be \"free\", \"payAsYouGo\" or \"payUpFront\", found \"fre\"; did you mean 'free'?",
    ])
    #expect(diagnostics.allSatisfy { $0.severity == .error })
    // The yearly subscription is still read, without the broken offer.
    #expect(catalog?.productIDs == ["com.example.yearly"])
  }

  @Test func privateKeyIsNeverPrinted() throws {
    let key = StoreKitFixtures.fakePrivateKey
    var descriptions: [String] = []
    // A file with validation errors.
    let (_, diagnostics) = try Self.read(StoreKitFixtures.withErrors)
    #expect(!diagnostics.isEmpty)
    descriptions += diagnostics.map(\.description)
    try withTemporaryDirectory { dir in
      // The same through the loaders.
      let file = try dir.write("Errors.storekit", StoreKitFixtures.withErrors)
      do throws(ValidationFailure) {
        _ = try Catalog.load(path: file)
        Issue.record("a .storekit with errors loaded")
      } catch {
        descriptions.append(error.description)
      }
      descriptions += ProjectLoader.load(path: file).diagnostics.map(\.description)
      // A key written across raw lines, as a PEM block: a syntax error inside the key's string.
      let pem = StoreKitFixtures.version5.replacingOccurrences(
        of: "\"\(key)\"", with: "\"-----BEGIN PRIVATE KEY-----\n\(key)\n-----END PRIVATE KEY-----\"")
      let pemFile = try dir.write("Pem.storekit", pem)
      let result = ProjectLoader.load(path: pemFile)
      #expect(result.errors.count == 1)
      #expect(result.errors.first?.message.hasPrefix("invalid JSON: unescaped line break") == true)
      descriptions += result.diagnostics.map(\.description)
      // An unterminated key string.
      let text = StoreKitFixtures.version5
      let truncated = String(text[..<text.range(of: key)!.upperBound])
      let truncatedFile = try dir.write("Cut.storekit", truncated)
      let cutResult = ProjectLoader.load(path: truncatedFile)
      #expect(cutResult.errors.first?.message == "invalid JSON: unterminated string (opened here)")
      descriptions += cutResult.diagnostics.map(\.description)
    }
    #expect(descriptions.count >= 5)
    for description in descriptions {
      #expect(!description.contains(key), "private key printed in: \(description)")
      #expect(!description.contains("MIGTAgEA"), "part of the private key printed in: \(description)")
    }
  }

  @Test func displayPricesAreFormatted() throws {
    let (catalog, _) = try Self.read(StoreKitFixtures.version1)
    let c = try #require(catalog)
    #expect(try Self.product(c, "com.example.monthly").attribute(.price) == "$4.99")
    #expect(try Self.product(c, "com.example.yearly").attribute(.price) == "$29.99")
    #expect(try Self.product(c, "com.example.yearly").attribute(.monthlyPrice) == "$2.49")
  }

  @Test func unknownStorefrontWarnsAndKeepsUSD() throws {
    let text = StoreKitFixtures.version5.replacingOccurrences(of: "\"_storefront\" : \"USA\"", with: "\"_storefront\" : \"GRB\"")
    let (catalog, diagnostics) = try Self.read(text)
    #expect(diagnostics.map(\.severity) == [.warning])
    #expect(diagnostics.first?.message.contains("unknown storefront 'GRB'; did you mean") == true)
    #expect(catalog?.products.first?.currencyCode == "USD")
  }

  /// Before: a JPY storefront's "4.99" loaded without a word and showed as ¥5 (the JSON catalog
  /// already warned about the same price).
  @Test func aPriceItsStorefrontsCurrencyCannotHaveIsAWarning() throws {
    let text = StoreKitFixtures.version5.replacingOccurrences(of: "\"_storefront\" : \"USA\"", with: "\"_storefront\" : \"JPN\"")
    let (catalog, diagnostics) = try Self.read(text)
    #expect(catalog?.products.first?.currencyCode == "JPY")
    let messages = diagnostics.filter { $0.severity == .warning }.map(\.message)
    #expect(messages.contains { $0.contains("'displayPrice' 4.99 has more decimals than JPY has no decimals; did you mean '5'?") }, "\(messages)")
    #expect(diagnostics.contains { $0.kind == .currencyDecimals }, "\(diagnostics)")
  }

  // MARK: - The bundled demo

  @Test func bundledStoreKitMatchesTheJSONCatalog() throws {
    let storekit = try Catalog.load(path: Fixture.bundled("acme.storekit"))
    let json = try Catalog.load(path: Fixture.bundled("catalog.json"))
    #expect(Set(storekit.productIDs) == Set(json.productIDs))
    #expect(storekit.productIDs.count == 6)
    #expect(storekit.settings.storefront == "USA")
    #expect(storekit.settings.locale == "en_US")
    for expected in json.products {
      let product = try #require(storekit.product(id: expected.id), "\(expected.id) missing from acme.storekit")
      #expect(product.displayName == expected.displayName, "\(expected.id)")
      #expect(product.description == expected.description, "\(expected.id)")
      #expect(product.price == expected.price, "\(expected.id)")
      #expect(product.currencyCode == expected.currencyCode, "\(expected.id)")
      #expect(product.locale == expected.locale, "\(expected.id)")
      #expect(product.kind == expected.kind, "\(expected.id)")
      #expect(product.subscriptionPeriod == expected.subscriptionPeriod, "\(expected.id)")
      #expect(product.groupLevel == expected.groupLevel, "\(expected.id)")
      #expect(product.entitlements == expected.entitlements, "\(expected.id)")
      #expect(product.hasFreeTrial == expected.hasFreeTrial, "\(expected.id)")
      // A 7-day trial is P1W in Xcode and P7D in our catalog: compare what a paywall shows.
      for attribute: ProductAttribute in [.price, .trialPeriodText, .trialPeriodDays, .trialPeriodPrice, .monthlyPrice, .period] {
        #expect(product.attribute(attribute) == expected.attribute(attribute), "\(expected.id) \(attribute)")
      }
      #expect(product.introductoryOffer?.paymentMode == expected.introductoryOffer?.paymentMode, "\(expected.id)")
      #expect(product.introductoryOffer?.price == expected.introductoryOffer?.price, "\(expected.id)")
      #expect(product.introductoryOffer?.periodCount == expected.introductoryOffer?.periodCount, "\(expected.id)")
      #expect(product.introductoryOffer?.totalPeriod.approximateDays == expected.introductoryOffer?.totalPeriod.approximateDays,
              "\(expected.id)")
      // Promotional, win-back and code offers, with their rules and a code's eligibility.
      #expect(Set(product.offers) == Set(expected.offers), "\(expected.id)")
    }
    #expect(storekit.groups.map(\.name) == ["Acme Pro"])
    #expect(storekit.groups.first?.productIDs == [
      "com.acme.pro.annual", "com.acme.pro.annual.winback", "com.acme.pro.monthly", "com.acme.pro.monthly.intro",
      "com.acme.pro.weekly",
    ])
  }
}
