import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SuperwallImporter {
  /// A config given where a project is expected (`paywall-tui run config.json --catalog X.storekit`):
  /// the project `import superwall` would write, built in memory with the same readers.
  package static func load(path: String, root: JSONNode, collector: DiagnosticCollector, catalogPath given: String?) -> ProjectLoadResult {
    let catalogPath = catalogPath(for: path, given: given)
    let name = ((path).lastPathComponent).deletingPathExtension
    let (imported, catalog, diagnostics) = importConfig(path: path, root: root, collector: collector, catalogPath: catalogPath,
                                                        catalogReference: catalogPath, name: name)
    guard let imported, let catalog else { return result(nil, diagnostics) }
    return project(imported, catalog: catalog, file: path, name: name, diagnostics: diagnostics)
  }

  /// The project of an import, read from its documents with the readers `app.json` and paywall
  /// files go through; a problem they find (none is expected) is placed where its document came from.
  package static func project(_ imported: SuperwallImport, catalog: Catalog, file path: String, name: String,
                              diagnostics: [Diagnostic]) -> ProjectLoadResult {
    var all = diagnostics
    var paywalls: [PaywallDefinition] = []
    for entry in imported.paywalls {
      let (node, generated) = parseGenerated(entry.document, file: path)
      if let paywall = PaywallReader.read(node, file: path, catalog: catalog, diagnostics: generated) {
        paywalls.append(paywall)
      }
      all += rebased(generated.diagnostics, at: entry.origin.location, path: entry.origin.path, what: "the paywall built from it")
    }
    let (appNode, appCollector) = parseGenerated(imported.app, file: path)
    var campaigns: [Campaign] = []
    if let reader = ObjectReader(appNode, path: .root, diagnostics: appCollector, what: "a project") {
      let pending = CampaignReader.read(reader, checkingNames: false)
      var checks: [Diagnostic] = []
      CampaignReader.check(pending, paywallIDs: paywalls.map(\.id), file: path, into: &checks)
      appCollector.append(checks)
      campaigns = pending.campaigns
    }
    all += rebased(appCollector.diagnostics, at: .start, path: .root.appending("trigger_options"), what: "the campaigns built from it")
    let sorted = all.sorted { ($0.file, $0.location) < ($1.file, $1.location) }
    guard !sorted.contains(where: { $0.severity == .error }) else { return result(nil, sorted) }
    let project = Project(name: name, catalog: catalog, paywalls: paywalls, warnings: sorted.filter { $0.severity == .warning },
                          campaigns: campaigns)
    return ProjectLoadResult(project: project, diagnostics: sorted)
  }

  private static func result(_ project: Project?, _ diagnostics: [Diagnostic]) -> ProjectLoadResult {
    ProjectLoadResult(project: project, diagnostics: diagnostics.sorted { ($0.file, $0.location) < ($1.file, $1.location) })
  }

  /// Our own document as the tree the readers take, without writing and re-reading its text.
  private static func parseGenerated(_ document: JSONOutput, file: String) -> (JSONNode, DiagnosticCollector) {
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
  private static func rebased(_ diagnostics: [Diagnostic], at location: SourceLocation, path: JSONPath, what: String) -> [Diagnostic] {
    diagnostics.map {
      Diagnostic(file: $0.file, location: location, severity: $0.severity,
                 message: "\(what): \($0.message)\($0.path.map { " at \($0)" } ?? "")", path: path, kind: $0.kind)
    }
  }
}

/// Writes an imported project: `app.json` and `paywalls/*.json`, pretty-printed, into a new
/// directory made beside the target and renamed into place, so a failure leaves nothing half-written.
package enum ImportedProjectWriter {
  /// Why the project could not be written.
  package struct Failure: Error {
    package var message: String
  }

  /// Writes `imported` to `directory`. A non-empty existing directory is replaced only with
  /// `force`. `check` is given the finished temporary directory before it takes the target's place
  /// and may refuse it (returning a message).
  package static func write(_ imported: SuperwallImport, to directory: String, force: Bool,
                            check: (String) -> String?) throws(Failure) {
    let fm = FileManager.default
    let target = (directory).standardizingPath
    var isDirectory: Bool = false
    let exists = fm.fileExists(atPath: target, isDirectory: &isDirectory)
    if exists && !isDirectory {
      throw Failure(message: "\(target) exists and is not a directory; choose another --out")
    }
    let nonEmpty = exists && !FileSystem.names(in: target).isEmpty
    if nonEmpty && !force {
      throw Failure(message: "\(target) is not empty; choose an empty or new directory, or pass --force to replace it")
    }
    let parent = (target).deletingLastPathComponent
    let base = (target).lastPathComponent
    let temporary = ((parent.isEmpty ? "." : parent)).appendingPathComponent(".\(base).import-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    do {
      try fm.createDirectory(atPath: (temporary).appendingPathComponent("paywalls"), withIntermediateDirectories: true)
      try Data((pretty(imported.app) + "\n").utf8).write(to: URL(fileURLWithPath: (temporary).appendingPathComponent("app.json")))
      for entry in imported.paywalls {
        try Data((pretty(entry.document) + "\n").utf8).write(to: URL(fileURLWithPath: (temporary).appendingPathComponent(entry.file)))
      }
    } catch {
      try? fm.removeItem(atPath: temporary)
      throw Failure(message: "cannot write \(temporary): \(systemReason(error))")
    }
    if let refusal = check(temporary) {
      try? fm.removeItem(atPath: temporary)
      throw Failure(message: refusal)
    }
    var previous: String?
    if exists {
      // An existing directory (empty, or replaced with --force) is moved aside, then removed once
      // the new one is in place.
      let aside = temporary + ".previous"
      guard rename(target, aside) == 0 else {
        let reason = String(cString: strerror(errno))
        try? fm.removeItem(atPath: temporary)
        throw Failure(message: "cannot replace \(target): \(reason)")
      }
      previous = aside
    }
    guard rename(temporary, target) == 0 else {
      let reason = String(cString: strerror(errno))
      if let previous { _ = rename(previous, target) }
      try? fm.removeItem(atPath: temporary)
      throw Failure(message: "cannot move the project into \(target): \(reason)")
    }
    if let previous { try? fm.removeItem(atPath: previous) }
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
