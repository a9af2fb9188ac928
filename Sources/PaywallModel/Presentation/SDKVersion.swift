/// Which Superwall SDK an app is built with: Superwall-iOS (on the App Store) or Superwall-Android
/// (on Google Play). Chosen with `--platform` or app.json's `"platform"`; `--sdk` and `"sdk"` then
/// name a release of that SDK.
public enum SDKPlatform: String, Sendable, Hashable, CaseIterable {
  case ios, android

  /// How docs and messages name the SDK.
  public var sdkName: String {
    switch self {
    case .ios: "Superwall-iOS"
    case .android: "Superwall-Android"
    }
  }
}

/// Which Superwall SDK release the emulator follows where releases differ (`"sdk"` in app.json's
/// `options`, `--sdk` on `run` and `play`). For iOS: `3`, `4` (the latest 4.x, the default) or
/// `4.N`; for Android: `2` (the latest 2.x, the default) or `2.N`.
///
/// What differs on iOS: v3 skips an active user (`userIsSubscribed`) unless the paywall's presentation
/// condition is `always` (superwall/Superwall-iOS 3.9.1, `Paywall/Presentation/Internal/Operators/
/// CheckUserSubscription.swift`, `GetPresenter.swift`, `InternalPresentationLogic.swift`). Every 4.x
/// release, from 4.0.0-alpha.1 on, has no such rule (`PaywallSkippedReason.swift`: holdout,
/// noAudienceMatch, placementNotFound); subscribers are kept out by audience filters. Android 2.x
/// is read from superwall/Superwall-Android 2.7.19; its differences from iOS are each a property
/// below.
public struct SDKVersion: Sendable, Hashable, CustomStringConvertible {
  /// Whose SDK.
  public var platform: SDKPlatform
  /// The major version: 3 or 4 on iOS, 2 on Android.
  public var major: Int
  /// The minor version; nil for the latest of the major (`3`, `4`, `2`).
  public var minor: Int?

  /// The latest 4.x release the emulator was checked against (4.16.3).
  public static let latestMinor = 16
  /// The latest Superwall-Android 2.x release the emulator was checked against (2.7.19).
  public static let latestAndroidMinor = 7
  /// The default: the latest 4.x.
  public static let latest = SDKVersion(major: 4, minor: nil)
  /// The v3 rules (checked against 3.9.1; unchanged up to 3.12.5).
  public static let v3 = SDKVersion(major: 3, minor: nil)
  /// The latest Superwall-Android 2.x.
  public static let android = SDKVersion(platform: .android, major: 2, minor: nil)

  init(platform: SDKPlatform = .ios, major: Int, minor: Int?) {
    self.platform = platform
    self.major = major
    self.minor = minor
  }

  /// The default release of `platform`'s SDK: the latest checked.
  public static func latest(for platform: SDKPlatform) -> SDKVersion {
    platform == .ios ? .latest : .android
  }

  /// The versions `platform` takes, as help and errors list them.
  public static func accepted(for platform: SDKPlatform) -> String {
    switch platform {
    case .ios: "3, 4 (the latest 4.x) or 4.N (4.0 to 4.\(latestMinor))"
    case .android: "2 (the latest 2.x) or 2.N (2.0 to 2.\(latestAndroidMinor))"
    }
  }

  /// Every version completions offer for `platform`.
  public static func choices(for platform: SDKPlatform) -> [String] {
    switch platform {
    case .ios: ["3", "4"] + (0...latestMinor).map { "4.\($0)" }
    case .android: ["2"] + (0...latestAndroidMinor).map { "2.\($0)" }
    }
  }

  /// A release of `platform`'s SDK (of either when nil, told apart by the major): for iOS `3`, `4`
  /// or `4.N` (N from 0 to `latestMinor`), for Android `2` or `2.N`; otherwise why not, in one line
  /// that says what to write instead (an Android version given for iOS, or the reverse, says to
  /// choose the other platform).
  public static func parse(_ text: String, platform: SDKPlatform? = nil) -> Result<SDKVersion, SDKVersionError> {
    let result = parseAny(text, accepted: platform.map { accepted(for: $0) }
      ?? "\(accepted(for: .ios)) for iOS, \(accepted(for: .android)) for Android")
    guard let platform, case .success(let version) = result, version.platform != platform else { return result }
    return .failure(SDKVersionError("\(quoting: text) is a \(version.platform.sdkName) version, and the platform is \(platform.rawValue); "
      + "choose the platform \(version.platform.rawValue) (--platform, or \"platform\" in app.json's options) or write \(accepted(for: platform))"))
  }

