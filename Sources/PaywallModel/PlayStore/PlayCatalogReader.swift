#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a Play catalog file: the Play Developer API's own resources, gathered from its three
/// list calls into one object,
///
///     {"subscriptions": [Subscription…],               // monetization.subscriptions.list
///      "subscriptionOffers": [SubscriptionOffer…],     // …subscriptions.basePlans.offers.list
///      "oneTimeProducts": [OneTimeProduct…]}           // monetization.onetimeproducts.list
///
/// in the API's JSON (camelCase keys, enums as strings, int64 as strings, money as
/// `{currencyCode, units, nanos}`). Inside a resource, keys not read here are ignored, as the API
/// adds fields over time; the three top-level keys are ours, so a misspelt one is an error with a
/// did-you-mean. Every problem is a `FILE:LINE:COL` diagnostic saying what is wrong and the fix;
/// one pass reports them all.
package enum PlayCatalogReader {
  /// The top-level keys, each a list call's items.
  package static let topLevelKeys = ["subscriptions", "subscriptionOffers", "oneTimeProducts"]
  /// The file's own key beside the API's lists: the buyer's region (ISO 3166-1 alpha-2, as Play's
  /// regional configs name it), whose prices and offers the catalog shows; "US" when absent.
  package static let regionKey = "region"

  /// Whether `text` is a region as Play's regional configs name one: ISO 3166-1 alpha-2, upper case.
  package static func isRegionCode(_ text: String) -> Bool {
    text.count == 2 && text.allSatisfy { $0.isASCII && $0.isUppercase }
  }

  /// Whether a parsed file is a Play catalog: an object with a key of the API's lists and no
  /// `products` list (our catalog's).
  package static func isPlayCatalog(_ root: JSONNode) -> Bool {
    guard root.members != nil, root["products"] == nil else { return false }
    return topLevelKeys.contains { root[$0] != nil }
  }

  package static func read(_ root: JSONNode, file: String, diagnostics: DiagnosticCollector) -> PlayCatalog? {
    guard let members = root.members else {
      diagnostics.error("a Play catalog must be an object {\"subscriptions\": [...], \"subscriptionOffers\": [...], \"oneTimeProducts\": [...]}, found \(root.value.typeName)",
                        at: root.location, path: .root)
      return nil
    }
    var seenKeys: Set<String> = []
    for member in members {
      if !seenKeys.insert(member.key).inserted {
        diagnostics.error("duplicate key \(quoting: member.key); merge the two lists into one", at: member.keyLocation, path: JSONPath.root.appending(member.key))
      } else if !topLevelKeys.contains(member.key) && member.key != regionKey && member.key != "$comment" {
        diagnostics.error("unknown key \(quoting: member.key)\(Suggestions.hint(for: member.key, in: topLevelKeys + [regionKey])); a Play catalog has \(topLevelKeys.map { "'\($0)'" }.joined(separator: ", ")) and an optional '\(regionKey)'",
                          at: member.keyLocation, path: JSONPath.root.appending(member.key))
      }
    }
    var reader = Reader(diagnostics: diagnostics)
    var catalog = PlayCatalog(file: file)
    if let node = root[regionKey] {
      if let region = node.stringValue, isRegionCode(region) {
        catalog.region = region
      } else {
        diagnostics.error("'\(regionKey)' must be a two-letter ISO 3166 region such as \"US\" or \"DE\" (the buyer's, whose prices the catalog shows), found \(node.stringValue.map { "\(quoting: $0)" } ?? node.value.typeName)",
                          at: node.location, path: JSONPath.root.appending(regionKey))
      }
    }
    for (i, node) in reader.list(root, "subscriptions", path: .root, what: "Subscription resources (monetization.subscriptions.list's 'subscriptions')").enumerated() {
      if let subscription = reader.subscription(node, path: JSONPath.root.appending("subscriptions").appending(i)) {
        catalog.subscriptions.append(subscription)
      }
    }
    for (i, node) in reader.list(root, "oneTimeProducts", path: .root, what: "OneTimeProduct resources (monetization.onetimeproducts.list's 'oneTimeProducts')").enumerated() {
      if let product = reader.oneTimeProduct(node, path: JSONPath.root.appending("oneTimeProducts").appending(i)) {
        catalog.oneTimeProducts.append(product)
      }
    }
    for (i, node) in reader.list(root, "subscriptionOffers", path: .root, what: "SubscriptionOffer resources (…basePlans.offers.list's 'subscriptionOffers')").enumerated() {
      if let offer = reader.offer(node, path: JSONPath.root.appending("subscriptionOffers").appending(i), catalog: catalog) {
        catalog.offers.append(offer)
      }
    }
    catalog.failedProducts = reader.failedProducts
    return catalog
  }

  struct Reader {
    let diagnostics: DiagnosticCollector
    /// Product ids of subscriptions and one-time products, which share one namespace in an app.
    var productIDs: [String: SourceLocation] = [:]
    /// (product, base plan, offer) → where it was first defined.
    var offerIDs: [String: SourceLocation] = [:]
    /// Products whose definition failed: an offer naming one is not reported again.
    var failedProducts: Set<String> = []

    init(diagnostics: DiagnosticCollector) {
      self.diagnostics = diagnostics
    }

    // MARK: Resources

    mutating func subscription(_ node: JSONNode, path: JSONPath) -> PlaySubscription? {
      guard object(node, path: path, what: "a Subscription") else { return nil }
      guard let id = productID(node, path: path) else { return nil }
      let errorsBefore = errorCount
      let listings = listings(node, path: path)
      var plans: [PlayBasePlan] = []
      var planIDs: [String: SourceLocation] = [:]
      for (i, planNode) in list(node, "basePlans", path: path, what: "BasePlan objects").enumerated() {
        let planPath = path.appending("basePlans").appending(i)
        guard let plan = basePlan(planNode, path: planPath) else { continue }
        if let first = planIDs[plan.basePlanId] {
          diagnostics.error("duplicate basePlanId \(quoting: plan.basePlanId) in subscription \(quoting: id) (first at line \(first.line)); give each base plan its own id",
                            at: planNode["basePlanId"]?.location ?? planNode.location, path: planPath.appending("basePlanId"))
          continue
        }
        planIDs[plan.basePlanId] = planNode.location
        plans.append(plan)
      }
      // A warning (a price's decimals) does not fail the product: its offers are still read.
      if errorCount > errorsBefore { failedProducts.insert(id) }
      return PlaySubscription(productId: id, listings: listings, basePlans: plans)
    }

    func basePlan(_ node: JSONNode, path: JSONPath) -> PlayBasePlan? {
      guard object(node, path: path, what: "a BasePlan") else { return nil }
      guard let id = requiredString(node, "basePlanId", path: path, example: "\"monthly\"") else { return nil }
      let state = state(node, path: path, allowed: [.active, .inactive, .draft, .unspecified])
      let kinds = ["autoRenewingBasePlanType", "prepaidBasePlanType", "installmentsBasePlanType"].filter { node[$0] != nil }
      guard kinds.count == 1 else {
        let message = kinds.isEmpty
          ? "base plan \(quoting: id) has no type; give it one of 'autoRenewingBasePlanType', 'prepaidBasePlanType', 'installmentsBasePlanType'"
          : "base plan \(quoting: id) has \(kinds.map { "'\($0)'" }.joined(separator: " and ")); a base plan has exactly one type, keep one"
        diagnostics.error(message, at: kinds.count > 1 ? node[kinds[1]]!.location : node.location, path: path)
        return nil
      }
      let typeKey = kinds[0]
      let typeNode = node[typeKey]!
      let typePath = path.appending(typeKey)
      guard object(typeNode, path: typePath, what: "'\(typeKey)'") else { return nil }
      guard let period = requiredDuration(typeNode, "billingPeriodDuration", path: typePath, positive: true) else { return nil }
      let kind: PlayBasePlan.Kind
      switch typeKey {
      case "autoRenewingBasePlanType":
        let (grace, hold) = graceAndHold(typeNode, period: period, path: typePath)
        kind = .autoRenewing(PlayAutoRenewingPlan(
          billingPeriod: period, gracePeriod: grace, accountHold: hold,
          resubscribe: resubscribe(typeNode, path: typePath),
          prorationMode: prorationMode(typeNode, path: typePath),
          legacyCompatible: bool(typeNode, "legacyCompatible", path: typePath) ?? false,
          legacyCompatibleOfferId: optionalString(typeNode, "legacyCompatibleSubscriptionOfferId", path: typePath)))
      case "prepaidBasePlanType":
        let extension_ = enumeration(typeNode, "timeExtension", path: typePath,
                                     ["TIME_EXTENSION_UNSPECIFIED", "TIME_EXTENSION_ACTIVE", "TIME_EXTENSION_INACTIVE"])
        kind = .prepaid(PlayPrepaidPlan(billingPeriod: period, timeExtension: extension_ != "TIME_EXTENSION_INACTIVE"))
      default:
        guard let count = requiredCount(typeNode, "committedPaymentsCount", path: typePath) else { return nil }
        let (grace, hold) = graceAndHold(typeNode, period: period, path: typePath)
        let renewal = enumeration(typeNode, "renewalType", path: typePath,
                                  ["RENEWAL_TYPE_UNSPECIFIED", "RENEWAL_TYPE_RENEWS_WITHOUT_COMMITMENT", "RENEWAL_TYPE_RENEWS_WITH_COMMITMENT"])
        kind = .installments(PlayInstallmentsPlan(
          billingPeriod: period, committedPayments: count, renewsWithCommitment: renewal == "RENEWAL_TYPE_RENEWS_WITH_COMMITMENT",
          gracePeriod: grace, accountHold: hold,
          resubscribe: resubscribe(typeNode, path: typePath), prorationMode: prorationMode(typeNode, path: typePath)))
      }
      var regional: [PlayRegionalPrice] = []
      var regions: [String: SourceLocation] = [:]
      for (i, configNode) in list(node, "regionalConfigs", path: path, what: "RegionalBasePlanConfig objects").enumerated() {
        let configPath = path.appending("regionalConfigs").appending(i)
        guard object(configNode, path: configPath, what: "a RegionalBasePlanConfig"),
              let region = regionCode(configNode, path: configPath) else { continue }
        if let first = regions[region] {
          diagnostics.error("region \(quoting: region) is configured twice in base plan \(quoting: id) (first at line \(first.line)); keep one",
                            at: configNode["regionCode"]!.location, path: configPath.appending("regionCode"))
          continue
        }
        regions[region] = configNode.location
        let available = bool(configNode, "newSubscriberAvailability", path: configPath) ?? false
        let price = money(configNode, "price", path: configPath)
        if available && price == nil && configNode["price"] == nil {
          diagnostics.error("base plan \(quoting: id) is available to new subscribers in \(region) but has no 'price' there; add \"price\": {\"currencyCode\": \"USD\", \"units\": \"4\", \"nanos\": 990000000}",
                            at: configNode.location, path: configPath)
        }
        regional.append(PlayRegionalPrice(regionCode: region, price: price, newSubscriberAvailability: available))
      }
      return PlayBasePlan(basePlanId: id, state: state, kind: kind, regionalConfigs: regional, offerTags: tags(node, path: path))
    }

    mutating func oneTimeProduct(_ node: JSONNode, path: JSONPath) -> PlayOneTimeProduct? {
      guard object(node, path: path, what: "a OneTimeProduct") else { return nil }
      guard let id = productID(node, path: path) else { return nil }
      let errorsBefore = errorCount
      defer { if errorCount > errorsBefore { failedProducts.insert(id) } }
      let listings = listings(node, path: path)
      var options: [PlayPurchaseOption] = []
      var optionIDs: [String: SourceLocation] = [:]
      let optionNodes = list(node, "purchaseOptions", path: path, what: "OneTimeProductPurchaseOption objects")
      if optionNodes.isEmpty {
        diagnostics.error("one-time product \(quoting: id) has no 'purchaseOptions'; add one, such as {\"purchaseOptionId\": \"buy\", \"buyOption\": {}, \"regionalPricingAndAvailabilityConfigs\": [...]}",
                          at: node["purchaseOptions"]?.location ?? node.location, path: path.appending("purchaseOptions"))
      }
      for (i, optionNode) in optionNodes.enumerated() {
        let optionPath = path.appending("purchaseOptions").appending(i)
        guard object(optionNode, path: optionPath, what: "a OneTimeProductPurchaseOption"),
              let optionID = requiredString(optionNode, "purchaseOptionId", path: optionPath, example: "\"buy\"") else { continue }
        if let first = optionIDs[optionID] {
          diagnostics.error("duplicate purchaseOptionId \(quoting: optionID) (first at line \(first.line)); give each purchase option its own id",
                            at: optionNode["purchaseOptionId"]!.location, path: optionPath.appending("purchaseOptionId"))
          continue
        }
        optionIDs[optionID] = optionNode.location
        let kinds = ["buyOption", "rentOption"].filter { optionNode[$0] != nil }
        guard kinds.count == 1 else {
          diagnostics.error("purchase option \(quoting: optionID) \(kinds.isEmpty ? "has neither 'buyOption' nor 'rentOption'; add \"buyOption\": {}" : "has both 'buyOption' and 'rentOption'; keep one")",
                            at: optionNode.location, path: optionPath)
          continue
        }
        let kind: PlayPurchaseOption.Kind
        let kindNode = optionNode[kinds[0]]!
        let kindPath = optionPath.appending(kinds[0])
        guard object(kindNode, path: kindPath, what: "'\(kinds[0])'") else { continue }
        if kinds[0] == "buyOption" {
          kind = .buy(legacyCompatible: bool(kindNode, "legacyCompatible", path: kindPath) ?? false,
                      multiQuantity: bool(kindNode, "multiQuantityEnabled", path: kindPath) ?? false)
        } else {
          guard let rental = requiredDuration(kindNode, "rentalPeriod", path: kindPath, positive: true) else { continue }
          kind = .rent(rentalPeriod: rental, expirationPeriod: duration(kindNode, "expirationPeriod", path: kindPath))
        }
        var prices: [String: PlayMoney] = [:]
        for (j, configNode) in list(optionNode, "regionalPricingAndAvailabilityConfigs", path: optionPath, what: "regional pricing objects").enumerated() {
          let configPath = optionPath.appending("regionalPricingAndAvailabilityConfigs").appending(j)
          guard object(configNode, path: configPath, what: "a regional pricing and availability config"),
                let region = regionCode(configNode, path: configPath) else { continue }
          let availability = enumeration(configNode, "availability", path: configPath,
                                         ["AVAILABILITY_UNSPECIFIED", "AVAILABLE", "NO_LONGER_AVAILABLE", "AVAILABLE_IF_RELEASED", "AVAILABLE_FOR_OFFERS_ONLY"])
          let price = money(configNode, "price", path: configPath)
          if availability == "AVAILABLE" {
            guard let price else {
              if configNode["price"] == nil {
                diagnostics.error("purchase option \(quoting: optionID) is AVAILABLE in \(region) but has no 'price' there; add \"price\": {\"currencyCode\": …, \"units\": …, \"nanos\": …}",
                                  at: configNode.location, path: configPath)
              }
              continue
            }
            prices[region] = price
          }
        }
        options.append(PlayPurchaseOption(purchaseOptionId: optionID,
                                          state: state(optionNode, path: optionPath, allowed: PlayState.allCases),
                                          kind: kind, regionalPrices: prices, offerTags: tags(optionNode, path: optionPath)))
      }
      return PlayOneTimeProduct(productId: id, listings: listings, offerTags: tags(node, path: path), purchaseOptions: options)
    }

    func isNull(_ node: JSONNode) -> Bool {
      if case .null = node.value { return true }
      return false
    }

    func describe(_ node: JSONNode) -> String {
      if let text = node.stringValue { return "\(quoting: text)" }
      if case .number(let n) = node.value { return n }
      return node.value.typeName
    }
  }
}
