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

extension SuperwallImporter {
  /// A config given where a project is expected (`paywall-tui run config.json --catalog X.storekit`):
  /// the project `import superwall` would write, built in memory with the same readers.
  /// The parsed config (`root`) and the config's paywalls are freed on every core once read.
  package static func load(path: String, root: consuming JSONNode, collector: DiagnosticCollector, catalogPath given: String?) -> ProjectLoadResult {
    let catalogPath = catalogPath(for: path, given: given)
    let name = ((path).lastPathComponent).deletingPathExtension
    let readBack = ReadBack(file: path)
    var imported: SuperwallImport?
    let catalog: Catalog?, diagnostics: [Diagnostic]
    (imported, catalog, diagnostics) = importConfig(path: path, root: root, collector: collector, catalogPath: catalogPath,
                                                    catalogReference: catalogPath, name: name, readBack: readBack)
    JSONNode.dropTree(consume root)
    guard letGo(&imported), let catalog, let campaigns = readBack.campaigns else { return result(nil, diagnostics) }
    return project(readBack.paywalls, campaigns: campaigns, catalog: catalog, file: path, name: name, diagnostics: diagnostics)
  }

  /// Whether there is an import; the config's paywalls it holds are freed on every core.
  private static func letGo(_ imported: inout SuperwallImport?) -> Bool {
    guard imported != nil else { return false }
    var paywalls: [(file: String, id: String, document: JSONOutput, origin: SuperwallConfig.Paywall)] = []
    swap(&paywalls, &imported!.paywalls)
    // The import lets go of them first, so each paywall is held by `paywalls` only.
    imported = nil
    dropOnEveryCore(consume paywalls)
    return true
  }

  /// The project of an import, from what the readers `app.json` and paywall files go through
  /// made of its documents; a problem they find (none is expected) is placed where its document
  /// came from.
  static func project(_ read: [ReadBack.Paywall], campaigns app: ReadBack.Campaigns, catalog: Catalog, file path: String,
                      name: String, diagnostics: [Diagnostic]) -> ProjectLoadResult {
    var all = diagnostics
    var paywalls: [PaywallDefinition] = []
    for (paywall, diagnostics) in read {
      if let paywall { paywalls.append(paywall) }
      all += diagnostics
    }
    var campaigns: [Campaign] = []
    if let pending = app.pending {
      // Checked once every paywall is read: a variant names one of them.
      var checks: [Diagnostic] = []
      CampaignReader.check(pending, paywallIDs: paywalls.map(\.id), file: path, into: &checks)
      app.diagnostics.append(checks)
      campaigns = pending.campaigns
    }
    all += rebased(app.diagnostics.diagnostics, at: .start, path: .root.appending("trigger_options"), what: "the campaigns built from it")
    let sorted = all.sorted { ($0.file, $0.location) < ($1.file, $1.location) }
    guard !sorted.contains(where: { $0.severity == .error }) else { return result(nil, sorted) }
    let project = Project(name: name, catalog: catalog, paywalls: paywalls, warnings: sorted.filter { $0.severity == .warning },
                          campaigns: campaigns)
    return ProjectLoadResult(project: project, diagnostics: sorted)
  }

  /// What a config loaded as a project reads from the documents its import builds, read as
  /// `app.json` and paywall files are, by the core that built each (`map`), which then frees it.
  package final class ReadBack {
    /// A paywall as `PaywallReader` read its document, and what it found, placed in the config.
    typealias Paywall = (definition: PaywallDefinition?, diagnostics: [Diagnostic])
    /// The campaigns as `CampaignReader` read the project file (nil: not an object), and its collector.
    typealias Campaigns = (pending: CampaignReader.Pending?, diagnostics: DiagnosticCollector)

    let file: String
    /// The catalog the project gets; set before the documents are built.
    var catalog = Catalog(products: [], file: ProjectLoader.catalogFileName)
    /// Each kept paywall's, in the config's order; set once all are built.
    var paywalls: [Paywall] = []
    var campaigns: Campaigns?

    init(file: String) {
      self.file = file
    }

    func paywall(_ document: JSONOutput, from origin: SuperwallConfig.Paywall) -> Paywall {
      let (node, generated) = parseGenerated(document, file: file)
      var paywall = PaywallReader.read(node, file: file, catalog: catalog, diagnostics: generated)
      paywall?.origin = SourcePlace(location: origin.location, path: origin.path)
      return (paywall, rebased(generated.diagnostics, at: origin.location, path: origin.path, what: "the paywall built from it"))
    }

    func campaigns(_ app: JSONOutput, filters: [String: AudienceFilter]) -> Campaigns {
      let (node, collector) = parseGenerated(app, file: file)
      let reader = ObjectReader(node, path: .root, diagnostics: collector, what: "a project")
      return (reader.map { CampaignReader.read($0, checkingNames: false, parsed: filters) }, collector)
    }
  }