  /// A version of either SDK, told apart by its major (iOS 3 and 4, Android 2).
  private static func parseAny(_ text: String, accepted: String) -> Result<SDKVersion, SDKVersionError> {
    let trimmed = text.trimmingSpaces()
    switch trimmed {
    case "3": return .success(.v3)
    case "4": return .success(.latest)
    case "2": return .success(.android)
    default: break
    }
    let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
    if parts.count >= 2, parts[0] == "3" {
      // 3.N: every 3.x release has the subscriber rule.
      return .failure(SDKVersionError("\(quoting: text) is not a choice; write 3 (every 3.x release skips subscribers the same way)"))
    }
    if parts.count >= 1, parts[0] == "1" {
      return .failure(SDKVersionError("\(quoting: text): Superwall-Android 1.x is not emulated; write 2 (the latest 2.x) or 2.N"))
    }
    for (major, latest, platform) in [(4, latestMinor, SDKPlatform.ios), (2, latestAndroidMinor, .android)] {
      let name = String(major)
      if parts.count == 2, parts[0] == name, let minor = Int(parts[1]), parts[1].allSatisfy(\.isNumber) {
        // "2.07" names no release (minors are written without a leading zero): 2.7 or 2.0.7?
        if parts[1].count > 1, parts[1].first == "0" {
          return .failure(SDKVersionError("\(quoting: text) is not a release: minors have no leading zero; write \(major).\(minor)"))
        }
        guard minor <= latest else {
          return .failure(SDKVersionError("\(quoting: text) is newer than \(major).\(latest), the latest release checked; write \(major) (the latest) or \(major).N up to \(major).\(latest)"))
        }
        return .success(SDKVersion(platform: platform, major: major, minor: minor))
      }
      if parts.count == 3, parts[0] == name, let minor = Int(parts[1]), minor <= latest, Int(parts[2]) != nil {
        return .failure(SDKVersionError("\(quoting: text): give the minor version only, e.g. \(major).\(minor) (patch releases do not differ here)"))
      }
    }
    var hint = ""
    let lowered = trimmed.lowercased()
    for prefix in ["v", "sdk"] where lowered.hasPrefix(prefix) {
      let rest = String(trimmed.dropFirst(prefix.count))
      if case .success = parseAny(rest, accepted: accepted) { hint = " (did you mean \(quoting: rest)?)" }
    }
    if lowered == "4.x" || lowered == "latest" { hint = " (did you mean '4'?)" }
    if lowered == "2.x" { hint = " (did you mean '2'?)" }
    return .failure(SDKVersionError("\(quoting: text) is not an SDK version\(hint); use \(accepted)"))
  }

  /// Whether this is Superwall-iOS 3.x, whose names and rules differ most from the rest.
  public var isV3: Bool { platform == .ios && major == 3 }

  /// Whether `register` skips an active user unless the paywall's condition is `always`: iOS v3
  /// only (Superwall-Android 2.x, like iOS 4.x, keeps subscribers out by audience filters alone).
  public var skipsSubscribers: Bool { isV3 }

  /// What to do instead of answering a purchase `restored`, for a message that refuses it.
  public var restoredPurchaseFix: String {
    platform == .ios ? "only SDK 3's PurchaseResult has it" : "Superwall-Android's PurchaseResult has no Restored (delegate/PurchaseResult.kt)"
  }

  /// Whether a purchase controller may answer a purchase `restored`: iOS 3.x `PurchaseResult` has
  /// the case; iOS 4.x has only purchased, cancelled, pending and failed
  /// (`StoreKit/Purchase Controller/PurchaseResult.swift`), and so has Android
  /// (`delegate/PurchaseResult.kt`: `Restored` is only the SDK's internal result).
  public var hasRestoredPurchaseResult: Bool { isV3 }

  /// Whether the register's handler hears `onWillDismiss`: iOS from 4.9.0, where
  /// `PaywallState.willDismiss` arrived (`Paywall/Presentation/Internal/Presentation State/PaywallState.swift`);
  /// before, only the delegate's `willDismissPaywall` heard it. Superwall-Android's `PaywallState`
  /// has no such state (`paywall/presentation/internal/state/PaywallState.kt`: presented, dismissed,
  /// skipped, presentationError).
  public var hasWillDismissHandler: Bool { isAtLeast(major: 4, minor: 9) }

