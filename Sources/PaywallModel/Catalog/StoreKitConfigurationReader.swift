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

/// Reads an Xcode StoreKit configuration file (`.storekit`, format versions 1.x to 5.x) as Xcode
/// writes it: `products` (consumables and non-consumables), `nonRenewingSubscriptions`,
/// `subscriptionGroups` with their `subscriptions` ranked by `groupNumber`, `introductoryOffer`s and
/// `settings`. Keys we do not use are ignored (Xcode adds some in every version); the
/// `subscriptionOffersKeyPair` is never read, so it can never be printed.
///
/// Entitlements: each subscription grants one named after its group, each non-consumable one named
/// after its product id, unless a side file `NAME.entitlements.json` beside `NAME.storekit` maps them:
/// `{"groups": {"GROUP NAME": ["pro"]}, "products": {"PRODUCT ID": ["pro", "lifetime"]}}`.
package enum StoreKitConfigurationReader {
  package static let supportedMajorVersions = 1...5

  package static func read(_ root: JSONNode, file: String, diagnostics: DiagnosticCollector) -> Catalog? {
    guard root.members != nil else {
      diagnostics.error("a StoreKit configuration must be an object, found \(root.value.typeName)",
                        at: root.location, path: .root)
      return nil
    }
    var reader = Reader(file: file, diagnostics: diagnostics)
    reader.readVersion(root)
    reader.readSettings(root["settings"])
    reader.entitlementMap = EntitlementMap.load(besides: file, diagnostics: diagnostics)
    reader.readProducts(root)
    var catalog = Catalog(products: reader.products, groups: reader.groups, settings: reader.settings, file: file)
    catalog.unloadedProductIDs = Set(reader.seenIDs)
    return catalog
  }

  /// Currency and a formatting locale for App Store storefronts (ISO 3166 alpha-3).
  static let storefronts: [String: (currency: String, locale: String)] = [
    "USA": ("USD", "en_US"), "CAN": ("CAD", "en_CA"), "MEX": ("MXN", "es_MX"), "BRA": ("BRL", "pt_BR"),
    "GBR": ("GBP", "en_GB"), "IRL": ("EUR", "en_IE"), "DEU": ("EUR", "de_DE"), "FRA": ("EUR", "fr_FR"),
    "ESP": ("EUR", "es_ES"), "ITA": ("EUR", "it_IT"), "NLD": ("EUR", "nl_NL"), "BEL": ("EUR", "nl_BE"),
    "AUT": ("EUR", "de_AT"), "PRT": ("EUR", "pt_PT"), "FIN": ("EUR", "fi_FI"), "CHE": ("CHF", "de_CH"),
    "SWE": ("SEK", "sv_SE"), "NOR": ("NOK", "nb_NO"), "DNK": ("DKK", "da_DK"), "POL": ("PLN", "pl_PL"),
    "TUR": ("TRY", "tr_TR"), "JPN": ("JPY", "ja_JP"), "KOR": ("KRW", "ko_KR"), "CHN": ("CNY", "zh_CN"),
    "TWN": ("TWD", "zh_TW"), "HKG": ("HKD", "zh_HK"), "IND": ("INR", "en_IN"), "AUS": ("AUD", "en_AU"),
    "NZL": ("NZD", "en_NZ"), "SGP": ("SGD", "en_SG"), "ZAF": ("ZAR", "en_ZA"), "ARE": ("AED", "en_AE"),
    "SAU": ("SAR", "ar_SA"), "ISR": ("ILS", "he_IL"), "IDN": ("IDR", "id_ID"), "THA": ("THB", "th_TH"),
  ]

  private struct Reader {
    let file: String
    let diagnostics: DiagnosticCollector
    var settings = StoreSettings()
    var currency = "USD"
    var locale = "en_US"
    var products: [StoreProduct] = []
    var groups: [SubscriptionGroup] = []
    var entitlementMap = EntitlementMap()
    private var seen: [String: SourceLocation] = [:]
    /// Every product id the file defines, loaded or not.
    var seenIDs: Dictionary<String, SourceLocation>.Keys { seen.keys }

    init(file: String, diagnostics: DiagnosticCollector) {
      self.file = file
      self.diagnostics = diagnostics
    }

    func readVersion(_ root: JSONNode) {
      let path = JSONPath.root.appending("version")
      guard let version = root["version"] else {
        diagnostics.error("missing 'version'; is this a StoreKit configuration file from Xcode?", at: root.location, path: .root)
        return
      }
      guard case .number(let majorText)? = version["major"]?.value, let major = Int(majorText) else {
        diagnostics.error("'version.major' must be a number", at: version.location, path: path)
        return
      }
      if !supportedMajorVersions.contains(major) {
        let minor = version["minor"].flatMap { if case .number(let m) = $0.value { m } else { nil } } ?? "0"
        diagnostics.warning(.storekitVersion, "format version \(major).\(minor) is outside the versions read here (1.x to 5.x); reading it as 5.x",
                            at: version.location, path: path)
      }
    }

    mutating func readSettings(_ node: JSONNode?) {
      guard let node else { return }
      let path = JSONPath.root.appending("settings")
      func string(_ key: String) -> String? { node[key]?.stringValue }
      func bool(_ key: String) -> Bool {
        if case .bool(let b)? = node[key]?.value { return b }
        return false
      }
      settings.storefront = string("_storefront")
      settings.locale = string("_locale")
      settings.askToBuyEnabled = bool("_askToBuyEnabled")
      settings.billingGracePeriodEnabled = bool("_billingGracePeriodEnabled")
      settings.renewalBillingIssuesEnabled = bool("_renewalBillingIssuesEnabled")
      settings.failTransactionsEnabled = bool("_failTransactionsEnabled")
      if let rate = node["_timeRate"] {
        if case .number(let text) = rate.value, let n = Int(text), n >= 0 {
          settings.timeRate = n
        } else {
          diagnostics.error("'_timeRate' must be a whole number (0 is real time)", at: rate.location, path: path.appending("_timeRate"))
        }
      }
      if let storefront = settings.storefront {
        if let known = storefronts[storefront.uppercased()] {
          currency = known.currency
          locale = known.locale
        } else {
          diagnostics.warning(.unknownStorefront, "unknown storefront \(quoting: storefront)\(Suggestions.hint(for: storefront, in: storefronts.keys.sorted())); prices are shown in USD",
                              at: node["_storefront"]!.location, path: path.appending("_storefront"))
        }
      }
      // Xcode's `_locale` is the language the tester sees; prices keep the storefront's currency.
      if let language = settings.locale {
        locale = language
      }
    }

    mutating func readProducts(_ root: JSONNode) {
      for (i, node) in (list(root, "products", path: .root) ?? []).enumerated() {
        let path = JSONPath.root.appending("products").appending(i)
        let type = node["type"]?.stringValue
        let kind: ProductKind
        switch type {
        case "Consumable": kind = .consumable
        case "NonConsumable": kind = .nonConsumable
        default:
          diagnostics.error("'type' must be \"Consumable\" or \"NonConsumable\", found \(type.map { "\"\($0)\"" } ?? "nothing")",
                            at: node["type"]?.location ?? node.location, path: path.appending("type"))
          continue
        }
        add(node, path: path, kind: kind, group: nil)
      }
      for (i, node) in (list(root, "nonRenewingSubscriptions", path: .root) ?? []).enumerated() {
        add(node, path: JSONPath.root.appending("nonRenewingSubscriptions").appending(i), kind: .nonRenewing, group: nil)
      }
      for (g, groupNode) in (list(root, "subscriptionGroups", path: .root) ?? []).enumerated() {
        let groupPath = JSONPath.root.appending("subscriptionGroups").appending(g)
        guard groupNode.members != nil else {
          diagnostics.error("a subscription group must be an object", at: groupNode.location, path: groupPath)
          continue
        }
        let name = groupNode["name"]?.stringValue ?? groupNode["id"]?.stringValue ?? "group \(g + 1)"
        let id = groupNode["id"]?.stringValue ?? name
        let before = products.count
        for (i, node) in (list(groupNode, "subscriptions", path: groupPath) ?? []).enumerated() {
          add(node, path: groupPath.appending("subscriptions").appending(i), kind: .autoRenewable, group: (id, name))
        }
        let members = products[before...].sorted { ($0.groupLevel ?? .max) < ($1.groupLevel ?? .max) }
        groups.append(SubscriptionGroup(id: id, name: name, productIDs: members.map(\.id)))
      }
    }

    private func list(_ node: JSONNode, _ key: String, path: JSONPath) -> [JSONNode]? {
      guard let value = node[key] else { return nil }
      guard let elements = value.elements else {
        diagnostics.error("\(quoting: key) must be an array, found \(value.value.typeName)", at: value.location, path: path.appending(key))
        return nil
      }
      return elements
    }

    private mutating func add(_ node: JSONNode, path: JSONPath, kind: ProductKind, group: (id: String, name: String)?) {
      guard node.members != nil else {
        diagnostics.error("a product must be an object, found \(node.value.typeName)", at: node.location, path: path)
        return
      }
      guard let id = node["productID"]?.stringValue, !id.isEmpty else {
        diagnostics.error("missing 'productID'", at: node.location, path: path)
        return
      }
      if let first = seen[id] {
        diagnostics.error("duplicate productID \(quoting: id) (first defined at line \(first.line))",
                          at: node["productID"]!.location, path: path.appending("productID"))
        return
      }
      seen[id] = node.location
      guard let price = price(node, path: path) else { return }
      let (displayName, description) = localization(node)
      var period: SubscriptionPeriod?
      var offer: IntroductoryOffer?
      var offers: [SubscriptionOffer] = []
      var level: Int?
      if kind == .autoRenewable {
        period = requiredPeriod(node, "recurringSubscriptionPeriod", path: path)
        if period == nil { return }
        if case .number(let text)? = node["groupNumber"]?.value, let n = Int(text), n >= 1 {
          level = n
        } else {
          diagnostics.error("'groupNumber' must be a whole number from 1 (the highest level)",
                            at: node["groupNumber"]?.location ?? node.location, path: path.appending("groupNumber"))
        }
        offer = introductoryOffer(in: node, path: path)
        offers = subscriptionOffers(in: node, path: path)
      } else if kind == .nonRenewing, let text = node["subscriptionPeriod"]?.stringValue {
        period = SubscriptionPeriod(iso8601: text)
      }
      let granted: Set<Entitlement>
      if let mapped = entitlementMap.products[id] {
        granted = mapped
      } else if let group {
        granted = entitlementMap.groups[group.name] ?? entitlementMap.groups[group.id] ?? [Entitlement(group.name)]
      } else if kind == .nonConsumable || kind == .nonRenewing {
        granted = [Entitlement(id)]
      } else {
        granted = []
      }
      var shareable = false
      if case .bool(let b)? = node["familyShareable"]?.value { shareable = b }
      products.append(StoreProduct(
        id: id, displayName: displayName ?? node["referenceName"]?.stringValue ?? id, description: description ?? "",
        price: price, currencyCode: currency, locale: locale, kind: kind, subscriptionPeriod: period,
        introductoryOffer: offer, subscriptionGroup: group?.name, groupLevel: level, entitlements: granted,
        store: .appStore, familyShareable: shareable, offers: offers))
    }

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

    private static let offerWord: [UInt8] = Array("offer".utf8)

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
    private func introductoryOffer(in node: JSONNode, path: JSONPath) -> IntroductoryOffer? {
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
    private func subscriptionOffers(in node: JSONNode, path: JSONPath) -> [SubscriptionOffer] {
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
    private func codeEligibility(_ node: JSONNode, path: JSONPath) -> Set<CustomerStanding> {
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

    private func months(_ node: JSONNode?) -> Int? {
      if case .number(let text)? = node?.value { return Int(text) }
      return nil
    }

    private func warnUnknownKeys(_ node: JSONNode, allowed: Set<String>, path: JSONPath) {
      for member in node.members ?? [] where !allowed.contains(member.key) {
        diagnostics.warning(.storekitKey, "offer key \(quoting: member.key) is not read here; the offer is read without it",
                            at: member.keyLocation, path: path.appending(member.key))
      }
    }

    private func price(_ node: JSONNode, path: JSONPath) -> Decimal? {
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
    private func localization(_ node: JSONNode) -> (String?, String?) {
      guard let localizations = node["localizations"]?.elements, !localizations.isEmpty else { return (nil, nil) }
      let chosen = localizations.first { $0["locale"]?.stringValue == settings.locale } ?? localizations[0]
      let name = chosen["displayName"]?.stringValue
      return (name?.isEmpty == true ? nil : name, chosen["description"]?.stringValue)
    }

    private func requiredPeriod(_ node: JSONNode, _ key: String, path: JSONPath) -> SubscriptionPeriod? {
      guard let text = node[key]?.stringValue, let period = SubscriptionPeriod(iso8601: text) else {
        diagnostics.error("\(quoting: key) must be an ISO 8601 period such as \"P1M\"", at: node[key]?.location ?? node.location,
                          path: path.appending(key))
        return nil
      }
      return period
    }

    private func introductoryOffer(_ node: JSONNode, path: JSONPath) -> IntroductoryOffer? {
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
}

/// The optional `NAME.entitlements.json` beside a `NAME.storekit` file.
struct EntitlementMap {
  var groups: [String: Set<Entitlement>] = [:]
  var products: [String: Set<Entitlement>] = [:]

  static func path(besides storekitPath: String) -> String {
    let base = storekitPath.hasSuffix(".storekit") ? String(storekitPath.dropLast(".storekit".count)) : storekitPath
    return base + ".entitlements.json"
  }

  static func load(besides storekitPath: String, diagnostics: DiagnosticCollector) -> EntitlementMap {
    let path = path(besides: storekitPath)
    guard FileManager.default.fileExists(atPath: path) else { return EntitlementMap() }
    let root: JSONNode
    let local: DiagnosticCollector
    do {
      (root, local) = try SourceFile.parse(path: path)
    } catch {
      diagnostics.append(error.diagnostics)
      return EntitlementMap()
    }
    var map = EntitlementMap()
    if let reader = ObjectReader(root, path: .root, diagnostics: local, what: "an entitlements map") {
      map.groups = table(reader, "groups")
      map.products = table(reader, "products")
      reader.finish()
    }
    diagnostics.append(local.diagnostics)
    return map
  }

  private static func table(_ reader: ObjectReader, _ key: String) -> [String: Set<Entitlement>] {
    guard let node = reader.value(key) else { return [:] }
    guard let members = node.members else {
      reader.diagnostics.error("\(quoting: key) must be an object of name → [entitlement]", at: node.location, path: .root.appending(key))
      return [:]
    }
    var out: [String: Set<Entitlement>] = [:]
    for member in members {
      guard let list = member.value.elements, list.allSatisfy({ $0.stringValue != nil }) else {
        reader.diagnostics.error("\(quoting: member.key) must map to an array of entitlement names", at: member.value.location,
                                 path: JSONPath.root.appending(key).appending(member.key))
        continue
      }
      out[member.key] = Set(list.compactMap(\.stringValue).map { Entitlement($0) })
    }
    return out
  }
}
