import PaywallModel

struct ValidateCommand: CLICommand {
  static let spec = CommandSpec(
    name: "validate",
    abstract: "Check paywalls, catalogs and projects; print every problem as FILE:LINE:COL: error: MESSAGE ($.path).",
    discussion: "Exits 0 when everything is valid, 1 when anything is not (warnings alone do not fail).",
    positionals: [PositionalSpec(name: "path", help: "Project directories, app.json, paywall, catalog or .storekit files.", count: .oneOrMore)],
    options: [.option("catalog", "file", "Catalog for single paywall files (.json or .storekit).")]
  )

  var paths: [String]
  var catalog: String?

  init(_ arguments: Arguments) {
    paths = arguments.positionals
    catalog = arguments.value("catalog")
  }

  func run() throws {
    var errors = 0
    var checked: [String] = []
    for path in paths {
      let result = ProjectLoader.load(path: path, catalogPath: catalog)
      for diagnostic in result.diagnostics {
        try Console.out(diagnostic.description)
      }
      errors += result.errors.count
      if let project = result.project {
        // Warnings only validate gives: a valid paywall whose trial copy can mislead (issue 16 item 5).
        for diagnostic in PaywallReader.validationAdvice(for: project) {
          try Console.out(diagnostic.description)
        }
        checked.append("\(path): \(project.paywalls.count) paywall\(project.paywalls.count == 1 ? "" : "s"), \(project.catalog.products.count) product\(project.catalog.products.count == 1 ? "" : "s")")
      }
    }
    if errors > 0 {
      throw CLIFailure.invalid("\(errors) error\(errors == 1 ? "" : "s") found")
    }
    for line in checked { try Console.error("ok: \(line)") }
  }
}
