import Foundation
import Testing
import PaywallModel

/// Custom store products (`"store": "custom"`, the SDK's `CustomStoreProduct` from 4.15.0) through
/// `Presenter.update` alone: who is asked to buy one, what the app's own call answers, and whose
/// trial it offers (`StoreKit/Transactions/TransactionManager.swift`, `PurchaseError.swift`,
/// `ProductPurchaserSK2.swift`, `ProductPurchaserSK1.swift`).
@Suite("Custom store products")
struct CustomStoreProductTests {
  static var projectDirectory: String {
    (Fixture.paywallsDirectory as NSString).deletingLastPathComponent + "/scenarios/projects/custom-products"
  }

  static func state(_ status: SubscriptionStatus = .inactive, controller: Bool, sdk: SDKVersion = .latest,
                    storeKit: StoreKitVersion = .storeKit2) throws -> PresentationState {
    let result = ProjectLoader.load(path: projectDirectory)
    var project = try #require(result.project, "\(result.diagnostics)")
    project.options.sdk = sdk
    project.options.storeKitVersion = storeKit
    var state = PresentationState(project: project, status: status, assignments: AssignmentBook(userID: "tester"))
    state.hasPurchaseController = controller
    return state
  }

  static func product(_ state: PresentationState, _ id: String = "web.pro.annual") throws -> StoreProduct {
    try #require(state.project.catalog.product(id: id))
  }

  static func asksToBuy(_ effects: [PresentationEffect]) -> Bool {
    effects.contains { if case .purchase = $0 { true } else { false } }
  }

  /// With no purchase controller a paywall's purchase of one fails before any purchaser is asked:
  /// `transaction_start`, `transaction_fail` with the SDK's text, the failure alert, no dismissal.
  @Test func withoutAControllerAPaywallPurchaseFails() throws {
    var state = try Self.state(controller: false)
    PresenterTests.send(.register(placement: "upgrade", params: [:]), &state)
    let effects = PresenterTests.send(.paywall(.purchase(slot: "primary")), &state)
    #expect(!Self.asksToBuy(effects))
    #expect(PresenterTests.events(effects) == ["transaction_start", "transaction_fail"])
    #expect(PresenterTests.emitted(effects).last?["message"]?.stringValue == "Unable to purchase this product.")
    #expect(state.session?.alert?.message == "Unable to purchase this product.")
    #expect(state.session?.isDismissed == false && state.session?.isBusy == false)
    // An App Store product on the same paywall still goes to the store.
    PresenterTests.send(.paywall(.dismissAlert), &state)
    #expect(Self.asksToBuy(PresenterTests.send(.paywall(.purchase(slot: "secondary")), &state)))
  }

  /// With the app's purchase controller a paywall's purchase of one reaches it.
  @Test func withAControllerAPaywallPurchaseReachesIt() throws {
    var state = try Self.state(controller: true)
    PresenterTests.send(.register(placement: "upgrade", params: [:]), &state)
    let effects = PresenterTests.send(.paywall(.purchase(slot: "primary")), &state)
    #expect(effects.contains(.purchase(try Self.product(state), slot: "primary")))
  }

  /// The app's own `purchase(product)` of one never reaches the controller: StoreKit 2's purchaser
  /// returns cancelled, StoreKit 1's fails `noSk1Product`; nothing is tracked. Without a
  /// controller: `transaction_start`, then the failure and its alert over the app.
  @Test func theAppsOwnCallNeverReachesTheController() throws {
    var sk2 = try Self.state(controller: true)
    let product = try Self.product(sk2)
    let answer2 = PresenterTests.send(.callPurchase(product), &sk2)
    #expect(!Self.asksToBuy(answer2) && sk2.call == nil)
    #expect(PresenterTests.events(answer2) == ["call.purchase"])
    #expect(PresenterTests.emitted(answer2).first?["result"]?.stringValue == "cancelled")

    var sk1 = try Self.state(controller: true, storeKit: .storeKit1)
    let answer1 = PresenterTests.send(.callPurchase(product), &sk1)
    #expect(!Self.asksToBuy(answer1) && sk1.callAlert == nil)
    #expect(PresenterTests.events(answer1) == ["call.purchase"])
    #expect(PresenterTests.emitted(answer1).first?["result"]?.stringValue == "failed")

    var none = try Self.state(controller: false)
    let failed = PresenterTests.send(.callPurchase(product), &none)
    #expect(!Self.asksToBuy(failed))
    #expect(PresenterTests.events(failed) == ["transaction_start", "transaction_fail", "call.purchase"])
    #expect(none.callAlert?.message == "Unable to purchase this product.")
  }

