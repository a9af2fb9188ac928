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

/// A project: a catalog and its paywalls, from a directory with `app.json`, an `app.json` itself,
/// or a single paywall file (its catalog then comes from `--catalog` or the paywall's directory).
public struct Project: Sendable, Equatable {
  /// The project's name: app.json's `name`, else the directory's, the paywall's or the file's name.
  public var name: String
  /// The products every paywall of the project sells.
  public var catalog: Catalog
  /// The paywalls, in the order the project lists them.
  public var paywalls: [PaywallDefinition]
  /// `options` from `app.json`: dismissal, the failure alert, the restore-failed texts.
  public var options: PaywallOptions
  /// Warnings found while loading (an override that could not apply, an unknown storefront…).
  public var warnings: [Diagnostic]
  /// Placements and their audiences (`campaigns` in app.json).
  public var campaigns: [Campaign]
  /// `options.overrideProductsByName`: slot → product, applied to every paywall presented.
  public var productOverrides: [SlotOverride]
  /// app.json's `"ignore"`: the kinds of warning this project accepts, by name. They are left out
  /// of `warnings`, and `validate` (even `--strict`) does not report them.
  public var ignoredWarnings: Set<WarningKind> = []
  /// app.json's `"appSessionTimeoutMs"` (the config's `app_session_timeout_ms`,
  /// `Config/Models/Config.swift`): how long the app may stay in the background before coming back
  /// starts a new session (`session_start`); 1 hour unless given, the SDK's default before a config
  /// arrives (`Analytics/App Session/AppSessionManager.swift`).
  public var appSessionTimeoutMs: Int = Project.defaultAppSessionTimeoutMs
  /// The stores a cross-platform project has a catalog for (app.json's `catalog` written per store,
  /// `StoreChoice`); empty for one catalog. `--platform` picks among them.
  public var stores: [SDKPlatform] = []
  /// The SDK's session timeout before a config says otherwise: 3 600 000 ms.
  public static let defaultAppSessionTimeoutMs = 3_600_000

  /// A project built in code (tests, tools); `ProjectLoader` builds one from files.
  public init(name: String, catalog: Catalog, paywalls: [PaywallDefinition], options: PaywallOptions = PaywallOptions(),
              warnings: [Diagnostic] = [], campaigns: [Campaign] = [], productOverrides: [SlotOverride] = []) {
    self.name = name
    self.catalog = catalog
    self.paywalls = paywalls
    self.options = options
    self.warnings = warnings
    self.campaigns = campaigns
    self.productOverrides = productOverrides
  }

  /// The placements a user can register, in the order app.json lists them (implicit ones excluded).
  public var placements: [String] {
    campaigns.filter { !$0.isImplicit }.map(\.placement)
  }

  /// Every placement a campaign is on, implicit ones included, each once, in the order app.json
  /// lists them: what `--placement`, a script's `placement` and completion may name. The one
  /// place it is computed.
  public var campaignPlacements: [String] {
    var seen: Set<String> = []
    return campaigns.map(\.placement).filter { seen.insert($0).inserted }
  }

  /// How a placement's paywalls gate its feature: "gated", "non-gated", "mixed", or nil when it
  /// presents none (holdout only).
  public func gating(of placement: String) -> String? {
    guard let campaign = campaigns.first(where: { $0.placement == placement }) else { return nil }
    // Two flags, not a Set: a type's first Set costs the runtime a scan of every conformance record.
    var (gated, nonGated) = (false, false)
    for audience in campaign.audiences {
      guard case .paywalls(let variants, _) = audience.outcome else { continue }
      for variant in variants { if paywall(id: variant.paywallID)?.featureGating == .gated { gated = true } else { nonGated = true } }
    }
    return gated && nonGated ? "mixed" : gated ? "gated" : nonGated ? "non-gated" : nil
  }

  /// The paywall with identifier `id`, or nil when the project has none.
  public func paywall(id: String) -> PaywallDefinition? {
    paywalls.first { $0.id == id }
  }

