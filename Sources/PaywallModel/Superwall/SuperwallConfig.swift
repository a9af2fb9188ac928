/// The Superwall SDK's config document (what `GET /api/v1/static_config?pk=KEY` returns and the SDK
/// decodes into `Config`), as far as paywall-tui emulates it. Keys are snake_case: the SDK decodes
/// with `keyDecodingStrategy = .convertFromSnakeCase` (`Misc/Extensions/JSONEncoder+Superwall.swift`).
/// Every value keeps its position and JSON path so a mapping problem names where it came from.
package struct SuperwallConfig: Sendable {
  /// `build_id`.
  package var buildID: String
  /// `trigger_options[]`: one per placement (`Models/Triggers/Trigger.swift`).
  package var triggers: [Trigger]
  /// `paywall_responses[]` (`Models/Paywall/Paywall.swift`).
  package var paywalls: [Paywall]
  /// Identifiers of paywall responses that had an error: a variant naming one is not reported again.
  package var brokenPaywallIDs: Set<String> = []
  /// `app_session_timeout_ms` (`Config/Models/Config.swift`): the project's `appSessionTimeoutMs`.
  package var appSessionTimeoutMs: Int?

  /// A placement and its audiences (the SDK's `Trigger`, `event_name` and `rules`).
  package struct Trigger: Sendable {
    package var placement: String
    package var rules: [Rule]
    /// Whether the config gave rules that could not be read (each reported): `rules` then says
    /// less than the config did.
    package var hadUnreadableRules = false
    package var location: SourceLocation
    package var path: JSONPath
  }

  /// A text value of the config and where it is.
  package struct Located: Sendable {
    package var text: String
    package var location: SourceLocation
    package var path: JSONPath
  }

  /// One audience (the SDK's `TriggerRule`, `Models/Triggers/TriggerRule.swift`).
  package struct Rule: Sendable {
    package var experimentID: String
    package var experimentGroupID: String
    package var variants: [Variant]
    /// `expression_cel`: the only expression 4.x reads.
    package var expressionCEL: Located?
    /// `expression`: 3.x's expression language (4.x ignores it).
    package var expression: Located?
    /// `expression_js`: 3.x's JavaScript rule (4.x ignores it).
    package var expressionJS: Located?
    package var occurrence: Occurrence?
    /// `preload.behavior`: read (the SDK requires it), not emulated.
    package var preload: String
    package var location: SourceLocation
    package var path: JSONPath
  }

  /// `occurrence` (`Models/Triggers/TriggerAudienceOccurrence.swift`).
  package struct Occurrence: Sendable {
    package var key: String
    package var maxCount: Int
    /// `interval: {"type": "MINUTES", "minutes": N}`; nil for `INFINITY` (and any other type, as the SDK reads it).
    package var minutes: Int?
    package var location: SourceLocation
  }

  /// One variant of a rule (`Models/Triggers/VariantOption.swift`).
  package struct Variant: Sendable {
    package enum Kind: String, Sendable { case treatment = "TREATMENT", holdout = "HOLDOUT" }
    package var kind: Kind
    package var id: String
    package var percentage: Int
    package var paywallID: Located?
    package var location: SourceLocation
    package var path: JSONPath
  }

  /// One paywall (`Models/Paywall/Paywall.swift`).
  package struct Paywall: Sendable {
    package var identifier: String
    package var name: String
    /// `feature_gating`: `GATED`, else non-gated (the SDK reads any other value, or none, as `NON_GATED`).
    package var gated: Bool
    package var products: [Product]
    /// 3.x's `presentation_condition` (`ALWAYS` or `CHECK_USER_SUBSCRIPTION`); 4.x does not read it.
    package var presentationCondition: String?
    /// `presentation_style_v3.type` (4.x) or `presentation_style_v2` (3.x); read, not emulated.
    package var presentationStyle: String
    package var presentationDelay: Int
    package var backgroundColorHex: String
    /// `introductory_offer_eligibility`: `ELIGIBLE`, `INELIGIBLE` or `AUTOMATIC` (the default).
    package var introductoryOfferEligibility: String
    /// The editor's substitutions decoded from `paywalljs_event`.
    package var substitutions: [Substitution]
    /// Where `paywalljs_event` is, for problems found in its substitutions.
    package var substitutionsLocation: SourceLocation
    /// `surveys`, those the SDK decodes (each one that fails is dropped).
    package var surveys: [Survey] = []
    /// `local_notifications`, those the SDK decodes.
    package var localNotifications: [LocalNotification] = []
    package var location: SourceLocation
    package var path: JSONPath
  }

  /// A product of a paywall (`Models/Product/Product.swift`: `reference_name`, `store_product`,
  /// `entitlements`; 3.x's `products[]`: `product`, `product_id`).
  package struct Product: Sendable {
    /// The slot: `reference_name`; nil when the product has none (the SDK leaves it out of templates).
    package var slot: String?
    package var productID: String
    package var entitlements: [String]
    /// A custom store product (`"store": "CUSTOM"`), bought through the app's purchase controller only.
    package var isCustom: Bool
    package var location: SourceLocation
    package var path: JSONPath
    /// Whose SDK sells it: a cross-platform import keeps both stores' products.
    package var platform: SDKPlatform = .ios
  }

  /// One of the editor's substitutions (`template_substitutions` in `paywalljs_event`).
  package struct Substitution: Sendable, Hashable {
    package var key: String
    package var value: String
    package var freeTrialValue: String?
    /// The click behaviour the editor attached (`close`, `restore`, `purchase`, `open-url`, `custom`…), if any.
    package var clickBehavior: String?
  }
}
