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
    diagnostics.append(reader.entitlementMap.unknownNames(products: Set(reader.seenIDs),
                                                          groups: Set(reader.groups.flatMap { [$0.id, $0.name] }), catalog: file,
                                                          products: "a product's productID", groups: "a subscription group's name or id"))
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

  struct Reader {
    let file: String
    let diagnostics: DiagnosticCollector
    var settings = StoreSettings()
    var currency = "USD"
    var locale = "en_US"
    var products: [StoreProduct] = []
    var groups: [SubscriptionGroup] = []
    var entitlementMap = EntitlementMap()
    var seen: [String: SourceLocation] = [:]
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

    func list(_ node: JSONNode, _ key: String, path: JSONPath) -> [JSONNode]? {
      guard let value = node[key] else { return nil }
      guard let elements = value.elements else {
        diagnostics.error("\(quoting: key) must be an array, found \(value.value.typeName)", at: value.location, path: path.appending(key))
        return nil
      }
      return elements
    }

    mutating func add(_ node: JSONNode, path: JSONPath, kind: ProductKind, group: (id: String, name: String)?) {
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

  }
}