  /// This project as `sdk` reads its products' ids (`Catalog.following`: a session's `--sdk` may
  /// name another release than app.json), with one line for each paywall slot whose product the
  /// release then does not sell.
  package func following(_ sdk: SDKVersion) -> (Project, problems: [String]) {
    // Only a Play catalog made for another reading changes (`Catalog.following`).
    guard let play = catalog.play, play.reading != PlayProductIdentifier.Reading(sdk) else { return (self, []) }
    var project = self
    project.catalog = catalog.following(sdk)
    var problems: [String] = []
    for paywall in paywalls {
      for slot in paywall.slots where project.catalog.product(id: slot.productID) == nil {
        let reason = project.catalog.notSoldReason(slot.productID) ?? "\(sdk.platform.sdkName) \(sdk.description) sells nothing under it"
        problems.append("\(paywall.file): slot \(quoting: slot.name) names \(quoting: slot.productID): \(reason)")
      }
    }
    return (project, problems)
  }
}

/// What a path on the command line turned out to be, and everything found wrong with it.
public struct ProjectLoadResult: Sendable {
  /// Nil when any error was found: nothing that fails validation reaches the screen.
  public var project: Project?
  /// Every error and warning found, in file order.
  public var diagnostics: [Diagnostic]
  /// Why the command line's `--platform` or `--sdk` does not fit the project (which was then
  /// loaded for its own release): the mistake to report before any the load found.
  package var sdkRefusal: SDKVersionError?
  /// A cross-platform project's other stores as their sessions load it (`checkingOtherStores`).
  package var otherStores: [(store: SDKPlatform, result: ProjectLoadResult)] = []

  /// The diagnostics that stop the project from loading.
  public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
  /// The diagnostics that do not stop it (also in `project.warnings`).
  public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
}

/// Loads and validates a project from disk, reporting every problem at once.
public enum ProjectLoader {
  /// The file that makes a directory a project.
  public static let projectFileName = "app.json"
  package static let catalogFileName = "catalog.json"

  /// Loads `path` (a project directory, its `app.json`, a paywall file, or a catalog file) and
  /// reports every problem in every file it reaches.
  /// `sdk`: the command line's `--platform` and `--sdk`, which the products are read for over
  /// app.json's `options`.
  public static func load(path: String, catalogPath: String? = nil) -> ProjectLoadResult {
    load(path: path, catalogPath: catalogPath, sdk: SDKChoice())
  }

