import PaywallModel

package struct ValidateCommand: CLICommand {
  package static let spec = CommandSpec(
    name: "validate",
    abstract: "Check paywalls, catalogs and projects; print every problem as FILE:LINE:COL: error: MESSAGE ($.path).",
    discussion: """
      Exits 0 when everything is valid, 1 when anything is not (warnings alone do not fail, unless
      --strict). Besides errors it warns about what loads but would fail a review or a user: a
      paywall with no products, no price, no purchase, restore or close button; a price with more
      decimals than its currency has (JPY "39.99"). With --start ENTITLEMENT=STATE (as run and
      play take it; --start new: a user who bought nothing), a paywall slot naming a promotional
      or win-back offer that user cannot take is a warning too: the card would show the regular price. Each warning ends with its name
      ([no-close-button]): --allow NAME, or app.json's "ignore": ["NAME"], silences that kind,
      so --strict fails on the others only.
      --format json prints one JSON document (every diagnostic with file, line, column, path,
      severity, message and the suggested fix; a summary per path); --format github prints GitHub
      Actions annotations (::error file=…,line=…,col=…::…) so a mistake shows on the pull
      request's line. --json is --format json.
      A scenario (FILE.play) is read with the project on its '# args:' line, nothing run: its
      steps are checked against what the SDK would do with them (a 'call purchase' of a custom
      store product never reaches the purchase controller).
      """,
    positionals: [PositionalSpec(name: "path", help: "Project directories, app.json, paywall, catalog or .storekit files, .play scenarios.", count: .oneOrMore)],
    options: ValidateFlags.all,
    examples: [
      "paywall-tui validate paywalls                                # a project: app.json, its catalog and paywalls",
      "paywall-tui validate paywalls/plans.json --catalog paywalls/acme.storekit",
      "paywall-tui validate paywalls/catalog.json paywalls/acme.storekit",
      "paywall-tui validate paywalls --format github                # GitHub Actions annotations on the pull request",
      "paywall-tui validate paywalls --strict --allow trial-copy    # every warning fails but that one",
      "paywall-tui validate paywalls --json | jq '.diagnostics[]'   # one JSON document",
      "paywall-tui validate paywalls --start pro=subscribed         # offers a subscriber could never take",
      "paywall-tui validate paywalls --start new                    # offers a user who bought nothing could never take",
    ]
  )

  /// How `validate` prints what it found.
  package enum Format: String, CaseIterable {
    case text, json, github
  }

  package var paths: [String]
  package var catalog: String?
  package var format: String?
  package var json: Bool
  package var strict: Bool
  /// `--allow NAME`: kinds of warning not reported.
  package var allowed: Set<WarningKind>
  /// `--start ENTITLEMENT=STATE`: the user whose offers the paywalls' slots are checked against.
  package var starts: [StartState]
  /// `--start new`: that user has bought nothing (as `run` begins with an empty ledger).
  package var newUser = false

  package init(_ arguments: Arguments) throws(CLIFailure) {
    paths = arguments.positionals
    catalog = arguments[ValidateFlags.catalog]
    format = arguments[ValidateFlags.format]
    json = arguments[ValidateFlags.json]
    strict = arguments[ValidateFlags.strict]
    starts = []
    for text in arguments[ValidateFlags.start] {
      if text == "new" {
        newUser = true
        continue
      }
      do { starts.append(try StartState(parsing: text)) } catch { throw .usage("--start \(error.message) (or 'new': a user who bought nothing)") }
    }
    if newUser && !starts.isEmpty {
      throw .usage("--start new is a user who bought nothing; it cannot be given with --start \(starts[0])")
    }
    allowed = []
    for name in arguments[ValidateFlags.allow] {
      guard let kind = WarningKind(rawValue: name) else {
        let hint = Suggestions.hint(for: name, in: WarningKind.names)
        throw .usage("--allow \(quoting: name) names no warning\(hint.isEmpty ? "; the warnings are \(WarningKind.names.joined(separator: ", "))" : hint)")
      }
      allowed.insert(kind)
    }
  }

  /// One path's result: its diagnostics, and its counts when it loaded.
  package struct Checked {
    package var path: String
    package var diagnostics: [Diagnostic]
    package var paywalls: Int?
    package var products: Int?
    /// The placements its campaigns answer (a project of holdouts may have no paywall).
    package var placements = 0
    /// A cross-platform project's products per store, its own platform's first.
    package var storeProducts: [(SDKPlatform, Int)] = []
  }

  /// The products the paywalls show, not the whole catalog's; a catalog alone, all of its.
  static func productCount(_ project: Project) -> Int {
    project.paywalls.isEmpty ? project.catalog.products.count : Set(project.paywalls.flatMap { $0.slots.map(\.productID) }).count
  }

  /// What the summary line says of a checked path: its paywalls and the products they show, or
  /// for a catalog alone (a `.storekit` file, a catalog.json) the products it holds.
  /// A cross-platform project's products are counted per store (`perStore`).
  package static func summary(paywalls: Int, products: Int, placements: Int = 0, perStore: [(SDKPlatform, Int)] = []) -> String {
    let counted = perStore.isEmpty ? "\(products) product\(products == 1 ? "" : "s")"
      : perStore.map { "\($0.1) product\($0.1 == 1 ? "" : "s") on \($0.0.rawValue)" }.joined(separator: ", ")
    // A project whose campaigns are all holdouts has placements and no paywall: not a catalog.
    if paywalls == 0 && placements > 0 { return "\(placements) placement\(placements == 1 ? "" : "s"), no paywall, \(counted)" }
    return paywalls == 0 ? "a catalog of \(counted)" : "\(paywalls) paywall\(paywalls == 1 ? "" : "s"), \(counted)"
  }

  package func run() async throws {
    let chosen = try resolvedFormat()
    var results: [Checked] = []
    for path in paths {
      if path.hasSuffix(".play") {
        var checked = ScenarioAdvice.check(path)
        checked.diagnostics.removeAll { $0.kind.map(allowed.contains) == true }
        results.append(checked)
        continue
      }
      let result = ProjectLoader.load(path: path, catalogPath: catalog)
      var checked = Checked(path: path, diagnostics: result.diagnostics)
      var silenced = allowed
      if let project = result.project {
        // Warnings only validate gives: a valid paywall whose trial copy can mislead.
        checked.diagnostics += PaywallReader.validationAdvice(for: project)
        if newUser || !starts.isEmpty { checked.diagnostics += try offerAdvice(for: project) }
        checked.paywalls = project.paywalls.count
        checked.placements = project.campaigns.count
        // The products the paywalls show, not the whole catalog's; a catalog alone, all of its.
        checked.products = Self.productCount(project)
        silenced.formUnion(project.ignoredWarnings)
        if project.stores.count > 1 { try checkOtherStores(of: project, as: result.otherStores, into: &checked) }
      }
      checked.diagnostics.removeAll { $0.kind.map(silenced.contains) == true }
      results.append(checked)
    }
    // Errors of their own, and errors that follow from one (a reference to a file that failed).
    let failed = results.flatMap { $0.diagnostics.filter { $0.severity == .error } }
    let errors = failed.filter { !$0.isConsequence }.count
    let consequences = failed.count - errors
    switch chosen {
    case .text:
      for result in results {
        for diagnostic in result.diagnostics { try Console.out(diagnostic.description) }
      }
    case .github:
      for result in results {
        for diagnostic in result.diagnostics { try Console.out(Self.annotation(diagnostic)) }
      }
    case .json:
      // `ok` is what the exit status says: with --strict a warning is a failure too.
      let warningCount = results.reduce(0) { $0 + $1.diagnostics.count } - failed.count
      try Console.out(Self.document(results, errors: errors, ok: failed.isEmpty && !(strict && warningCount > 0)).text)
    }
    if errors + consequences > 0 {
      let following = consequences == 0 ? "" : " (\(consequences) more follow\(consequences == 1 ? "s" : "") from \(errors == 1 ? "it" : "them"))"
      throw CLIFailure.invalid(chosen == .json ? "" : "\(errors) error\(errors == 1 ? "" : "s") found\(following)")
    }
    let warnings = results.reduce(0) { $0 + $1.diagnostics.count } - failed.count
    if strict && warnings > 0 {
      throw CLIFailure.invalid(chosen == .json ? "" : "\(warnings) warning\(warnings == 1 ? "" : "s") found (--strict)")
    }
    guard chosen != .json else { return }
    for result in results {
      guard let paywalls = result.paywalls, let products = result.products else { continue }
      let line = Self.summary(paywalls: paywalls, products: products, placements: result.placements, perStore: result.storeProducts)
      try Console.error("ok: \(result.path): \(line)")
    }
  }

  /// A cross-platform project is checked as each store's session reads it: a warning only one
  /// store's session gives names that store (its errors the loader already joined), and one both
  /// give is said once. `--catalog` stands for the project's own store's catalog.
  /// `loaded`: the other stores' loads, as the loader made them to check their errors.
  func checkOtherStores(of project: Project, as loaded: [(store: SDKPlatform, result: ProjectLoadResult)],
                        into checked: inout Checked) throws {
    let own = project.options.sdk.platform
    checked.storeProducts = [(own, checked.products ?? 0)]
    var sides: [(SDKPlatform, [Diagnostic])] = []
    for (other, side) in loaded {
      var found = side.warnings
      if let sideProject = side.project {
        found += PaywallReader.validationAdvice(for: sideProject)
        if newUser || !starts.isEmpty { found += try offerAdvice(for: sideProject) }
        checked.storeProducts.append((other, Self.productCount(sideProject)))
      }
      sides.append((other, found))
    }
    let everyStore = Set(sides.flatMap(\.1).map(\.description))
    for index in checked.diagnostics.indices where checked.diagnostics[index].severity == .warning
      && !everyStore.contains(checked.diagnostics[index].description) {
      checked.diagnostics[index].message = "on \(own.rawValue) (\(own.sdkName)): \(checked.diagnostics[index].message)"
    }
    let seen = Set(checked.diagnostics.map(\.description))
    for (other, found) in sides {
      for var diagnostic in found where !seen.contains(diagnostic.description) {
        diagnostic.message = "on \(other.rawValue) (\(other.sdkName)): \(diagnostic.message)"
        checked.diagnostics.append(diagnostic)
      }
    }
  }

  /// The `offer-eligibility` warnings for the `--start` user: the states put in a store of the
  /// project's catalog, in memory, as `run --start` puts them in a new ledger.
  func offerAdvice(for project: Project) throws -> [Diagnostic] {
    let store = SimulatedStore(catalog: project.catalog, status: SubscriptionStatusStore(), clock: SimulatedTimeSource(), directory: nil)
    do { try store.start(starts) } catch { throw CLIFailure.usage(error.message) }
    let who = newUser ? "--start new" : starts.map { "--start \($0)" }.joined(separator: " ")
    return PaywallReader.offerAdvice(for: project, history: store.derived.offerHistory, now: store.clock.now, who: who)
  }

  package func resolvedFormat() throws -> Format {
    if json {
      if let format, format != Format.json.rawValue {
        throw CLIFailure.usage("--json and --format \(quoting: format) disagree; give one of them")
      }
      return .json
    }
    guard let format else { return .text }
    guard let chosen = Format(rawValue: format) else {
      throw CLIFailure.usage("--format \(quoting: format) is not a format\(Suggestions.hint(for: format, in: Format.allCases.map(\.rawValue))); use text, json or github")
    }
    return chosen
  }

  /// `{"ok": false, "errors": 1, "consequences": 2, "warnings": 0, "paths": [...], "diagnostics": [...]}`:
  /// `errors` counts causes; `consequences` the errors that only follow from one.
  package static func document(_ results: [Checked], errors: Int, ok: Bool) -> JSONOutput {
    let all = results.flatMap(\.diagnostics)
    let paths: [JSONOutput] = results.map { result in
      var members: [(String, JSONOutput)] = [("path", .string(result.path)), ("loaded", .bool(result.paywalls != nil))]
      if let paywalls = result.paywalls, let products = result.products {
        members += [("paywalls", .number(String(paywalls))), ("products", .number(String(products)))]
      }
      // A cross-platform project: `products` is its own platform's, these each store's.
      if !result.storeProducts.isEmpty {
        members.append(("productsByStore", .object(result.storeProducts.map { ($0.0.rawValue, .number(String($0.1))) })))
      }
      return .object(members)
    }
    let failed = all.filter { $0.severity == .error }.count
    return .object([
      ("ok", .bool(ok)),
      ("errors", .number(String(errors))),
      ("consequences", .number(String(failed - errors))),
      ("warnings", .number(String(all.count - failed))),
      ("paths", .array(paths)),
      ("diagnostics", .array(all.map(diagnosticJSON))),
    ])
  }

  package static func diagnosticJSON(_ diagnostic: Diagnostic) -> JSONOutput {
    .object([
      ("file", .string(diagnostic.file)),
      ("line", .number(String(diagnostic.location.line))),
      ("column", .number(String(diagnostic.location.column))),
      ("path", diagnostic.path.map { .string($0.description) } ?? .null),
      ("severity", .string(diagnostic.severity.rawValue)),
      ("message", .string(diagnostic.message)),
      ("fix", Suggestions.suggestion(in: diagnostic.message).map(JSONOutput.string) ?? .null),
      ("consequence", .bool(diagnostic.isConsequence)),
      ("name", diagnostic.kind.map { .string($0.rawValue) } ?? .null),
    ])
  }

  /// A GitHub Actions workflow command: `::error file=F,line=L,col=C,title=paywall-tui::MESSAGE ($.path)`.
  /// Data is escaped as the runner expects (`%`, CR, LF; in properties also `:` and `,`).
  package static func annotation(_ diagnostic: Diagnostic) -> String {
    func data(_ text: String) -> String {
      text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
        .replacingOccurrences(of: "\n", with: "%0A")
    }
    func property(_ text: String) -> String {
      data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
    let command = diagnostic.severity == .error ? "error" : "warning"
    let suffix = (diagnostic.path.map { " (\($0))" } ?? "") + (diagnostic.kind.map { " [\($0.rawValue)]" } ?? "")
    return "::\(command) file=\(property(diagnostic.file)),line=\(diagnostic.location.line),col=\(diagnostic.location.column),"
      + "title=\(property("paywall-tui validate"))::\(data(diagnostic.message + suffix))"
  }
}

/// `validate`'s options.
package enum ValidateFlags {
  package static let catalog = Flag.text("catalog", "file", "Catalog for single paywall files (.json or .storekit).")
  /// Read as written: `run()` checks it against --json.
  package static let format = Flag.text("format", "text|json|github", "How to print the problems (default: text).",
                                        completion: .words(ValidateCommand.Format.allCases.map(\.rawValue)))
  package static let json = Flag.bool("json", "The same as --format json.")
  package static let strict = Flag.bool("strict", "Warnings fail too (exit 1).")
  /// Each read by `init` ('new' beside ENTITLEMENT=STATE).
  package static let start = Flag.list("start", "ent=state", "Check the offers paywall slots name against this user: ENTITLEMENT in subscribed, trial, gracePeriod, billingRetry, expired or revoked, as run's --start; 'new' for a user who bought nothing.")
  /// Each checked by `init` against the warnings' names.
  package static let allow = Flag.list("allow", "name", "Do not report this kind of warning, by the name printed after it (e.g. no-close-button).",
                                       completion: .words(WarningKind.names))

  /// In the order help lists them.
  package static let all: [OptionInfo] = [catalog.option, format.option, json.option, strict.option, start.option, allow.option]
}
