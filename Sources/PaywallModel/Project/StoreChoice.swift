/// What a cross-platform project (a React Native or Flutter app's, selling through both stores)
/// writes once per store: app.json's `"catalog": {"ios": FILE, "android": FILE}` and a paywall
/// slot's `{"ios": ID, "android": ID}`. A session reads the entries of the platform it follows
/// (app.json's `options.platform`, or `--platform`), as each SDK decodes only its own store's
/// products from one Superwall config (`Paywall.swift` on iOS, `ProductItem.kt` on Android).
package enum StoreChoice {
  /// app.json's `catalog`: one file for every platform, or one per store.
  package enum CatalogReference: Sendable, Hashable {
    case one(String)
    case perStore([SDKPlatform: String])

    /// The file `platform` reads; nil when the project names none for it.
    package func file(for platform: SDKPlatform) -> String? {
      switch self {
      case .one(let file): file
      case .perStore(let files): files[platform]
      }
    }

    /// The stores a per-store catalog names, in `SDKPlatform` order; empty for one file.
    package var stores: [SDKPlatform] {
      guard case .perStore(let files) = self else { return [] }
      return SDKPlatform.allCases.filter { files[$0] != nil }
    }
  }

  /// What is wrong when a catalog written per store names none for the session's `platform`.
  static func noCatalog(for platform: SDKPlatform, named stores: [SDKPlatform]) -> String {
    let named = stores.map(\.rawValue).joined(separator: ", ")
    return "names a catalog for \(named) only, and this session follows \(platform.rawValue): add \"\(platform.rawValue)\": FILE to it, or follow \(named) (--platform \(named), or \"platform\": \"\(named)\" in 'options')"
  }

  /// Whether `node` is written per store: an object with an `ios` or `android` key.
  static func isPerStore(_ node: JSONNode) -> Bool {
    node.members?.contains { SDKPlatform(rawValue: $0.key) != nil } == true
  }

  /// Reads app.json's `catalog`, reporting what is wrong with it.
  static func catalog(_ reader: ObjectReader, required: Bool) -> CatalogReference? {
    guard let node = reader.value("catalog", required: required) else { return nil }
    let path = reader.path.appending("catalog")
    if node.stringValue != nil { return reader.string("catalog").map(CatalogReference.one) }
    guard isPerStore(node), let stores = ObjectReader(node, path: path, diagnostics: reader.diagnostics, what: "'catalog'") else {
      reader.diagnostics.error("'catalog' must be a file name, or one per store: {\"ios\": \"App.storekit\", \"android\": \"play-catalog.json\"}",
                               at: node.location, path: path)
      return nil
    }
    var files: [SDKPlatform: String] = [:]
    var unreadable = false
    for platform in SDKPlatform.allCases {
      if let file = stores.string(platform.rawValue) {
        files[platform] = file
      } else if stores.value(platform.rawValue) != nil {
        unreadable = true  // reported by `string`; no store is said to be missing for it
      }
    }
    stores.finish()
    return files.isEmpty || unreadable ? nil : .perStore(files)
  }

  /// A slot's value on `platform` and its path: the member's own value, or its store's entry when
  /// it is written per store (`(nil, path)` when that names no product for `platform`). Nil after
  /// reporting a slot written per store wrongly.
  static func slot(_ member: JSONMember, at path: JSONPath, for platform: SDKPlatform,
                   _ diagnostics: DiagnosticCollector, offers: Bool = true) -> (JSONNode?, JSONPath)? {
    guard isPerStore(member.value) else { return (member.value, path) }
    if let mixed = member.value.members?.first(where: { $0.key == "product" || $0.key == "offer" }) {
      let one = offers ? "either {\"product\": ID, \"offer\": OFFER_ID}" : "either one product id"
      diagnostics.error("slot \(quoting: member.key) is written both ways: give \(one) or one product per store, {\"ios\": ID, \"android\": ID}",
                        at: mixed.keyLocation, path: path.appending(mixed.key))
      return nil
    }
    guard let stores = ObjectReader(member.value, path: path, diagnostics: diagnostics, what: "a slot") else { return nil }
    let chosen = stores.value(platform.rawValue)
    for other in SDKPlatform.allCases where other != platform { _ = stores.value(other.rawValue) }
    stores.finish()
    guard let chosen else { return (nil, path) }
    if isPerStore(chosen) {
      diagnostics.error("slot \(quoting: member.key): a store's product is an id or {\"product\": ID, \"offer\": OFFER_ID}, not stores again",
                        at: chosen.location, path: path.appending(platform.rawValue))
      return nil
    }
    return (chosen, path.appending(platform.rawValue))
  }
}