  package static func load(path: String, catalogPath: String?, sdk: SDKChoice) -> ProjectLoadResult {
    var isDirectory: Bool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return failed(path, "no such file or directory; give a project directory, its app.json, or a paywall .json file")
    }
    if isDirectory {
      let appFile = (path).appendingPathComponent(projectFileName)
      if FileManager.default.fileExists(atPath: appFile) {
        return loadProjectFile(appFile, catalogPath: catalogPath, sdk: sdk)
      }
      return loadDirectory(path, catalogPath: catalogPath, sdk: sdk)
    }
    if path.hasSuffix(".storekit") {
      return loadCatalogOnly(path)
    }
    let root: JSONNode
    let collector: DiagnosticCollector
    do {
      (root, collector) = try SourceFile.parse(path: path)
    } catch {
      return ProjectLoadResult(project: nil, diagnostics: error.diagnostics)
    }
    if SuperwallImporter.isConfig(root) {
      return SuperwallImporter.load(path: path, root: consume root, collector: collector, catalogPath: catalogPath)
    }
    if root["components"] != nil {
      return loadSinglePaywall(path, root: root, diagnostics: collector, catalogPath: catalogPath, sdk: sdk)
    }
    if root["paywalls"] != nil || root["catalog"] != nil {
      return loadProjectFile(path, catalogPath: catalogPath, sdk: sdk)
    }
    if root["products"]?.elements != nil || PlayCatalogReader.isPlayCatalog(root) {
      return loadCatalogOnly(path)
    }
    return failed(path, "not a paywall (no 'components'), project (no 'paywalls'), catalog (no 'products' list), Play catalog (no 'subscriptions') or Superwall config (no 'trigger_options')")
  }

  // MARK: - Kinds of path

  /// A project whose catalog is written per store is checked for each store (`checkingEveryStore`).
  static func loadProjectFile(_ file: String, catalogPath: String?, sdk choice: SDKChoice = SDKChoice(),
                              checkingEveryStore: Bool = true) -> ProjectLoadResult {
    let directory = (file).deletingLastPathComponent
    var all: [Diagnostic] = []
    guard let (root, diagnostics) = parse(file, into: &all) else { return ProjectLoadResult(project: nil, diagnostics: all) }
    guard let reader = ObjectReader(root, path: .root, diagnostics: diagnostics, what: "a project") else {
      return ProjectLoadResult(project: nil, diagnostics: diagnostics.diagnostics)
    }
    let name = reader.string("name") ?? ((directory).lastPathComponent)
    let catalogReference = StoreChoice.catalog(reader, required: catalogPath == nil)
    let paywallFiles = reader.stringArray("paywalls", required: true) ?? []
    let (options, writtenOverrides) = readOptions(reader)
    let campaigns = CampaignReader.read(reader)
    let ignored = readIgnore(reader)
    let sessionTimeout = reader.int("appSessionTimeoutMs", range: 0...Int.max)
    reader.finish()
    // Paywalls are checked against the products as the release the session follows (app.json's,
    // or the command line's) reads their ids; a choice that does not fit is the session's to
    // refuse, and the project is read for its own release meanwhile.
    let resolution = SDKVersion.resolve(project: options.sdk, platform: choice.platform, given: choice.given)
    let sdk = (try? resolution.get()) ?? options.sdk
    if catalogPath == nil, let catalogReference, catalogReference.file(for: sdk.platform) == nil {
      diagnostics.error("'catalog' " + StoreChoice.noCatalog(for: sdk.platform, named: catalogReference.stores),
                        at: root["catalog"]?.location ?? root.location, path: .root.appending("catalog"))
    }
    let overrides = StoreChoice.overrides(writtenOverrides, for: sdk.platform, perStore: catalogReference?.stores.isEmpty == false, diagnostics)
    all += diagnostics.diagnostics
    let catalogFile = catalogPath ?? catalogReference?.file(for: sdk.platform).map { resolve($0, in: directory) }
    let catalog = catalogFile.flatMap { loadCatalog($0, into: &all) }?.following(sdk)
    if catalogPath == nil, let catalogReference, let catalog, let problem = StoreChoice.misplaced(catalog, for: sdk.platform, in: catalogReference) {
      all.append(Diagnostic(file: file, location: root["catalog"]?[sdk.platform.rawValue]?.location ?? root.location, severity: .error,
                            message: problem, path: JSONPath.root.appending("catalog").appending(sdk.platform.rawValue)))
    }
    CampaignReader.lint(campaigns, catalog: catalog, sdk: options.sdk, into: &all)
    var paywalls: [PaywallDefinition] = []
    var ids: [String: String] = [:]
    // Paywall files that did not load, with their id when it could be read: a campaign naming one
    // is told so instead of "no paywall".
    var unloaded: [CampaignReader.UnloadedPaywall] = []
    for (index, (name, location)) in paywallFiles.enumerated() {
      let paywallFile = resolve(name, in: directory)
      guard FileManager.default.fileExists(atPath: paywallFile) else {
        all.append(Diagnostic(file: file, location: location, severity: .error,
                              message: "paywall file \(quoting: name) does not exist (looked for \(paywallFile))",
                              path: JSONPath.root.appending("paywalls").appending(index)))
        unloaded.append(.init(file: paywallFile, name: name, id: nil))
        continue
      }
      let parsed = parse(paywallFile, into: &all)
      guard let (root, paywallDiagnostics) = parsed,
            let paywall = readPaywall(root, file: paywallFile, catalog: catalog, diagnostics: paywallDiagnostics, platform: sdk.platform,
                                      into: &all) else {
        unloaded.append(.init(file: paywallFile, name: name, id: parsed?.0["id"]?.stringValue))
        continue
      }
      if let first = ids[paywall.id] {
        all.append(Diagnostic(file: paywallFile, location: root["id"]?.location ?? root.location, severity: .error,
                              message: "paywall id \(quoting: paywall.id) is already used by \(first); ids must be unique",
                              path: JSONPath.root.appending("id")))
      } else {
        ids[paywall.id] = paywallFile
        paywalls.append(paywall)
      }
    }
    if !paywallFiles.isEmpty || paywalls.count > 0 {
      CampaignReader.check(campaigns, paywallIDs: paywalls.map(\.id), unloaded: unloaded, file: file, into: &all)
    }
    var checkedOverrides: [SlotOverride] = []
    if let catalog {
      for (o, location, path) in overrides {
        if let reason = catalog.notSoldReason(o.productID) {
          all.append(Diagnostic(file: file, location: location, severity: .error,
                                message: "overrideProductsByName: \(quoting: o.productID): \(reason)", path: path))
        } else if let reason = catalog.unloadedReason(o.productID) {
          all.append(Diagnostic(file: file, location: location, severity: .error,
                                message: "overrideProductsByName: \(quoting: o.productID): \(reason)", path: path, isConsequence: true))
        } else if catalog.product(id: o.productID) == nil {
          all.append(Diagnostic(file: file, location: location, severity: .error,
                                message: "overrideProductsByName: no product \(quoting: o.productID) in the catalog\(Suggestions.hint(for: o.productID, in: catalog.productIDs))",
                                path: path))
        } else {
          checkedOverrides.append(o)
        }
      }
    }
    all.removeAll { $0.kind.map(ignored.contains) == true }
    let sides = !checkingEveryStore ? [] : checkingOtherStores(&all, catalogReference?.stores ?? [], following: sdk.platform) {
      loadProjectFile(file, catalogPath: nil, sdk: $0, checkingEveryStore: false)
    }
    var result = finish(name: name, catalog: notingOtherStores(sides, in: catalog, following: sdk.platform), paywalls: paywalls,
                        options: options, diagnostics: all, campaigns: campaigns.campaigns, overrides: checkedOverrides)
    if case .failure(let refusal) = resolution { result.sdkRefusal = refusal }
    result.project?.ignoredWarnings = ignored
    result.project?.appSessionTimeoutMs = sessionTimeout ?? Project.defaultAppSessionTimeoutMs
    result.project?.stores = catalogReference?.stores ?? []
    result.otherStores = sides
    return result
  }

  static func loadDirectory(_ directory: String, catalogPath: String?, sdk choice: SDKChoice) -> ProjectLoadResult {
    let entries = FileSystem.names(in: directory).sorted()
    var all: [Diagnostic] = []
    let catalogFile: String?
    if let catalogPath {
      catalogFile = catalogPath
    } else if entries.contains(catalogFileName) {
      catalogFile = resolve(catalogFileName, in: directory)
    } else if let storekit = entries.first(where: { $0.hasSuffix(".storekit") }) {
      catalogFile = resolve(storekit, in: directory)
    } else {
      return failed(directory, "no \(projectFileName), \(catalogFileName) or .storekit file here; add an \(projectFileName) naming the catalog and paywalls")
    }
    // With no app.json, the project follows the default release, or the command line's.
    let sdk = choice.followed(by: PaywallOptions().sdk)
    let catalog = catalogFile.flatMap { loadCatalog($0, into: &all) }?.following(sdk)
    var paywalls: [PaywallDefinition] = []
    for entry in entries where entry.hasSuffix(".json") && entry != catalogFileName
      && !entry.hasSuffix(".schema.json") && !entry.hasSuffix(".entitlements.json") {
      let file = resolve(entry, in: directory)
      // A file that does not parse may be a paywall with a typo: its error is reported, never skipped.
      guard let (root, diagnostics) = parse(file, into: &all), root["components"] != nil else { continue }
      if let paywall = readPaywall(root, file: file, catalog: catalog, diagnostics: diagnostics, platform: sdk.platform, into: &all) {
        paywalls.append(paywall)
      }
    }
    if paywalls.isEmpty && !all.contains(where: { $0.severity == .error }) {
      return failed(directory, "no paywall files (JSON with 'components') here")
    }
    return finish(name: (directory).lastPathComponent, catalog: catalog, paywalls: paywalls, diagnostics: all)
  }

  /// A paywall file beside a cross-platform app.json is checked for each store, as its project is.
  static func loadSinglePaywall(_ file: String, root: JSONNode, diagnostics: DiagnosticCollector,
                                catalogPath: String?, sdk choice: SDKChoice, checkingEveryStore: Bool = true) -> ProjectLoadResult {
    let directory = (file).deletingLastPathComponent
    var all: [Diagnostic] = []
    var catalogFile = catalogPath
    let sdk = choice.followed(by: PaywallOptions().sdk)
    var stores: [SDKPlatform] = []
    if catalogFile == nil {
      let appFile = resolve(projectFileName, in: directory)
      let app = try? SourceFile.parse(path: appFile).0
      stores = SDKPlatform.allCases.filter { app?["catalog"]?[$0.rawValue]?.stringValue != nil }
      if !stores.isEmpty, !stores.contains(sdk.platform) {
        return failed(file, "\(appFile)'s 'catalog' " + StoreChoice.noCatalog(for: sdk.platform, named: stores))
      }
      if let app, let name = app["catalog"]?.stringValue ?? app["catalog"]?[sdk.platform.rawValue]?.stringValue {
        catalogFile = resolve(name, in: directory)
      } else if FileManager.default.fileExists(atPath: resolve(catalogFileName, in: directory)) {
        catalogFile = resolve(catalogFileName, in: directory)
      } else if let storekit = FileSystem.names(in: directory)
        .sorted().first(where: { $0.hasSuffix(".storekit") }) {
        catalogFile = resolve(storekit, in: directory)
      }
    }
    guard let catalogFile else {
      return failed(file, "no catalog found beside the paywall; pass --catalog FILE (.json or .storekit)")
    }
    let catalog = loadCatalog(catalogFile, into: &all)?.following(sdk)
    let paywall = readPaywall(root, file: file, catalog: catalog, diagnostics: diagnostics, platform: sdk.platform, into: &all)
    let sides = !checkingEveryStore ? [] : checkingOtherStores(&all, stores, following: sdk.platform) { other in
      guard let (again, collector) = try? SourceFile.parse(path: file) else { return ProjectLoadResult(project: nil, diagnostics: []) }
      return loadSinglePaywall(file, root: again, diagnostics: collector, catalogPath: nil, sdk: other, checkingEveryStore: false)
    }
    var result = finish(name: paywall?.name ?? file, catalog: notingOtherStores(sides, in: catalog, following: sdk.platform),
                        paywalls: paywall.map { [$0] } ?? [], diagnostics: all)
    result.project?.stores = stores.count > 1 ? stores : []
    result.otherStores = sides
    return result
  }

  static func loadCatalogOnly(_ file: String) -> ProjectLoadResult {
    var all: [Diagnostic] = []
    let catalog = loadCatalog(file, into: &all)
    return finish(name: file, catalog: catalog, paywalls: [], diagnostics: all)
  }

  // MARK: - Pieces

  /// Parses `file`, adding a read or syntax error to `all` and returning nil when it cannot.
  static func parse(_ file: String, into all: inout [Diagnostic]) -> (JSONNode, DiagnosticCollector)? {
    do {
      return try SourceFile.parse(path: file)
    } catch {
      all += error.diagnostics
      return nil
    }
  }

  static func loadCatalog(_ file: String, into all: inout [Diagnostic]) -> Catalog? {
    guard let (root, diagnostics) = parse(file, into: &all) else { return nil }
    let catalog = Catalog.read(root, file: file, diagnostics: diagnostics)
    all += diagnostics.diagnostics
    return catalog
  }

  static func readPaywall(_ root: JSONNode, file: String, catalog: Catalog?, diagnostics: DiagnosticCollector,
                          platform: SDKPlatform = .ios, into all: inout [Diagnostic]) -> PaywallDefinition? {
    let paywall = PaywallReader.read(root, file: file, catalog: catalog, diagnostics: diagnostics, platform: platform)
    all += diagnostics.diagnostics
    return paywall
  }

  static func finish(name: String, catalog: Catalog?, paywalls: [PaywallDefinition], options: PaywallOptions = PaywallOptions(),
                             diagnostics: [Diagnostic], campaigns: [Campaign] = [], overrides: [SlotOverride] = []) -> ProjectLoadResult {
    let sorted = Diagnostic.ordered(diagnostics)
    guard let catalog, !sorted.contains(where: { $0.severity == .error }) else {
      return ProjectLoadResult(project: nil, diagnostics: sorted)
    }
    let warnings = sorted.filter { $0.severity == .warning }
    return ProjectLoadResult(project: Project(name: name, catalog: catalog, paywalls: paywalls, options: options, warnings: warnings,
                                              campaigns: campaigns, productOverrides: overrides),
                             diagnostics: sorted)
  }

  static func failed(_ path: String, _ message: String) -> ProjectLoadResult {
    ProjectLoadResult(project: nil, diagnostics: [Diagnostic(file: path, location: .start, severity: .error, message: message, path: nil)])
  }

  static func resolve(_ name: String, in directory: String) -> String {
    if name.hasPrefix("/") || directory.isEmpty { return name }
    return (directory).appendingPathComponent(name)
  }
}
