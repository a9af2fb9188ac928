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

extension ProjectLoader {
  /// `"ignore": ["no-close-button", …]`: warnings the project accepts, each by its name
  /// (`WarningKind`); an unknown name is an error with a did-you-mean.
  static func readIgnore(_ reader: ObjectReader) -> Set<WarningKind> {
    guard let names = reader.stringArray("ignore") else { return [] }
    var kinds: Set<WarningKind> = []
    for (index, (name, location)) in names.enumerated() {
      if let kind = WarningKind(rawValue: name) {
        kinds.insert(kind)
      } else {
        let hint = Suggestions.hint(for: name, in: WarningKind.names)
        let fix = hint.isEmpty ? "; the warnings are \(WarningKind.names.joined(separator: ", "))" : hint
        reader.diagnostics.error("'ignore' names no warning \(quoting: name)\(fix)",
                                 at: location, path: reader.path.appending("ignore").appending(index))
      }
    }
    return kinds
  }

  /// `"options": {"automaticallyDismiss", "shouldShowPurchaseFailureAlert", "restoreFailed": {"title",
  /// "message", "closeButtonTitle"}, "overrideProductsByName", "storeKitVersion", "shouldObservePurchases",
  /// "platform", "sdk"}`, each optional with the SDK's default (`platform`: ios; `sdk`: the latest
  /// 4.x, or the latest 2.x on Android), and every other key of
  /// the SDK's options (`SDKOptionKey`: accepted, with a warning that it changes nothing here).
  /// The overrides are returned as written: a cross-platform project's may name a product per
  /// store, read once the session's store is known (`StoreChoice.overrides`).
  static func readOptions(_ parent: ObjectReader) -> (PaywallOptions, [(member: JSONMember, path: JSONPath)]) {
    var options = PaywallOptions()
    var overrides: [(member: JSONMember, path: JSONPath)] = []
    guard let node = parent.value("options"),
          let reader = ObjectReader(node, path: .root.appending("options"), diagnostics: parent.diagnostics, what: "'options'")
    else { return (options, overrides) }
    defer { reader.finish() }
    if let byName = reader.value("overrideProductsByName") {
      let path = reader.path.appending("overrideProductsByName")
      if let members = byName.members {
        for member in members { overrides.append((member, path.appending(member.key))) }
      } else {
        reader.diagnostics.error("'overrideProductsByName' must be an object of slot name → product id, e.g. {\"primary\": \"com.acme.pro.monthly\"}",
                                 at: byName.location, path: path)
      }
    }
    let platform = reader.choice("platform", SDKPlatform.allCases.map(\.rawValue)).flatMap(SDKPlatform.init(rawValue:)) ?? .ios
    options.sdk = .latest(for: platform)
    if let node = reader.value("sdk") {
      // A string: as a JSON number 4.10 would read as 4.1.
      if let text = node.stringValue {
        switch SDKVersion.parse(text, platform: platform) {
        case .success(let version): options.sdk = version
        case .failure(let error):
          reader.diagnostics.error("sdk: \(error.message)", at: node.location, path: reader.path.appending("sdk"))
        }
      } else {
        reader.diagnostics.error("'sdk' must be a string such as \"3\", \"4\" or \"4.2\" (a JSON number would read 4.10 as 4.1)",
                                 at: node.location, path: reader.path.appending("sdk"))
      }
    }
    checkSDKKeys(reader, sdk: options.sdk)
    options.automaticallyDismiss = reader.bool("automaticallyDismiss") ?? options.automaticallyDismiss
    options.shouldShowPurchaseFailureAlert = reader.bool("shouldShowPurchaseFailureAlert") ?? options.shouldShowPurchaseFailureAlert
    options.shouldObservePurchases = reader.bool("shouldObservePurchases") ?? options.shouldObservePurchases
    if let version = reader.choice("storeKitVersion", StoreKitVersion.allCases.map(\.rawValue)).flatMap(StoreKitVersion.init(rawValue:)) {
      options.storeKitVersion = version
    }
    if let restoreNode = reader.value("restoreFailed"),
       let texts = ObjectReader(restoreNode, path: reader.path.appending("restoreFailed"), diagnostics: reader.diagnostics,
                                what: "'restoreFailed'") {
      options.restoreFailed.title = texts.string("title") ?? options.restoreFailed.title
      options.restoreFailed.message = texts.string("message") ?? options.restoreFailed.message
      options.restoreFailed.closeButtonTitle = texts.string("closeButtonTitle") ?? options.restoreFailed.closeButtonTitle
      texts.finish()
    }
    // Superwall-Android has no such alert: the key is refused there by `checkSDKKeys`.
    if options.sdk.platform == .ios, let deniedNode = reader.value("notificationPermissionsDenied"),
       let texts = ObjectReader(deniedNode, path: reader.path.appending("notificationPermissionsDenied"), diagnostics: reader.diagnostics,
                                what: "'notificationPermissionsDenied'") {
      var alert = NotificationDeniedAlert()
      alert.title = texts.string("title") ?? alert.title
      alert.message = texts.string("message") ?? alert.message
      alert.actionButtonTitle = texts.string("actionButtonTitle") ?? alert.actionButtonTitle
      alert.closeButtonTitle = texts.string("closeButtonTitle") ?? alert.closeButtonTitle
      texts.finish()
      options.notificationPermissionsDenied = alert
    }
    return (options, overrides)
  }

