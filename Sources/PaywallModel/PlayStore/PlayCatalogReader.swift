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
      } else if !topLevelKeys.contains(member.key) && member.key != "$comment" {
        diagnostics.error("unknown key \(quoting: member.key)\(Suggestions.hint(for: member.key, in: topLevelKeys)); a Play catalog has \(topLevelKeys.map { "'\($0)'" }.joined(separator: ", "))",
                          at: member.keyLocation, path: JSONPath.root.appending(member.key))
      }
    }
    var reader = Reader(diagnostics: diagnostics)
    var catalog = PlayCatalog(file: file)
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
    return catalog
  }

  private struct Reader {
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
        kind = .autoRenewing(PlayAutoRenewingPlan(
          billingPeriod: period,
          gracePeriod: duration(typeNode, "gracePeriodDuration", path: typePath),
          accountHold: duration(typeNode, "accountHoldDuration", path: typePath),
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
        let renewal = enumeration(typeNode, "renewalType", path: typePath,
                                  ["RENEWAL_TYPE_UNSPECIFIED", "RENEWAL_TYPE_RENEWS_WITHOUT_COMMITMENT", "RENEWAL_TYPE_RENEWS_WITH_COMMITMENT"])
        kind = .installments(PlayInstallmentsPlan(
          billingPeriod: period, committedPayments: count, renewsWithCommitment: renewal == "RENEWAL_TYPE_RENEWS_WITH_COMMITMENT",
          gracePeriod: duration(typeNode, "gracePeriodDuration", path: typePath),
          accountHold: duration(typeNode, "accountHoldDuration", path: typePath),
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

    mutating func offer(_ node: JSONNode, path: JSONPath, catalog: PlayCatalog) -> PlaySubscriptionOffer? {
      guard object(node, path: path, what: "a SubscriptionOffer") else { return nil }
      guard let productId = requiredString(node, "productId", path: path, example: "the subscription's product id"),
            let basePlanId = requiredString(node, "basePlanId", path: path, example: "the base plan's id"),
            let offerId = requiredString(node, "offerId", path: path, example: "\"free-trial\"") else { return nil }
      let key = "\(productId)\u{0}\(basePlanId)\u{0}\(offerId)"
      if let first = offerIDs[key] {
        diagnostics.error("duplicate offer \(quoting: offerId) on base plan \(quoting: basePlanId) of \(quoting: productId) (first at line \(first.line)); offer ids are unique within a base plan",
                          at: node["offerId"]!.location, path: path.appending("offerId"))
        return nil
      }
      offerIDs[key] = node.location
      if failedProducts.contains(productId) { return nil }
      guard let subscription = catalog.subscription(id: productId) else {
        let known = catalog.subscriptions.map(\.productId)
        diagnostics.error("offer \(quoting: offerId) names subscription \(quoting: productId), which 'subscriptions' does not define\(Suggestions.hint(for: productId, in: known)); add the subscription or fix 'productId'",
                          at: node["productId"]!.location, path: path.appending("productId"))
        return nil
      }
      guard let plan = subscription.basePlan(id: basePlanId) else {
        let known = subscription.basePlans.map(\.basePlanId)
        diagnostics.error("offer \(quoting: offerId) names base plan \(quoting: basePlanId), which subscription \(quoting: productId) does not have\(Suggestions.hint(for: basePlanId, in: known)); its base plans: \(known.map { "'\($0)'" }.joined(separator: ", "))",
                          at: node["basePlanId"]!.location, path: path.appending("basePlanId"))
        return nil
      }
      if !plan.isAutoRenewing {
        diagnostics.error("offer \(quoting: offerId) is on prepaid base plan \(quoting: basePlanId); Play allows offers only on auto-renewing base plans, move it to one",
                          at: node["basePlanId"]!.location, path: path.appending("basePlanId"))
        return nil
      }
      let state = state(node, path: path, allowed: [.active, .inactive, .draft, .unspecified])
      var phases: [PlayOfferPhase] = []
      let phaseNodes = list(node, "phases", path: path, what: "SubscriptionOfferPhase objects")
      if phaseNodes.isEmpty {
        diagnostics.error("offer \(quoting: offerId) has no 'phases'; give it one or two, such as {\"duration\": \"P7D\", \"recurrenceCount\": 1, \"regionalConfigs\": [{\"regionCode\": \"US\", \"free\": {}}]}",
                          at: node["phases"]?.location ?? node.location, path: path.appending("phases"))
      }
      var failed = false
      for (i, phaseNode) in phaseNodes.enumerated() {
        if let phase = phase(phaseNode, path: path.appending("phases").appending(i)) { phases.append(phase) } else { failed = true }
      }
      var availability: [String: Bool] = [:]
      for (i, configNode) in list(node, "regionalConfigs", path: path, what: "RegionalSubscriptionOfferConfig objects").enumerated() {
        let configPath = path.appending("regionalConfigs").appending(i)
        guard object(configNode, path: configPath, what: "a RegionalSubscriptionOfferConfig"),
              let region = regionCode(configNode, path: configPath) else { continue }
        availability[region] = bool(configNode, "newSubscriberAvailability", path: configPath) ?? false
      }
      // A phase needs a price in every region the offer is configured for (the API's own rule).
      for (i, phase) in phases.enumerated() {
        for region in availability.keys.sorted() where phase.regionalPricing[region] == nil {
          diagnostics.error("phase \(i + 1) of offer \(quoting: offerId) has no regional config for \(region), where the offer is configured; add {\"regionCode\": \"\(region)\", …} to its 'regionalConfigs'",
                            at: phaseNodes[i].location, path: path.appending("phases").appending(i))
          failed = true
        }
      }
      guard let targeting = targeting(node, path: path, productId: productId, catalog: catalog), !failed else { return nil }
      return PlaySubscriptionOffer(productId: productId, basePlanId: basePlanId, offerId: offerId, state: state, phases: phases,
                                   targeting: targeting, offerTags: tags(node, path: path), regionalAvailability: availability)
    }

    func phase(_ node: JSONNode, path: JSONPath) -> PlayOfferPhase? {
      guard object(node, path: path, what: "a SubscriptionOfferPhase") else { return nil }
      guard let duration = requiredDuration(node, "duration", path: path, positive: true),
            let count = requiredCount(node, "recurrenceCount", path: path) else { return nil }
      var pricing: [String: PlayPhasePricing] = [:]
      var failed = false
      for (i, configNode) in list(node, "regionalConfigs", path: path, what: "RegionalSubscriptionOfferPhaseConfig objects").enumerated() {
        let configPath = path.appending("regionalConfigs").appending(i)
        guard object(configNode, path: configPath, what: "a RegionalSubscriptionOfferPhaseConfig"),
              let region = regionCode(configNode, path: configPath) else { failed = true; continue }
        let present = ["price", "free", "relativeDiscount", "absoluteDiscount"].filter { configNode[$0] != nil }
        guard present.count == 1 else {
          let message = present.isEmpty
            ? "the phase has no price in \(region); give it one of 'price', 'free', 'relativeDiscount', 'absoluteDiscount'"
            : "the phase is priced \(present.count) ways in \(region) (\(present.map { "'\($0)'" }.joined(separator: ", "))); keep exactly one"
          diagnostics.error(message, at: present.count > 1 ? configNode[present[1]]!.location : configNode.location, path: configPath)
          failed = true
          continue
        }
        switch present[0] {
        case "free":
          pricing[region] = .free
        case "price":
          guard let price = money(configNode, "price", path: configPath) else { failed = true; continue }
          pricing[region] = .price(price)
        case "absoluteDiscount":
          guard let discount = money(configNode, "absoluteDiscount", path: configPath) else { failed = true; continue }
          pricing[region] = .absoluteDiscount(discount)
        default:
          let fraction = configNode["relativeDiscount"]!
          guard case .number(let text) = fraction.value, let value = DecimalParsing.parse(text), value > 0, value < 1 else {
            diagnostics.error("'relativeDiscount' must be a fraction strictly between 0 and 1 (0.8 is 80 % off), found \(describe(fraction))",
                              at: fraction.location, path: configPath.appending("relativeDiscount"))
            failed = true
            continue
          }
          pricing[region] = .relativeDiscount(value)
        }
      }
      return failed ? nil : PlayOfferPhase(duration: duration, recurrenceCount: count, regionalPricing: pricing)
    }

    func targeting(_ node: JSONNode, path: JSONPath, productId: String, catalog: PlayCatalog) -> PlayOfferTargeting? {
      guard let targetingNode = node["targeting"] else { return .developerDetermined }
      let targetingPath = path.appending("targeting")
      guard object(targetingNode, path: targetingPath, what: "'targeting'") else { return nil }
      let rules = ["acquisitionRule", "upgradeRule"].filter { targetingNode[$0] != nil }
      if rules.count > 1 {
        diagnostics.error("'targeting' has both 'acquisitionRule' and 'upgradeRule'; an offer targets new customers or upgrades, keep one",
                          at: targetingNode["upgradeRule"]!.location, path: targetingPath.appending("upgradeRule"))
        return nil
      }
      guard let rule = rules.first else { return .developerDetermined }
      let rulePath = targetingPath.appending(rule)
      let ruleNode = targetingNode[rule]!
      guard object(ruleNode, path: rulePath, what: "'\(rule)'") else { return nil }
      guard let scopeNode = ruleNode["scope"] else {
        diagnostics.error("\(quoting: rule) has no 'scope'; add \"scope\": {\"\(rule == "acquisitionRule" ? "anySubscriptionInApp" : "thisSubscription")\": {}}",
                          at: ruleNode.location, path: rulePath)
        return nil
      }
      let scopePath = rulePath.appending("scope")
      guard object(scopeNode, path: scopePath, what: "'scope'") else { return nil }
      let allowed = rule == "acquisitionRule" ? ["thisSubscription", "anySubscriptionInApp"] : ["thisSubscription", "specificSubscriptionInApp"]
      let present = ["thisSubscription", "anySubscriptionInApp", "specificSubscriptionInApp"].filter { scopeNode[$0] != nil }
      guard present.count == 1, allowed.contains(present[0]) else {
        let where_ = present.count == 1 ? scopeNode[present[0]]!.location : scopeNode.location
        diagnostics.error("the scope of \(quoting: rule) must be one of \(allowed.map { "'\($0)'" }.joined(separator: " or "))\(present.isEmpty ? "" : ", found \(present.map { "'\($0)'" }.joined(separator: " and "))"); keep exactly one of those",
                          at: where_, path: scopePath)
        return nil
      }
      let scope: PlayTargetingScope
      switch present[0] {
      case "thisSubscription": scope = .thisSubscription
      case "anySubscriptionInApp": scope = .anySubscriptionInApp
      default:
        let idNode = scopeNode["specificSubscriptionInApp"]!
        guard let other = idNode.stringValue, !other.isEmpty else {
          diagnostics.error("'specificSubscriptionInApp' must be a subscription's product id, found \(describe(idNode))",
                            at: idNode.location, path: scopePath.appending("specificSubscriptionInApp"))
          return nil
        }
        if catalog.subscription(id: other) == nil && !failedProducts.contains(other) {
          diagnostics.error("'specificSubscriptionInApp' names \(quoting: other), which 'subscriptions' does not define\(Suggestions.hint(for: other, in: catalog.subscriptions.map(\.productId))); name a subscription of this app",
                            at: idNode.location, path: scopePath.appending("specificSubscriptionInApp"))
          return nil
        }
        scope = .specificSubscription(other)
      }
      if rule == "acquisitionRule" { return .acquisition(scope) }
      return .upgrade(scope, billingPeriod: duration(ruleNode, "billingPeriodDuration", path: rulePath),
                      oncePerUser: bool(ruleNode, "oncePerUser", path: rulePath) ?? false)
    }

    mutating func oneTimeProduct(_ node: JSONNode, path: JSONPath) -> PlayOneTimeProduct? {
      guard object(node, path: path, what: "a OneTimeProduct") else { return nil }
      guard let id = productID(node, path: path) else { return nil }
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

    // MARK: Values

    var errorCount: Int { diagnostics.diagnostics.filter { $0.severity == .error }.count }

    func list(_ node: JSONNode, _ key: String, path: JSONPath, what: String) -> [JSONNode] {
      guard let value = node[key], !isNull(value) else { return [] }
      guard let elements = value.elements else {
        diagnostics.error("\(quoting: key) must be an array of \(what), found \(value.value.typeName); wrap it in [ ]",
                          at: value.location, path: path.appending(key))
        return []
      }
      return elements
    }

    func object(_ node: JSONNode, path: JSONPath, what: String) -> Bool {
      if node.members != nil { return true }
      diagnostics.error("\(what) must be an object, found \(node.value.typeName); write it as { … }", at: node.location, path: path)
      return false
    }

    mutating func productID(_ node: JSONNode, path: JSONPath) -> String? {
      guard let id = requiredString(node, "productId", path: path, example: "\"premium_monthly\"") else { return nil }
      if let first = productIDs[id] {
        diagnostics.error("duplicate productId \(quoting: id) (first at line \(first.line)); a product id is unique within an app, subscriptions and one-time products alike",
                          at: node["productId"]!.location, path: path.appending("productId"))
        return nil
      }
      productIDs[id] = node.location
      // A product id with a colon could never be told apart from `product:basePlan:offer`.
      if id.contains(":") {
        diagnostics.error("productId \(quoting: id) has a ':'; Play product ids are lower-case letters, digits, '_' and '.', and the SDK reads ':' as the base plan separator",
                          at: node["productId"]!.location, path: path.appending("productId"))
        return nil
      }
      return id
    }

    func listings(_ node: JSONNode, path: JSONPath) -> [PlayListing] {
      list(node, "listings", path: path, what: "listing objects").enumerated().compactMap { i, listing in
        let listingPath = path.appending("listings").appending(i)
        guard object(listing, path: listingPath, what: "a listing") else { return nil }
        let benefits = list(listing, "benefits", path: listingPath, what: "strings").compactMap(\.stringValue)
        return PlayListing(languageCode: optionalString(listing, "languageCode", path: listingPath) ?? "",
                           title: optionalString(listing, "title", path: listingPath) ?? "",
                           description: optionalString(listing, "description", path: listingPath) ?? "", benefits: benefits)
      }
    }

    func tags(_ node: JSONNode, path: JSONPath) -> [String] {
      list(node, "offerTags", path: path, what: "OfferTag objects ({\"tag\": \"…\"})").enumerated().compactMap { i, tagNode in
        guard let tag = tagNode["tag"]?.stringValue else {
          diagnostics.error("an offer tag must be an object {\"tag\": \"…\"}, found \(describe(tagNode))",
                            at: tagNode.location, path: path.appending("offerTags").appending(i))
          return nil
        }
        return tag
      }
    }

    func requiredString(_ node: JSONNode, _ key: String, path: JSONPath, example: String) -> String? {
      guard let value = node[key] else {
        diagnostics.error("missing \(quoting: key); add \"\(key)\": \(example)", at: node.location, path: path)
        return nil
      }
      guard let text = value.stringValue, !text.isEmpty else {
        diagnostics.error("\(quoting: key) must be a non-empty string such as \(example), found \(describe(value))",
                          at: value.location, path: path.appending(key))
        return nil
      }
      return text
    }

    func optionalString(_ node: JSONNode, _ key: String, path: JSONPath) -> String? {
      guard let value = node[key], !isNull(value) else { return nil }
      guard let text = value.stringValue else {
        diagnostics.error("\(quoting: key) must be a string, found \(describe(value)); quote it", at: value.location, path: path.appending(key))
        return nil
      }
      return text
    }

    func bool(_ node: JSONNode, _ key: String, path: JSONPath) -> Bool? {
      guard let value = node[key], !isNull(value) else { return nil }
      guard case .bool(let flag) = value.value else {
        diagnostics.error("\(quoting: key) must be true or false, found \(describe(value))", at: value.location, path: path.appending(key))
        return nil
      }
      return flag
    }

    func regionCode(_ node: JSONNode, path: JSONPath) -> String? {
      guard let region = requiredString(node, "regionCode", path: path, example: "\"US\"") else { return nil }
      guard region.count == 2, region.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
        diagnostics.error("'regionCode' must be a two-letter ISO 3166 region such as \"US\", found \(quoting: region)",
                          at: node["regionCode"]!.location, path: path.appending("regionCode"))
        return nil
      }
      return region
    }

    /// A count of at least 1 (`recurrenceCount`, `committedPaymentsCount`), as a number or, as
    /// the API's int64 fields are written, a string.
    func requiredCount(_ node: JSONNode, _ key: String, path: JSONPath) -> Int? {
      guard let value = node[key] else {
        diagnostics.error("missing \(quoting: key); add \"\(key)\": 1", at: node.location, path: path)
        return nil
      }
      let text: String? = switch value.value {
      case .number(let n): n
      case .string(let s): s
      default: nil
      }
      guard let text, let count = Int(text), count >= 1 else {
        diagnostics.error("\(quoting: key) must be a whole number from 1, found \(describe(value))", at: value.location, path: path.appending(key))
        return nil
      }
      return count
    }

    func requiredDuration(_ node: JSONNode, _ key: String, path: JSONPath, positive: Bool) -> PlayDuration? {
      guard node[key] != nil else {
        diagnostics.error("missing \(quoting: key); add \"\(key)\": \"P1M\" (an ISO 8601 duration)", at: node.location, path: path)
        return nil
      }
      guard let duration = duration(node, key, path: path) else { return nil }
      if positive && duration.isZero {
        diagnostics.error("\(quoting: key) must be longer than zero, found \(quoting: duration.text); give a duration such as \"P1M\"",
                          at: node[key]!.location, path: path.appending(key))
        return nil
      }
      return duration
    }

    func duration(_ node: JSONNode, _ key: String, path: JSONPath) -> PlayDuration? {
      guard let value = node[key], !isNull(value) else { return nil }
      guard let text = value.stringValue, let duration = PlayDuration(iso8601: text) else {
        diagnostics.error("\(quoting: key) must be an ISO 8601 duration in days, weeks, months or years such as \"P1M\", \"P1Y\" or \"P7D\", found \(describe(value))",
                          at: value.location, path: path.appending(key))
        return nil
      }
      return duration
    }

    /// `Money`: `currencyCode`, `units` (int64, written as a string by the API; a number is read
    /// too) and `nanos`, both of one sign; a price here is never negative.
    func money(_ node: JSONNode, _ key: String, path: JSONPath) -> PlayMoney? {
      guard let value = node[key], !isNull(value) else { return nil }
      let moneyPath = path.appending(key)
      guard value.members != nil else {
        diagnostics.error("\(quoting: key) must be a Money object {\"currencyCode\": \"USD\", \"units\": \"4\", \"nanos\": 990000000}, found \(describe(value))",
                          at: value.location, path: moneyPath)
        return nil
      }
      guard let currency = value["currencyCode"]?.stringValue, currency.count == 3,
            currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
        diagnostics.error("\(quoting: key) needs a 'currencyCode', three capital letters such as \"USD\"",
                          at: value["currencyCode"]?.location ?? value.location, path: moneyPath.appending("currencyCode"))
        return nil
      }
      var units = 0
      if let unitsNode = value["units"], !isNull(unitsNode) {
        let text: String? = switch unitsNode.value {
        case .string(let s): s
        case .number(let n): n
        default: nil
        }
        guard let text, let parsed = Int(text), parsed >= 0 else {
          diagnostics.error("'units' must be the whole units of a price as a string of digits, such as \"4\" for 4.99, found \(describe(unitsNode))",
                            at: unitsNode.location, path: moneyPath.appending("units"))
          return nil
        }
        units = parsed
      }
      var nanos = 0
      if let nanosNode = value["nanos"], !isNull(nanosNode) {
        guard case .number(let text) = nanosNode.value, let parsed = Int(text), (0...999_999_999).contains(parsed) else {
          diagnostics.error("'nanos' must be a whole number from 0 to 999999999 (990000000 is .99), found \(describe(nanosNode))",
                            at: nanosNode.location, path: moneyPath.appending("nanos"))
          return nil
        }
        nanos = parsed
      }
      let amount = Decimal(units) + Decimal(nanos) / Decimal(1_000_000_000)
      if let problem = CurrencyMinorUnits.problem(amount, currency: currency, key: key) {
        diagnostics.warning(.currencyDecimals, problem, at: value.location, path: moneyPath)
      }
      return PlayMoney(currencyCode: currency, amount: amount)
    }

    func state(_ node: JSONNode, path: JSONPath, allowed: [PlayState]) -> PlayState {
      guard let raw = enumeration(node, "state", path: path, allowed.map(\.rawValue)) else { return .unspecified }
      return PlayState(rawValue: raw) ?? .unspecified
    }

    func resubscribe(_ node: JSONNode, path: JSONPath) -> Bool {
      enumeration(node, "resubscribeState", path: path,
                  ["RESUBSCRIBE_STATE_UNSPECIFIED", "RESUBSCRIBE_STATE_ACTIVE", "RESUBSCRIBE_STATE_INACTIVE"]) != "RESUBSCRIBE_STATE_INACTIVE"
    }

    func prorationMode(_ node: JSONNode, path: JSONPath) -> PlayProrationMode {
      let raw = enumeration(node, "prorationMode", path: path,
                            ["SUBSCRIPTION_PRORATION_MODE_UNSPECIFIED", PlayProrationMode.chargeOnNextBillingDate.rawValue,
                             PlayProrationMode.chargeFullPriceImmediately.rawValue])
      return raw.flatMap(PlayProrationMode.init(rawValue:)) ?? .chargeOnNextBillingDate
    }

    /// One of an API enum's values, with a did-you-mean; nil (after reporting) for any other.
    func enumeration(_ node: JSONNode, _ key: String, path: JSONPath, _ values: [String]) -> String? {
      guard let value = node[key], !isNull(value) else { return nil }
      guard let text = value.stringValue, values.contains(text) else {
        let found = value.stringValue.map { "\(quoting: $0)\(Suggestions.hint(for: $0, in: values))" } ?? value.value.typeName
        diagnostics.error("\(quoting: key) must be one of \(values.map { "\"\($0)\"" }.joined(separator: ", ")), found \(found)",
                          at: value.location, path: path.appending(key))
        return nil
      }
      return text
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
