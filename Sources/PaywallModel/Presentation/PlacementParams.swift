#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// What an audience filter reads as `params` when a placement is evaluated, as the SDK 4.16.3
/// builds it in `Analytics/Internal Tracking/TrackingLogic.swift` (`processParameters`): every
/// placement gets `event_name`, `$event_name` and `$is_standard_event`; a tracked SDK event then
/// gets each of its own parameters under a `$` key and its `audienceFilterParams` without one; a
/// register's own parameters are added as given, except those whose name starts with `$`, which
/// the SDK drops. The implicit placements (`transaction_abandon`, `transaction_fail`,
/// `paywall_decline`, a paywall's custom placement) read the paywall's
/// `PaywallInfo.audienceFilterParams()` (`Paywall/Presentation/PaywallInfo.swift`), and an abandon
/// the abandoned product's (`Trackable Events/TrackableSuperwallEvent.swift`, `Transaction`), so
/// a filter on `params.product_id` never matches there: the product is `abandoned_product_id`
/// (or `$product_id`).
package enum PlacementParams {
  /// The paywall an implicit placement was tracked from, as `PaywallInfo` describes it.
  package struct PaywallInfo {
    package var paywall: ResolvedPaywall
    /// The placement that presented it (`presentedByPlacementWithName`); nil for one opened directly.
    package var presentedBy: String?
    /// The gating it ends its registration with (a replacement's is the first paywall's).
    package var gating: FeatureGating
  }

  /// A register's params: its own (but `$` ones) with the keys every placement gets.
  package static func register(_ placement: String, params: [String: String]) -> [String: String] {
    var out = params.filter { !$0.key.hasPrefix("$") }
    out.merge(standard(placement, isSDKEvent: false)) { _, sdk in sdk }
    return out
  }

  /// The params of SDK event `event`, tracked from `paywall` (nil: none on screen, the app's own
  /// `purchase(product)`): what a campaign on `transaction_abandon`, `transaction_fail` or
  /// `paywall_decline` filters on.
  package static func implicit(_ event: PaywallEvent, paywall: PaywallInfo?, catalog: Catalog, sdk: SDKVersion = .latest,
                               now: Date) -> [String: String] {
    var out = standard(event.name.rawValue, isSDKEvent: true)
    let info = audienceParams(paywall)
    // The SDK's own parameters of the event, under `$`: the paywall's, then the product's.
    for (key, value) in info { out["$" + key] = value }
    let productID = event["product_id"]?.stringValue
    let product = productID.flatMap { catalog.product(id: $0) }
    if let product {
      out["$product_id"] = product.id
      for (key, value) in attributes(of: product, now: now) { out["$product_" + key] = value }
    }
    if let message = event["message"]?.stringValue { out["$message"] = message }
    // Then its audience filter params, without a `$`.
    out.merge(info) { _, own in own }
    if event.name == .surveyResponse {
      // `SurveyResponse`: the survey's own keys under `$`, the chosen option's title and the
      // free text (when given) as audience params (`TrackableSuperwallEvent.swift`).
      for key in ["survey_id", "survey_assignment_key", "survey_selected_option_id"] {
        if let value = event[key]?.stringValue { out["$" + key] = value }
      }
      for key in ["survey_selected_option_title", "survey_custom_response"] {
        if let value = event[key]?.stringValue { out[key] = value }
      }
    }
    if event.name == .transactionAbandon, let product {
      // Superwall-Android before 2.7 names the Play product alone (`SDKVersion.abandonedProductIsTheFullID`).
      out["abandoned_product_id"] = sdk.abandonedProductIsTheFullID ? product.id : (product.play?.identifier.productId ?? product.id)
      // Superwall-Android adds the id alone (`TrackableSuperwallEvent.kt` `Transaction.audienceFilterParams`).
      for (key, value) in attributes(of: product, now: now) where key != "identifier" && sdk.platform == .ios {
        out["abandoned_product_" + key] = value
      }
    }
    return out
  }

  /// A custom placement's params: the paywall's audience params under the button's name.
  package static func customPlacement(_ name: String, paywall: PaywallInfo) -> [String: String] {
    var out = standard(name, isSDKEvent: true)
    let info = audienceParams(paywall)
    for (key, value) in info { out["$" + key] = value }
    out["$name"] = name
    out.merge(info) { _, own in own }
    return out
  }

  /// The keys every tracked placement gets: its name, and whether it is one of the SDK's events.
  package static func standard(_ name: String, isSDKEvent: Bool) -> [String: String] {
    ["event_name": name, "$event_name": name, "$is_standard_event": isSDKEvent ? "true" : "false"]
  }

  /// `PaywallInfo.audienceFilterParams()`: the paywall, who presented it, its products by
  /// position and by slot name, its free-trial flag and gating. Nil: `PaywallInfo.empty()`, what
  /// the app's own `purchase(product)` is tracked with (`TransactionManager.swift`, `.external`).
  static func audienceParams(_ info: PaywallInfo?) -> [String: String] {
    let slots = info?.paywall.slots ?? []
    // Joined in a loop: `joined(separator:)` is generic code, and its first use searched every
    // conformance of the binary (185,000 instructions before the first paint).
    var productIDs = ""
    for (index, slot) in slots.enumerated() {
      if index > 0 { productIDs += "," }
      productIDs += slot.product.id
    }
    var out: [String: String] = [
      "paywall_id": info?.paywall.definition.id ?? "",
      "paywall_name": info?.paywall.definition.name ?? "",
      "paywall_product_ids": productIDs,
      "is_free_trial_available": info?.paywall.showsFreeTrial == true ? "true" : "false",
      "feature_gating": info?.gating == .gated ? "GATED" : "NON_GATED",
      "presented_by": info?.presentedBy == nil ? "programmatically" : "placement",
      "primary_product_id": "", "secondary_product_id": "", "tertiary_product_id": "",
    ]
    if let presentedBy = info?.presentedBy { out["presented_by_event_name"] = presentedBy }
    for (index, slot) in slots.enumerated() {
      if index < 3 { out[["primary", "secondary", "tertiary"][index] + "_product_id"] = slot.product.id }
      out[slot.slot + "_product_id"] = slot.product.id
    }
    return out
  }

  /// `StoreProduct.attributes` with snake_case keys (`rawPrice` → `raw_price`), as the SDK names
  /// them after `abandoned_product_` and `$product_`; our own attributes are not among them.
  static func attributes(of product: StoreProduct, now: Date) -> [(String, String)] {
    ProductAttribute.allCases.filter { $0.isSuperwallVariable && $0 != .isSubscribed }.map { attribute in
      (snakeCase(attribute.rawValue), product.attribute(attribute, now: now))
    }
  }

  static func snakeCase(_ name: String) -> String {
    var out = ""
    for character in name {
      if character.isUppercase {
        out += "_" + character.lowercased()
      } else {
        out.append(character)
      }
    }
    return out
  }

  // MARK: - What validate knows

  /// The keys without `$` a device gives a campaign on implicit placement `placement`'s audience
  /// filters (besides `SLOT_product_id`, for every slot name): nil for a placement the app
  /// registers, whose params are the app's own.
  package static func sdkKeys(forImplicit placement: String) -> Set<String>? {
    // A launch event has no parameters of its own (`TrackableSuperwallEvent.swift`: AppInstall,
    // SessionStart and AppLaunch's `audienceFilterParams` are empty): only the standard ones.
    if Campaign.firedAtLaunch.contains(placement) { return ["event_name"] }
    guard Campaign.implicitPlacements.contains(placement) || placement == EventName.surveyResponse.rawValue else { return nil }
    var keys: Set<String> = ["event_name", "paywall_id", "paywall_name", "presented_by_event_name", "paywall_product_ids",
                             "is_free_trial_available", "feature_gating", "presented_by"]
    if placement == EventName.surveyResponse.rawValue { keys.formUnion(["survey_selected_option_title", "survey_custom_response"]) }
    if placement == EventName.transactionAbandon.rawValue {
      keys.insert("abandoned_product_id")
      for attribute in ProductAttribute.allCases where attribute.isSuperwallVariable && attribute != .isSubscribed && attribute != .identifier {
        keys.insert("abandoned_product_" + snakeCase(attribute.rawValue))
      }
    }
    return keys
  }

  /// Why `params.KEY` in a filter of a campaign on implicit `placement` reads as missing on a
  /// device, with what to write instead; nil when the SDK gives the key (a `$` key is the SDK's
  /// own parameter, not checked).
  package static func problem(key: String, forImplicit placement: String) -> String? {
    guard let keys = sdkKeys(forImplicit: placement), !key.hasPrefix("$"), !key.hasSuffix("_product_id"),
          !keys.contains(key) else { return nil }
    var hint = ""
    if key == "product_id" && placement == EventName.transactionAbandon.rawValue {
      hint = "; the product is abandoned_product_id"
    } else if ["product_id", "message"].contains(key) || key.hasPrefix("product_") {
      // The event's own parameters reach a filter only under `$`.
      hint = "; the SDK gives it as $\(key): params[\"$\(key)\"]"
    } else if let close = Suggestions.closest(to: key, in: keys.sorted()) {
      hint = "; did you mean \(close)?"
    }
    return "params.\(key) is not a parameter the SDK gives \(placement)'s audience filters: it reads as missing on a device\(hint)"
  }
}
