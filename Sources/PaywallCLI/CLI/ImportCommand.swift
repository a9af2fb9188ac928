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
import PaywallModel

/// `paywall-tui import superwall CONFIG.json --out DIR [--catalog FILE] [--layout FILE] [--force]`: a Superwall
/// config (the SDK's `static_config` response) written as a project of our format.
package struct ImportCommand: CLICommand {
  package static let spec = CommandSpec(
    name: "import",
    abstract: "Import a Superwall config (the SDK's static_config response) as a project: app.json and paywalls/.",
    discussion: "The config names product ids, not prices: --catalog gives them (the app's .storekit or our catalog .json; default: one beside the config; a config whose paywalls sell nothing needs none). A cross-platform app (React Native, Flutter) gives --catalog twice, the App Store's and its Google Play catalog: the project keeps both stores' products, and 'paywall-tui run DIR --platform android' runs the Play side. A config can also be given directly where a project is expected: 'paywall-tui run config.json --catalog App.storekit'.",
    positionals: [PositionalSpec(name: "source", help: "What to import from: superwall.", count: .one, values: .words(["superwall"])),
                  PositionalSpec(name: "config", help: "The config JSON file.", count: .one, values: .file)],
    options: ImportFlags.all,
    examples: [
      "paywall-tui import superwall config.json --catalog App.storekit --out qa   # then: paywall-tui explain qa PLACEMENT",
      "paywall-tui run config.json --catalog App.storekit                         # the config as the project, nothing written",
      "paywall-tui import superwall config.json --catalog App.storekit --catalog play-catalog.json --out qa   # both stores",
    ]
  )

  package var source: String
  package var config: String
  package var out: String?
  /// `--catalog`, at most twice (a cross-platform import: one per store).
  package var catalogs: [String]
  package var force: Bool
  package var layout: String?
  /// `--sdk`: the SDK whose decoding the import follows, written into app.json; nil: the latest.
  package var sdk: String?
  /// `--platform`: whose SDK decodes the config (Android keeps PLAY_STORE products); nil: iOS.
  package var platform: SDKPlatform?

  package init(_ arguments: Arguments) throws(CLIFailure) {
    source = arguments.positionals[0]
    config = arguments.positionals[1]
    out = arguments[ImportFlags.out]
    catalogs = arguments[ImportFlags.catalog]
    force = arguments[ImportFlags.force]
    layout = arguments[ImportFlags.layout]
    sdk = arguments[ImportFlags.sdk]
    platform = try arguments[ImportFlags.platform]
  }

  package func run() async throws {
    guard source == "superwall" else {
      throw CLIFailure.usage("cannot import from \(quoting: source)\(Suggestions.hint(for: source, in: ["superwall"])); write 'paywall-tui import superwall CONFIG.json --out DIR'")
    }
    guard let out else {
      throw CLIFailure.usage("import needs --out DIR, the project directory to write")
    }
    var version: SDKVersion?
    if let sdk {
      switch SDKVersion.parse(sdk) {
      case .success(let parsed) where parsed.platform != (platform ?? .ios):
        let given = platform.map { ", and --platform \($0.rawValue) is not" } ?? ""
        throw CLIFailure.usage("--sdk \(parsed) is a \(parsed.platform.sdkName) version\(given); give --platform \(parsed.platform.rawValue) with it")
      case .success(let parsed): version = parsed
      case .failure(let error): throw CLIFailure.usage("--sdk: \(error.message)")
      }
    } else if let platform {
      version = .latest(for: platform)
    }
    var chosenLayout: SubstitutionLayout?
    if let layout {
      do {
        chosenLayout = try SubstitutionLayout.load(path: layout)
      } catch {
        for diagnostic in error.diagnostics { try Console.error(diagnostic.description) }
        throw CLIFailure.invalid("error: \(layout) is not a usable layout; nothing was written")
      }
    }
    let root: JSONNode
    let collector: DiagnosticCollector
    do {
      (root, collector) = try SourceFile.parse(path: config)
    } catch {
      for diagnostic in error.diagnostics { try Console.error(diagnostic.description) }
      throw CLIFailure.invalid("error: \(config) cannot be imported")
    }
    guard SuperwallImporter.isConfig(root) else {
      throw CLIFailure.invalid("error: \(config) is not a Superwall config (no 'trigger_options' or 'paywall_responses')")
    }
    let (catalogPath, play) = try chosenCatalogs(out: out)
    let reference = catalogPath.map { ImportedProjectWriter.relativePath($0, from: out) }
    let name = ((config).lastPathComponent).deletingPathExtension
    let (imported, _, diagnostics) = SuperwallImporter.importConfig(path: config, root: root, collector: collector, catalogPath: catalogPath,
                                                                     catalogReference: reference, name: name, layout: chosenLayout, sdk: version,
                                                                     play: play)
    for diagnostic in diagnostics.sorted(by: { ($0.file, $0.location) < ($1.file, $1.location) }) {
      try Console.error(diagnostic.description)
    }
    guard let imported else {
      let errors = diagnostics.filter { $0.severity == .error }.count
      throw CLIFailure.invalid("error: \(config) has \(errors) problem\(errors == 1 ? "" : "s"); nothing was written")
    }
    let report: ImportedProjectWriter.Report
    do {
      let reading = [config] + [catalogPath, play?.path, layout].compactMap { $0 }
      report = try ImportedProjectWriter.write(imported, to: out, force: force, reading: reading) { directory in
        // What was written must load as any project does, before it takes the target's place.
        let result = ProjectLoader.load(path: directory)
        let errors = result.errors
        guard !errors.isEmpty else { return nil }
        return "the imported project does not validate (nothing was written): " + errors.map(\.description).joined(separator: "; ")
      }
    } catch {
      throw CLIFailure.invalid("error: \(error.message)")
    }
    let count = imported.paywalls.count
    if !report.replaced.isEmpty { try Console.out("replaced: \(report.replaced.joined(separator: ", "))") }
    if !report.removed.isEmpty { try Console.out("removed: \(report.removed.joined(separator: ", ")) (no longer in the config)") }
    if !report.kept.isEmpty { try Console.out("kept: \(report.kept.joined(separator: ", ")) (not written by import)") }
    try Console.out("wrote \(out): \(imported.placementCount) placement\(imported.placementCount == 1 ? "" : "s"), \(count) paywall\(count == 1 ? "" : "s"); try 'paywall-tui explain \(out) PLACEMENT' or 'paywall-tui \(out)'")
  }
}

