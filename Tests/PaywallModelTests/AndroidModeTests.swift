import Foundation
import Testing
@testable import PaywallModel

/// Android mode: Superwall-Android 2.7.19's rules where they differ from Superwall-iOS, each
/// against the Kotlin file it follows (paths under `superwall/src/main/java/com/superwall/sdk/`).
@Suite("Android mode")
struct AndroidModeTests {
  static func android(_ extra: [Campaign] = [], status: SubscriptionStatus = .inactive) throws -> PresentationState {
    try SDKEventTests.state("2", status: status, campaigns: extra)
  }

  // MARK: - Choosing the SDK

  @Test func versionsOfEitherSDKAndTheirPlatform() throws {
    #expect(try SDKVersion.parse("2.7").get() == SDKVersion(platform: .android, major: 2, minor: 7))
    #expect(try SDKVersion.parse("2", platform: .android).get() == .android)
    let iosGivenAndroid = SDKVersion.parse("2.5", platform: .ios)
    #expect(iosGivenAndroid.failureMessage?.contains("is a Superwall-Android version") == true, "\(iosGivenAndroid)")
    #expect(SDKVersion.parse("4.2", platform: .android).failureMessage?.contains("choose the platform ios") == true)
    #expect(SDKVersion.parse("2.8").failureMessage?.contains("newer than 2.7") == true)
    #expect(SDKVersion.parse("1.5").failureMessage?.contains("1.x is not emulated") == true)
    // A leading zero names no release ("2.07" was read as 2.7).
    #expect(SDKVersion.parse("2.07").failureMessage == "'2.07' is not a release: minors have no leading zero; write 2.7")
    #expect(SDKVersion.parse("4.010").failureMessage == "'4.010' is not a release: minors have no leading zero; write 4.10")
    #expect(try SDKVersion.parse("2.0").get() == SDKVersion(platform: .android, major: 2, minor: 0))
    #expect(SDKVersion.parse("5", platform: .android).failureMessage == "'5' is not an SDK version; use 2 (the latest 2.x) or 2.N (2.0 to 2.7)")
  }

  @Test func thePlatformAndVersionGivenOverTheProjects() throws {
    #expect(try SDKVersion.resolve(project: .latest, platform: .android, given: nil).get() == .android)
    #expect(try SDKVersion.resolve(project: .android, platform: nil, given: nil).get() == .android)
    #expect(try SDKVersion.resolve(project: .android, platform: .ios, given: nil).get() == .latest)
    let v25 = try SDKVersion.parse("2.5").get()
    #expect(try SDKVersion.resolve(project: .android, platform: nil, given: v25).get() == v25)
    let mismatch = SDKVersion.resolve(project: .latest, platform: nil, given: v25)
    #expect(mismatch.failureMessage?.contains("give --platform android") == true, "\(mismatch)")
    #expect(SDKVersion.resolve(project: .latest, platform: .android, given: .v3).failureMessage?.contains("--platform android is not") == true)
  }

