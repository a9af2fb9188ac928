/// The kinds of warning, each with a stable name: the name is printed after the warning
/// (`… [no-close-button]`), is the `name` of a JSON diagnostic, and is what `validate --allow NAME`
/// and app.json's `"ignore"` list silence. Names never change once released; a new kind gets a
/// new name.
public enum WarningKind: String, CaseIterable, Sendable, Hashable {
  /// A paywall's free-trial texts also show while a product without a trial is selected.
  case trialCopy = "trial-copy"
  /// A paywall sells nothing (no `products`).
  case noProducts = "no-products"
  /// A paywall shows no price.
  case noPrice = "no-price"
  /// A paywall with products has no purchase button.
  case noPurchaseButton = "no-purchase-button"
  /// A paywall has no restore button.
  case noRestoreButton = "no-restore-button"
  /// A paywall has no close button.
  case noCloseButton = "no-close-button"
  /// A price has more decimals than its currency (JPY "39.99").
  case currencyDecimals = "currency-decimals"
  /// An audience filter that can never match as written (a misspelt status or entitlement).
  case audienceFilter = "audience-filter"
  /// An audience rule the emulator cannot evaluate (`expression`, `expression_js`).
  case unevaluableRule = "unevaluable-rule"
  /// A placement name no app could type (a line break, an outer space).
  case placementName = "placement-name"
  /// A template text that loads but may not show what was meant.
  case template = "template"
  /// A `.storekit` file of a format version outside those read here.
  case storekitVersion = "storekit-version"
  /// A `.storekit` file has an offer key, or a key inside an offer, that is not read here.
  case storekitKey = "storekit-key"
  /// A paywall slot names an offer the user of `validate --start` cannot take: the card shows
  /// the regular price instead. Also a Play id naming an offer or purchase option the product
  /// lacks (or, before Superwall-Android 2.7, any purchase option but the legacy one): the SDK
  /// sells the base plan or the legacy option.
  case offerEligibility = "offer-eligibility"
  /// A `.storekit` file's storefront is unknown; prices are shown in USD.
  case unknownStorefront = "unknown-storefront"
  /// Something of a Superwall config the import leaves out or reads differently.
  case superwallImport = "superwall-import"
  /// An SDK option in app.json that changes nothing in a terminal (`shouldPreload`, `logging`…).
  case optionNoEffect = "option-no-effect"
  /// A scenario's `call purchase` of a custom store product, which the SDK never hands to the
  /// purchase controller.
  case customProductCall = "custom-product-call"
  /// A campaign on an SDK event paywall-tui does not fire (`deepLink_open`, `touches_began`): the
  /// SDK presents it, here it never presents.
  case notFiredHere = "not-fired-here"
  /// A paywall's survey that can never show: an earlier one has the same presentation condition.
  case unreachableSurvey = "unreachable-survey"
  /// A cross-platform paywall's button or picker names a slot only another store fills: on this
  /// store it buys or shows nothing.
  case otherStoreSlot = "other-store-slot"

  /// The names, in declaration order: for help, completions and did-you-mean.
  public static var names: [String] { allCases.map(\.rawValue) }
}
