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
  /// The project file.
  package var app: JSONOutput
  /// Each paywall's file name under the project directory (`paywalls/ID.json`) and its document.
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
  /// project (`bothStores`); its path and what app.json writes for it.
  package static func importConfig(path: String, root: JSONNode, collector: DiagnosticCollector, catalogPath: String?,
                                    catalogReference: String?, name: String, layout: SubstitutionLayout? = nil, sdk: SDKVersion? = nil,
                                    play: (path: String, reference: String)? = nil) -> (SuperwallImport?, Catalog?, [Diagnostic]) {
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
                                   name: name, layout: layout, sdk: sdk, play: playCatalog.map { ($0, play!.reference) })
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
                                    play: (catalog: Catalog, reference: String)? = nil) -> (SuperwallImport?, [Diagnostic]) {
    guard let config = SuperwallConfigReader.read(root, diagnostics: collector, sdk: sdk ?? .latest, bothStores: play != nil) else {
      return (nil, collector.diagnostics)
    }
    let stores = Stores(appStore: catalog, play: play?.catalog)
    let mapped = map(config, stores: stores, catalogReference: catalogReference, playReference: play?.reference, name: name,
                     layout: layout, sdk: sdk, collector)
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
                          layout: SubstitutionLayout?, sdk: SDKVersion?, _ d: DiagnosticCollector) -> SuperwallImport {
    // In order for the did-you-mean, and as a set to look up: a search of the array per paywall
    // and per variant made a large config load in quadratic time.
    var paywallIDs: [String] = []
    var knownIDs: Set<String> = []
    var documents: [(file: String, id: String, document: JSONOutput, origin: SuperwallConfig.Paywall)] = []
    // File names taken, lowercased: macOS's file system ignores case by default, so `Pro` and
    // `pro` must not both be `paywalls/Pro.json`. Per base name, the next suffix to try: ids that
    // shorten to one name (its first 80 characters) each take the next, not a count from 2 again.
    var usedFiles: Set<String> = []
    var nextSuffix: [String: Int] = [:]
    var missing: [(id: String, catalog: Catalog)] = []
    // Each paywall's diagnostics in a collector of its own, so its document can be built on any
    // core; they join the config's in the paywalls' order, as one pass would give them.
    // A repeated paywall's warning follows what the paywall before it gave, its document's included.
    var kept: [(paywall: SuperwallConfig.Paywall, slots: [(String, JSONOutput)], file: String, diagnostics: DiagnosticCollector,
                following: [Diagnostic])] = []
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
      let slots = checkedSlots(paywall, stores: stores, missing: &missing, own)
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
      kept.append((paywall, slots, file, own, []))
    }
    let built = kept.parallelMap { PaywallBuilder.document(for: $0.paywall, slots: $0.slots, layout: layout, $0.diagnostics) }
    for (index, paywall) in kept.enumerated() {
      d.append(paywall.diagnostics.diagnostics + paywall.following)
      documents.append((paywall.file, paywall.paywall.identifier, built[index], paywall.paywall))
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
    var campaigns: [JSONOutput] = []
    var placements: Set<String> = []
    var filters: [String: AudienceFilter] = [:]
    for trigger in config.triggers {
      if PlacementNames.neverPresents(trigger.placement) {
        d.warning(.superwallImport, "placement \(quoting: trigger.placement) is one the SDK fires itself; paywall-tui does not emulate it, so its campaign is left out",
                  at: trigger.location, path: trigger.path.appending("event_name"))
        continue
      }
      // The name becomes a campaign's placement: the same warning its app.json would give, here
      // at the config's own key.
      if let problem = PlacementNames.untypable(trigger.placement) {
        d.warning(.placementName, problem, at: trigger.location, path: trigger.path.appending("event_name"))
      }
      guard placements.insert(trigger.placement).inserted else {
        d.warning(.superwallImport, "placement \(quoting: trigger.placement) has a second trigger; the first is kept", at: trigger.location, path: trigger.path)
        continue
      }
      // A trigger whose rules could not be read has its errors already: "no rules" would name a
      // consequence as the cause.
      if trigger.rules.isEmpty && !trigger.hadUnreadableRules {
        d.warning(.superwallImport, "placement \(quoting: trigger.placement) has no rules; left out (registering it skips, as a placement with no audience matching)",
                  at: trigger.location, path: trigger.path.appending("rules"))
        continue
      }
      if trigger.rules.isEmpty { continue }
      let audiences = trigger.rules.compactMap { audience($0, paywallIDs: paywallIDs, known: knownIDs, broken: config.brokenPaywallIDs,
                                                         filters: &filters, d) }
      if audiences.count == trigger.rules.count {
        campaigns.append(.object([("placement", .string(trigger.placement)), ("audiences", .array(audiences))]))
      }
    }
    var members: [(String, JSONOutput)] = [
      ("name", .string(name)),
      // A cross-platform project names each store's catalog; `--platform` picks one (`StoreChoice`).
      ("catalog", playReference.map { .object([("ios", .string(catalogReference)), ("android", .string($0))]) } ?? .string(catalogReference)),
      ("paywalls", .array(documents.map { .string($0.file) })),
      ("campaigns", .array(campaigns)),
    ]
    if let timeout = config.appSessionTimeoutMs, timeout >= 0 {
      members.append(("appSessionTimeoutMs", .number(String(timeout))))
    }
    // The project follows the SDK it was imported for (`--sdk`), so what it kept holds when run.
    if let sdk {
      let platform: [(String, JSONOutput)] = sdk.platform == .android ? [("platform", "android")] : []
      members.append(("options", .object(platform + [("sdk", .string(sdk.description))])))
    }
    let app: JSONOutput = .object(members)
    return SuperwallImport(app: app, paywalls: documents, placementCount: campaigns.count, filters: filters)
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
        let store = stores.both ? " for \(product.platform == .android ? "Google Play" : "the App Store")" : ""
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

  /// One rule as an audience of our format, or nil after reporting why it cannot be one.
  /// `ConfigLogic.chooseVariant`: one variant is chosen whatever its percentage; with several,
  /// each gets its share of their sum (all at 0: an equal chance). Our format gives the holdout as
  /// a percent of everyone and the paywalls' percents of the rest, adding up to 100.
  private static func audience(_ rule: SuperwallConfig.Rule, paywallIDs: [String], known: Set<String>, broken: Set<String>,
                               filters: inout [String: AudienceFilter], _ d: DiagnosticCollector) -> JSONOutput? {
    var members: [(String, JSONOutput)] = [("experimentId", .string(rule.experimentID))]
    var valid = true
    if let cel = rule.expressionCEL, !cel.text.trimmingSpaces().isEmpty {
      do {
        if filters[cel.text] == nil { filters[cel.text] = try AudienceFilter(parsing: cel.text) }
        members.append(("filter", .string(cel.text)))
      } catch {
        d.error("expression_cel: \(error.message); paywall-tui cannot evaluate this rule", at: d.location(inStringAt: cel.location, offset: error.offset),
                path: cel.path)
        valid = false
      }
    } else if let other = rule.expression ?? rule.expressionJS, !other.text.trimmingSpaces().isEmpty {
      // TriggerRule.swift (4.x) reads only `expression_cel`: a rule with only a 3.x expression matches everyone on a 4.x device.
      d.warning(.superwallImport, "this rule has no expression_cel; the SDK 4.x reads no other expression, so it matches every user, here as on a device",
                at: other.location, path: other.path)
    }
    if let occurrence = rule.occurrence {
      // The limits our format holds (`OccurrenceLimit`): an import never writes what cannot load.
      let limits = OccurrenceLimit.self
      if !limits.maxCountRange.contains(occurrence.maxCount) {
        d.error("occurrence max_count must be from \(limits.maxCountRange.lowerBound) to \(limits.maxCountRange.upperBound), found \(occurrence.maxCount)",
                at: occurrence.location, path: rule.path.appending("occurrence").appending("max_count"))
        valid = false
      } else if let minutes = occurrence.minutes, !limits.minutesRange.contains(minutes) {
        d.error("occurrence interval minutes must be from \(limits.minutesRange.lowerBound) to \(limits.minutesRange.upperBound), found \(minutes)",
                at: occurrence.location, path: rule.path.appending("occurrence").appending("interval").appending("minutes"))
        valid = false
      } else {
        // `TriggerAudienceOccurrence`: MINUTES n counts the occurrences of the last n minutes.
        var limit: [(String, JSONOutput)] = [("maxCount", .number(String(occurrence.maxCount)))]
        if let minutes = occurrence.minutes { limit.append(("interval", .object([("minutes", .number(String(minutes)))]))) }
        members.append(("occurrence", .object(limit)))
      }
    }
    if rule.variants.isEmpty {
      d.error("a rule needs at least one variant (the SDK fails it with noVariantsFound)", at: rule.location, path: rule.path.appending("variants"))
      return nil
    }
    for variant in rule.variants where variant.kind == .treatment {
      guard let paywall = variant.paywallID else {
        d.error("a TREATMENT variant needs 'paywall_identifier'", at: variant.location, path: variant.path)
        valid = false
        continue
      }
      if broken.contains(paywall.text) {
        valid = false
      } else if !known.contains(paywall.text) {
        d.error("no paywall \(quoting: paywall.text) in paywall_responses\(Suggestions.hint(for: paywall.text, in: paywallIDs))",
                at: paywall.location, path: paywall.path)
        valid = false
      }
    }
    guard valid else { return nil }
    let shares = shares(rule.variants.map(\.percentage))
    let holdouts = rule.variants.indices.filter { rule.variants[$0].kind == .holdout }
    let holdout = holdouts.reduce(0) { $0 + shares[$1] }
    let treatments = rule.variants.indices.filter { rule.variants[$0].kind == .treatment }
    let treatmentTotal = treatments.reduce(0) { $0 + shares[$1] }
    var holdoutPercent = holdout
    if treatmentTotal == 0 { holdoutPercent = 100 }
    if holdoutPercent < 100 {
      let percents = largestRemainder(treatments.map { shares[$0] }, total: 100)
      members.append(("variants", .array(zip(treatments, percents).map { index, percent in
        .object([("paywall", .string(rule.variants[index].paywallID!.text)), ("percent", .number(String(percent))),
                 ("id", .string(rule.variants[index].id))])
      })))
    }
    if holdoutPercent > 0 { members.append(("holdout", .number(String(holdoutPercent)))) }
    if let first = holdouts.first { members.append(("holdoutId", .string(rule.variants[first].id))) }
    return .object(members)
  }

  /// Each variant's share of 100 as the SDK draws it: one variant alone takes everything, all at
  /// 0 share equally, else in proportion to their percentages.
  package static func shares(_ percentages: [Int]) -> [Int] {
    if percentages.count == 1 { return [100] }
    // The reader keeps each percentage within 0...100; clamped again here so that no caller can
    // make the sums and products below overflow (a trap, not an error).
    let percentages = percentages.map { min(max($0, 0), 100) }
    let sum = percentages.reduce(0, +)
    if sum == 0 { return largestRemainder(Array(repeating: 1, count: percentages.count), total: 100) }
    return largestRemainder(percentages, total: 100)
  }

  /// `weights` scaled to add up to `total` exactly (the largest remainders round up).
  static func largestRemainder(_ weights: [Int], total: Int) -> [Int] {
    let sum = weights.reduce(0, +)
    guard sum > 0 else { return weights.map { _ in 0 } }
    var result = weights.map { $0 * total / sum }
    var remainders = weights.enumerated().map { ($0.offset, $0.element * total % sum) }
    remainders.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
    var left = total - result.reduce(0, +)
    for (index, _) in remainders where left > 0 {
      result[index] += 1
      left -= 1
    }
    return result
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