  /// Whether the SDK knows custom store products (`"store": "CUSTOM"`, bought only through a
  /// purchase controller): iOS from 4.15.0 (CHANGELOG; `Models/Product/CustomStoreProduct.swift`,
  /// `StoreKit/Transactions/TransactionManager.swift`). Before, the config's decoding drops them;
  /// Superwall-Android 2.7.19 has none (`models/product/ProductItem.kt`: Play, App Store, Stripe,
  /// Paddle, Superwall and other stores).
  public var hasCustomProducts: Bool { isAtLeast(major: 4, minor: 15) }

  /// Whether this is Superwall-Android `2.wantedMinor` or later. As on iOS, `2.N` stands for the
  /// minor's first release (2.6 is 2.6.0; a change made in 2.6.6 comes here with 2.7), and the
  /// latest minor for the release checked (2.7 is 2.7.19, as `2` is). Always false on iOS.
  package func isAndroidAtLeast(minor wantedMinor: Int) -> Bool {
    platform == .android && (minor ?? Self.latestAndroidMinor) >= wantedMinor
  }

  /// Whether a paywall an exit event presented (`transaction_abandon`, `transaction_fail`,
  /// `paywall_decline`, a custom placement) may be replaced by another exit event's paywall:
  /// Superwall-Android from 2.6.6 blocks only the same event again (`analytics/internal/
  /// TrackingLogic.kt` `canTriggerPaywall`, `referringEventName == currentEventName`); before
  /// (2.6.5's `notAllowedReferringEventNames`) and on iOS such a paywall never chains.
  public var chainsOtherExitEvents: Bool { isAndroidAtLeast(minor: 7) }

  /// Whether Superwall-Android adds `store` and `source` to `transaction_start`, `_abandon` and
  /// `_complete`: from 2.6.0 (`analytics/internal/trackable/TrackableSuperwallEvent.kt`; 2.5.8's
  /// `Transaction` has neither).
  public var transactionEventsNameTheStore: Bool { isAndroidAtLeast(minor: 6) }

  /// Whether Superwall-Android's `paywall_open` and `transaction_complete` carry the user's
  /// attributes (`user_attributes`): from 2.5.3 (`TrackableSuperwallEvent.kt` `PaywallOpen`,
  /// `Transaction`; 2.5.1 has none), so from 2.6 here. iOS's carry none.
  public var openAndCompleteCarryUserAttributes: Bool { isAndroidAtLeast(minor: 6) }

  /// Whether Superwall-Android also adds `store` to `transaction_fail` and `transaction_restore`:
  /// from 2.6.5 (`TrackableSuperwallEvent.kt`), so from 2.7 here.
  public var failAndRestoreNameTheStore: Bool { isAndroidAtLeast(minor: 7) }

  /// Whether `subscriptionStatus_didChange` carries the status at all: Superwall-Android 2.0.0's
  /// `SubscriptionStatusDidChange` puts a lambda under `subscription_status`, which
  /// `TrackingLogic.kt`'s `clean` cannot encode and drops, so the event has no parameters; 2.0.1
  /// writes the string. Here 2.0 is 2.0.0.
  public var statusChangeCarriesTheStatus: Bool { platform == .ios || isAndroidAtLeast(minor: 1) }

  /// Whether `subscriptionStatus_didChange` carries `active_entitlement_ids`: every iOS 4.x;
  /// Superwall-Android from 2.7.4 (`TrackableSuperwallEvent.kt` `SubscriptionStatusDidChange`;
  /// 2.7.3 writes `subscription_status` alone), so 2.7 here (the release checked).
  public var statusChangeNamesEntitlements: Bool { platform == .ios || isAndroidAtLeast(minor: 7) }

  /// Whether Superwall-Android's own purchasing gives a failed purchase a readable message per
  /// Play Billing response: from 2.6.6 (`store/AutomaticPurchaseController.kt`,
  /// `store/transactions/PlayBillingErrors.kt`), so from 2.7 here; 2.6.5 gives the bare code ("6").
  public var explainsPlayBillingErrors: Bool { isAndroidAtLeast(minor: 7) }

