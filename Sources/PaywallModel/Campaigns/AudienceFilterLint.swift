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

extension AudienceFilter {
  /// Comparisons that can never hold for this project (`validate` warns): `device.subscriptionStatus`
  /// against anything but `ACTIVE`, `INACTIVE`, `UNKNOWN`; an entitlement or product id in
  /// `device.activeEntitlements` / `device.activeProducts` that the catalog does not have. Each
  /// with a did-you-mean, at the literal's first place in the text.
  public func impossibleComparisons(entitlements: Set<String>, products: Set<String>) -> [Warning] {
    var found: [Warning] = []
    func check(_ value: FilterValue, against name: FilterName) {
      guard case .string(let literal) = value else { return }
      let (allowed, what): ([String], String)
      switch name {
      case .subscriptionStatus: (allowed, what) = (["ACTIVE", "INACTIVE", "UNKNOWN"], "a subscription status")
      case .activeEntitlements: (allowed, what) = (entitlements.sorted(), "an entitlement of the catalog")
      case .activeProducts: (allowed, what) = (products.sorted(), "a product of the catalog")
      default: return
      }
      guard !allowed.contains(literal) else { return }
      let offset = text.range(of: "\"\(literal)\"").map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? 0
      let never = if case .subscriptionStatus = name { "\(name) is never \(quoting: literal)" } else { "\(quoting: literal) is never in \(name)" }
      found.append(Warning(offset: offset, message: "\(never): it is not \(what)\(Suggestions.hint(for: literal, in: allowed))"
        + " (as written, the comparison gives every user the same answer)"))
    }
    forEachNode { node in
      switch node {
      case .binary(let op, let left, let right):
        switch (op, left, right) {
        case (.equal, .name(let name), .literal(let value)), (.notEqual, .name(let name), .literal(let value)),
             (.equal, .literal(let value), .name(let name)), (.notEqual, .literal(let value), .name(let name)):
          if case .subscriptionStatus = name { check(value, against: name) }
        case (.isIn, .literal(let value), .name(let name)):
          check(value, against: name)
        default: break
        }
      case .call(let function, let target, let arguments):
        // `device.activeEntitlements.contains("x")` asks the same as `"x" in …`.
        if function == .contains, case .name(let name)? = target, arguments.count == 1, case .literal(let value) = arguments[0] {
          check(value, against: name)
        }
      default: break
      }
    }
    return found
  }

  /// `device` keys the chosen SDK's template lacks (`validate` warns): `device.customerInfo` before
  /// iOS 4.10 and on Android, `device.activeEntitlementObjects` before iOS 4.0 and on Android
  /// (whose template calls its list `activeEntitlementsObject`, which iOS lacks). Missing, the key compares as
  /// nothing there, so the filter does not say what it seems to.
  public func keysMissing(in sdk: SDKVersion) -> [Warning] {
    var missing: [String] = []
    forEachNode { node in
      guard case .name(.device(let key)) = node else { return }
      let has = switch key {
      case "customerInfo": sdk.hasCustomerInfoDevice
      case "activeEntitlementObjects": sdk.hasActiveEntitlementObjects
      case "activeEntitlementsObject": sdk.platform == .android
      default: true
      }
      if !has && !missing.contains(key) { missing.append(key) }
    }
    return missing.map { key in
      let offset = text.range(of: "device.\(key)").map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? 0
      let since = key == "activeEntitlementsObject" ? "is Superwall-Android's (iOS calls it activeEntitlementObjects)"
        : sdk.platform == .android ? "is not in Superwall-Android's device template"
        : key == "customerInfo" ? "arrived in SDK 4.10" : "arrived in SDK 4.0"
      let fix = key == "activeEntitlementsObject" ? "write device.activeEntitlementObjects, or set 'platform' to \"android\""
        : sdk.platform == .android ? "filter on device.activeEntitlementsObject instead" : "raise 'sdk' or filter on device.activeEntitlements"
      return Warning(offset: offset, message: "device.\(key) \(since), so under SDK \(sdk.named) that this project follows it is missing"
        + " and a comparison with it never holds; \(fix)")
    }
  }

  /// Host functions the project's SDK does not expose (`validate` warns); the emulator reads every
  /// host function as missing, so only the SDK's own list differs:
  /// - Superwall-Android has no `yearsSince` at any 2.x (`SuperscriptExposedFunction.kt` `Names`),
  ///   its placement counts only from 2.3.2 (here 2.4) and its review-request counts from 2.5.3 (here 2.6);
  /// - iOS 4.16.3 has no review-request counts (`ComputedPropertyRequest.swift`).
  /// How each SDK's evaluator answers a function it was not given is not in its sources; the
  /// warning says the filter does not do what it seems to.
  public func functionsMissing(in sdk: SDKVersion) -> [Warning] {
    var found: [(name: String, function: String)] = []
    forEachNode { node in
      guard case .unavailable(let name) = node, let dot = name.firstIndex(of: "."),
            name.hasPrefix("device.") || name.hasPrefix("computed.") else { return }
      let function = String(name[name.index(after: dot)...])
      guard FilterParser.hostFunctions.contains(function), !Self.exposes(function, sdk), !found.contains(where: { $0.name == name }) else { return }
      found.append((name, function))
    }
    return found.map { name, function in
      let offset = text.range(of: name).map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? 0
      let why: String
      if sdk.platform == .ios {
        why = "is Superwall-Android's (from 2.5.3); the iOS SDK has no such function"
      } else if function == "yearsSince" {
        why = "is the iOS SDK's; Superwall-Android exposes no yearsSince"
      } else if FilterParser.placementFunctions.contains(function) {
        why = "arrived in Superwall-Android 2.3.2"
      } else {
        why = "arrived in Superwall-Android 2.5.3"
      }
      return Warning(offset: offset, message: "\(name)() \(why), so under SDK \(sdk.named) that this project follows the filter does not evaluate as written on a device")
    }
  }

  /// Whether `sdk` gives audience filters the host function `function`.
  static func exposes(_ function: String, _ sdk: SDKVersion) -> Bool {
    switch sdk.platform {
    case .ios: return !FilterParser.androidReviewFunctions.contains(function)
    case .android:
      if function == "yearsSince" { return false }
      if FilterParser.placementFunctions.contains(function) { return sdk.isAndroidAtLeast(minor: 4) }
      if FilterParser.androidReviewFunctions.contains(function) { return sdk.isAndroidAtLeast(minor: 6) }
      return true
    }
  }

  /// Calls `visit` on every node of the filter, each before its children.
  func forEachNode(_ visit: (Node) -> Void) {
    func walk(_ node: Node) {
      visit(node)
      switch node {
      case .binary(_, let left, let right): walk(left); walk(right)
      case .not(let inner), .has(let inner), .member(let inner, _), .matches(let inner, _): walk(inner)
      case .index(let a, let b): walk(a); walk(b)
      case .list(let items): items.forEach(walk)
      case .map(let keys, let values): (keys + values).forEach(walk)
      case .conditional(let a, let b, let c): walk(a); walk(b); walk(c)
      case .call(_, let target, let arguments):
        if let target { walk(target) }
        arguments.forEach(walk)
      case .comprehension(_, let a, _, let b): walk(a); walk(b)
      case .literal, .name, .variable, .unavailable: break
      }
    }
    walk(root)
  }
}
