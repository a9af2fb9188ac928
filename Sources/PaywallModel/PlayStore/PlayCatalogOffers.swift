#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

extension PlayCatalogReader.Reader {
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
}