  @Test func appJsonChoosesThePlatformAndItsOptions() throws {
    let loaded = try Self.loadProject(#"{"platform": "android", "sdk": "2.6", "useMockReviews": true}"#)
    #expect(loaded.project?.options.sdk == SDKVersion(platform: .android, major: 2, minor: 6))
    #expect(loaded.warnings.contains { $0.message.contains("'useMockReviews'") && $0.message.contains("no effect") }, "\(loaded.diagnostics)")
    let iosKey = try Self.loadProject(#"{"platform": "android", "storeKitVersion": "storeKit1"}"#)
    #expect(iosKey.errors.contains { $0.message.contains("an option of Superwall-iOS") && $0.message.contains("remove the key") }, "\(iosKey.diagnostics)")
    let androidKey = try Self.loadProject(#"{"useMockReviews": true}"#)
    #expect(androidKey.errors.contains { $0.message.contains("an option of Superwall-Android") && $0.message.contains("'platform'") },
            "\(androidKey.diagnostics)")
    let wrongVersion = try Self.loadProject(#"{"sdk": "2.7"}"#)
    #expect(wrongVersion.errors.contains { $0.message.contains("choose the platform android") }, "\(wrongVersion.diagnostics)")
  }

  /// `validate` warns of a `device` key the project's SDK does not have: missing there, a
  /// comparison with it never holds. Before, the filter was accepted in silence.
  @Test(arguments: [(#"{"sdk": "4.9"}"#, "customerInfo"), (#"{"sdk": "3"}"#, "activeEntitlementObjects"),
                    (#"{"platform": "android"}"#, "customerInfo"), (#"{}"#, nil)])
  func aDeviceKeyTheSDKLacksIsWarnedAbout(options: String, warned: String?) throws {
    let campaigns = #"[{"placement": "p", "audiences": [{"filter": "size(device.customerInfo.entitlements) == 0 && size(device.activeEntitlementObjects) == 0", "paywall": "p"}]}]"#
    let androids = #"[{"placement": "p", "audiences": [{"filter": "size(device.activeEntitlementsObject) == 0", "paywall": "p"}]}]"#
    let onIOS = try Self.loadProject("{}", campaigns: androids).warnings.map(\.message)
    #expect(onIOS.contains { $0.hasPrefix("filter: device.activeEntitlementsObject is Superwall-Android's") }, "\(onIOS)")
    let onAndroid = try Self.loadProject(#"{"platform": "android"}"#, campaigns: androids).warnings.map(\.message)
    #expect(!onAndroid.contains { $0.contains("is missing") }, "\(onAndroid)")
    let loaded = try Self.loadProject(options, campaigns: campaigns)
    let found = loaded.warnings.filter { $0.message.contains("is missing") }.map(\.message)
    if let warned {
      #expect(found.contains { $0.hasPrefix("filter: device.\(warned) ") }, "\(found)")
    } else {
      #expect(found.isEmpty, "\(found)")
    }
  }

  static func loadProject(_ options: String, campaigns: String = "[]") throws -> ProjectLoadResult {
    try withTemporaryDirectory { directory in
      _ = try directory.write("catalog.json", #"{"products": [{"id": "pro", "name": "Pro", "price": "9.99", "period": "P1M"}]}"#)
      _ = try directory.write("p.json", #"{"id": "p", "name": "P", "products": {"primary": "pro"}, "components": [{"type": "title", "text": "Pro"}]}"#)
      let app = try directory.write("app.json", #"{"name": "A", "catalog": "catalog.json", "paywalls": ["p.json"], "campaigns": \#(campaigns), "options": \#(options)}"#)
      return ProjectLoader.load(path: (app as NSString).deletingLastPathComponent)
    }
  }

  /// Superwall-Android's device template (`network/device/DeviceHelper.kt`): `platform` is
  /// "Android", and the active entitlements are `activeEntitlementsObject`, each `{identifier, type}`;
  /// iOS's `activeEntitlementObjects` is not there.
  @Test func audiencesReadAndroidsDeviceTemplate() throws {
    let filter = try AudienceFilter(parsing: #"device.platform == "Android" && device.activeEntitlementsObject[0].identifier == "pro""#)
    let iosOnly = try AudienceFilter(parsing: #"size(device.activeEntitlementObjects) > 0"#)
    var state = try Self.android(status: .active([Entitlement("pro")]))
    #expect(filter.evaluate(state.filterContext))
    #expect(!iosOnly.evaluate(state.filterContext))
    state.options.sdk = .latest
    #expect(!filter.evaluate(state.filterContext))
    #expect(iosOnly.evaluate(state.filterContext))
  }

  // MARK: - Events (analytics/internal/trackable/TrackableSuperwallEvent.kt)

  @Test func theStatusChangeIsLowerCaseWithItsEntitlements() throws {
    var state = try Self.android()
    let active = PresenterTests.send(.statusChanged(.active([Entitlement("pro"), Entitlement("lifetime")])), &state)
    #expect(SDKEventTests.params(SDKEventTests.first("subscriptionStatus_didChange", active))
            == ["subscription_status=active", "active_entitlement_ids=lifetime,pro"])
    let inactive = PresenterTests.send(.statusChanged(.inactive), &state)
    #expect(SDKEventTests.params(SDKEventTests.first("subscriptionStatus_didChange", inactive)) == ["subscription_status=inactive"])
  }

  @Test func noMatchNamesNoAudienceAndTheTimeoutIsSnakeCase() throws {
    var state = try Self.android(status: .active([Entitlement("pro")]))
    let noMatch = PresenterTests.send(.register(placement: "onboarding", params: [:]), &state)
    #expect(SDKEventTests.params(SDKEventTests.first("trigger_fire", noMatch)) == ["trigger_name=onboarding", "result=no_rule_match"])
    var waiting = try Self.android(status: .unknown)
    let wait = PresenterTests.send(.register(placement: "onboarding", params: [:]), &waiting)
    guard case .scheduleStatusTimeout(let id, _)? = wait.first else {
      Issue.record("no timeout scheduled: \(wait)")
      return
    }
    let timedOut = PresenterTests.send(.statusTimedOut(registrationID: id), &waiting)
    #expect(SDKEventTests.first("paywallPresentationRequest", timedOut)?["status_reason"] == "subscription_status_timeout")
  }

  @Test func transactionsCarryTheStoreAndSourceAndTheCloseNoReason() throws {
    var state = try Self.android()
    PresenterTests.send(.register(placement: "onboarding", params: [:]), &state)
    let start = PresenterTests.send(.paywall(.purchase(slot: nil)), &state)
    let started = try #require(SDKEventTests.first("transaction_start", start))
    #expect(started["store"] == "PLAY_STORE" && started["source"] == "SUPERWALL")
    let done = PresenterTests.send(.purchaseFinished(.purchased), &state)
    let complete = try #require(SDKEventTests.first("transaction_complete", done))
    #expect(complete["store"] == "PLAY_STORE" && complete["source"] == "SUPERWALL" && complete["transaction_type"] == nil)
    let close = try #require(SDKEventTests.first("paywall_close", done))
    #expect(close["close_reason"] == nil && close["survey_attached"] != nil, "\(close.params)")
    // Every parameter is in the event reference.
    for event in PresenterTests.emitted(start + done) { #expect(EventReference.undocumented(in: event).isEmpty, "\(event.name)") }
  }

  /// `PurchaseResult.Failed` carries a message: a StoreKit cancel error is a failure with that
  /// message, tracked `transaction_fail` with the alert (`TransactionManager.kt`).
  @Test func aStoreKitCancelErrorIsAPlainFailure() throws {
    var session = PaywallFlowTests.open()
    let options = PaywallOptions(sdk: .android)
    _ = PaywallFlow.handle(.purchase(slot: "primary"), in: &session, options: options)
    let failed = PaywallFlow.purchaseFinished(.failed(StoreError.userCancelled), in: &session, options: options)
    #expect(PaywallFlowTests.names(failed) == ["transaction_fail"])
    #expect(SDKEventTests.flowEvent("transaction_fail", failed)?["message"] == "userCancelled")
    #expect(session.alert?.kind == .purchaseFailed)
  }

  /// The app's own `purchase(product)` shows no alert on Android (`presentAlert` is for a
  /// paywall's purchase) and is tracked with `source` APP.
  @Test func theAppsOwnFailedPurchaseShowsNoAlert() throws {
    var state = try Self.android()
    state.hasPurchaseController = false  // Superwall-Android's own purchaser
    let product = try #require(state.project.catalog.product(id: "com.acme.pro.annual"))
    let start = PresenterTests.send(.callPurchase(product), &state)
    #expect(SDKEventTests.first("transaction_start", start)?["source"] == "APP")
    let failed = PresenterTests.send(.purchaseFinished(.failed(PurchaseError("Card declined"))), &state)
    #expect(SDKEventTests.first("transaction_fail", failed)?["store"] == "PLAY_STORE")
    #expect(state.callAlert == nil)
    PresenterTests.send(.callPurchase(product), &state)
    PresenterTests.send(.purchaseFinished(.pending), &state)
    #expect(state.callAlert == nil, "the pending alert is a paywall's too")
  }

  /// `tryToRestorePurchases`: a failure quotes its error ("null" with none); a restore with no
  /// active status says the status is "inactive", as iOS 3.x words it.
  @Test func theRestoreFailureIsWordedAsTheKotlinWordsIt() {
    let android = SDKVersion.android
    #expect(SDKEvents.restoreFailMessage(.failed(PurchaseError("No purchases")), sdk: android)
            == "Transactions Failed to Restore. Original restoration error message: No purchases")
    #expect(SDKEvents.restoreFailMessage(.failed(nil), sdk: android) == "Transactions Failed to Restore. Original restoration error message: null")
    #expect(SDKEvents.restoreFailMessage(.restored, sdk: android).contains(#"subscription status is "inactive""#))
  }

  // MARK: - Chaining (analytics/internal/TrackingLogic.kt, Tracking.kt)

  /// `TrackingLogicTest`'s "allows chaining different exit offer events": a paywall an abandon
  /// presented still chains on a decline; on iOS it ends the chain. "blocks duplicate exit offer
  /// event from same type": it never chains on another abandon.
  @Test(arguments: [SDKVersion.android, SDKVersion.latest])
  func anAbandonsPaywallChainsOnADeclineOnlyOnAndroid(sdk: SDKVersion) throws {
    var project = try PresenterTests.demoProject()
    project.options.sdk = sdk
    project.campaigns = [
      Campaign(placement: "start", audiences: [Audience(filter: nil, outcome: .paywalls([.init(paywallID: "plans", percent: 100)], holdout: 0))]),
      Campaign(placement: "transaction_abandon", audiences: [Audience(filter: nil, outcome: .paywalls([.init(paywallID: "onboarding", percent: 100)], holdout: 0))]),
      Campaign(placement: "paywall_decline", audiences: [Audience(filter: nil, outcome: .paywalls([.init(paywallID: "winback", percent: 100)], holdout: 0))]),
    ]
    var state = PresentationState(project: project, status: .inactive, assignments: AssignmentBook(userID: "tester"))
    PresenterTests.send(.register(placement: "start", params: [:]), &state)
    PresenterTests.send(.paywall(.purchase(slot: nil)), &state)
    PresenterTests.send(.purchaseFinished(.cancelled), &state)
    #expect(state.session?.id == "onboarding")
    PresenterTests.send(.paywall(.purchase(slot: nil)), &state)
    let again = PresenterTests.send(.purchaseFinished(.cancelled), &state)
    #expect(!PresenterTests.events(again).contains("paywall_open"), "the same exit event never chains twice")
    PresenterTests.send(.paywall(.close), &state)
    #expect(state.session?.id == (sdk.platform == .android ? "winback" : nil))
  }

  /// T79 on Android: the replacement keeps its own gating (the implicit trigger presents with no
  /// `PaywallOverrides`), so closing the non-gated replacement runs the feature; iOS's replacement
  /// takes the gated first paywall's and does not.
  @Test(arguments: [SDKVersion.android, SDKVersion.latest])
  func theReplacementKeepsItsOwnGatingOnAndroid(sdk: SDKVersion) throws {
    var project = try PresenterTests.demoProject()
    project.options.sdk = sdk
    project.campaigns = [
      Campaign(placement: "start", audiences: [Audience(filter: nil, outcome: .paywalls([.init(paywallID: "plans", percent: 100)], holdout: 0))]),
      Campaign(placement: "paywall_decline", audiences: [Audience(filter: try AudienceFilter(parsing: #"params.paywall_id == "plans""#),
                                                                  outcome: .paywalls([.init(paywallID: "onboarding", percent: 100)], holdout: 0))]),
    ]
    #expect(project.paywall(id: "plans")?.featureGating == .gated && project.paywall(id: "onboarding")?.featureGating == .nonGated)
    var state = PresentationState(project: project, status: .inactive, assignments: AssignmentBook(userID: "tester"))
    PresenterTests.send(.register(placement: "start", params: [:]), &state)
    PresenterTests.send(.paywall(.close), &state)
    #expect(state.session?.id == "onboarding")
    let closed = PresenterTests.send(.paywall(.close), &state)
    #expect(PresenterTests.events(closed).contains("feature.run") == (sdk.platform == .android), "\(PresenterTests.events(closed))")
  }

  // MARK: - Deep links (deeplinks/DeepLinkRouter.kt)

  @Test func aDeepLinkIsTrackedAsGivenAndHandledOnlyWhenRedeemOrDebug() {
    let universal = "https://myapp.superwall.app/app-link/promo?d=1"
    #expect(DeepLinks.route(universal, sdk: .android, hasCampaign: true).tracked == universal)
    #expect(DeepLinks.route(universal, sdk: .android, hasCampaign: true).handled == false)
    let redeem = DeepLinks.route("https://myapp.superwall.app/app-link/superwall/redeem?code=ABC", sdk: .android, hasCampaign: false)
    #expect(redeem.handled && redeem.tracked != nil)
  }

  // MARK: - Trial reminders (DependencyContainer.kt, NotificationScheduler.kt)

  @Test func remindersFollowAnySubscriptionAndAreNamedByPaywall() throws {
    var session = PaywallFlowTests.open(trialEligible: false)
    let options = PaywallOptions(sdk: .android)
    session.paywall.definition.localNotifications = [LocalNotification(title: "T", body: "B", delayMs: 1000)]
    _ = PaywallFlow.handle(.purchase(slot: "primary"), in: &session, options: options)
    let done = PaywallFlow.purchaseFinished(.purchased, in: &session, options: options)
    #expect(done.contains { if case .scheduleNotifications = $0 { true } else { false } }, "a paid start schedules them on Android")
    var ios = PaywallFlowTests.open(trialEligible: false)
    ios.paywall.definition.localNotifications = session.paywall.definition.localNotifications
    _ = PaywallFlow.handle(.purchase(slot: "primary"), in: &ios, options: PaywallOptions())
    let iosDone = PaywallFlow.purchaseFinished(.purchased, in: &ios, options: PaywallOptions())
    #expect(!iosDone.contains { if case .scheduleNotifications = $0 { true } else { false } })
  }

  // MARK: - The purchase controller (delegate/subscription_controller/PurchaseController.kt)

  @Test func theControllerGetsThePlayProductItsBasePlanAndOffer() throws {
    let catalog = try PlayCatalogReaderTests.example()
    let product = try #require(catalog.storeProduct(paywallProductID: "acme_pro:annual:sw-auto"))
    let fields = Dictionary(uniqueKeysWithValues: product.androidControllerFields(reading: .typed).map { ($0.0, $0.1) })
    #expect(fields["basePlanId"] == "annual")
    #expect(fields["offerId"]?.stringValue != nil, "the free week's offer: \(fields["offerId"]?.text ?? "nil")")
    let details = try #require(fields["productDetails"]?.text)
    #expect(details.contains(#""productId":"acme_pro""#) && details.contains(#""productType":"subs""#) && details.contains(#""pricingPhases":[{"#))
    // A product of our own catalog is described as Play would list it.
    let ours = JSONOutput.object(TestCatalog.annual.androidControllerFields(reading: .typed)).text
    #expect(ours.contains(#""basePlanId":null"#) && ours.contains(#""billingPeriod":"P1Y""#), "\(ours)")
  }

  @Test func aConfigsPlayProductsAreKeptOnAndroidAndItsAppStoreOnesSkipped() throws {
    let text = SuperwallImportTests.sdkExcerpt
    let root = try JSONParser.parse(text)
    let collector = DiagnosticCollector(file: "config.json", source: Array(text.utf8))
    let catalog = Catalog(products: [StoreProduct(id: "com.ui_tests.quarterly2:test-2:sw-none", displayName: "Q", price: 9.99, kind: .autoRenewable,
                                                  subscriptionPeriod: SubscriptionPeriod(value: 3, unit: .month), store: .playStore)],
                          file: "catalog.json")
    let (imported, diagnostics) = SuperwallImporter.importConfig(root: root, collector: collector, catalog: catalog,
                                                                 catalogReference: "catalog.json", name: "t", sdk: .android)
    let project = try #require(imported, "\(diagnostics.map(\.description))")
    let slots = project.paywalls.flatMap(\.origin.products).map(\.productID)
    #expect(slots.contains("com.ui_tests.quarterly2:test-2:sw-none"), "\(slots)")
    #expect(!slots.contains("sk.superwall.annual.89.99_7"))
    #expect(diagnostics.contains { $0.message.contains("Superwall-Android sells only PLAY_STORE") })

    // A base plan of the wrong type fails the product's decoding: skipped and said, never sold
    // as the bare product id (which it was, in silence).
    let wrong = text.replacingOccurrences(of: #""base_plan_identifier": "test-2""#, with: #""base_plan_identifier": 5"#)
    #expect(wrong != text)
    let (imported2, diagnostics2) = SuperwallImporter.importConfig(root: try JSONParser.parse(wrong),
                                                                   collector: DiagnosticCollector(file: "config.json", source: Array(wrong.utf8)),
                                                                   catalog: catalog, catalogReference: "catalog.json", name: "t", sdk: .android)
    let slots2 = try #require(imported2).paywalls.flatMap(\.origin.products).map(\.productID)
    #expect(!slots2.contains { $0.hasPrefix("com.ui_tests.quarterly2") }, "\(slots2)")
    #expect(diagnostics2.contains { $0.message.contains("product skipped") && $0.message.contains("base_plan_identifier") },
            "\(diagnostics2.map(\.description))")
  }

  /// A paywall whose products are only in `products_v3`: each SDK's reading is said, and the
  /// paywall is imported without products (it was imported so without a word).
  @Test func aPaywallWithOnlyProductsV3SaysWhatEachSDKSells() throws {
    let text = SuperwallImportTests.sdkExcerpt.replacingOccurrences(of: #""products_v2": ["#, with: #""products_v3": ["#)
    #expect(text != SuperwallImportTests.sdkExcerpt)
    func warning(_ sdk: SDKVersion) throws -> String? {
      let collector = DiagnosticCollector(file: "config.json", source: Array(text.utf8))
      let (_, diagnostics) = SuperwallImporter.importConfig(root: try JSONParser.parse(text), collector: collector, catalog: Catalog(products: [], file: "c.json"),
                                                            catalogReference: "c.json", name: "t", sdk: sdk)
      return diagnostics.first { $0.message.contains("'products_v3'") }?.message
    }
    let android = try #require(try warning(.android))
    #expect(android.contains("only in 'products_v3'") && android.contains("CrossplatformProductSerializer"), "\(android)")
    let old = try #require(try warning(try SDKVersion.parse("2.5", platform: .android).get()))
    #expect(old.contains("does not read 'products_v3' (2.6.0 does)"), "\(old)")
    let ios = try #require(try warning(.latest))
    #expect(ios.contains("Superwall-iOS reads a paywall's products from 'products_v2' only"), "\(ios)")
  }

  /// A Play price too large for Play Billing's micros is an error at its units, not a free product.
  @Test func aPriceBeyondPlaysMicrosIsRefused() throws {
    let text = try PlayCatalogProjectTests.example().replacingOccurrences(of: #""units": "59""#, with: #""units": "9223372036854""#)
    let (catalog, diagnostics) = try PlayCatalogProjectTests.catalog(text)
    #expect(catalog?.product(id: "acme_pro:annual") == nil, "the plan is not sold at 0")
    #expect(diagnostics.contains { $0.message.hasPrefix("'units' 9223372036854 is beyond what Play Billing carries") }, "\(diagnostics.map(\.message))")
  }
}

extension Result where Failure == SDKVersionError {
  var failureMessage: String? {
    if case .failure(let error) = self { error.message } else { nil }
  }
}