  /// `shouldObservePurchases`: from 4.1 the app's own call returns cancelled at once, asking no
  /// one and tracking nothing; on 4.0 it goes on, and with a controller `prepareToPurchase` then
  /// tracks `transaction_start` (it returns early only when not observing).
  @Test func observingPurchasesRefusesTheAppsOwnCallFrom41() throws {
    var state = try Self.state(controller: true)
    state.options.shouldObservePurchases = true
    let monthly = try Self.product(state, "com.acme.pro.monthly")
    let refused = PresenterTests.send(.callPurchase(monthly), &state)
    #expect(!Self.asksToBuy(refused) && state.call == nil)
    #expect(PresenterTests.events(refused) == ["call.purchase"])
    #expect(PresenterTests.emitted(refused).first?["result"]?.stringValue == "cancelled")

    var old = try Self.state(controller: true, sdk: try SDKVersion.parse("4.0").get())
    old.options.shouldObservePurchases = true
    let started = PresenterTests.send(.callPurchase(monthly), &old)
    #expect(PresenterTests.events(started) == ["transaction_start"])
    #expect(started.contains(.purchase(monthly, slot: "")))
  }

  /// Before 4.15 the SDK has no custom products: the label changes nothing.
  @Test func beforeSDK415ItIsAnyProduct() throws {
    var state = try Self.state(controller: true, sdk: try SDKVersion.parse("4.14").get())
    let product = try Self.product(state)
    #expect(PresenterTests.send(.callPurchase(product), &state).contains(.purchase(product, slot: "")))
    var store = try Self.state(controller: false, sdk: try SDKVersion.parse("4.14").get())
    PresenterTests.send(.register(placement: "upgrade", params: [:]), &store)
    #expect(Self.asksToBuy(PresenterTests.send(.paywall(.purchase(slot: "primary")), &store)))
  }

  /// Its trial follows the entitlement's history, not a subscription group: offered to a user who
  /// never had `pro`, not to one who had it and lost it, not while the status is unknown (the
  /// SDK's placeholder customer info), and never for a product that grants no entitlement.
  @Test func itsTrialFollowsTheEntitlementsHistory() throws {
    var state = try Self.state(controller: true)
    let product = try Self.product(state)
    #expect(state.introEligibility.isEligible(for: product))
    PresenterTests.send(.statusChanged(.active([Entitlement("pro")])), &state)
    PresenterTests.send(.statusChanged(.inactive), &state)
    #expect(!state.introEligibility.isEligible(for: product))
    let unknown = try Self.state(.unknown, controller: true)
    #expect(!unknown.introEligibility.isEligible(for: product))
    var granting = product
    granting.entitlements = []
    #expect(!IntroOfferEligibility(usedGroups: nil, decidesCustomProductsByEntitlements: true, entitlementHistory: []).isEligible(for: granting))
    #expect(IntroOfferEligibility(usedGroups: ["web.pro.annual"], decidesCustomProductsByEntitlements: true, entitlementHistory: []).isEligible(for: product))
    // Before 4.15 (and where no presenter decides: the store, render) it is any product's, by group.
    var old = try Self.state(controller: true, sdk: try SDKVersion.parse("4.14").get())
    PresenterTests.send(.statusChanged(.active([Entitlement("pro")])), &old)
    PresenterTests.send(.statusChanged(.inactive), &old)
    #expect(old.introEligibility.isEligible(for: product))
    #expect(!IntroOfferEligibility(usedGroups: ["web.pro.annual"]).isEligible(for: product))
  }
}