  /// Whether a Play product id's parts are read by type, `sw-auto` letting the SDK choose a base
  /// plan and a one-time product's purchase option named: Superwall-Android from 2.7.0
  /// (`billing/DecomposedProductIds.kt`, `BasePlanType`); up to 2.6.8 the parts are ids as written
  /// (`PlayProductIdentifier.Reading.literal`). iOS releases read no Play ids and keep the latest.
  public var readsPlayProductIDsByType: Bool { platform == .ios || isAndroidAtLeast(minor: 7) }

  /// Whether a `transaction_abandon` campaign's `abandoned_product_id` is the full Play id
  /// (`sku:basePlan:offer`): Superwall-Android from 2.7.0 (`TrackableSuperwallEvent.kt`,
  /// `fullIdentifier`); 2.6.8 gives the Play product id alone (`productIdentifier`).
  public var abandonedProductIsTheFullID: Bool { platform == .ios || isAndroidAtLeast(minor: 7) }

  /// Whether a `deepLink_open` campaign's audiences read the link's parts (`url`, `path`, `host`…)
  /// besides its query items: iOS 4.x; Superwall-Android from 2.5.4 (`TrackableSuperwallEvent.kt`
  /// `DeepLink.audienceFilterParams`, 2.5.3 has the query items alone), so from 2.6 here. There a
  /// part wins over a query item of the same name (`extractQueryParameters(uri).plus(extractedParams())`);
  /// on iOS the item wins.
  public var deepLinkAudiencesReadTheParts: Bool { platform == .ios || isAndroidAtLeast(minor: 6) }

  /// Whether the SDK buying by itself (no purchase controller) counts a one-time purchase's
  /// entitlements: Superwall-Android from 2.5.8 (`store/AutomaticPurchaseController.kt` reads
  /// `allPurchases`; 2.5.7 `subscriptionPurchases` only), so from 2.6 here. iOS always does.
  public var oneTimePurchasesGrantWithoutController: Bool { platform == .ios || isAndroidAtLeast(minor: 6) }

  /// Whether Superwall-Android schedules a paywall's reminders after any subscription bought on
  /// it, on a background scope (the paywall closes with the permission prompt up), each named
  /// `PAYWALL_TRIAL_STARTED`: from 2.6.6 (`dependencies/DependencyContainer.kt`,
  /// `TransactionManager.kt` `notifyOfTransactionComplete`), so 2.7 here. Before (2.6.5's
  /// `TransactionManager.kt`), only a free trial's start schedules them, awaited before the
  /// paywall is dismissed, each enqueued under its own id; as on iOS.
  public var schedulesRemindersForAnySubscription: Bool { isAndroidAtLeast(minor: 7) }

  /// Whether a trial's reminders skip one already pending for the same paywall: from 4.11.0,
  /// whose `NotificationScheduler.swift` names each request `com.superwall.ios-PAYWALL-TRIAL_STARTED`
  /// and drops those pending; before (3.x too) each gets a UUID and nothing is skipped.
  /// Superwall-Android skips one already enqueued from 2.6.6 (`NotificationScheduler.kt`), so from 2.7 here.
  public var dedupesTrialReminders: Bool {
    platform == .android ? isAndroidAtLeast(minor: 7) : isAtLeast(major: 4, minor: 11)
  }

  /// Whether `handleDeepLink` routes links (`DeepLinkRouter.swift` and the static
  /// `Superwall.handleDeepLink`, added in 4.2.0): a web-checkout redeem link is not tracked, a
  /// `*.superwall.app/app-link/…` link is tracked in the app's scheme, and the call returns true
  /// when a campaign is on `deepLink_open`. Before, every link is tracked as given and only a
  /// debugger link is handled (`Superwall.swift` `handleDeepLink`). Superwall-Android routes
  /// links its own way (`DeepLinks.route`).
  public var hasDeepLinkRouter: Bool { isAtLeast(major: 4, minor: 2) }

  /// Whether audiences read `device.activeEntitlementObjects`: the entitlements came with iOS 4.0
  /// (`Paywall/View Controller/Web View/Templating/Models/DeviceTemplate.swift`); 3.x has none.
  /// Superwall-Android names its list `activeEntitlementsObject`
  /// (`paywall/view/webview/templating/models/DeviceTemplate.kt`), which filters here do not read.
  public var hasActiveEntitlementObjects: Bool { platform == .ios && major >= 4 }