extension Project {
  /// The store whose own default state directory a session following `platform` keeps: each
  /// store of a cross-platform project has one (two phones, two accounts), so no store ever reads
  /// the other's ledger whichever app.json follows; nil for a project of one catalog.
  package func stateStore(following platform: SDKPlatform) -> SDKPlatform? {
    stores.count > 1 ? platform : nil
  }
}

extension ProjectLoader {
  /// For a project whose catalog is written per store (`stores`, two or more), loads it as each
  /// other store's session does (`load`) and joins the errors found there to `diagnostics`, the
  /// session's: each said once, for the place it is at, and one only a store finds names that
  /// store (`on android (Superwall-Android): …`). The session's `--catalog` replaces its own
  /// store's catalog only; the others are read as app.json names them. Returns those loads, which
  /// `validate` reads each store's warnings from.
  static func checkingOtherStores(_ diagnostics: inout [Diagnostic], _ stores: [SDKPlatform], following platform: SDKPlatform,
                                  load: (SDKChoice) -> ProjectLoadResult) -> [(store: SDKPlatform, result: ProjectLoadResult)] {
    guard stores.count > 1 else { return [] }
    let own = diagnostics
    var sides: [(store: SDKPlatform, result: ProjectLoadResult)] = []
    var elsewhere: Set<String> = []
    for other in stores where other != platform {
      let side = load(SDKChoice(platform: other))
      sides.append((other, side))
      let places = Set(diagnostics.filter { $0.severity == .error }.map(StoreChoice.place))
      for var error in side.errors {
        elsewhere.insert(StoreChoice.place(error))
        guard !places.contains(StoreChoice.place(error)) else { continue }
        error.message = StoreChoice.labelled(error.message, other, path: error.path)
        diagnostics.append(error)
      }
    }
    // The session's own errors that no other store has, at that place, are its store's alone:
    // named too. (One both find may read differently on each: a did-you-mean only one catalog gives.)
    for index in own.indices where own[index].severity == .error && !elsewhere.contains(StoreChoice.place(own[index])) {
      diagnostics[index].message = StoreChoice.labelled(own[index].message, platform, path: own[index].path)
    }
    return sides
  }

  /// `catalog`, the session's, with a reason for each product only another store of the project
  /// sells (`Catalog.notSoldReason`): a script's `buy` or `call purchase`, the debug panel's `P` or
  /// an override naming one is told which store sells it and how to follow that store, not that
  /// no product has that id.
  static func notingOtherStores(_ sides: [(store: SDKPlatform, result: ProjectLoadResult)], in catalog: Catalog?,
                                following platform: SDKPlatform) -> Catalog? {
    guard var catalog else { return nil }
    for (store, side) in sides {
      guard let other = side.project?.catalog else { continue }
      for id in other.productIDs where catalog.product(id: id) == nil && catalog.notSoldReason(id) == nil {
        catalog.notSoldReasons[id] = "only \(StoreChoice.storeName(store)) sells it (\(other.file), this project's \(store.rawValue) catalog), "
          + "and this session follows \(platform.rawValue) (\(platform.sdkName)); --platform \(store.rawValue) plays that store"
      }
    }
    return catalog
  }
}

extension StoreChoice {
  /// Why a session does not start on a state directory whose ledger another store wrote, or
  /// (`reading`, `paywall-tui store`) why it is not shown with this catalog.
  package static func foreignLedger(_ written: Store, in ledger: String, following own: Store, crossPlatform: Bool,
                                    reading: Bool = false) -> String {
    let platform = written == .playStore ? "android" : written == .appStore ? "ios" : nil
    if reading {
      let how = crossPlatform ? platform.map { "--platform \($0) reads it" } : nil
      return "\(ledger) is \(storeName(written))'s ledger, and this project's catalog is \(storeName(own))'s; "
        + (how ?? "read it with the project whose catalog wrote it")
    }
    let other = crossPlatform ? platform.map { " (--platform \($0) goes on with it)" } ?? "" : ""
    return "\(ledger) is \(storeName(written))'s ledger, and this session buys from \(storeName(own)); "
      + "give this store a state directory of its own (another --state-dir), or --fresh to start this one over as \(storeName(own))'s\(other)"
  }