  /// Every SDK option key of `options` (`SDKOptionKey`): one the chosen SDK lacks is an error
  /// naming the release that added it; one that changes nothing here is a warning saying why;
  /// the JSON of both is checked. The keys the emulator follows are read by `readOptions`.
  static func checkSDKKeys(_ reader: ObjectReader, sdk: SDKVersion) {
    if let nested = reader.member("paywalls") {
      reader.diagnostics.error("'paywalls': 'options' holds SuperwallOptions' and PaywallOptions' keys side by side; write the keys of SuperwallOptions.paywalls (automaticallyDismiss, shouldPreload…) directly in 'options'",
                               at: nested.keyLocation, path: reader.path.appending("paywalls"))
    }
    for member in reader.node.members ?? [] {
      guard let key = SDKOptionKey.named(member.key) else { continue }
      let path = reader.path.appending(key.name)
      guard key.exists(in: sdk) else {
        _ = reader.member(key.name)
        let option = "\(key.owner.rawValue).\(key.name)"
        if sdk.platform == .android || key.since == nil {
          let (has, lacks) = sdk.platform == .android ? ("Superwall-iOS", "Superwall-Android") : ("Superwall-Android", "Superwall-iOS")
          let fix = sdk.platform == .android ? "remove the key" : "remove the key, or set 'platform' to \"android\""
          reader.diagnostics.error("\(quoting: key.name) is an option of \(has) (\(option)), not of \(lacks) that this project follows ('platform'): \(fix)",
                                   at: member.keyLocation, path: path)
          continue
        }
        let range = key.until == nil ? "\(key.sinceText) and later" : "\(key.sinceText) only"
        reader.diagnostics.error("\(quoting: key.name) is an option of SDK \(range) (\(key.owner.rawValue).\(key.name)), not of SDK \(sdk) that this project follows ('sdk'): raise 'sdk' or remove the key",
                                 at: member.keyLocation, path: path)
        continue
      }
      guard let reason = key.noEffect else { continue }
      switch key.shape {
      case .bool: _ = reader.bool(key.name)
      case .string: _ = reader.string(key.name)
      case .wholeNumber: _ = reader.int(key.name, range: 0...Int.max)
      case .choice(let choices): _ = reader.choice(key.name, choices)
      case .object:
        _ = reader.member(key.name)
        if member.value.members == nil {
          reader.diagnostics.error("\(quoting: key.name) must be an object, found \(member.value.value.typeName)", at: member.value.location, path: path)
        }
      }
      reader.diagnostics.warning(.optionNoEffect, "\(quoting: key.name) (\(key.owner.rawValue).\(key.name)) has no effect here: \(reason)",
                                 at: member.keyLocation, path: path)
    }
  }
}
