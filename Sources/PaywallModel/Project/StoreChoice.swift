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
    for platform in SDKPlatform.allCases {
      if let file = stores.string(platform.rawValue) { files[platform] = file }
    }
    stores.finish()
    return files.isEmpty ? nil : .perStore(files)
  }

  /// A slot's value on `platform` and its path: the member's own value, or its store's entry when
  /// it is written per store (`(nil, path)` when that names no product for `platform`). Nil after
  /// reporting a slot written per store wrongly.
  static func slot(_ member: JSONMember, at path: JSONPath, for platform: SDKPlatform,
                   _ diagnostics: DiagnosticCollector) -> (JSONNode?, JSONPath)? {
    guard isPerStore(member.value) else { return (member.value, path) }
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

extension ProjectLoader {
  /// The errors a project whose catalog is written per store has on the stores other than
  /// `platform`'s, each saying which store; one it shares with `known` (the session's) is said once.
  static func otherStoresErrors(_ file: String, _ reference: StoreChoice.CatalogReference, following platform: SDKPlatform,
                                known: [Diagnostic]) -> [Diagnostic] {
    let seen = Set(known.map(\.description))
    var found: [Diagnostic] = []
    for other in reference.stores where other != platform {
      let side = loadProjectFile(file, catalogPath: nil, sdk: SDKChoice(platform: other), checkingEveryStore: false)
      for var error in side.errors where !seen.contains(error.description) {
        error.message = "on \(other.rawValue) (\(other.sdkName)): \(error.message)"
        found.append(error)
      }
    }
    return found
  }
}
