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

extension StoreKitConfigurationReader.Reader {
  /// Every key of a product that holds offers, by format version: Xcode 12–15 write one
  /// `introductoryOffer` object (or null); format 5 (Xcode 26) writes `introductoryOffers`, an
  /// array with one entry per billing plan. Promotional offers are `subscriptionOffers` in the
  /// oldest files and `adHocOffers` since; offer codes `codeOffers`; win-back offers
  /// `winbackOffers` (format 4, Xcode 16).
  static let offerKeys: Set<String> = ["introductoryOffer", "introductoryOffers", "subscriptionOffers", "adHocOffers",
                                        "codeOffers", "winbackOffers"]
  /// The keys read inside one offer; `internalID`, `referenceName` and `billingPlanType` name it
  /// and are read too; `isStackable` (an offer code stacking on another offer) changes nothing here.
  static let offerMemberKeys: Set<String> = ["internalID", "offerID", "referenceName", "paymentMode", "subscriptionPeriod",
                                              "numberOfPeriods", "displayPrice", "billingPlanType", "eligibility", "isStackable"]
  /// A win-back offer's rules, in App Store Connect's names (`customerEligibility…InMonths`).
  static let winBackRuleKeys: Set<String> = ["customerEligibilityPaidSubscriptionDurationInMonths",
                                              "customerEligibilityTimeSinceLastSubscribedInMonths",
                                              "customerEligibilityWaitBetweenOffersInMonths"]

  static let offerWord: [UInt8] = Array("offer".utf8)

  /// Whether a product's key names an offer ("offer" in any case): a byte scan, as it runs for
  /// every key of every product (`lowercased().contains` was most of the time a 5,000-product
  /// file took to load).
  static func mentionsOffer(_ key: String) -> Bool {
    let word = offerWord
    let bytes = Array(key.utf8)
    guard bytes.count >= word.count else { return false }
    search: for start in 0...(bytes.count - word.count) {
      for index in word.indices where bytes[start + index] | 0x20 != word[index] { continue search }
      return true
    }
    return false
  }

  /// The introductory offer, from either shape: the single object, or the array's entry for
  /// the plan billed up front (the one StoreKit's `introductoryOffer` reports), else its first.
  func introductoryOffer(in node: JSONNode, path: JSONPath) -> IntroductoryOffer? {
    if let single = node["introductoryOffer"], single.members != nil {
      warnUnknownKeys(single, allowed: Self.offerMemberKeys, path: path.appending("introductoryOffer"))
      return introductoryOffer(single, path: path.appending("introductoryOffer"))
    }
    guard let list = node["introductoryOffers"]?.elements, !list.isEmpty else { return nil }
    let index = list.firstIndex { ($0["billingPlanType"]?.stringValue ?? "BILLED_UPFRONT") == "BILLED_UPFRONT" } ?? 0
    let entryPath = path.appending("introductoryOffers").appending(index)
    warnUnknownKeys(list[index], allowed: Self.offerMemberKeys, path: entryPath)
    return introductoryOffer(list[index], path: entryPath)
  }

  /// Promotional, code and win-back offers; any other key that looks like an offer is a warning naming it.
  func subscriptionOffers(in node: JSONNode, path: JSONPath) -> [SubscriptionOffer] {
    for member in node.members ?? [] where Self.mentionsOffer(member.key) && !Self.offerKeys.contains(member.key) {
      diagnostics.warning(.storekitKey, "\(quoting: member.key) is an offer key not read here; its offers are left out of the catalog",
                          at: member.keyLocation, path: path.appending(member.key))
    }
    var offers: [SubscriptionOffer] = []
    for (key, kind) in [("subscriptionOffers", SubscriptionOffer.Kind.promotional), ("adHocOffers", .promotional),
                        ("codeOffers", .code), ("winbackOffers", .winBack)] {
      for (i, offerNode) in (list(node, key, path: path) ?? []).enumerated() {
        let offerPath = path.appending(key).appending(i)
        guard offerNode.members != nil else {
          diagnostics.error("an offer must be an object, found \(offerNode.value.typeName)", at: offerNode.location, path: offerPath)
          continue
        }
        let allowed = kind == .winBack ? Self.offerMemberKeys.union(Self.winBackRuleKeys) : Self.offerMemberKeys
        warnUnknownKeys(offerNode, allowed: allowed, path: offerPath)
        guard let id = offerNode["offerID"]?.stringValue ?? (kind == .code ? offerNode["referenceName"]?.stringValue : nil), !id.isEmpty else {
          diagnostics.error("missing 'offerID'", at: offerNode.location, path: offerPath)
          continue
        }
        guard let terms = introductoryOffer(offerNode, path: offerPath) else { continue }
        var rules = WinBackRules()
        if kind == .winBack {
          rules.paidMonths = months(offerNode["customerEligibilityPaidSubscriptionDurationInMonths"]) ?? 0
          if let range = offerNode["customerEligibilityTimeSinceLastSubscribedInMonths"] {
            rules.minimumMonthsSinceLapse = months(range["minimum"]) ?? 0
            rules.maximumMonthsSinceLapse = months(range["maximum"])
          }
          rules.waitBetweenOffersMonths = months(offerNode["customerEligibilityWaitBetweenOffersInMonths"])
        }
        offers.append(SubscriptionOffer(kind: kind, id: id, terms: terms, winBackRules: rules,
                                        codeEligibility: kind == .code ? codeEligibility(offerNode, path: offerPath) : Set(CustomerStanding.allCases)))
      }
    }
    return offers
  }

