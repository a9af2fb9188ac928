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

/// Decodes the SDK's config from our positioned JSON, the way the SDK's `Decodable`s read it:
/// unknown keys are ignored, a JSON `null` is an absent key (`decodeIfPresent`), a key the SDK
/// `decode`s and the file lacks is an error naming its JSON path
/// (`$.trigger_options[3].rules[0].variants[1].percentage`), and so is a wrong type.
package enum SuperwallConfigReader {
  /// The config as far as it decodes, or nil when it is not an object. Anything the SDK requires
  /// that is missing or of the wrong type is an error in `diagnostics` (and the SDK would reject
  /// the whole config); what did decode is returned so the mapping finds its problems in the same pass.
  /// `sdk` decides which products' stores decode (custom store products from 4.15). `bothStores`
  /// (a cross-platform import, `sdk` an iOS release): Superwall-iOS keeps its stores' products and
  /// Superwall-Android its PLAY_STORE ones, each tagged with its platform.
  package static func read(_ root: JSONNode, diagnostics: DiagnosticCollector, sdk: SDKVersion = .latest,
                           bothStores: Bool = false) -> SuperwallConfig? {
    guard let top = ObjectReader(root, path: .root, diagnostics: diagnostics, policy: .decoder, what: "the config") else { return nil }
    // Config.swift `init(from:)`: these are `decode`d (required) even where we do not use them.
    let buildID = top.string("build_id", required: true)
    _ = top.int("log_level", required: true)
    let sessionTimeout = top.int("app_session_timeout_ms", required: true)
    _ = top.array("toggles", required: true)  // FeatureFlags.swift
    _ = top.object("disable_preload", required: true)  // PreloadingDisabled.swift
    _ = top.object("localization", required: true)  // LocalizationConfig.swift
    // Each trigger and each paywall is decoded on its own, on every core (a paywall's
    // substitutions' base64 and JSON are most of the config's work, and its triggers were a tenth
    // of the load read one after another); their diagnostics join the config's in file order.
    let triggerNodes = top.array("trigger_options", required: true) ?? []
    let paywallNodes = top.array("paywall_responses", required: true) ?? []
    let triggerPath = top.path.appending("trigger_options")
    let listPath = top.path.appending("paywall_responses")
    let items = triggerNodes.indices.map { Item.trigger($0) } + paywallNodes.indices.map { Item.paywall($0) }
    let decoded = items.parallelMap { item -> (Decoded, DiagnosticCollector) in
      let own = DiagnosticCollector(file: diagnostics.file, source: diagnostics.source)
      switch item {
      case .trigger(let i): return (.trigger(readTrigger(triggerNodes[i], path: triggerPath.appending(i), own)), own)
      case .paywall(let i):
        guard let paywall = readPaywall(paywallNodes[i], path: listPath.appending(i), own, sdk: sdk, bothStores: bothStores) else {
          return (.brokenPaywall(id: paywallNodes[i]["identifier"]?.stringValue), own)
        }
        return (.paywall(paywall), own)
      }
    }
    var triggers: [SuperwallConfig.Trigger] = []
    var paywalls: [SuperwallConfig.Paywall] = []
    var broken: Set<String> = []
    for (result, own) in decoded {
      diagnostics.append(own.diagnostics)
      switch result {
      case .trigger(let trigger): if let trigger { triggers.append(trigger) }
      case .paywall(let paywall): paywalls.append(paywall)
      case .brokenPaywall(let id): if let id { broken.insert(id) }
      }
    }
    return SuperwallConfig(buildID: buildID ?? "", triggers: triggers, paywalls: paywalls, brokenPaywallIDs: broken,
                           appSessionTimeoutMs: sessionTimeout)
  }

  /// One element of `trigger_options` or of `paywall_responses`, by its index there.
  private enum Item {
    case trigger(Int)
    case paywall(Int)
  }

  /// What an `Item` decoded to; a trigger or paywall with an error (reported) decodes to nil, or
  /// to its identifier when it has one, so that a variant naming it is not also "no paywall".
  private enum Decoded {
    case trigger(SuperwallConfig.Trigger?)
    case paywall(SuperwallConfig.Paywall)
    case brokenPaywall(id: String?)
  }

  // MARK: - Triggers

  private static func readTrigger(_ node: JSONNode, path: JSONPath, _ d: DiagnosticCollector) -> SuperwallConfig.Trigger? {
    guard let object = ObjectReader(node, path: path, diagnostics: d, policy: .decoder, what: "a trigger") else { return nil }
    let name = object.string("event_name", required: true)
    var rules: [SuperwallConfig.Rule] = []
    let ruleNodes = object.array("rules", required: true) ?? []
    for (i, ruleNode) in ruleNodes.enumerated() {
      if let rule = readRule(ruleNode, path: path.appending("rules").appending(i), d) { rules.append(rule) }
    }
    guard let name else { return nil }
    // The parser drops control characters from every string: a name made only of them (or of
    // spaces) is no placement our campaigns can hold, so it is an error here, at its key.
    if name.trimmingSpaces().isEmpty, let at = object.value("event_name") {
      d.error("'event_name' is empty once its control characters and spaces are dropped; give the trigger a placement name",
              at: at.location, path: path.appending("event_name"))
      return nil
    }
    var trigger = SuperwallConfig.Trigger(placement: name, rules: rules, location: node.location, path: path)
    trigger.hadUnreadableRules = rules.count < ruleNodes.count
    return trigger
  }

  private static func readRule(_ node: JSONNode, path: JSONPath, _ d: DiagnosticCollector) -> SuperwallConfig.Rule? {
    guard let object = ObjectReader(node, path: path, diagnostics: d, policy: .decoder, what: "a rule") else { return nil }
    let experimentID = object.string("experiment_id", required: true)
    let groupID = object.string("experiment_group_id", required: true)
    var variants: [SuperwallConfig.Variant] = []
    var variantsValid = true
    for (i, variantNode) in (object.array("variants", required: true) ?? []).enumerated() {
      if let variant = readVariant(variantNode, path: path.appending("variants").appending(i), d) {
        variants.append(variant)
      } else {
        variantsValid = false
      }
    }
    let cel = object.located("expression_cel")
    let expression = object.located("expression")
    let js = object.located("expression_js")
    var occurrence: SuperwallConfig.Occurrence?
    var occurrenceValid = true
    if let occurrenceObject = object.object("occurrence") {
      // TriggerAudienceOccurrence.swift: key, max_count and interval are all required.
      let key = occurrenceObject.string("key", required: true)
      let maxCount = occurrenceObject.int("max_count", required: true)
      var minutes: Int?
      var intervalValid = false
      if let interval = occurrenceObject.object("interval", required: true) {
        let type = interval.string("type", required: true)
        let count = interval.int("minutes")
        intervalValid = type != nil
        // An unknown type reads as INFINITY; MINUTES without `minutes` too.
        if type == "MINUTES" { minutes = count }
      }
      if let key, let maxCount, intervalValid {
        occurrence = SuperwallConfig.Occurrence(key: key, maxCount: maxCount, minutes: minutes, location: occurrenceObject.node.location)
      } else {
        occurrenceValid = false
      }
    }
    // TriggerPreload: `preload` and its `behavior` are required.
    var preload: String?
    if let preloadObject = object.object("preload", required: true) {
      preload = preloadObject.choice("behavior", ["IF_TRUE", "ALWAYS", "NEVER"], required: true)
      if preloadObject.bool("requires_re_evaluation") == true { preload = "ALWAYS" }
    }
    guard let experimentID, let groupID, let preload, variantsValid, occurrenceValid else { return nil }
    return SuperwallConfig.Rule(experimentID: experimentID, experimentGroupID: groupID, variants: variants, expressionCEL: cel,
                                expression: expression, expressionJS: js, occurrence: occurrence, preload: preload,
                                location: node.location, path: path)
  }

  private static func readVariant(_ node: JSONNode, path: JSONPath, _ d: DiagnosticCollector) -> SuperwallConfig.Variant? {
    guard let object = ObjectReader(node, path: path, diagnostics: d, policy: .decoder, what: "a variant") else { return nil }
    // Experiment.swift: an unknown variant_type reads as TREATMENT.
    let type = object.string("variant_type", required: true)
    let id = object.string("variant_id", required: true)
    // The dashboard's split is in percent; `ConfigLogic.chooseVariant` sums the percentages, so
    // a larger one is not a split any dashboard gives, and a huge one overflowed our sum.
    let percentage = object.int("percentage", required: true, range: 0...100, meaning: "a percent of users")
    let paywall = object.located("paywall_identifier")
    guard let type, let id, let percentage else { return nil }
    return SuperwallConfig.Variant(kind: type == "HOLDOUT" ? .holdout : .treatment, id: id, percentage: percentage,
                                   paywallID: paywall, location: node.location, path: path)
  }

  // MARK: - Paywalls

  private static func readPaywall(_ node: JSONNode, path: JSONPath, _ d: DiagnosticCollector, sdk: SDKVersion,
                                  bothStores: Bool) -> SuperwallConfig.Paywall? {
    guard let object = ObjectReader(node, path: path, diagnostics: d, policy: .decoder, what: "a paywall response") else { return nil }
    // Paywall.swift `init(from:)`: these are `decode`d (required).
    _ = object.string("id", required: true)
    let identifier = object.string("identifier", required: true)
    let name = object.string("name", required: true)
    _ = object.string("cache_key", required: true)
    _ = object.string("build_id", required: true)
    _ = object.string("url", required: true)
    _ = object.object("url_config", required: true)
    let event = object.string("paywalljs_event", required: true)
    let delay = object.int("presentation_delay", required: true)
    let background = object.string("background_color_hex", required: true)
    // 4.x reads `presentation_style_v3` (an object with `type`), 3.x `presentation_style_v2` (a string).
    var style: String?
    if let v3 = object.value("presentation_style_v3") {
      if let s = v3.stringValue {
        style = s
      } else if let styleObject = ObjectReader(v3, path: path.appending("presentation_style_v3"), diagnostics: d, policy: .decoder, what: "'presentation_style_v3'") {
        style = styleObject.string("type", required: true)
      }
    } else if let v2 = object.string("presentation_style_v2") {
      style = v2
    } else {
      d.error("missing required key 'presentation_style_v3' (or 3.x's 'presentation_style_v2')", at: node.location, path: path)
    }
    let condition = object.string("presentation_condition")
    let gating = object.string("feature_gating")
    let eligibility = object.string("introductory_offer_eligibility") ?? "AUTOMATIC"
    var products: [SuperwallConfig.Product] = []
    if let list = object.array("products_v2") {
      for (i, productNode) in list.enumerated() {
        if let product = readProductV2(productNode, path: path.appending("products_v2").appending(i), d, sdk: sdk, bothStores: bothStores) { products.append(product) }
      }
    } else if let list = object.array("products") {
      for (i, productNode) in list.enumerated() {
        if let product = readProductV1(productNode, path: path.appending("products").appending(i), d) { products.append(product) }
      }
    }
    if products.isEmpty, (object.array("products_v2") ?? []).isEmpty, let v3 = object.array("products_v3"), !v3.isEmpty {
      d.warning(.superwallImport, (identifier.map { "paywall \(quoting: $0): " } ?? "") + Self.productsV3Only(v3.count, sdk),
                at: object.value("products_v3")!.location, path: path.appending("products_v3"))
    }
    var substitutions: [SuperwallConfig.Substitution] = []
    if let event, let at = object.value("paywalljs_event") {
      substitutions = PaywallJSEvent.substitutions(fromBase64: at.uncut ?? event, at: at.location,
                                                   path: path.appending("paywalljs_event"), d)
    }
    let surveys = SurveyImport.read(object.array("surveys") ?? [], path: path.appending("surveys"), d)
    let notifications = LocalNotificationImport.read(object.array("local_notifications") ?? [], path: path.appending("local_notifications"), d)
    guard let identifier, let name, let delay, let background, let style else { return nil }
    return SuperwallConfig.Paywall(identifier: identifier, name: name, gated: gating == "GATED", products: products,
                                   presentationCondition: condition, presentationStyle: style, presentationDelay: delay,
                                   backgroundColorHex: background, introductoryOfferEligibility: eligibility,
                                   substitutions: substitutions, substitutionsLocation: object.value("paywalljs_event")?.location ?? node.location,
                                   surveys: surveys, localNotifications: notifications, location: node.location, path: path)
  }

  /// What a paywall whose products are only in `products_v3` (none in `products_v2`) sells on the
  /// chosen SDK: Superwall-iOS reads `products_v2` alone (`Models/Paywall/Paywall.swift`);
  /// Superwall-Android reads `products_v3` when `products_v2` is empty, from 2.6.0
  /// (`models/paywall/Paywall.kt` `productIds`, `PaywallProductIdsTest.kt`), but its
  /// `CrossplatformProductSerializer` gives each of them an empty name, so none fills a named slot.
  static func productsV3Only(_ count: Int, _ sdk: SDKVersion) -> String {
    let listed = "its \(count) product\(count == 1 ? "" : "s") \(count == 1 ? "is" : "are") only in 'products_v3', 'products_v2' has none"
    if sdk.platform == .ios {
      return "\(listed): Superwall-iOS reads a paywall's products from 'products_v2' only (Models/Paywall/Paywall.swift), so it sells nothing; imported without products"
    }
    if !sdk.isAndroidAtLeast(minor: 6) {
      return "\(listed): Superwall-Android \(sdk) does not read 'products_v3' (2.6.0 does), so it sells nothing; imported without products"
    }
    return "\(listed): Superwall-Android fetches them (models/paywall/Paywall.kt, productIds) but gives each an empty name (CrossplatformProductSerializer reads no 'reference_name'), so none fills a slot of the paywall; imported without products"
  }

  /// A `products_v2` item. The SDK decodes each as a `Throwable<Product>` and drops one that
  /// fails (`Paywall.swift`): a store other than `APP_STORE` (or, from 4.15.0, `CUSTOM`:
  /// `Models/Product/Product.swift` decodes a `CustomStoreProduct`), an entitlement whose type is
  /// not `SERVICE_LEVEL` (`Entitlement.swift` throws "Unsupported entitlement type."), a missing
  /// `entitlements`. It is skipped here too, with a warning saying why.
  private static func readProductV2(_ node: JSONNode, path: JSONPath, _ d: DiagnosticCollector, sdk: SDKVersion,
                                    bothStores: Bool) -> SuperwallConfig.Product? {
    guard node.members != nil else {
      d.warning(.superwallImport, "skipped: a product must be an object, found \(node.value.typeName) (the SDK drops it)", at: node.location, path: path)
      return nil
    }
    let quiet = DiagnosticCollector(file: d.file, source: [])
    let object = ObjectReader(node, path: path, diagnostics: quiet, policy: .decoder, what: "a product")!
    let name = object.string("reference_name")
    let store = object.object("store_product", required: true)
    let productID = store?.string("product_identifier", required: true)
    let storeName = store?.string("store", required: true)
    // A Play product's base plan and offer, read before the product is judged: a wrong type there
    // fails its decoding as any other (`PlayStoreProductSerializer`).
    let isPlay = storeName == "PLAY_STORE" && (sdk.platform == .android || bothStores)
    let basePlan = isPlay ? store?.string("base_plan_identifier") : nil
    let offer = isPlay ? store?.object("offer") : nil
    let (offerType, offerID) = (offer?.string("type"), offer?.string("offer_identifier"))
    var entitlements: [String] = []
    var unsupported: String?
    for (i, entitlement) in (object.array("entitlements", required: true) ?? []).enumerated() {
      guard let e = ObjectReader(entitlement, path: path.appending("entitlements").appending(i), diagnostics: quiet, policy: .decoder, what: "an entitlement") else { continue }
      let id = e.string("identifier", required: true)
      let type = e.string("type", required: true)
      if let type, type != "SERVICE_LEVEL" { unsupported = unsupported ?? type }
      if let id { entitlements.append(id) }
    }
    let skip: String?
    if let problem = quiet.diagnostics.first {
      skip = "\(problem.message)\(problem.path.map { " at \($0)" } ?? "")"
    } else if sdk.platform == .android, let storeName, storeName != "PLAY_STORE" {
      skip = "its store is \(quoting: storeName), and Superwall-Android sells only PLAY_STORE products through Google Play (models/product/ProductItem.kt)"
    } else if storeName == "CUSTOM", !sdk.hasCustomProducts {
      skip = "its store is 'CUSTOM', which SDK \(sdk) does not decode (custom store products arrived in 4.15)"
    } else if sdk.platform == .ios, !isPlay, let storeName, storeName != "APP_STORE", storeName != "CUSTOM" {
      skip = "its store is \(quoting: storeName), not APP_STORE or CUSTOM" + (bothStores ? " (Superwall-iOS) nor PLAY_STORE (Superwall-Android)" : "")
    } else if let unsupported {
      skip = "an entitlement's type is \(quoting: unsupported), not SERVICE_LEVEL"
    } else {
      skip = nil
    }
    if let skip {
      d.warning(.superwallImport, "product skipped as the SDK skips it: \(skip)", at: node.location, path: path)
      return nil
    }
    guard var productID else { return nil }
    if isPlay {
      // The id a Play product has on a device: `sku:basePlan:offer` (`PlayStoreProduct.fullIdentifier`).
      guard let chosen = PlayProductIdentifier.ConfigOffer(type: offerType, offerIdentifier: offerID) else {
        d.warning(.superwallImport, "product skipped as the SDK skips it: its offer is SPECIFIED with no 'offer_identifier'", at: node.location, path: path)
        return nil
      }
      productID = PlayProductIdentifier.configFullIdentifier(productIdentifier: productID, basePlanIdentifier: basePlan, offer: chosen)
    }
    let location = store?.value("product_identifier")?.location ?? node.location
    return SuperwallConfig.Product(slot: name, productID: productID, entitlements: entitlements, isCustom: storeName == "CUSTOM",
                                   location: location, path: path.appending("store_product").appending("product_identifier"),
                                   platform: isPlay ? .android : sdk.platform)
  }

  /// 3.x's older `products` item: `{"product": "primary", "product_id": "com.acme.annual"}`.
  private static func readProductV1(_ node: JSONNode, path: JSONPath, _ d: DiagnosticCollector) -> SuperwallConfig.Product? {
    guard let object = ObjectReader(node, path: path, diagnostics: d, policy: .decoder, what: "a product") else { return nil }
    let slot = object.string("product", required: true)
    let productID = object.string("product_id", required: true)
    guard let slot, let productID else { return nil }
    return SuperwallConfig.Product(slot: slot, productID: productID, entitlements: [], isCustom: false,
                                   location: object.value("product_id")?.location ?? node.location, path: path.appending("product_id"))
  }
}

