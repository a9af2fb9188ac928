import Foundation
@testable import PaywallModel

/// A Superwall config (`import superwall`, or a config given as a project path) → the reader and
/// the mapping, against the bundled catalog; an import without errors is then built into a project
/// through our own readers. Properties: no crash or hang (deep nesting, huge numbers, invalid UTF-8,
/// base64 garbage in `paywalljs_event`); an import exactly when there are no errors; every
/// diagnostic on a real line and column of the input and free of control characters; and what an
/// import writes always loads without an error, with every variant's paywall present.
let superwallTarget = FuzzTarget(name: "superwall", setUp: loadBundledCatalog) { bytes in
  let file = "fuzz/config.json"
  guard let (root, diagnostics) = parseJSON(bytes, file: file) else { return }
  let readBack = SuperwallImporter.ReadBack(file: file)
  let (imported, found) = SuperwallImporter.importConfig(root: root, collector: diagnostics, catalog: bundledCatalog,
                                                        catalogReference: "catalog.json", name: "fuzz", readBack: readBack)
  checkDiagnostics(found, bytes: bytes, file: file)
  require((imported == nil) == found.contains { $0.severity == .error }, "import \(imported == nil ? "nil" : "made") but errors: \(found.filter { $0.severity == .error }.count)")
  guard let imported else { return }
  require(readBack.campaigns != nil && readBack.paywalls.count == imported.paywalls.count, "an import was made but not read back")
  guard let campaigns = readBack.campaigns else { return }
  let result = SuperwallImporter.project(readBack.paywalls, campaigns: campaigns, catalog: bundledCatalog, file: file, name: "fuzz",
                                         diagnostics: [])
  let errors = result.errors.map(\.description)
  require(errors.isEmpty, "an import that succeeded does not load: \(errors.prefix(3))")
  guard let project = result.project else { return }
  require(project.paywalls.count == imported.paywalls.count, "paywalls lost: \(project.paywalls.count) of \(imported.paywalls.count)")
  for campaign in project.campaigns {
    for audience in campaign.audiences {
      guard case .paywalls(let variants, let holdout) = audience.outcome else { continue }
      require((0...100).contains(holdout), "holdout \(holdout)")
      require(holdout == 100 || variants.reduce(0) { $0 + $1.percent } == 100, "variant percents do not add up to 100")
      for variant in variants { require(project.paywall(id: variant.paywallID) != nil, "variant names a missing paywall") }
    }
  }
}
