#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `device.customerInfo` and `device.activeEntitlementObjects` as the SDK's audience filters read
/// them (`Paywall/View Controller/Web View/Templating/Models/DeviceTemplate.swift`): the
/// `CustomerInfo` (`Models/Customer Info/CustomerInfo.swift`) encoded as JSON, a nil key left out
/// (`encodeIfPresent`), dates as seconds since 2001 (the encoder's default).
///
/// - From the simulated store: one `subscriptions` item per subscription, its current transaction
///   (earlier renewals are not listed); `nonSubscriptions` the one-time purchases; `entitlements`
///   as `StoreKit/Products/Receipt Manager/EntitlementProcessor.swift` builds them: `productIds`
///   every catalog product granting it, a non-revoked non-consumable makes it lifetime
///   (`isLifetime`, no `expiresAt`, `state` or `offerType`), else the most recent subscription
///   gives `latestProductId`, `willRenew`, `state` (`LatestSubscription.State`) and `offerType`
///   (`trial` for any introductory offer, `promotional`, `winback`, `code`); `isActive` is some
///   active subscription, false once the most recent is expired or revoked; `expiresAt` the latest
///   expiry. `startsAt` and `renewedAt` are left out (the ledger's original purchase dates are not
///   handed to the presenter).
/// - With a purchase controller (`CustomerInfo.forExternalPurchaseController`): the status's
///   entitlements as `Entitlement(id:)` makes them (`isActive`, `store` `APP_STORE`, nothing
///   else), no transactions (the device's StoreKit history is not known here).
///
/// `activeEntitlementObjects` is the active entitlements (`EntitlementsInfo.swift`).
package enum CustomerInfoValue {
  package static func make(subscriptions: [StoreSubscription]?, status: SubscriptionStatus, catalog: Catalog)
    -> (customerInfo: FilterValue, activeEntitlementObjects: FilterValue) {
    guard let subscriptions else {
      let entitlements = status.entitlements.map(\.id).sorted().map { id -> FilterValue in
        .map(["identifier": .string(id), "type": .string("SERVICE_LEVEL"), "isActive": .bool(true), "productIds": .list([]),
              "store": .string("APP_STORE")])
      }
      let info: FilterValue = .map(["subscriptions": .list([]), "nonSubscriptions": .list([]), "entitlements": .list(entitlements),
                                    "isPlaceholder": .bool(status == .unknown)])
      return (info, .list(entitlements))
    }
    let renewables = subscriptions.filter { $0.kind?.isSubscription ?? true }
    let oneTime = subscriptions.filter { !($0.kind?.isSubscription ?? true) }
    var ids = Set<String>()
    for subscription in subscriptions where subscription.state != .consumed { ids.formUnion(subscription.entitlements.map(\.id)) }
    let entitlements = ids.sorted().map { entitlement(id: $0, subscriptions: subscriptions, catalog: catalog) }
    let info: FilterValue = .map([
      "subscriptions": .list(renewables.map(subscriptionItem)),
      "nonSubscriptions": .list(oneTime.map(oneTimeItem)),
      "entitlements": .list(entitlements),
      "isPlaceholder": .bool(false),
    ])
    let active = entitlements.filter { if case .map(let fields) = $0 { fields["isActive"] == .bool(true) } else { false } }
    return (info, .list(active))
  }

  static func date(_ date: Date) -> FilterValue { .number(Decimal(date.timeIntervalSinceReferenceDate)) }

  /// `LatestSubscription.OfferType`: any introductory offer (a paid one too) is `trial`.
  static func offerType(_ subscription: StoreSubscription) -> FilterValue? {
    guard subscription.offer != nil else { return nil }
    return switch subscription.offerType ?? .introductory {
    case .introductory: .string("trial")
    case .promotional: .string("promotional")
    case .winBack: .string("winback")
    case .code: .string("code")
    }
  }

  static func subscriptionItem(_ s: StoreSubscription) -> FilterValue {
    var fields: [String: FilterValue] = [
      "transactionId": .string(String(s.transactionID)), "productId": .string(s.productID), "purchaseDate": date(s.periodStart),
      "willRenew": .bool(s.autoRenew && s.isLive), "isRevoked": .bool(s.state == .revoked),
      "isInGracePeriod": .bool(s.state == .inGracePeriod), "isInBillingRetryPeriod": .bool(s.state == .inBillingRetryPeriod),
      "isActive": .bool(s.isActive), "store": .string("APP_STORE"),
    ]
    if let expiration = s.expirationDate { fields["expirationDate"] = date(expiration) }
    if let offer = offerType(s) { fields["offerType"] = offer }
    if let group = s.group { fields["subscriptionGroupId"] = .string(group) }
    return .map(fields)
  }

  static func oneTimeItem(_ s: StoreSubscription) -> FilterValue {
    .map(["transactionId": .string(String(s.transactionID)), "productId": .string(s.productID), "purchaseDate": date(s.periodStart),
          "isConsumable": .bool(s.kind == .consumable), "isRevoked": .bool(s.state == .revoked), "store": .string("APP_STORE")])
  }

  static func entitlement(id: String, subscriptions: [StoreSubscription], catalog: Catalog) -> FilterValue {
    let granting = subscriptions.filter { $0.entitlements.contains { $0.id == id } && $0.state != .consumed }
    let productIDs = catalog.products.filter { $0.entitlements.contains { $0.id == id } }.map(\.id).sorted()
    var fields: [String: FilterValue] = [
      "identifier": .string(id), "type": .string("SERVICE_LEVEL"), "productIds": .list(productIDs.map { .string($0) }),
      "store": .string("APP_STORE"),
    ]
    if let lifetime = granting.first(where: { $0.kind == .nonConsumable && $0.state != .revoked }) {
      fields["isLifetime"] = .bool(true)
      fields["isActive"] = .bool(true)
      fields["latestProductId"] = .string(lifetime.productID)
      fields["willRenew"] = .bool(false)
      return .map(fields)
    }
    let renewables = granting.filter { $0.kind?.isSubscription ?? true }
    fields["isLifetime"] = .bool(false)
    guard let recent = renewables.max(by: { $0.periodStart < $1.periodStart }) else {
      fields["isActive"] = .bool(false)
      fields["willRenew"] = .bool(false)
      return .map(fields)
    }
    let ended = recent.state == .expired || recent.state == .revoked
    fields["isActive"] = .bool(!ended && renewables.contains { $0.isActive })
    fields["latestProductId"] = .string(recent.productID)
    fields["willRenew"] = .bool(recent.autoRenew && recent.isLive)
    if let expires = renewables.filter({ $0.state != .revoked }).compactMap(\.expirationDate).max() { fields["expiresAt"] = date(expires) }
    let state: String? = switch recent.state {
    case .subscribed: "subscribed"
    case .inGracePeriod: "inGracePeriod"
    case .inBillingRetryPeriod: "inBillingRetryPeriod"
    case .expired: "expired"
    case .revoked: "revoked"
    case .paused: "paused"
    case .consumed: nil
    }
    if let state { fields["state"] = .string(state) }
    if let offer = offerType(recent) { fields["offerType"] = offer }
    return .map(fields)
  }
}

extension FilterContext {
  /// The SDK's device template beside the status: whose it is (`platform`), and the customer's
  /// entitlements and info where the SDK has them, from the store's `subscriptions` (nil: a
  /// controller of the app's, the status alone).
  package mutating func fillDevice(sdk: SDKVersion, subscriptions: [StoreSubscription]?, catalog: Catalog) {
    platform = sdk.platform
    guard sdk.hasActiveEntitlementObjects else { return }
    let customer = CustomerInfoValue.make(subscriptions: subscriptions, status: status, catalog: catalog)
    activeEntitlementObjects = customer.activeEntitlementObjects
    if sdk.hasCustomerInfoDevice { customerInfo = customer.customerInfo }
  }
}
