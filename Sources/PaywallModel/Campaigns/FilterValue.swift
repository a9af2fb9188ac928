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

/// A value an audience filter works with: what `user.*`, `params.*` and `device.*` hold, and
/// the literals a filter writes.
public enum FilterValue: Sendable, Hashable, CustomStringConvertible {
  case null
  case bool(Bool)
  case number(Decimal)
  case string(String)
  case list([FilterValue])
  /// A map (`{"a": 1}`, or a nested user attribute); keys are strings.
  case map([String: FilterValue])

  /// A value typed on the command line or in a script (`--user age=13`): `true`/`false`, a
  /// number, `null`, or else the text itself.
  public init(parsing text: String) {
    switch text {
    case "true": self = .bool(true)
    case "false": self = .bool(false)
    case "null": self = .null
    default:
      if let number = DecimalParsing.parse(text) { self = .number(number) } else { self = .string(text) }
    }
  }

  /// The value as a filter writes it: strings quoted, lists in brackets.
  public var description: String {
    switch self {
    case .null: "null"
    case .bool(let b): b ? "true" : "false"
    case .number(let n): "\(n)"
    case .string(let s): "\"\(s)\""
    case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
    case .map(let members):
      "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
    }
  }

  /// As Superscript normalizes every value before CEL sees it (superwall/superscript
  /// `interpretation-flow.md`, "Variable Normalization"): "true"/"false" become booleans and
  /// numeric strings numbers, inside lists and maps too.
  var normalized: FilterValue {
    switch self {
    case .string(let text):
      switch text {
      case "true": return .bool(true)
      case "false": return .bool(false)
      default: return DecimalParsing.parse(text).map { .number($0) } ?? self
      }
    case .list(let items): return .list(items.map(\.normalized))
    case .map(let members): return .map(members.mapValues(\.normalized))
    default: return self
    }
  }

  var isTruthy: Bool {
    switch self {
    case .null: false
    case .bool(let b): b
    case .number(let n): n != 0
    case .string(let s): !s.isEmpty
    case .list(let items): !items.isEmpty
    case .map(let members): !members.isEmpty
    }
  }
}

/// What a filter can read when it is evaluated.
public struct FilterContext: Sendable {
  /// The subscription status (`device.subscriptionStatus`, `device.activeEntitlements`).
  public var status: SubscriptionStatus
  /// Product ids with an active entitlement now.
  public var activeProducts: [String]
  /// The user's attributes (`user.*`); a missing key is missing, as in CEL (see `AudienceFilter.evaluate`).
  public var user: [String: FilterValue]
  /// The registration's parameters (`params.*`); a missing key is missing, as in CEL.
  public var params: [String: FilterValue]
  /// When the registration happens: occurrence limits with an interval count back from it.
  public var now: Date = Date(timeIntervalSince1970: 0)
  /// What the tester decided for rules the emulator cannot evaluate: `PLACEMENT#N` → matches.
  public var assumedRules: [String: Bool] = [:]
  /// Raised when the evaluation should give up (the app has a `q` or a signal waiting); nil: never.
  public var interrupt: EvaluationInterrupt?
  /// `device.customerInfo` (SDK 4.10 and later; `CustomerInfoValue`); nil: missing.
  public var customerInfo: FilterValue?
  /// `device.activeEntitlementObjects` (SDK 4.0 and later); nil: missing.
  public var activeEntitlementObjects: FilterValue?
  /// Whose device template the filters read: Superwall-Android's says `platform` "Android" and
  /// lists the entitlements as `activeEntitlementsObject` (`network/device/DeviceHelper.kt`).
  public var platform: SDKPlatform = .ios

  /// The context of one registration.
  public init(status: SubscriptionStatus, activeProducts: [String] = [], user: [String: FilterValue] = [:],
              params: [String: FilterValue] = [:]) {
    self.status = status
    self.activeProducts = activeProducts
    self.user = user
    self.params = params
  }

