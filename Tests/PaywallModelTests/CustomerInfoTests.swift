import Foundation
import Testing
@testable import PaywallModel

/// `device.customerInfo` and `device.activeEntitlementObjects` built from the simulated store's
/// subscriptions as the SDK encodes `CustomerInfo` (`EntitlementProcessor.swift`): keys left out
/// for nil, dates as seconds since 2001.
@Suite struct CustomerInfoTests {
  static func fields(_ value: FilterValue?) -> [String: FilterValue] {
    if case .map(let fields)? = value { return fields }
    return [:]
  }

  static func list(_ value: FilterValue?) -> [FilterValue] {
    if case .list(let items)? = value { return items }
    return []
  }

  static func entitlement(_ info: FilterValue, _ id: String) -> [String: FilterValue] {
    fields(list(fields(info)["entitlements"]).first { fields($0)["identifier"] == .string(id) })
  }

  /// A trial: `offerType` `trial`, `state` `subscribed`, renewing; cancelled, `willRenew` false;
  /// expired, inactive with `state` `expired` and no active entitlement object.
  @Test func aTrialThroughCancelAndExpiry() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.annual)
    var info = CustomerInfoValue.make(subscriptions: store.derived.subscriptions, status: rig.status.status, catalog: rig.catalog)
    var pro = Self.entitlement(info.customerInfo, "pro")
    #expect(pro["isActive"] == .bool(true) && pro["offerType"] == .string("trial") && pro["state"] == .string("subscribed"), "\(pro)")
    #expect(pro["willRenew"] == .bool(true) && pro["latestProductId"] == .string("com.acme.pro.annual"))
    #expect(pro["productIds"] == .list(["com.acme.pro.annual", "com.acme.pro.lifetime", "com.acme.pro.monthly", "com.acme.pro.weekly"].map { .string($0) }))
    let expiry = try #require(store.subscription("com.acme.pro.annual")?.expirationDate)
    #expect(pro["expiresAt"] == .number(Decimal(expiry.timeIntervalSinceReferenceDate)))
    #expect(pro["renewedAt"] == nil && pro["isLifetime"] == .bool(false))
    let subscription = Self.fields(Self.list(Self.fields(info.customerInfo)["subscriptions"]).first)
    #expect(subscription["offerType"] == .string("trial") && subscription["subscriptionGroupId"] == .string("pro"), "\(subscription)")
    #expect(Self.list(info.activeEntitlementObjects).count == 1)
    #expect(store.cancel(productID: TestCatalog.annual.id))
    info = CustomerInfoValue.make(subscriptions: store.derived.subscriptions, status: rig.status.status, catalog: rig.catalog)
    #expect(Self.entitlement(info.customerInfo, "pro")["willRenew"] == .bool(false))
    rig.advance(store, by: days(8))
    info = CustomerInfoValue.make(subscriptions: store.derived.subscriptions, status: rig.status.status, catalog: rig.catalog)
    pro = Self.entitlement(info.customerInfo, "pro")
    #expect(pro["isActive"] == .bool(false) && pro["state"] == .string("expired"), "\(pro)")
    #expect(Self.list(info.activeEntitlementObjects).isEmpty)
  }

  /// A lifetime purchase: `isLifetime`, active, no `expiresAt`, `state` or `offerType`; a
  /// non-subscription item.
  @Test func aLifetimePurchase() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.lifetime)
    let info = CustomerInfoValue.make(subscriptions: store.derived.subscriptions, status: rig.status.status, catalog: rig.catalog)
    let lifetime = Self.entitlement(info.customerInfo, "lifetime")
    #expect(lifetime["isLifetime"] == .bool(true) && lifetime["isActive"] == .bool(true), "\(lifetime)")
    #expect(lifetime["expiresAt"] == nil && lifetime["state"] == nil && lifetime["offerType"] == nil)
    #expect(Self.list(Self.fields(info.customerInfo)["nonSubscriptions"]).count == 1)
  }

  /// With a purchase controller: the status's entitlements as `Entitlement(id:)` makes them.
  @Test func aControllersStatusIsEntitlementsOnly() {
    let info = CustomerInfoValue.make(subscriptions: nil, status: .active([Entitlement("pro")]), catalog: TestCatalog.catalog)
    #expect(info.activeEntitlementObjects == .list([.map(["identifier": .string("pro"), "type": .string("SERVICE_LEVEL"),
                                                          "isActive": .bool(true), "productIds": .list([]), "store": .string("APP_STORE")])]))
    #expect(Self.fields(info.customerInfo)["isPlaceholder"] == .bool(false))
  }

  /// Audiences read them from the SDK that has them: `customerInfo` from 4.10, the objects from 4.0.
  @Test func theSDKVersionDecidesWhetherTheyAreThere() throws {
    var state = try PresenterTests.home(.active([Entitlement("pro")]))
    #expect(state.filterContext.customerInfo != nil && state.filterContext.activeEntitlementObjects != nil)
    state.options.sdk = SDKVersion(major: 4, minor: 9)
    #expect(state.filterContext.customerInfo == nil && state.filterContext.activeEntitlementObjects != nil)
    state.options.sdk = .v3
    #expect(state.filterContext.activeEntitlementObjects == nil)
  }
}
