/// The keys app.json's `options` takes from the SDK's `SuperwallOptions` and `PaywallOptions`
/// (superwall/Superwall-iOS `Config/Options/SuperwallOptions.swift`, `PaywallOptions.swift`),
/// written flat in one object as our format has always had them: each with the release that added
/// it, the JSON it takes, and whether the emulator follows it or why it can have no effect in a
/// terminal. Checked against the tags 3.9.1, 3.12.5 and every 4.N.0 up to 4.16.3, and against
/// Superwall-Android 2.7.19 (`config/options/SuperwallOptions.kt`, `PaywallOptions.kt`; Android 2.x
/// is followed as one version for options).
package struct SDKOptionKey: Sendable {
  /// Which of the SDK's option types declares the key.
  package enum Owner: String, Sendable {
    case superwallOptions = "SuperwallOptions"
    case paywallOptions = "PaywallOptions"
  }

  /// The JSON a key takes.
  package enum Shape: Sendable {
    case bool
    case string
    case wholeNumber
    case object
    case choice([String])
  }

  package var name: String
  package var owner: Owner
  /// The first iOS version with the key: `(3, nil)` for every 3.x we follow, `(4, N)` for 4.N;
  /// nil for a key only Superwall-Android has.
  package var since: (major: Int, minor: Int?)?
  /// Whether Superwall-Android 2.7.19 has the key.
  package var onAndroid: Bool
  /// The last version with it (a key the SDK dropped); nil: still there in 4.16.3.
  package var until: (major: Int, minor: Int?)?
  package var shape: Shape
  /// Nil: the emulator follows the key. Otherwise why it changes nothing here, for `validate`.
  package var noEffect: String?

  /// Whether `sdk` has the key.
  package func exists(in sdk: SDKVersion) -> Bool {
    if sdk.platform == .android { return onAndroid }
    guard let since else { return false }
    let from = since.minor.map { sdk.isAtLeast(major: since.major, minor: $0) } ?? (sdk.major >= since.major)
    guard from else { return false }
    guard let until else { return true }
    // Only 3.x keys were dropped, and 3.x is followed as one version.
    return sdk.major <= until.major
  }

  /// "4.16", "3" or "3.x"; "Android" for a key only Superwall-Android has.
  package var sinceText: String {
    guard let since else { return "Android" }
    return since.minor.map { "\(since.major).\($0)" } ?? "\(since.major)"
  }

  /// Every key, SuperwallOptions' first, in the order the SDK declares them.
  package static let all: [SDKOptionKey] = [
    // SuperwallOptions
    .init(name: "localResources", android: false, owner: .superwallOptions, since: (4, 13), shape: .object,
          noEffect: "paywalls here are drawn from JSON, with no web view to serve local images or videos to"),
    .init(name: "storeKitVersion", android: false, owner: .superwallOptions, since: (4, 0),
          shape: .choice(StoreKitVersion.allCases.map(\.rawValue)), noEffect: nil),
    .init(name: "networkEnvironment", owner: .superwallOptions, since: (3, nil),
          shape: .choice(["release", "releaseCandidate", "developer", "local"]),
          noEffect: "the emulator talks to no Superwall server"),
    .init(name: "shouldObservePurchases", owner: .superwallOptions, since: (3, nil), shape: .bool, noEffect: nil),
    .init(name: "eventTrackingBehavior", owner: .superwallOptions, since: (4, 16),
          shape: .choice(["all", "superwallOnly", "none"]),
          noEffect: "it decides what is sent to Superwall's servers, and nothing is sent from here; every event is still logged"),
    .init(name: "isExternalDataCollectionEnabled", owner: .superwallOptions, since: (3, nil), shape: .bool,
          noEffect: "it decides what is sent to Superwall's servers, and nothing is sent from here"),
    .init(name: "localeIdentifier", owner: .superwallOptions, since: (3, nil), shape: .string,
          noEffect: "audience filters here read no device.locale; prices follow the catalog's 'locale'"),
    .init(name: "isGameControllerEnabled", owner: .superwallOptions, since: (3, nil), shape: .bool,
          noEffect: "a terminal has no game controller to forward"),
    .init(name: "collectAdServicesAttribution", android: false, owner: .superwallOptions, since: (3, nil), until: (3, nil), shape: .bool,
          noEffect: "there is no Apple Search Ads attribution to collect"),
    .init(name: "enableExperimentalDeviceVariables", owner: .superwallOptions, since: (4, 3), shape: .bool,
          noEffect: "audience filters here read no experimental device variables"),
    .init(name: "shouldBypassAppTransactionCheck", android: false, owner: .superwallOptions, since: (4, 9), shape: .bool,
          noEffect: "there is no App Store app transaction to check"),
    .init(name: "testModeBehavior", owner: .superwallOptions, since: (4, 14),
          shape: .choice(["automatic", "whenEnabledForUser", "never", "always"]),
          noEffect: "the SDK's test mode is not emulated; the simulated store stands in for it"),
    .init(name: "maxConfigRetryCount", android: false, owner: .superwallOptions, since: (3, nil), shape: .wholeNumber,
          noEffect: "the project files are the config: nothing is fetched or retried"),
    .init(name: "logging", owner: .superwallOptions, since: (3, nil), shape: .object,
          noEffect: "the SDK's console log is not emulated; the event log ('l') shows what happened"),
    // PaywallOptions
    .init(name: "isHapticFeedbackEnabled", owner: .paywallOptions, since: (3, nil), shape: .bool,
          noEffect: "a terminal has no haptics"),
    .init(name: "restoreFailed", owner: .paywallOptions, since: (3, nil), shape: .object, noEffect: nil),
    .init(name: "shouldShowWebRestorationAlert", android: false, owner: .paywallOptions, since: (4, 3), shape: .bool,
          noEffect: "web checkout is not emulated"),
    .init(name: "notificationPermissionsDenied", android: false, owner: .paywallOptions, since: (3, nil), shape: .object, noEffect: nil),
    .init(name: "shouldShowPurchaseFailureAlert", owner: .paywallOptions, since: (3, nil), shape: .bool, noEffect: nil),
    .init(name: "shouldPreload", owner: .paywallOptions, since: (3, nil), shape: .bool,
          noEffect: "paywalls are read from the project's files when it loads; there is nothing to preload"),
    .init(name: "automaticallyDismiss", owner: .paywallOptions, since: (3, nil), shape: .bool, noEffect: nil),
    .init(name: "overrideProductsByName", owner: .paywallOptions, since: (4, 6), shape: .object, noEffect: nil),
    .init(name: "shouldShowWebPurchaseConfirmationAlert", android: false, owner: .paywallOptions, since: (4, 6), shape: .bool,
          noEffect: "web checkout is not emulated"),
    .init(name: "transactionBackgroundView", owner: .paywallOptions, since: (3, nil), shape: .choice(["spinner", "none"]),
          noEffect: "there is no payment sheet to put a view behind; the purchase spinner always shows"),
    // Superwall-Android's alone
    .init(name: "passIdentifiersToPlayStore", owner: .superwallOptions, since: nil, shape: .bool,
          noEffect: "the simulated Play store is given no obfuscated account id"),
    .init(name: "useMockReviews", owner: .superwallOptions, since: nil, shape: .bool,
          noEffect: "the emulator shows no review prompt"),
    .init(name: "preloadDeviceOverrides", owner: .paywallOptions, since: nil, shape: .object,
          noEffect: "paywalls are read from the project's files when it loads; there is nothing to preload"),
    .init(name: "useCachedTemplates", owner: .paywallOptions, since: nil, shape: .bool,
          noEffect: "paywalls here are drawn from JSON, with no web template to cache"),
    .init(name: "optimisticLoading", owner: .paywallOptions, since: nil, shape: .bool,
          noEffect: "there is no loading shimmer to hide"),
    .init(name: "timeoutAfter", owner: .paywallOptions, since: nil, shape: .string,
          noEffect: "paywalls load from the project's files and never time out"),
  ]

  private init(name: String, android: Bool = true, owner: Owner, since: (Int, Int?)?, until: (Int, Int?)? = nil, shape: Shape,
               noEffect: String?) {
    self.name = name
    self.onAndroid = android
    self.owner = owner
    self.since = since.map { ($0.0, $0.1) }
    self.until = until.map { ($0.0, $0.1) }
    self.shape = shape
    self.noEffect = noEffect
  }

  /// The key called `name`, if the SDK has one.
  package static func named(_ name: String) -> SDKOptionKey? {
    all.first { $0.name == name }
  }
}
