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

/// Reads our own JSON catalog format:
/// `{"products": [{"id", "name", "price": "59.99", "currency": "USD", "period": "P1Y", "trial": "P7D",
/// "entitlements": ["pro"]}]}`, plus optional `intro`, `group`, `level`, `type`, `store`, `description`,
/// and catalog-wide `currency`, `locale` and `storefront` defaults.
package enum CatalogReader {
  package static let productTypes = ["autoRenewable", "nonRenewing", "consumable", "nonConsumable"]
  static let introModes = ["payAsYouGo", "payUpFront"]

  package static func read(_ root: JSONNode, file: String, diagnostics: DiagnosticCollector) -> Catalog? {
    guard let reader = ObjectReader(root, path: .root, diagnostics: diagnostics, what: "a catalog") else { return nil }
    let defaultCurrency = currency(reader, "currency") ?? "USD"
    let defaultLocale = reader.string("locale") ?? "en_US"
    let storefront = reader.string("storefront")
    var products: [StoreProduct] = []
    var unloaded: Set<String> = []
    var seen: [String: SourceLocation] = [:]
    let productsPath = JSONPath.root.appending("products")
    for (i, node) in (reader.array("products", required: true) ?? []).enumerated() {
      let path = productsPath.appending(i)
      guard let product = readProduct(node, path: path, diagnostics: diagnostics,
                                      currency: defaultCurrency, locale: defaultLocale) else {
        if let id = node["id"]?.stringValue, !id.isEmpty { unloaded.insert(id) }
        continue
      }
      if let first = seen[product.id] {
        diagnostics.error("duplicate product id \(quoting: product.id) (first defined at line \(first.line))",
                          at: node["id"]?.location ?? node.location, path: path.appending("id"))
        continue
      }
      seen[product.id] = node.location
      products.append(product)
    }
    reader.finish()
    var groups: [String: [StoreProduct]] = [:]
    var groupOrder: [String] = []
    for product in products {
      guard let group = product.subscriptionGroup else { continue }
      if groups[group] == nil { groupOrder.append(group) }
      groups[group, default: []].append(product)
    }
    let subscriptionGroups = groupOrder.map { name in
      SubscriptionGroup(id: name, name: name,
                        productIDs: groups[name]!.sorted { ($0.groupLevel ?? .max) < ($1.groupLevel ?? .max) }.map(\.id))
    }
    var catalog = Catalog(products: products, groups: subscriptionGroups,
                          settings: StoreSettings(storefront: storefront, locale: defaultLocale), file: file)
    catalog.unloadedProductIDs = unloaded
    return catalog
  }

  private static func currency(_ reader: ObjectReader, _ key: String) -> String? {
    guard let code = reader.string(key) else { return nil }
    guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
      reader.diagnostics.error("\(quoting: key) must be an ISO 4217 code such as \"USD\", found \"\(excerpt: code)\"",
                               at: reader.value(key)!.location, path: reader.path.appending(key))
      return nil
    }
    return code
  }

  static func period(_ reader: ObjectReader, _ key: String) -> SubscriptionPeriod? {
    guard let text = reader.string(key) else { return nil }
    guard let period = SubscriptionPeriod(iso8601: text) else {
      reader.diagnostics.error("\(quoting: key) must be an ISO 8601 period such as \"P1W\", \"P1M\" or \"P1Y\", found \"\(excerpt: text)\"",
                               at: reader.value(key)!.location, path: reader.path.appending(key))
      return nil
    }
    return period
  }

  private static func readProduct(_ node: JSONNode, path: JSONPath, diagnostics: DiagnosticCollector,
                                  currency defaultCurrency: String, locale: String) -> StoreProduct? {
    guard let reader = ObjectReader(node, path: path, diagnostics: diagnostics, what: "a product") else { return nil }
    defer { reader.finish() }
    let id = reader.string("id", required: true)
    let name = reader.string("name", required: true)
    let description = reader.string("description", nonEmpty: false) ?? ""
    let price = reader.decimal("price", required: true)
    let currencyCode = currency(reader, "currency") ?? defaultCurrency
    let period = Self.period(reader, "period")
    let trial = Self.period(reader, "trial")
    let intro = readIntro(reader, currency: currencyCode)
    let offers = readOffers(reader, currency: currencyCode)
    if trial != nil && intro != nil {
      diagnostics.error("a product has either 'trial' (free) or 'intro' (paid), not both",
                        at: reader.value("intro")!.location, path: path.appending("intro"))
    }
    let group = reader.string("group")
    let level = reader.int("level", range: 1...100)
    let entitlements = reader.stringArray("entitlements")
    let store = reader.choice("store", Store.allCases.map(\.rawValue)).flatMap(Store.init(rawValue:)) ?? .appStore
    let familyShareable = reader.bool("familyShareable") ?? false
    let explicitKind = reader.choice("type", productTypes).flatMap(ProductKind.init(rawValue:))
    let kind = explicitKind ?? (period == nil ? .nonConsumable : .autoRenewable)
    if kind == .autoRenewable && period == nil {
      diagnostics.error("an auto-renewable product needs a 'period' such as \"P1M\"", at: node.location, path: path)
    }
    if !kind.isSubscription && (trial != nil || intro != nil) {
      diagnostics.error("only subscriptions can have a 'trial' or 'intro' offer; add a 'period' or remove the offer",
                        at: node.location, path: path)
    }
    if level != nil && group == nil {
      diagnostics.error("'level' needs a 'group' to rank the product in", at: reader.value("level")!.location,
                        path: path.appending("level"))
    }
    if let price { warnIfTooPrecise(price, currency: currencyCode, key: "price", reader) }
    guard let id, let name, let price else { return nil }
    let offer = trial.map { IntroductoryOffer(paymentMode: .freeTrial, period: $0) } ?? intro
    let granted = entitlements.map { Set($0.map { Entitlement($0.0) }) } ?? (group.map { [Entitlement($0)] } ?? [])
    return StoreProduct(id: id, displayName: name, description: description, price: price.0, currencyCode: currencyCode,
                        locale: locale, kind: kind, subscriptionPeriod: period, introductoryOffer: offer,
                        subscriptionGroup: group, groupLevel: level ?? (group == nil ? nil : 1),
                        entitlements: granted, store: store, familyShareable: familyShareable, offers: kind == .autoRenewable ? offers : [])
  }

  /// `"offers": [{"type": "winBack", "id": "annual.back", "mode": "payUpFront", "price": "19.99",
  /// "period": "P1Y", "paidMonths": 1, "monthsSinceLapse": [1, 24], "waitMonths": 6}]`: the
  /// promotional (`promotional`), offer-code (`code`) and win-back (`winBack`) offers of a
  /// subscription, as `.storekit` files and App Store Connect define them.
  private static func readOffers(_ parent: ObjectReader, currency: String) -> [SubscriptionOffer] {
    guard let nodes = parent.array("offers") else { return [] }
    var offers: [SubscriptionOffer] = []
    for (i, node) in nodes.enumerated() {
      let path = parent.path.appending("offers").appending(i)
      guard let reader = ObjectReader(node, path: path, diagnostics: parent.diagnostics, what: "an offer") else { continue }
      defer { reader.finish() }
      let kind = reader.choice("type", SubscriptionOffer.Kind.allCases.map(\.rawValue), required: true)
      let id = reader.string("id", required: true)
      let mode = reader.choice("mode", ["freeTrial"] + introModes, required: true)
      let price = mode == "freeTrial" ? nil : reader.decimal("price", required: true)
      let period = Self.period(reader, "period")
      if period == nil && !reader.has("period") {
        reader.diagnostics.error("missing required key 'period'", at: node.location, path: path)
      }
      let count = reader.int("periods", range: 1...120) ?? 1
      var rules = WinBackRules()
      rules.paidMonths = reader.int("paidMonths", range: 0...1200) ?? 0
      if let range = reader.value("monthsSinceLapse") {
        let bounds = range.elements?.compactMap { node -> Int? in
          if case .number(let text) = node.value { return Int(text) } else { return nil }
        }
        if let bounds, bounds.count == 2, bounds[0] >= 0, bounds[1] >= bounds[0] {
          rules.minimumMonthsSinceLapse = bounds[0]
          rules.maximumMonthsSinceLapse = bounds[1]
        } else {
          reader.diagnostics.error("'monthsSinceLapse' must be [minimum, maximum] in whole months, e.g. [1, 24]",
                                   at: range.location, path: path.appending("monthsSinceLapse"))
        }
      }
      rules.waitBetweenOffersMonths = reader.int("waitMonths", range: 0...1200)
      var eligibility = Set(CustomerStanding.allCases)
      if let list = reader.value("eligibility") {
        let words = list.elements?.compactMap(\.stringValue) ?? []
        let standings = words.compactMap(CustomerStanding.init(rawValue:))
        if list.elements == nil || standings.count != list.elements?.count || standings.isEmpty {
          reader.diagnostics.error("'eligibility' must list who may redeem the code: one or more of new, existing, expired, e.g. [\"new\", \"expired\"]",
                                   at: list.location, path: path.appending("eligibility"))
        } else {
          eligibility = Set(standings)
        }
        if kind != nil, kind != SubscriptionOffer.Kind.code.rawValue {
          reader.diagnostics.error("'eligibility' is for offer codes (\"type\": \"code\"); a \(kind!) offer's rules are its own",
                                   at: list.location, path: path.appending("eligibility"))
        }
      }
      if let price { warnIfTooPrecise(price, currency: currency, key: "price", reader) }
      if let id, offers.contains(where: { $0.id == id }) {
        reader.diagnostics.error("duplicate offer id \(quoting: id)", at: reader.value("id")!.location, path: path.appending("id"))
        continue
      }
      guard let kind, let id, let mode, let period, mode == "freeTrial" || price != nil else { continue }
      let terms = IntroductoryOffer(paymentMode: IntroductoryOffer.PaymentMode(rawValue: mode)!, period: period,
                                    periodCount: count, price: price?.0 ?? 0)
      offers.append(SubscriptionOffer(kind: SubscriptionOffer.Kind(rawValue: kind)!, id: id, terms: terms, winBackRules: rules,
                                      codeEligibility: eligibility))
    }
    return offers
  }

  /// A price its currency cannot have (`CurrencyMinorUnits.problem`) is a warning.
  private static func warnIfTooPrecise(_ price: (Decimal, SourceLocation), currency: String, key: String, _ reader: ObjectReader) {
    guard let problem = CurrencyMinorUnits.problem(price.0, currency: currency, key: key) else { return }
    reader.diagnostics.warning(.currencyDecimals, problem, at: price.1, path: reader.path.appending(key))
  }

  private static func readIntro(_ parent: ObjectReader, currency: String) -> IntroductoryOffer? {
    guard let node = parent.value("intro"),
          let reader = ObjectReader(node, path: parent.path.appending("intro"), diagnostics: parent.diagnostics,
                                    what: "'intro'")
    else { return nil }
    defer { reader.finish() }
    let mode = reader.choice("mode", introModes, required: true)
    let price = reader.decimal("price", required: true)
    let period = Self.period(reader, "period")
    if period == nil && !reader.has("period") {
      reader.diagnostics.error("missing required key 'period'", at: node.location, path: reader.path)
    }
    let count = reader.int("periods", range: 1...120) ?? 1
    if let price { warnIfTooPrecise(price, currency: currency, key: "price", reader) }
    guard let mode, let price, let period else { return nil }
    return IntroductoryOffer(paymentMode: IntroductoryOffer.PaymentMode(rawValue: mode)!, period: period,
                             periodCount: count, price: price.0)
  }
}