  /// What `name` holds here; nil when the key is missing (which CEL tells apart from null).
  func value(of name: FilterName) -> FilterValue? {
    switch name {
    case .subscriptionStatus: .string(status.rawName)
    case .activeEntitlements: .list(status.entitlements.sorted().map { .string($0.id) })
    case .activeProducts: .list(activeProducts.sorted().map { .string($0) })
    case .device("customerInfo"): customerInfo
    case .device("activeEntitlementObjects"): platform == .ios ? activeEntitlementObjects : nil
    case .device("platform") where platform == .android: .string("Android")
    case .device("activeEntitlementsObject"):
      // Each active entitlement as `{identifier, type}` on Android; no such key on iOS.
      platform == .android ? .list(status.entitlements.sorted().map {
        .map(["identifier": .string($0.id), "type": .string("SERVICE_LEVEL")])
      }) : nil
    case .device(let key): FilterName.emulatedDevice[key]
    case .user(let key): user[key]
    case .params(let key): params[key]
    }
  }
}
/// A name a filter reads: a key of `user`, `params` or `device`. Anything else at the top of a
/// filter is a validation error with its column.
public enum FilterName: Sendable, Hashable, CustomStringConvertible {
  case subscriptionStatus, activeEntitlements, activeProducts
  /// Another key of the SDK's `device` map (`Network/Device Helper/DeviceHelper.swift`
  /// `getTemplateDevice`): `platform` and `isMac` are given, the rest read as missing.
  case device(String)
  case user(String)
  case params(String)

  static let deviceNames = ["device.subscriptionStatus", "device.activeEntitlements", "device.activeProducts"]

  /// The `device` keys the emulator gives besides the status ones, with their values on an iPhone.
  static let emulatedDevice: [String: FilterValue] = ["platform": .string("iOS"), "isMac": .bool(false)]
  /// The device keys built from the store's subscriptions or the status (`CustomerInfoValue`).
  static let customerDeviceKeys: Set<String> = ["customerInfo", "activeEntitlementObjects", "activeEntitlementsObject"]

  /// Every key of the SDK 4.16.3 `device` map (`DeviceTemplate.swift`, plus the storefront and
  /// `appTransactionId` keys `getTemplateDevice` adds): a filter may read any, with a warning
  /// for those the emulator cannot give.
  static let sdkDeviceKeys: [String] = [
    "publicApiKey", "platform", "appUserId", "aliases", "vendorId", "appVersion", "appVersionPadded", "osVersion",
    "deviceModel", "deviceLocale", "preferredLocale", "deviceLanguageCode", "preferredLanguageCode", "regionCode",
    "preferredRegionCode", "deviceCurrencyCode", "deviceCurrencySymbol", "interfaceType", "timezoneOffset", "radioType",
    "interfaceStyle", "fontSize", "fontScale", "preferredContentSizeCategory", "isLowPowerModeEnabled",
    "isApplePayAvailable", "bundleId", "appInstallDate", "isMac", "daysSinceInstall", "minutesSinceInstall",
    "daysSinceLastPaywallView", "minutesSinceLastPaywallView", "totalPaywallViews", "totalReviewRequests", "utcDate",
    "localDate", "utcTime", "localTime", "utcDateTime", "localDateTime", "isSandbox", "activeEntitlements",
    "activeEntitlementObjects", "customerInfo", "activeProducts", "subscriptionStatus", "isFirstAppOpen", "sdkVersion",
    "sdkVersionPadded", "appBuildString", "appBuildStringNumber", "interfaceStyleMode", "capabilities",
    "capabilitiesConfig", "platformWrapper", "platformWrapperVersion", "swiftVersion", "compilerVersion",
    "localResourceIds", "deviceId", "storeFrontCountryCode", "storeFrontId", "storeFrontCurrency", "appTransactionId",
    // Superwall-Android's alone (`paywall/view/webview/templating/models/DeviceTemplate.kt`).
    "activeEntitlementsObject", "deviceTier", "reviewRequestCount", "kotlinVersion",
  ]

  /// The name as a filter writes it (`device.subscriptionStatus`, `user.age`).
  public var description: String {
    switch self {
    case .subscriptionStatus: "device.subscriptionStatus"
    case .activeEntitlements: "device.activeEntitlements"
    case .activeProducts: "device.activeProducts"
    case .device(let key): "device.\(key)"
    case .user(let key): "user.\(key)"
    case .params(let key): "params.\(key)"
    }
  }
}
