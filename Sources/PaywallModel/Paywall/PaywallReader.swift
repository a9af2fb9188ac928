#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// Reads and validates a paywall JSON file, reporting every problem at once with its line, column
/// and JSON path. With a catalog, each slot's product must exist in it.
/// `platform`: whose store it sells through (`StoreChoice`): a slot with no product there is left
/// out, as an SDK drops another store's product; templates may name it and show nothing.
package enum PaywallReader {
  package static func read(_ root: JSONNode, file: String, catalog: Catalog?, diagnostics: DiagnosticCollector,
                           platform: SDKPlatform = .ios) -> PaywallDefinition? {
    guard let reader = ObjectReader(root, path: .root, diagnostics: diagnostics, what: "a paywall") else { return nil }
    let id = reader.string("id", required: true)
    let name = reader.string("name", required: true)
    let (slots, elsewhere) = readSlots(reader, catalog: catalog, platform: platform)
    let slotNames = slots.map(\.name)
    let everySlot = slotNames + elsewhere
    var selected = reader.string("selected")
    if let chosen = selected, !everySlot.contains(chosen) {
      diagnostics.error("'selected' names the slot \(quoting: chosen), which is not in 'products'\(Suggestions.hint(for: chosen, in: everySlot))",
                        at: reader.value("selected")!.location, path: .root.appending("selected"))
      selected = nil
    } else if let chosen = selected, elsewhere.contains(chosen) {
      selected = nil
    }
    let gating = reader.choice("featureGating", FeatureGating.allCases.map(\.rawValue)).flatMap(FeatureGating.init) ?? .nonGated
    let condition = reader.choice("presentationCondition", PresentationCondition.allCases.map(\.rawValue))
      .flatMap(PresentationCondition.init) ?? .checkUserSubscription
    var components: [PaywallComponent] = []
    if let nodes = reader.array("components", required: true) {
      if nodes.isEmpty {
        diagnostics.error("'components' is empty; add at least a title and a button", at: reader.value("components")!.location,
                          path: .root.appending("components"))
      }
      let context = ComponentContext(slots: everySlot, diagnostics: diagnostics, elsewhere: elsewhere, platform: platform)
      for (i, node) in nodes.enumerated() {
        if let component = context.read(node, path: JSONPath.root.appending("components").appending(i)) {
          components.append(component)
        }
      }
    }
    let surveys = SurveyReader.read(reader)
    let notifications = LocalNotificationReader.read(reader)
    reader.finish()
    let buysSomething = components.contains {
      if case .button(let b) = $0, case .purchase = b.action { return true }
      return false
    }
    if buysSomething && slots.isEmpty && reader.has("products") == false {
      diagnostics.error("a paywall with a purchase button needs 'products' (slot name → product id)", at: root.location, path: .root)
    }
    guard let id, let name, !diagnostics.hasErrors else { return nil }
    var definition = PaywallDefinition(id: id, name: name, slots: slots, selectedSlot: selected ?? slotNames.first,
                                       featureGating: gating, presentationCondition: condition, components: components, file: file)
    definition.surveys = surveys
    definition.localNotifications = notifications
    return definition
  }

  /// What only `validate` says, for every paywall of `project` (re-reading its file for positions):
  /// the SDK shows a paywall's free-trial texts when ANY of its products has an introductory offer
  /// the user can take (`isFreeTrialAvailable`, one flag for the paywall:
  /// `Paywall/Request/Operators/AddPaywallProducts.swift`), whichever product is selected. The
  /// emulator does the same; this tells the tester when that shows trial copy over a product that
  /// has no trial. Not a load warning: every command would print it for a paywall that is valid.
  ///
  /// Also the lints of a paywall that loads but would fail review or a user (`lints`).
  package static func validationAdvice(for project: Project) -> [Diagnostic] {
    project.paywalls.flatMap { paywall -> [Diagnostic] in
      let trial = trialCopyWarning(paywall, catalog: project.catalog)
      let lints = lints(paywall)
      let advice = (trial.map { [(["products"], WarningKind.trialCopy, $0)] } ?? []) + lints.map { ([$0.0], $0.1, $0.2) }
      return warnings(about: paywall, advice)
    }
  }

  /// `warnings` (the keys down to what each is about, its kind, its text) placed in `paywall`'s
  /// source: in its own file (read again for positions) at the deepest of those keys it has, or,
  /// for a paywall built from a Superwall config, at the config's paywall it was built from. A
  /// config is never read again per paywall: its hundreds of paywalls share one large file.
  static func warnings(about paywall: PaywallDefinition, _ warnings: [(keys: [String], kind: WarningKind, message: String)]) -> [Diagnostic] {
    guard !warnings.isEmpty else { return [] }
    if let origin = paywall.origin {
      return warnings.map {
        Diagnostic(file: paywall.file, location: origin.location, severity: .warning, message: "the paywall built from it: \($0.message)",
                   path: origin.path, kind: $0.kind)
      }
    }
    guard let (root, collector) = try? SourceFile.parse(path: paywall.file) else { return [] }
    for (keys, kind, message) in warnings {
      var node = root
      for key in keys { guard let inner = node[key] else { break }; node = inner }
      collector.warning(kind, message, at: node.location, path: keys.reduce(JSONPath.root) { $0.appending($1) })
    }
    return collector.diagnostics
  }

  /// A warning for each paywall slot naming a promotional or win-back offer that the user
  /// `history` describes cannot take at `now` (`OfferHistory.allows`, the rule the card and the
  /// store's charge follow): that user sees the product at its regular price and the store never
  /// charges the offer. `who` says which user (`--start pro=subscribed`), for the message.
  package static func offerAdvice(for project: Project, history: OfferHistory, now: Date, who: String) -> [Diagnostic] {
    project.paywalls.flatMap { paywall -> [Diagnostic] in
      let refused = paywall.slots.compactMap { slot -> (ProductSlot, StoreProduct, SubscriptionOffer, String)? in
        guard let offerID = slot.offerID, let product = project.catalog.product(id: slot.productID),
              let offer = product.offer(id: offerID),
              let refusal = history.refusal(of: offer, for: product, at: now) else { return nil }
        return (slot, product, offer, refusal)
      }
      let messages = refused.map { slot, product, offer, refusal in
        let kind = offer.kind == .winBack ? "win-back" : offer.kind == .code ? "code" : offer.kind.rawValue
        let fix = switch offer.kind {
        case .winBack: "show this paywall to lapsed subscribers (an audience filter; check with --start ENTITLEMENT=expired) or sell \(product.id) without the offer"
        case .promotional: "show this paywall to subscribers, present or past (an audience filter; check with --start ENTITLEMENT=subscribed or =expired), or sell \(product.id) without the offer"
        case .code: "widen the code's eligibility, show this paywall to users it names, or sell \(product.id) without the offer"
        }
        return (slot: slot.name, message: "slot \(quoting: slot.name) sells \(product.id) with \(kind) offer \(quoting: offer.id), which \(refusal) (\(who)): the card shows the regular price instead and the store never charges the offer; \(fix)")
      }
      return warnings(about: paywall, messages.map { message in
        let store = paywall.slots.first { $0.name == message.slot }?.store.map { [$0.rawValue] } ?? []
        return (["products", message.slot] + store + ["offer"], .offerEligibility, message.message)
      })
    }
  }

  /// What a paywall that loads still lacks, as (the key it is about, the warning): products, a
  /// price on screen (App Review requires the price of what is sold), a restore button (required
  /// for subscriptions) and a way out (a close button).
  package static func lints(_ paywall: PaywallDefinition) -> [(String, WarningKind, String)] {
    var out: [(String, WarningKind, String)] = []
    let buttons = paywall.components.compactMap { if case .button(let b) = $0 { b.action } else { nil } }
    let showsPrices = paywall.components.contains { if case .products = $0 { true } else { false } }
      || paywall.templateAttributes.contains { $0.rawValue.lowercased().contains("price") }
    if paywall.slots.isEmpty {
      out.append(("products", .noProducts, "paywall \(quoting: paywall.id) sells nothing: add \"products\", e.g. {\"primary\": \"com.acme.pro.annual\"}"))
    } else if !showsPrices {
      out.append(("components", .noPrice, "paywall \(quoting: paywall.id) shows no price: add a {\"type\": \"products\"} picker or a text with {{ primary.price }} (App Review requires the price)"))
    }
    if !paywall.slots.isEmpty && !buttons.contains(where: { if case .purchase = $0 { true } else { false } }) {
      out.append(("components", .noPurchaseButton, "paywall \(quoting: paywall.id) has no purchase button: add {\"type\": \"button\", \"label\": \"Continue\", \"action\": \"purchase\"}"))
    }
    if !buttons.contains(.restore) {
      out.append(("components", .noRestoreButton, "paywall \(quoting: paywall.id) has no restore button: add {\"type\": \"button\", \"label\": \"Restore purchases\", \"action\": \"restore\"} (App Review requires one for subscriptions)"))
    }
    if !buttons.contains(.close) {
      out.append(("components", .noCloseButton, "paywall \(quoting: paywall.id) cannot be closed: add {\"type\": \"button\", \"label\": \"Not now\", \"action\": \"close\"}"))
    }
    return out
  }

  /// The warning `validationAdvice` gives `paywall`, or nil.
  package static func trialCopyWarning(_ paywall: PaywallDefinition, catalog: Catalog) -> String? {
    let products = paywall.slots.compactMap { slot in catalog.product(id: slot.productID).map { (slot.name, $0) } }
    guard paywall.hasFreeTrialCopy, products.contains(where: { $0.1.hasFreeTrial }) else { return nil }
    let without = products.filter { !$0.1.hasFreeTrial }
    guard !without.isEmpty else { return nil }
    let named = without.map { "\(quoting: $0.0) (\(quoting: $0.1.id))" }.joined(separator: ", ")
    let one = without.count == 1
    return "the free-trial texts show whenever any product here has a trial the user can take (the SDK decides it for the whole paywall), so they also show while \(one ? "slot" : "slots") \(named), which \(one ? "has" : "have") no trial, \(one ? "is" : "are") selected"
  }

  /// The slots `platform` sells, and the names of those only another store's product fills.
  private static func readSlots(_ reader: ObjectReader, catalog: Catalog?, platform: SDKPlatform) -> ([ProductSlot], [String]) {
    guard let node = reader.value("products") else { return ([], []) }
    let path = JSONPath.root.appending("products")
    guard let members = node.members else {
      reader.diagnostics.error("'products' must be an object of slot name → product id, e.g. {\"primary\": \"com.acme.pro.annual\"}",
                               at: node.location, path: path)
      return ([], [])
    }
    var slots: [ProductSlot] = []
    var elsewhere: [String] = []
    for member in members {
      var slotPath = path.appending(member.key)
      if slots.contains(where: { $0.name == member.key }) || elsewhere.contains(member.key) {
        reader.diagnostics.error("duplicate slot \(quoting: member.key)", at: member.keyLocation, path: slotPath)
        continue
      }
      if member.key == "selected" {
        reader.diagnostics.error("'selected' cannot be a slot name: templates use it for the selected product",
                                 at: member.keyLocation, path: slotPath)
        continue
      }
      guard let (storeValue, storePath) = StoreChoice.slot(member, at: slotPath, for: platform, reader.diagnostics) else { continue }
      guard let value = storeValue else {
        elsewhere.append(member.key)
        continue
      }
      slotPath = storePath
      var offerID: String?
      var productNode = value
      if value.members != nil {
        // `{"product": "com.acme.pro.annual", "offer": "annual.back"}`: a product with one of its offers.
        guard let slotReader = ObjectReader(value, path: slotPath, diagnostics: reader.diagnostics, what: "a slot") else { continue }
        defer { slotReader.finish() }
        guard let node = slotReader.value("product", required: true) else { continue }
        productNode = node
        offerID = slotReader.string("offer")
      }
      guard let productID = productNode.stringValue, !productID.isEmpty else {
        reader.diagnostics.error("slot \(quoting: member.key) must name a product id (a string, or {\"product\": ID, \"offer\": OFFER_ID})",
                                 at: productNode.location, path: slotPath)
        continue
      }
      if let offerID, let product = catalog?.product(id: productID), product.offer(id: offerID) == nil {
        let known = product.offers.map(\.id)
        // On Google Play the offer is part of the id the SDK reads (`sku:basePlan:offer`).
        let none = catalog?.play != nil ? " (on Google Play an offer is part of the product id, SKU:BASE_PLAN:OFFER, as in 'acme_pro:annual:sw-auto'; remove 'offer')"
          : " (it has no promotional, win-back or code offers)"
        reader.diagnostics.error("slot \(quoting: member.key): product \(quoting: productID) has no offer \(quoting: offerID)\(Suggestions.hint(for: offerID, in: known))\(known.isEmpty ? none : "")",
                                 at: value["offer"]?.location ?? value.location, path: slotPath.appending("offer"))
        continue
      }
      // An offer code is redeemed in the App Store's sheet (`AppStore.presentOfferCodeRedeemSheet`);
      // StoreKit has no purchase option that buys a product on one, so no paywall can sell it.
      if let offerID, let offer = catalog?.product(id: productID)?.offer(id: offerID), offer.kind == .code {
        reader.diagnostics.error("slot \(quoting: member.key): \(quoting: offerID) is an offer code, which a user redeems in the App Store's sheet, not buys from a paywall; name a promotional or win-back offer, or try the code with 'redeem \(offerID)' in a script",
                                 at: value["offer"]?.location ?? value.location, path: slotPath.appending("offer"))
        continue
      }
      if let catalog, let reason = catalog.notSoldReason(productID) {
        reader.diagnostics.error("slot \(quoting: member.key) names \(quoting: productID): \(reason)", at: value.location, path: slotPath)
      } else if let catalog, catalog.product(id: productID) == nil, let reason = catalog.unloadedReason(productID) {
        reader.diagnostics.consequence("slot \(quoting: member.key) names \(quoting: productID): \(reason)",
                                       at: value.location, path: slotPath)
      } else if let catalog, catalog.product(id: productID) == nil {
        reader.diagnostics.error("slot \(quoting: member.key) names \(quoting: productID), which is not in the catalog \(catalog.file)\(Suggestions.hint(for: productID, in: catalog.productIDs))",
                                 at: value.location, path: slotPath)
      }
      // A Play id the SDK sells under all the same, falling back from the offer or purchase option
      // it names: said, as the card shows something else.
      if let catalog, catalog.product(id: productID) != nil, let warning = catalog.play?.fallbackWarning(productID) {
        reader.diagnostics.warning(.offerEligibility, "slot \(quoting: member.key) names \(quoting: productID): \(warning)",
                                   at: value.location, path: slotPath)
      }
      var slot = ProductSlot(name: member.key, productID: productID)
      slot.offerID = offerID
      slot.store = StoreChoice.isPerStore(member.value) ? platform : nil
      slots.append(slot)
    }
    return (slots, elsewhere)
  }
}