/// `paywalljs_event`: base64 of the JSON the editor sends the web view, an array of events of
/// which `template_substitutions` lists `{"key", "value", "freeTrialValue"}`. The SDK passes it to
/// the page undecoded (`Paywall.swift` `htmlSubstitutions`), so a value it cannot read is a
/// warning here (the paywall then has no text from it), never an error.
package enum PaywallJSEvent {
  package static func substitutions(fromBase64 text: String, at location: SourceLocation, path: JSONPath,
                                    _ d: DiagnosticCollector) -> [SuperwallConfig.Substitution] {
    if text.isEmpty { return [] }
    guard let bytes = CanonicalBase64.decode(text) ?? Data(base64Encoded: text, options: .ignoreUnknownCharacters).map({ [UInt8]($0) }),
          !bytes.isEmpty else {
      d.warning(.superwallImport, "'paywalljs_event' is not base64; the paywall gets no text from the editor's substitutions", at: location, path: path)
      return []
    }
    if let read = SubstitutionScanner.substitutions(in: bytes) { return read }
    let root: JSONNode
    do {
      root = try JSONParser.parse(bytes: bytes, positions: false)
    } catch {
      d.warning(.superwallImport, "'paywalljs_event' decodes to invalid JSON (\(error.message) at \(error.location) of the decoded text); the paywall gets no text from it",
                at: location, path: path)
      return []
    }
    return substitutions(in: root)
  }

  /// The substitutions of the decoded event's tree (`SubstitutionScanner` reads the same from
  /// the bytes of plain JSON).
  package static func substitutions(in root: JSONNode) -> [SuperwallConfig.Substitution] {
    let events = root.elements ?? [root]
    var out: [SuperwallConfig.Substitution] = []
    for event in events {
      guard event["event_name"]?.stringValue == "template_substitutions", let list = event["substitutions"]?.elements else { continue }
      for item in list {
        guard let key = item["key"]?.stringValue, let value = item["value"]?.stringValue else { continue }
        let behavior = item["properties"]?.elements?.lazy.compactMap { $0["property"]?["clickBehavior"]?["type"]?.stringValue }.first
        out.append(.init(key: key, value: value, freeTrialValue: item["freeTrialValue"]?.stringValue, clickBehavior: behavior))
      }
    }
    return out
  }
}

extension ObjectReader {
  /// A string of the config with where it was written, its text as the file has it (`uncut`).
  func located(_ key: String, required: Bool = false) -> SuperwallConfig.Located? {
    guard let s = string(key, required: required), let at = value(key) else { return nil }
    return SuperwallConfig.Located(text: at.uncut ?? s, location: at.location, path: path.appending(key))
  }
}