extension ImportCommand {
  /// The App Store catalog (or the only one) and, for a cross-platform import, the Google Play
  /// catalog with the path app.json gives it.
  func chosenCatalogs(out: String) throws -> (String?, (path: String, reference: String)?) {
    guard catalogs.count > 1 else { return (SuperwallImporter.catalogPath(for: config, given: catalogs.first), nil) }
    let usage = "a cross-platform import takes two --catalog: the App Store's (.storekit or our catalog .json) and the Google Play catalog"
    guard catalogs.count == 2 else { throw CLIFailure.usage("--catalog is given \(catalogs.count) times; \(usage)") }
    guard platform == nil, sdk == nil else {
      throw CLIFailure.usage("--platform and --sdk choose one store's SDK, and two --catalog import for both (each store's latest SDK); give one --catalog with them")
    }
    // Which is which is read from each file: one that cannot be read is said first, at its place.
    var isPlay: [Bool] = []
    for file in catalogs {
      do {
        isPlay.append(PlayCatalogReader.isPlayCatalog(try SourceFile.parse(path: file).0))
      } catch {
        for diagnostic in error.diagnostics { try Console.error(diagnostic.description) }
        throw CLIFailure.invalid("error: --catalog \(file) cannot be read; nothing was written")
      }
    }
    guard let playIndex = isPlay.firstIndex(of: true), isPlay.filter({ $0 }).count == 1 else {
      let found = isPlay.contains(true) ? "both are Google Play catalogs" : "neither is a Google Play catalog (one with 'subscriptions' or 'oneTimeProducts')"
      throw CLIFailure.usage("\(usage); \(found)")
    }
    let playPath = catalogs[playIndex]
    return (catalogs[1 - playIndex], (playPath, ImportedProjectWriter.relativePath(playPath, from: out)))
  }
}

/// `import`'s options.
package enum ImportFlags {
  package static let out = Flag.text("out", "dir", "The project directory to write (new, empty, or one an import wrote).")
  package static let catalog = Flag.list("catalog", "file", "Prices for the config's products (.storekit, catalog .json or a Google Play catalog); twice, the App Store's and the Play catalog, for a cross-platform project.")
  package static let layout = Flag.text("layout", "file", "Which substitution keys become the title, texts, features and buttons (JSON).")
  package static let force = Flag.bool("force", "Write into a directory an import wrote before: its files are replaced (and listed), nothing else there is touched.")
  /// Read as written: `run()` checks it, after the source is known.
  package static let sdk = Flag.text("sdk", "version", "Decode the config as this SDK does and write it as the project's options.sdk: 3, 4 (the latest 4.x) or 4.N (default: 4); with --platform android, 2 or 2.N. Custom store products are kept from 4.15, skipped before.")

  package static let platform: Flag<SDKPlatform?, CLIFailure> = Flag.choice("platform", "os",
    "Decode the config as this platform's SDK does and write it as the project's options.platform: ios (the default; APP_STORE products) or android (PLAY_STORE products as sku:basePlan:offer).")

  /// In the order help lists them.
  package static let all: [OptionInfo] = [out.option, catalog.option, layout.option, force.option, platform.option, sdk.option]
}
