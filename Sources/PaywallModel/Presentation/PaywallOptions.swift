/// The restore-failed alert's texts (the SDK's `PaywallOptions.RestoreFailed`).
public struct RestoreFailedText: Sendable, Hashable {
  /// The alert's title.
  public var title: String
  /// The alert's text under the title.
  public var message: String
  /// The alert's one button, which closes it.
  public var closeButtonTitle: String

  /// The texts given, the SDK's defaults for the rest.
  public init(title: String = "No Subscription Found",
              message: String = "We couldn't find an active subscription for your account.",
              closeButtonTitle: String = "Okay") {
    self.title = title
    self.message = message
    self.closeButtonTitle = closeButtonTitle
  }
}

/// How paywalls behave around purchases, as the SDK's `PaywallOptions` sets it.
public struct PaywallOptions: Sendable, Hashable {
  /// Dismiss the paywall after a purchase or restore succeeds.
  public var automaticallyDismiss: Bool
  /// Show "An error occurred" with the error when a purchase fails.
  public var shouldShowPurchaseFailureAlert: Bool
  /// The alert shown when a restore finds no active subscription (the SDK's `restoreFailed`).
  public var restoreFailed: RestoreFailedText
  /// Which SDK's rules apply where versions differ (`"sdk"`; default: the latest 4.x).
  public var sdk: SDKVersion
  /// The SDK's `SuperwallOptions.storeKitVersion` (4.x): which StoreKit the SDK's own purchaser
  /// uses. Here it decides what `Superwall.shared.purchase(product)` answers for a custom store
  /// product with a purchase controller: StoreKit 2 `cancelled`, StoreKit 1 `noSk1Product`.
  public var storeKitVersion: StoreKitVersion
  /// The SDK's `SuperwallOptions.shouldObservePurchases`: from 4.1 `Superwall.shared.purchase(product)`
  /// refuses to run while it is on (returns `cancelled`, tracks nothing); before, the call still
  /// tracks its `transaction_start` with a purchase controller (`Superwall.swift`, `TransactionManager.swift`).
  public var shouldObservePurchases: Bool

  /// The options given, the SDK's defaults for the rest: dismiss automatically, show the purchase
  /// failure alert, the SDK's restore-failed texts, the latest 4.x, StoreKit 2, not observing.
  public init(automaticallyDismiss: Bool = true, shouldShowPurchaseFailureAlert: Bool = true,
              restoreFailed: RestoreFailedText = RestoreFailedText(), sdk: SDKVersion = .latest,
              storeKitVersion: StoreKitVersion = .storeKit2, shouldObservePurchases: Bool = false) {
    self.automaticallyDismiss = automaticallyDismiss
    self.shouldShowPurchaseFailureAlert = shouldShowPurchaseFailureAlert
    self.restoreFailed = restoreFailed
    self.sdk = sdk
    self.storeKitVersion = storeKitVersion
    self.shouldObservePurchases = shouldObservePurchases
  }
}

/// The SDK's `SuperwallOptions.StoreKitVersion`: the StoreKit its own purchaser uses (StoreKit 2
/// by default on iOS 15 and later; `Config/Options/SuperwallOptions.swift`).
public enum StoreKitVersion: String, Sendable, Hashable, CaseIterable {
  case storeKit1, storeKit2
}

/// Which Superwall iOS SDK the emulator follows where versions differ (`"sdk"` in app.json's
/// `options`, `--sdk` on `run` and `play`): `3`, `4` (the latest 4.x, the default) or `4.N`.
///
/// What differs: v3 skips an active user (`userIsSubscribed`) unless the paywall's presentation
/// condition is `always` (superwall/Superwall-iOS 3.9.1, `Paywall/Presentation/Internal/Operators/
/// CheckUserSubscription.swift`, `GetPresenter.swift`, `InternalPresentationLogic.swift`). Every 4.x
/// release, from 4.0.0-alpha.1 on, has no such rule (`PaywallSkippedReason.swift`: holdout,
/// noAudienceMatch, placementNotFound); subscribers are kept out by audience filters.
public struct SDKVersion: Sendable, Hashable, CustomStringConvertible {
  /// The major version: 3 or 4.
  public var major: Int
  /// The 4.x minor version; nil for `3` and for `4` (the latest).
  public var minor: Int?

  /// The latest 4.x release the emulator was checked against (4.16.3).
  public static let latestMinor = 16
  /// The default: the latest 4.x.
  public static let latest = SDKVersion(major: 4, minor: nil)
  /// The v3 rules (checked against 3.9.1; unchanged up to 3.12.5).
  public static let v3 = SDKVersion(major: 3, minor: nil)

  init(major: Int, minor: Int?) {
    self.major = major
    self.minor = minor
  }

