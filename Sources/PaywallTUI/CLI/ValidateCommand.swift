import PaywallModel

struct ValidateCommand: CLICommand {
  static let spec = CommandSpec(
    name: "validate",
    abstract: "Check paywalls, catalogs and projects; print every problem as FILE:LINE:COL: error: MESSAGE ($.path).",
    discussion: "Exits 0 when everything is valid, 1 when anything is not (warnings alone do not fail).",
    positionals: [PositionalSpec(name: "path", help: "Project directories, app.json, paywall, catalog or .storekit files.", count: .oneOrMore)],
    options: [.option("catalog", "file", "Catalog for single paywall files (.json or .storekit).")],
    examples: [
      "paywall-tui validate paywalls                                # a project: app.json, its catalog and paywalls",
      "paywall-tui validate paywalls/plans.json --catalog paywalls/acme.storekit",
      "paywall-tui validate paywalls/catalog.json paywalls/acme.storekit",
    ]
  )

  var paths: [String]
  var catalog: String?

  init(_ arguments: Arguments) {
    paths = arguments.positionals
    catalog = arguments.value("catalog")
  }

  func run() throws {
    // Errors of their own, and errors that follow from one (a reference to a file that failed).
    var errors = 0
    var consequences = 0
    var checked: [String] = []
    for path in paths {
      let result = ProjectLoader.load(path: path, catalogPath: catalog)
      for diagnostic in result.diagnostics {
        try Console.out(diagnostic.description)
      }
      errors += result.errors.filter { !$0.isConsequence }.count
      consequences += result.errors.filter(\.isConsequence).count
      if let project = result.project {
        // Warnings only validate gives: a valid paywall whose trial copy can mislead (issue 16 item 5).
        for diagnostic in PaywallReader.validationAdvice(for: project) {
          try Console.out(diagnostic.description)
        }
        checked.append("\(path): \(project.paywalls.count) paywall\(project.paywalls.count == 1 ? "" : "s"), \(project.catalog.products.count) products")
      }
    }
    if errors + consequences > 0 {
      let following = consequences == 0 ? "" : " (\(consequences) more follow\(consequences == 1 ? "s" : "") from \(errors == 1 ? "it" : "them"))"
      throw CLIFailure.invalid("\(errors) error\(errors == 1 ? "" : "s") found\(following)")
    }
    for line in checked { try Console.error("ok: \(line)") }
  }
}
