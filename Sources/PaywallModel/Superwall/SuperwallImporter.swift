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

/// A Superwall config turned into a project in our format: `app.json` and one paywall document
/// per `paywall_responses` item, as `paywall-tui import superwall` writes them and as
/// `ProjectLoader` reads a config given as a project path (same documents, never written).
package struct SuperwallImport: Sendable {
  /// The project file (`.null` when the import was read back as it was built).
  package var app: JSONOutput
  /// Each paywall's file name under the project directory (`paywalls/ID.json`) and its document
  /// (`.null` when the import was read back as it was built: `ReadBack` holds what it became).
  package var paywalls: [(file: String, id: String, document: JSONOutput, origin: SuperwallConfig.Paywall)]
  /// How many placements the project has.
  package var placementCount: Int
  /// A catalog the import writes itself (`catalog.json`): an empty one for a config that names no
  /// product and was given no catalog; nil when the project points at the app's own.
  package var catalogDocument: JSONOutput?
  /// Each rule's filter as the mapping parsed it, by its text, so reading the campaigns built from
  /// them does not parse them again (a filter repeated across rules is parsed once).
  package var filters: [String: AudienceFilter] = [:]
}

/// Maps the SDK's config (`SuperwallConfig`) to our format. What it keeps and why is in
/// `docs/fidelity.md` ("Superwall config import").
package enum SuperwallImporter {
  /// Whether a parsed JSON file is a Superwall config rather than one of our files.
  package static func isConfig(_ root: JSONNode) -> Bool {
    root["trigger_options"] != nil || root["paywall_responses"] != nil
  }

  /// The catalog a config is imported with: `--catalog`, else a `catalog.json` or the first
  /// `.storekit` beside the config.
  package static func catalogPath(for configPath: String, given: String?) -> String? {
    if let given { return given }
    let directory = (configPath).deletingLastPathComponent
    let names = FileSystem.names(in: directory.isEmpty ? "." : directory).sorted()
    let join = { (name: String) in directory.isEmpty ? name : (directory).appendingPathComponent(name) }
    if names.contains(ProjectLoader.catalogFileName) { return join(ProjectLoader.catalogFileName) }
    return names.first { $0.hasSuffix(".storekit") }.map(join)
  }

  /// Reads the config at `path` and maps it with the catalog at `catalogPath`. `catalogReference`
  /// is what `app.json` writes as `catalog` (a path relative to where the project will be).
  /// Returns the import (nil on any error), the catalog, and every diagnostic.
  /// `play`: a Google Play catalog beside `catalogPath`'s App Store one, for a cross-platform
  /// project (`bothStores`); its path and what app.json writes for it. `readBack`: filled with
  /// what the project's readers make of the documents, read as they are built.
  package static func importConfig(path: String, root: JSONNode, collector: DiagnosticCollector, catalogPath: String?,
                                    catalogReference: String?, name: String, layout: SubstitutionLayout? = nil, sdk: SDKVersion? = nil,
                                    play: (path: String, reference: String)? = nil,
                                    readBack: ReadBack? = nil) -> (SuperwallImport?, Catalog?, [Diagnostic]) {
    var all: [Diagnostic] = []
    func read(_ file: String) -> Catalog? {
      do {
        let (catalogRoot, catalogDiagnostics) = try SourceFile.parse(path: file)
        all += catalogDiagnostics.diagnostics
        return Catalog.read(catalogRoot, file: file, diagnostics: catalogDiagnostics)
      } catch {
        all += error.diagnostics
        return nil
      }
    }
    var catalog = catalogPath.flatMap(read)
    let playCatalog = play.flatMap { read($0.path) }
    if play != nil && playCatalog == nil { catalog = nil }
    let (mapped, _) = importConfig(root: root, collector: collector, catalog: catalog,
                                   catalogReference: catalogReference ?? catalogPath ?? ProjectLoader.catalogFileName,
                                   name: name, layout: layout, sdk: sdk, play: playCatalog.map { ($0, play!.reference) }, readBack: readBack)
    var imported = mapped
    if catalogPath == nil, var project = mapped {
      // Prices come from a catalog only when some paywall sells something: a config of holdouts
      // and paywalls without products imports as it is, with an empty catalog of its own.
      if project.paywalls.contains(where: { !$0.origin.products.isEmpty }) {
        collector.error("a Superwall config names product ids, not prices: pass --catalog FILE (an Xcode .storekit file or our catalog .json)",
                        at: .start, path: nil)
        imported = nil
      } else {
        project.catalogDocument = .object([("products", .array([]))])
        catalog = Catalog(products: [], file: ProjectLoader.catalogFileName)
        imported = project
      }
    }
    all = collector.diagnostics + all
    let failed = all.contains { $0.severity == .error } || catalog == nil
    return (failed ? nil : imported, catalog, all)
  }

  /// The import of a parsed config with a catalog already read (nil: none, an error reported
  /// elsewhere); nil when the config has an error.
  package static func importConfig(root: JSONNode, collector: DiagnosticCollector, catalog: Catalog?, catalogReference: String,
                                    name: String, layout: SubstitutionLayout? = nil, sdk: SDKVersion? = nil,
                                    play: (catalog: Catalog, reference: String)? = nil, readBack: ReadBack? = nil) -> (SuperwallImport?, [Diagnostic]) {
    guard let config = SuperwallConfigReader.read(root, diagnostics: collector, sdk: sdk ?? .latest, bothStores: play != nil) else {
      return (nil, collector.diagnostics)
    }
    let stores = Stores(appStore: catalog, play: play?.catalog)
    // Read back with the catalog the project gets: with none, the empty one `importConfig(path:)` gives it.
    if let catalog { readBack?.catalog = catalog }
    let mapped = map(config, stores: stores, catalogReference: catalogReference, playReference: play?.reference, name: name,
                     layout: layout, sdk: sdk, readBack: readBack, collector)
    return (collector.hasErrors ? nil : mapped, collector.diagnostics)
  }

  // MARK: - Mapping

  /// The catalogs an import checks product ids in: one, or for a cross-platform import the App
  /// Store's and Google Play's.
  private struct Stores {
    var appStore: Catalog?
    var play: Catalog?
    var both: Bool { play != nil }
    /// The catalog that sells `product`.
    func catalog(for product: SuperwallConfig.Product) -> Catalog? {
      product.platform == .android ? play ?? appStore : appStore
    }
  }

  private static func map(_ config: SuperwallConfig, stores: Stores, catalogReference: String, playReference: String?, name: String,
                          layout: SubstitutionLayout?, sdk: SDKVersion?, readBack: ReadBack?, _ d: DiagnosticCollector) -> SuperwallImport {
    // In order for the did-you-mean, and as a set to look up: a search of the array per paywall
    // and per variant made a large config load in quadratic time.
    var paywallIDs: [String] = []
    var knownIDs: Set<String> = []
    // File names taken, lowercased: macOS's file system ignores case by default, so `Pro` and
    // `pro` must not both be `paywalls/Pro.json`. Per base name, the next suffix to try: ids that
    // shorten to one name (its first 80 characters) each take the next, not a count from 2 again.
    var usedFiles: Set<String> = []
    var nextSuffix: [String: Int] = [:]
    // Each paywall's diagnostics in a collector of its own, so its document can be built on any
    // core; they join the config's in the paywalls' order, as one pass would give them.
    // A repeated paywall's warning follows what the paywall before it gave, its document's included.
    var kept: [(paywall: SuperwallConfig.Paywall, file: String, diagnostics: DiagnosticCollector, following: [Diagnostic])] = []
    for paywall in config.paywalls {
      let own = DiagnosticCollector(file: d.file, source: d.source)
      if !knownIDs.insert(paywall.identifier).inserted {
        own.warning(.superwallImport, "paywall \(quoting: paywall.identifier) appears twice in paywall_responses; the first is kept",
                    at: paywall.location, path: paywall.path.appending("identifier"))
        // The first paywall of this id was kept, so there is a paywall before it.
        kept[kept.count - 1].following += own.diagnostics
        continue
      }
      paywallIDs.append(paywall.identifier)
      let base = "paywalls/" + safeFileName(paywall.identifier)
      let key = base.lowercased()
      var file = base + ".json"
      if !usedFiles.insert(file.lowercased()).inserted {
        // A taken name `B-n.json` is tried only by base B (the part before its last '-'), whose
        // counter then moves past it: all the tries add up to at most twice the paywalls.
        var n = nextSuffix[key] ?? 2
        repeat {
          file = "\(base)-\(n).json"
          n += 1
        } while !usedFiles.insert(file.lowercased()).inserted
        nextSuffix[key] = n
      }
      kept.append((paywall, file, own, []))
    }
    let members: [(String, JSONOutput)] = [
      ("name", .string(name)),
      // A cross-platform project names each store's catalog; `--platform` picks one (`StoreChoice`).
      ("catalog", playReference.map { .object([("ios", .string(catalogReference)), ("android", .string($0))]) } ?? .string(catalogReference)),
      ("paywalls", .array(kept.map { .string($0.file) })),
    ]
    // One pass on every core: the campaigns (the first job, the longest) and each paywall's slots
    // and document. With `readBack`, each job also reads what it built as the project's readers
    // do, and the core that built a document frees it (freed afterwards, one by one, documents
    // were a tenth of a large load; freed by another core, slower still, both waiting on malloc).
    let jobs: [Int?] = [nil] + kept.indices.map { $0 }
    let done = jobs.parallelMap { index -> Mapped in
      guard let index else {
        let own = DiagnosticCollector(file: d.file, source: d.source)
        let (campaigns, filters) = Self.campaigns(config, paywallIDs: paywallIDs, known: knownIDs, own)
        var app = members + [("campaigns", JSONOutput.array(campaigns))]
        if let timeout = config.appSessionTimeoutMs, timeout >= 0 {
          app.append(("appSessionTimeoutMs", .number(String(timeout))))
        }
        // The project follows the SDK it was imported for (`--sdk`), so what it kept holds when run.
        if let sdk {
          let platform: [(String, JSONOutput)] = sdk.platform == .android ? [("platform", "android")] : []
          app.append(("options", .object(platform + [("sdk", .string(sdk.description))])))
        }
        let document = JSONOutput.object(app)
        guard let readBack else { return .campaigns(document, count: campaigns.count, filters: filters, own, read: nil) }
        return .campaigns(.null, count: campaigns.count, filters: filters, own, read: readBack.campaigns(document, filters: filters))
      }
      let paywall = kept[index]
      var missing: [(id: String, catalog: Catalog)] = []
      let slots = checkedSlots(paywall.paywall, stores: stores, missing: &missing, paywall.diagnostics)
      let document = PaywallBuilder.document(for: paywall.paywall, slots: slots, layout: layout, paywall.diagnostics)
      guard let readBack else { return .paywall(document, missing: missing, read: nil) }
      return .paywall(.null, missing: missing, read: readBack.paywall(document, from: paywall.paywall))
    }
    var imported = SuperwallImport(app: .null, paywalls: [], placementCount: 0)
    var missing: [(id: String, catalog: Catalog)] = []
    var triggerDiagnostics: [Diagnostic] = []
    var readPaywalls: [ReadBack.Paywall] = []
    var readCampaigns: ReadBack.Campaigns?
    for (index, result) in zip(jobs, done) {
      switch result {
      case .paywall(let document, let absent, let read):
        let paywall = kept[index!]
        d.append(paywall.diagnostics.diagnostics + paywall.following)
        imported.paywalls.append((paywall.file, paywall.paywall.identifier, document, paywall.paywall))
        missing += absent
        if let read { readPaywalls.append(read) }
      case .campaigns(let app, let count, let filters, let own, let read):
        imported.app = app
        imported.placementCount = count
        imported.filters = filters
        triggerDiagnostics = own.diagnostics
        readCampaigns = read
      }
    }
    for catalog in [stores.appStore, stores.play].compactMap({ $0 }) {
      var seen: Set<String> = []
      let unique = missing.filter { $0.catalog.file == catalog.file && seen.insert($0.id).inserted }.map(\.id)
      guard !unique.isEmpty else { continue }
      // What to give instead: the store whose products were looked for (a Play catalog given to an
      // import for iOS holds none of its APP_STORE ids).
      let forAndroid = stores.both ? catalog.play != nil : sdk?.platform == .android
      let them = unique.count == 1 ? "it" : "them"
      let fix = switch (catalog.play != nil, forAndroid) {
      case (false, false): "add \(them) to the catalog or pass the app's .storekit with --catalog"
      case (true, true), (false, true): "add \(them) to the catalog or pass the app's Play catalog with --catalog"
      case (true, false): "it is a Google Play catalog, and an import for iOS reads the APP_STORE products: pass the app's .storekit with --catalog, add --platform android for the PLAY_STORE ones, or give both catalogs (--catalog twice) for both stores"
      }
      d.error("\(unique.count) product id\(unique.count == 1 ? " is" : "s are") not in the catalog \(catalog.file): \(unique.joined(separator: ", ")); \(fix)",
              at: .start, path: .root.appending("paywall_responses"))
    }
    d.append(triggerDiagnostics)
    readBack?.paywalls = readPaywalls
    readBack?.campaigns = readCampaigns
    return imported
  }

  /// What one job of `map` made: the project file, or a paywall's document.
  private enum Mapped {
    case campaigns(JSONOutput, count: Int, filters: [String: AudienceFilter], DiagnosticCollector, read: ReadBack.Campaigns?)
    case paywall(JSONOutput, missing: [(id: String, catalog: Catalog)], read: ReadBack.Paywall?)
  }

  /// The paywall's slots (reference name → product id, or for a cross-platform import each
  /// store's id: `{"ios": ID, "android": ID}`) whose products the catalog has; every product id it
  /// lacks is an error at its path, with a did-you-mean, and added to `missing`.
  private static func checkedSlots(_ paywall: SuperwallConfig.Paywall, stores: Stores, missing: inout [(id: String, catalog: Catalog)],
                                   _ d: DiagnosticCollector) -> [(String, JSONOutput)] {
    var slots: [(name: String, ids: [(SDKPlatform, String)])] = []
    for product in paywall.products {
      let catalog = stores.catalog(for: product)
      if product.isCustom, let sold = catalog?.product(id: product.productID), sold.store != .custom {
        d.warning(.superwallImport, "product \(quoting: product.productID) is a CUSTOM product in the config, but the catalog sells it through \(sold.store.rawValue): give it \"store\": \"custom\" in the catalog, or the emulator buys it as a StoreKit product",
                  at: product.location, path: product.path)
      }
      if let catalog, catalog.product(id: product.productID) == nil {
        d.error("product \(quoting: product.productID) is not in the catalog \(catalog.file)\(Suggestions.hint(for: product.productID, in: catalog.productIDs))",
                at: product.location, path: product.path)
        missing.append((product.productID, catalog))
      }
      guard let slot = product.slot, !slot.isEmpty else {
        d.warning(.superwallImport, "product \(quoting: product.productID) has no reference_name, so no slot: the paywall does not show it",
                  at: product.location, path: product.path)
        continue
      }
      let index = slots.firstIndex { $0.name == slot }
      if slot == "selected" || index.map({ slots[$0].ids.contains { $0.0 == product.platform } }) == true {
        let store = stores.both ? " for \(StoreChoice.storeName(product.platform))" : ""
        d.warning(.superwallImport, "slot \(quoting: slot) is used twice\(store) (or is 'selected'); product \(quoting: product.productID) is left out",
                  at: product.location, path: product.path)
        continue
      }
      if let index {
        slots[index].ids.append((product.platform, product.productID))
      } else {
        slots.append((slot, [(product.platform, product.productID)]))
      }
    }
    return slots.map { slot in
      guard stores.both else { return (slot.name, .string(slot.ids[0].1)) }
      return (slot.name, .object(SDKPlatform.allCases.compactMap { platform in
        slot.ids.first { $0.0 == platform }.map { (platform.rawValue, .string($0.1)) }
      }))
    }
  }

  /// A file name from a paywall identifier: letters, digits, `.`, `_` and `-` kept, the rest `_`.
  static func safeFileName(_ id: String) -> String {
    let kept = String(id.unicodeScalars.prefix(80).map { scalar -> Character in
      let c = Character(scalar)
      return (scalar.isASCII && (c.isLetter || c.isNumber)) || c == "_" || c == "-" ? c : (c == "." ? "." : "_")
    })
    return kept.isEmpty || kept.hasPrefix(".") ? "paywall" + kept : kept
  }
}