  private static func result(_ project: Project?, _ diagnostics: [Diagnostic]) -> ProjectLoadResult {
    ProjectLoadResult(project: project, diagnostics: diagnostics.sorted { ($0.file, $0.location) < ($1.file, $1.location) })
  }

  /// Our own document as the tree the readers take, without writing and re-reading its text.
  fileprivate static func parseGenerated(_ document: JSONOutput, file: String) -> (JSONNode, DiagnosticCollector) {
    (node(document), DiagnosticCollector(file: file, source: []))
  }

  private static func node(_ value: JSONOutput) -> JSONNode {
    switch value {
    case .string(let s): JSONNode(.string(s), at: .start)
    case .number(let n): JSONNode(.number(n), at: .start)
    case .bool(let b): JSONNode(.bool(b), at: .start)
    case .null: JSONNode(.null, at: .start)
    case .array(let items): JSONNode(.array(items.map(node)), at: .start)
    case .object(let members): JSONNode(.object(members.map { JSONMember(key: $0.0, keyLocation: .start, value: node($0.1)) }), at: .start)
    }
  }

  /// Diagnostics about a document built from the config, placed where that document came from.
  fileprivate static func rebased(_ diagnostics: [Diagnostic], at location: SourceLocation, path: JSONPath, what: String) -> [Diagnostic] {
    diagnostics.map {
      Diagnostic(file: $0.file, location: location, severity: $0.severity,
                 message: "\(what): \($0.message)\($0.path.map { " at \($0)" } ?? "")", path: path, kind: $0.kind)
    }
  }
}