  /// `3`, `4` or `4.N` (N from 0 to `latestMinor`); otherwise why not, in one line that says
  /// what to write instead.
  public static func parse(_ text: String) -> Result<SDKVersion, SDKVersionError> {
    let trimmed = text.trimmingSpaces()
    let accepted = "3, 4 (the latest 4.x) or 4.N (4.0 to 4.\(latestMinor))"
    switch trimmed {
    case "3": return .success(.v3)
    case "4": return .success(.latest)
    default: break
    }
    let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
    if parts.count >= 2, parts[0] == "3" {
      // 3.N: every 3.x release has the subscriber rule.
      return .failure(SDKVersionError("\(quoting: text) is not a choice; write 3 (every 3.x release skips subscribers the same way)"))
    }
    if parts.count == 2, parts[0] == "4", let minor = Int(parts[1]), parts[1].allSatisfy(\.isNumber) {
      guard minor <= latestMinor else {
        return .failure(SDKVersionError("\(quoting: text) is newer than 4.\(latestMinor), the latest release checked; write 4 (the latest) or 4.N up to 4.\(latestMinor)"))
      }
      return .success(SDKVersion(major: 4, minor: minor))
    }
    if parts.count == 3, parts[0] == "4", let minor = Int(parts[1]), minor <= latestMinor, Int(parts[2]) != nil {
      return .failure(SDKVersionError("\(quoting: text): give the minor version only, e.g. 4.\(minor) (patch releases do not differ here)"))
    }
    var hint = ""
    let lowered = trimmed.lowercased()
    for prefix in ["v", "sdk"] where lowered.hasPrefix(prefix) {
      let rest = String(trimmed.dropFirst(prefix.count))
      if case .success = parse(rest) { hint = " (did you mean \(quoting: rest)?)" }
    }
    if lowered == "4.x" || lowered == "latest" { hint = " (did you mean '4'?)" }
    return .failure(SDKVersionError("\(quoting: text) is not an SDK version\(hint); use \(accepted)"))
  }

  /// Whether `register` skips an active user unless the paywall's condition is `always`: v3 only.
  public var skipsSubscribers: Bool { major == 3 }

  /// Whether a purchase controller may answer a purchase `restored`: 3.x `PurchaseResult` has the
  /// case, 4.x has only purchased, cancelled, pending and failed
  /// (`StoreKit/Purchase Controller/PurchaseResult.swift`).
  public var hasRestoredPurchaseResult: Bool { major == 3 }

  /// Whether the register's handler hears `onWillDismiss`: `PaywallState.willDismiss` arrived in
  /// 4.9.0 (`Paywall/Presentation/Internal/Presentation State/PaywallState.swift`); before, only the
  /// delegate's `willDismissPaywall` heard it.
  public var hasWillDismissHandler: Bool { major > 4 || (major == 4 && (minor ?? Self.latestMinor) >= 9) }

  /// Whether the SDK knows custom store products (`"store": "CUSTOM"`, bought only through a
  /// purchase controller): added in 4.15.0 (CHANGELOG; `Models/Product/CustomStoreProduct.swift`,
  /// `StoreKit/Transactions/TransactionManager.swift`). Before, the config's decoding drops them.
  public var hasCustomProducts: Bool { isAtLeast(major: 4, minor: 15) }

  /// Whether a trial's reminders skip one already pending for the same paywall: from 4.11.0,
  /// whose `NotificationScheduler.swift` names each request `com.superwall.ios-PAYWALL-TRIAL_STARTED`
  /// and drops those pending; before (3.x too) each gets a UUID and nothing is skipped.
  public var dedupesTrialReminders: Bool { isAtLeast(major: 4, minor: 11) }

  /// Whether `handleDeepLink` routes links (`DeepLinkRouter.swift` and the static
  /// `Superwall.handleDeepLink`, added in 4.2.0): a web-checkout redeem link is not tracked, a
  /// `*.superwall.app/app-link/…` link is tracked in the app's scheme, and the call returns true
  /// when a campaign is on `deepLink_open`. Before, every link is tracked as given and only a
  /// debugger link is handled (`Superwall.swift` `handleDeepLink`).
  public var hasDeepLinkRouter: Bool { isAtLeast(major: 4, minor: 2) }

  /// Whether audiences read `device.activeEntitlementObjects`: the entitlements came with 4.0
  /// (`Paywall/View Controller/Web View/Templating/Models/DeviceTemplate.swift`); 3.x has none.
  public var hasActiveEntitlementObjects: Bool { major >= 4 }

  /// Whether audiences read `device.customerInfo`: added to the device template in 4.10.0
  /// (`DeviceTemplate.swift`, `Models/Customer Info/CustomerInfo.swift`; CHANGELOG 4.10.0).
  public var hasCustomerInfoDevice: Bool { isAtLeast(major: 4, minor: 10) }

  /// Whether `Superwall.shared.purchase(_ product: StoreProduct)` refuses to run while
  /// `shouldObservePurchases` is on: from 4.0.6 (`Superwall.swift`; 4.0.0–4.0.5 and 3.x refuse only
  /// an `SKProduct`), so from 4.1 here, where patch releases are not told apart.
  public var refusesPurchaseWhileObserving: Bool { isAtLeast(major: 4, minor: 1) }

  /// Whether this version is `wanted.wantedMinor` or later; `3` is older than every 4.x.
  package func isAtLeast(major wanted: Int, minor wantedMinor: Int) -> Bool {
    if major != wanted { return major > wanted }
    return (minor ?? Self.latestMinor) >= wantedMinor
  }

  /// `3`, `4` or `4.N`.
  public var description: String {
    minor.map { "\(major).\($0)" } ?? "\(major)"
  }

  /// How `explain` and the docs name it: "v3" or "v4 (latest, 4.16)" / "v4.2".
  public var spelled: String {
    if major == 3 { return "v3" }
    return minor.map { "v4.\($0)" } ?? "v4 (latest: 4.\(Self.latestMinor))"
  }
}

/// Why an SDK version was refused: one line, saying what to write instead.
public struct SDKVersionError: Error, Sendable, Hashable {
  /// The message, without the option or file it came from.
  public var message: String
  init(_ message: String) { self.message = message }
}