  /// A store's name, for messages.
  static func storeName(_ store: Store) -> String {
    store == .playStore ? "Google Play" : store == .appStore ? "the App Store" : store.rawValue
  }

  /// The store a platform's SDK sells through, for messages.
  static func storeName(_ platform: SDKPlatform) -> String {
    storeName(platform == .android ? Store.playStore : .appStore)
  }

  /// Where a diagnostic is: one mistake both stores find is said once.
  static func place(_ diagnostic: Diagnostic) -> String {
    "\(diagnostic.file):\(diagnostic.location):\(diagnostic.path?.description ?? "")"
  }

  /// `message` as one store's: `on android (Superwall-Android): …`; at a place written for every
  /// store (a slot's plain id), with how to write each store's.
  static func labelled(_ message: String, _ platform: SDKPlatform, path: JSONPath?) -> String {
    let hint = path.map(isWrittenForEveryStore) == true ? " (a cross-platform project names each store's product: {\"ios\": ID, \"android\": ID})" : ""
    return "on \(platform.rawValue) (\(platform.sdkName)): \(message)\(hint)"
  }

  /// Whether `path` is in a slot of a paywall's `products` or of app.json's
  /// `overrideProductsByName` written once for every store (not `{"ios": …, "android": …}`).
  static func isWrittenForEveryStore(_ path: JSONPath) -> Bool {
    let keys = path.components
    let slotAt: Int
    if keys.first == .key("products") {
      slotAt = 1
    } else if keys.starts(with: [.key("options"), .key("overrideProductsByName")]) {
      slotAt = 2
    } else {
      return false
    }
    guard slotAt < keys.count, case .key = keys[slotAt] else { return false }
    guard slotAt + 1 < keys.count, case .key(let next) = keys[slotAt + 1] else { return true }
    return SDKPlatform(rawValue: next) == nil
  }

  /// Why `catalog`, read for `platform` from a catalog written per store, is not that store's: a
  /// Google Play catalog for iOS, a `.storekit` for Android (our JSON catalog may sell either).
  static func misplaced(_ catalog: Catalog, for platform: SDKPlatform, in reference: CatalogReference) -> String? {
    guard case .perStore = reference else { return nil }
    if platform == .ios, catalog.play != nil {
      return "'catalog.ios' is a Google Play catalog (\(catalog.file)); name the App Store's here (.storekit or our catalog .json) and the Play catalog under \"android\""
    }
    if platform == .android, catalog.file.hasSuffix(".storekit") {
      return "'catalog.android' is an Xcode .storekit file (\(catalog.file)); name the Google Play catalog here (docs/android.md) and the .storekit under \"ios\""
    }
    return nil
  }

  /// app.json's `overrideProductsByName` for `platform`: each a product id, or in a cross-platform
  /// project (`perStore`) one per store, `{"ios": ID, "android": ID}` (a store it names none for
  /// keeps the paywall's product).
  static func overrides(_ written: [(member: JSONMember, path: JSONPath)], for platform: SDKPlatform, perStore: Bool,
                        _ diagnostics: DiagnosticCollector) -> [(SlotOverride, SourceLocation, JSONPath)] {
    var overrides: [(SlotOverride, SourceLocation, JSONPath)] = []
    for (member, path) in written {
      guard let (chosen, chosenPath) = slot(member, at: path, for: platform, diagnostics, offers: false) else { continue }
      guard let chosen else { continue }
      guard let id = chosen.stringValue else {
        let form = perStore ? " (or one per store: {\"ios\": ID, \"android\": ID})" : ""
        diagnostics.error("slot \(quoting: member.key) must name a product id (a string)\(form)", at: chosen.location, path: chosenPath)
        continue
      }
      overrides.append((SlotOverride(slot: member.key, productID: id), chosen.location, chosenPath))
    }
    return overrides
  }
}