  /// Whether audiences read `device.customerInfo`: added to the device template in iOS 4.10.0
  /// (`DeviceTemplate.swift`, `Models/Customer Info/CustomerInfo.swift`; CHANGELOG 4.10.0);
  /// Superwall-Android's device template has none.
  public var hasCustomerInfoDevice: Bool { isAtLeast(major: 4, minor: 10) }

  /// Whether `Superwall.shared.purchase(_ product: StoreProduct)` refuses to run while
  /// `shouldObservePurchases` is on: iOS from 4.0.6 (`Superwall.swift`; 4.0.0–4.0.5 and 3.x refuse
  /// only an `SKProduct`), so from 4.1 here, where patch releases are not told apart.
  /// Superwall-Android's `purchase(product)` never checks the option (`Superwall.kt`).
  public var refusesPurchaseWhileObserving: Bool { isAtLeast(major: 4, minor: 1) }

  /// Whether this version is `wanted.wantedMinor` or later on iOS; `3` is older than every 4.x.
  /// Always false on Android (ask `platform` first where Android has the behaviour).
  package func isAtLeast(major wanted: Int, minor wantedMinor: Int) -> Bool {
    guard platform == .ios else { return false }
    if major != wanted { return major > wanted }
    return (minor ?? Self.latestMinor) >= wantedMinor
  }

  /// `3`, `4`, `4.N`, `2` or `2.N`.
  public var description: String {
    minor.map { "\(major).\($0)" } ?? "\(major)"
  }

  /// How messages name it: `4.2` for iOS as ever, `Android 2.7` for Android.
  public var named: String {
    platform == .android ? "Android \(description)" : description
  }

  /// How `explain` and the docs name it: "v3", "v4 (latest: 4.16)", "v4.2", "Android v2 (latest: 2.7)"
  /// or "Android v2.5".
  public var spelled: String {
    switch platform {
    case .android: return minor.map { "Android v2.\($0)" } ?? "Android v2 (latest: 2.\(Self.latestAndroidMinor))"
    case .ios:
      if major == 3 { return "v3" }
      return minor.map { "v4.\($0)" } ?? "v4 (latest: 4.\(Self.latestMinor))"
    }
  }
}

extension SDKVersion {
  /// The SDK a session follows: the project's (`project`, from app.json's `platform` and `sdk`),
  /// overridden by `--platform` (`platform`) and `--sdk` (`given`). A platform alone picks its latest
  /// release unless the project already follows that platform; a version must belong to the
  /// platform in force. The error names the option to change.
  public static func resolve(project: SDKVersion, platform: SDKPlatform?, given: SDKVersion?) -> Result<SDKVersion, SDKVersionError> {
    let wanted = platform ?? project.platform
    guard let given else { return .success(wanted == project.platform ? project : .latest(for: wanted)) }
    guard given.platform == wanted else {
      let whose = platform != nil ? "--platform \(wanted.rawValue)" : "the project's platform (\(wanted.rawValue))"
      return .failure(SDKVersionError("--sdk \(given) is a \(given.platform.sdkName) version, and \(whose) is not; "
        + "give --platform \(given.platform.rawValue), or --sdk \(accepted(for: wanted))"))
    }
    return .success(given)
  }
}

/// `--platform` and `--sdk` as a command line gives them, before a project is known: what a
/// project is loaded to follow, so its paywalls are checked against the products that release
/// sells (`ProjectLoader.load`).
package struct SDKChoice: Sendable, Hashable {
  package var platform: SDKPlatform?
  package var given: SDKVersion?

  package init(platform: SDKPlatform? = nil, given: SDKVersion? = nil) {
    self.platform = platform
    self.given = given
  }

  /// The release a project that follows `project` is run with; the project's own when the choice
  /// does not fit it (the session refuses that, saying why).
  package func followed(by project: SDKVersion) -> SDKVersion {
    (try? SDKVersion.resolve(project: project, platform: platform, given: given).get()) ?? project
  }
}

/// Why an SDK version was refused: one line, saying what to write instead.
public struct SDKVersionError: Error, Sendable, Hashable {
  /// The message, without the option or file it came from.
  public var message: String
  init(_ message: String) { self.message = message }
}