/// Writes an imported project: `app.json` and `paywalls/*.json`, pretty-printed, and
/// `.paywall-tui-import`, the list of the files it wrote. They are made in a new directory beside
/// the target and checked there; a new (or missing) target is that directory renamed into place,
/// so a failure leaves nothing half-written. Into an existing directory, each file is renamed
/// over its old self (replaced whole) and nothing else there is touched: only the files the last
/// import listed, or, with no list, a directory holding nothing but `app.json` and `paywalls/*.json`
/// (an import of an older version), are import's to replace; any other file stays, and one
/// import would have to replace is refused. A file being read (the config, the catalog, the
/// layout) is never replaced.
package enum ImportedProjectWriter {
  /// Why the project could not be written.
  package struct Failure: Error {
    package var message: String
  }

  /// What an import into an existing directory did there, relative to it, sorted.
  package struct Report: Sendable, Equatable {
    /// Files the last import wrote, written again.
    package var replaced: [String] = []
    /// Files the last import wrote that the config no longer has, removed.
    package var removed: [String] = []
    /// What the directory holds that import did not write, left as it was.
    package var kept: [String] = []
  }

  /// The list of the files an import wrote, in the directory it wrote.
  package static let manifestName = ".paywall-tui-import"

  /// Writes `imported` to `directory`. An existing directory that is not empty takes it only with
  /// `force`, and only when it is import's (see the type). `check` is given the finished
  /// temporary directory before anything is replaced and may refuse it (returning a message).
  /// `reading`: the files the import reads, never replaced.
  @discardableResult
  package static func write(_ imported: SuperwallImport, to directory: String, force: Bool, reading: [String] = [],
                            check: (String) -> String?) throws(Failure) -> Report {
    let fm = FileManager.default
    let target = (directory).standardizingPath
    var info = stat()
    let exists = stat(target, &info) == 0
    if exists && info.st_mode & S_IFMT != S_IFDIR {
      throw Failure(message: "\(target) exists and is not a directory; choose another --out")
    }
    let files = ["app.json"] + (imported.catalogDocument == nil ? [] : [ProjectLoader.catalogFileName]) + imported.paywalls.map(\.file)
    // Refused before anything is made: what is there, and whose it is.
    var plan: Plan?
    if exists { plan = try Self.plan(target, writing: files, force: force, reading: reading) }

    let parent = (target).deletingLastPathComponent
    let base = (target).lastPathComponent
    let temporary = ((parent.isEmpty ? "." : parent)).appendingPathComponent(".\(base).import-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    do {
      try fm.createDirectory(atPath: (temporary).appendingPathComponent("paywalls"), withIntermediateDirectories: true)
      try Data((pretty(imported.app) + "\n").utf8).write(to: URL(fileURLWithPath: (temporary).appendingPathComponent("app.json")))
      if let catalog = imported.catalogDocument {
        try Data((pretty(catalog) + "\n").utf8).write(to: URL(fileURLWithPath: (temporary).appendingPathComponent(ProjectLoader.catalogFileName)))
      }
      for entry in imported.paywalls {
        try Data((pretty(entry.document) + "\n").utf8).write(to: URL(fileURLWithPath: (temporary).appendingPathComponent(entry.file)))
      }
      let manifest = JSONOutput.object([("written_by", .string("paywall-tui import superwall")),
                                        ("files", .array(files.map { .string($0) }))])
      try Data((pretty(manifest) + "\n").utf8).write(to: URL(fileURLWithPath: (temporary).appendingPathComponent(manifestName)))
    } catch {
      try? fm.removeItem(atPath: temporary)
      throw Failure(message: "cannot write \(temporary): \(systemReason(error))")
    }
    if let refusal = check(temporary) {
      try? fm.removeItem(atPath: temporary)
      throw Failure(message: refusal)
    }
    guard let plan else {
      guard rename(temporary, target) == 0 else {
        let reason = String(cString: strerror(errno))
        try? fm.removeItem(atPath: temporary)
        throw Failure(message: "cannot move the project into \(target): \(reason)")
      }
      return Report()
    }
    defer { try? fm.removeItem(atPath: temporary) }
    var report = Report(kept: plan.kept)
    if !FileSystem.isDirectory(target + "/paywalls") && mkdir(target + "/paywalls", 0o755) != 0 {
      throw Failure(message: "cannot make \(target)/paywalls: \(String(cString: strerror(errno)))")
    }
    for file in files + [manifestName] {
      var existing = stat()
      let there = lstat(target + "/" + file, &existing) == 0
      guard rename(temporary + "/" + file, target + "/" + file) == 0 else {
        let reason = String(cString: strerror(errno))
        throw Failure(message: "cannot write \(target)/\(file): \(reason)\(report.replaced.isEmpty ? "" : "; already replaced: " + report.replaced.joined(separator: ", "))")
      }
      if there && file != manifestName { report.replaced.append(file) }
    }
    for file in plan.owned.subtracting(files).sorted() where unlink(target + "/" + file) == 0 {
      report.removed.append(file)
    }
    report.replaced.sort()
    return report
  }

  /// An existing directory's files, sorted out before an import replaces any.
  private struct Plan {
    /// The files the last import wrote there (those it may replace or remove).
    var owned: Set<String>
    /// Everything else at its top level (and in `paywalls/`), never touched.
    var kept: [String]
  }

  private static func plan(_ target: String, writing files: [String], force: Bool, reading: [String]) throws(Failure) -> Plan {
    let names = FileSystem.names(in: target).sorted()
    if names.isEmpty { return Plan(owned: [], kept: []) }
    var paywalls: [String] = []
    var info = stat()
    if lstat(target + "/paywalls", &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else {
        throw Failure(message: "\(target)/paywalls is not a directory (a link or a file); import writes its paywalls there: choose an empty or new directory")
      }
      paywalls = FileSystem.names(in: target + "/paywalls").sorted().map { "paywalls/" + $0 }
    }
    let manifest = target + "/" + manifestName
    let owned: Set<String>
    if lstat(manifest, &info) == 0 {
      owned = try listed(in: manifest)
    } else {
      // No list (an older version's import): import's only if it holds nothing else.
      let shaped = names.allSatisfy { $0 == "app.json" || $0 == "paywalls" }
        && paywalls.allSatisfy { $0.hasSuffix(".json") && isRegular(target + "/" + $0) }
      guard shaped else {
        let shown = shownList(names.filter { $0 != "app.json" && $0 != "paywalls" } + paywalls.filter { !$0.hasSuffix(".json") })
        if !force { throw Failure(message: "\(target) is not empty (\(shown)); choose an empty or new directory") }
        throw Failure(message: "\(target) holds files import did not write (\(shown)); --force replaces only what import wrote (it lists them in \(manifestName)): choose an empty or new directory")
      }
      owned = Set(names.filter { $0 == "app.json" } + paywalls)
    }
    guard force else {
      throw Failure(message: "\(target) is not empty; pass --force to replace the files an import wrote there (nothing else in it is touched), or choose an empty or new directory")
    }
    let present = Set(names + paywalls)
    for file in files where present.contains(file) && !owned.contains(file) {
      throw Failure(message: "--force would replace \(target)/\(file), which import did not write; move it away or choose another directory")
    }
    // Files are renamed into place one at a time: a listed name that is now a directory (or a
    // link, a pipe) would stop that halfway, some files new and some old. Refused before any is.
    for file in Set(files).union(owned).sorted() {
      if let kind = AtomicFile.nonRegularKind(target + "/" + file) {
        throw Failure(message: "--force would replace \(target)/\(file), which is \(kind), not a file import wrote; move it away or choose another directory")
      }
    }
    // The config, catalog or layout being read, at a path import would replace or remove.
    let inputs = reading.compactMap(identity)
    for file in Set(files).union(owned).sorted() {
      if let id = identity(target + "/" + file), inputs.contains(where: { $0 == id }),
         let given = reading.first(where: { identity($0).map { $0 == id } ?? false }) {
        let what = given == reading.first ? "the config being imported" : "a file the import reads (\(given))"
        throw Failure(message: "--force would replace \(target)/\(file), \(what); import into another directory")
      }
    }
    let kept = names.filter { $0 != manifestName && $0 != "paywalls" && !owned.contains($0) }
      + paywalls.filter { !owned.contains($0) && !files.contains($0) }
    return Plan(owned: owned, kept: kept.sorted())
  }

  /// The files a `.paywall-tui-import` lists; each must be one import writes (`app.json`,
  /// `paywalls/NAME.json`), since the list may come from anyone's checkout.
  private static func listed(in manifest: String) throws(Failure) -> Set<String> {
    let damaged = "\(manifest) is not a list import wrote; remove it if the directory is not an import's, or choose another directory"
    guard isRegular(manifest), let data = FileManager.default.contents(atPath: manifest), data.count < 1 << 20 else {
      throw Failure(message: damaged)
    }
    guard let root = try? JSONParser.parse(bytes: Array(data)), case .object(let members) = root.value,
          let list = members.first(where: { $0.key == "files" })?.value, case .array(let items) = list.value else {
      throw Failure(message: damaged)
    }
    var files: Set<String> = []
    for item in items {
      guard case .string(let file) = item.value else { throw Failure(message: damaged) }
      guard isImportFile(file) else {
        throw Failure(message: "\(manifest): \(quoting: file) is not a file import writes (app.json, catalog.json, paywalls/NAME.json); remove the list if the directory is not an import's")
      }
      files.insert(file)
    }
    return files
  }

  /// `app.json`, the empty `catalog.json` of a config that sells nothing, or `paywalls/NAME.json`,
  /// NAME a single file name.
  private static func isImportFile(_ file: String) -> Bool {
    if file == "app.json" || file == ProjectLoader.catalogFileName { return true }
    guard file.hasPrefix("paywalls/"), file.hasSuffix(".json") else { return false }
    let name = file.dropFirst("paywalls/".count)
    return !name.contains("/") && !name.hasPrefix(".") && name.count > ".json".count
  }

  private static func isRegular(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
  }

  /// The device and inode of what `path` leads to; nil when nothing is there.
  private static func identity(_ path: String) -> [UInt64]? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return [UInt64(info.st_dev), UInt64(info.st_ino)]
  }

  private static func shownList(_ names: [String]) -> String {
    names.prefix(5).joined(separator: ", ") + (names.count > 5 ? " and \(names.count - 5) more" : "")
  }

  /// `path` written relative to `directory` (both made absolute), for app.json's `catalog`.
  package static func relativePath(_ path: String, from directory: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath
    func absolute(_ p: String) -> [String] {
      let full = p.hasPrefix("/") ? p : (cwd).appendingPathComponent(p)
      return (full).standardizingPath.split(separator: "/").map(String.init)
    }
    let to = absolute(path)
    let from = absolute(directory)
    var common = 0
    while common < min(to.count, from.count) && to[common] == from[common] { common += 1 }
    // Nothing in common but the root (/tmp and /work): the absolute path says more.
    if common == 0 { return "/" + to.joined(separator: "/") }
    let ups = Array(repeating: "..", count: from.count - common)
    return (ups + to[common...]).joined(separator: "/")
  }

  /// JSON text with two-space indentation, one member per line; short arrays of scalars on one line.
  package static func pretty(_ value: JSONOutput, indent: String = "") -> String {
    let inner = indent + "  "
    switch value {
    case .array(let items):
      if items.isEmpty { return "[]" }
      if items.allSatisfy({ if case .object = $0 { false } else if case .array = $0 { false } else { true } }) {
        let line = "[" + items.map(\.text).joined(separator: ", ") + "]"
        if line.count + indent.count < 100 { return line }
      }
      return "[\n" + items.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
    case .object(let members):
      if members.isEmpty { return "{}" }
      return "{\n" + members.map { inner + JSONText.quote($0.0) + ": " + pretty($0.1, indent: inner) }.joined(separator: ",\n") + "\n\(indent)}"
    default:
      return value.text
    }
  }
}