  /// An offer code's `eligibility` (`["existing", "expired", "new"]`, as Xcode writes it);
  /// absent: every customer. A word not known is a warning naming it, and is left out.
  func codeEligibility(_ node: JSONNode, path: JSONPath) -> Set<CustomerStanding> {
    guard let list = node["eligibility"] else { return Set(CustomerStanding.allCases) }
    guard let elements = list.elements else {
      diagnostics.warning(.storekitKey, "'eligibility' should be a list of new, existing, expired; every customer may redeem the code",
                          at: list.location, path: path.appending("eligibility"))
      return Set(CustomerStanding.allCases)
    }
    var standings: Set<CustomerStanding> = []
    for (i, element) in elements.enumerated() {
      if let word = element.stringValue, let standing = CustomerStanding(rawValue: word) {
        standings.insert(standing)
      } else {
        diagnostics.warning(.storekitKey, "offer-code eligibility \(quoting: element.stringValue ?? element.value.typeName) is not one of new, existing, expired; it is left out",
                            at: element.location, path: path.appending("eligibility").appending(i))
      }
    }
    return standings
  }

  func months(_ node: JSONNode?) -> Int? {
    if case .number(let text)? = node?.value { return Int(text) }
    return nil
  }

  func warnUnknownKeys(_ node: JSONNode, allowed: Set<String>, path: JSONPath) {
    for member in node.members ?? [] where !allowed.contains(member.key) {
      diagnostics.warning(.storekitKey, "offer key \(quoting: member.key) is not read here; the offer is read without it",
                          at: member.keyLocation, path: path.appending(member.key))
    }
  }

  func price(_ node: JSONNode, path: JSONPath) -> Decimal? {
    guard let priceNode = node["displayPrice"] else {
      diagnostics.error("missing 'displayPrice'", at: node.location, path: path)
      return nil
    }
    let text: String? = switch priceNode.value {
    case .string(let s): s
    case .number(let s): s
    default: nil
    }
    guard let text, let price = DecimalParsing.parse(text), price >= 0 else {
      diagnostics.error("'displayPrice' must be a price such as \"4.99\"", at: priceNode.location, path: path.appending("displayPrice"))
      return nil
    }
    // The storefront's currency decides the decimals: a JPY storefront's 4.99 would show as ¥5.
    if let problem = CurrencyMinorUnits.problem(price, currency: currency, key: "displayPrice") {
      diagnostics.warning(.currencyDecimals, problem, at: priceNode.location, path: path.appending("displayPrice"))
    }
    return price
  }

  /// The display name and description for the configured locale, else the first localization.
  func localization(_ node: JSONNode) -> (String?, String?) {
    guard let localizations = node["localizations"]?.elements, !localizations.isEmpty else { return (nil, nil) }
    let chosen = localizations.first { $0["locale"]?.stringValue == settings.locale } ?? localizations[0]
    let name = chosen["displayName"]?.stringValue
    return (name?.isEmpty == true ? nil : name, chosen["description"]?.stringValue)
  }

  func requiredPeriod(_ node: JSONNode, _ key: String, path: JSONPath) -> SubscriptionPeriod? {
    guard let text = node[key]?.stringValue, let period = SubscriptionPeriod(iso8601: text) else {
      diagnostics.error("\(quoting: key) must be an ISO 8601 period such as \"P1M\"", at: node[key]?.location ?? node.location,
                        path: path.appending(key))
      return nil
    }
    return period
  }

  func introductoryOffer(_ node: JSONNode, path: JSONPath) -> IntroductoryOffer? {
    guard let period = requiredPeriod(node, "subscriptionPeriod", path: path) else { return nil }
    var count = 1
    if case .number(let text)? = node["numberOfPeriods"]?.value, let n = Int(text), n >= 1 { count = n }
    switch node["paymentMode"]?.stringValue {
    case "free":
      return IntroductoryOffer(paymentMode: .freeTrial, period: period, periodCount: count)
    case "payAsYouGo":
      guard let price = price(node, path: path) else { return nil }
      return IntroductoryOffer(paymentMode: .payAsYouGo, period: period, periodCount: count, price: price)
    case "payUpFront":
      guard let price = price(node, path: path) else { return nil }
      return IntroductoryOffer(paymentMode: .payUpFront, period: period, periodCount: 1, price: price)
    case let other:
      let modes = ["free", "payAsYouGo", "payUpFront"]
      let found = other.map { "\"\($0)\"\(Suggestions.hint(for: $0, in: modes))" } ?? "nothing"
      diagnostics.error("'paymentMode' must be \"free\", \"payAsYouGo\" or \"payUpFront\", found \(found)",
                        at: node["paymentMode"]?.location ?? node.location, path: path.appending("paymentMode"))
      return nil
    }
  }
}
