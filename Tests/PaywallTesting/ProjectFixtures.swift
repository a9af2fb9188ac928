import Foundation
import PaywallModel
import Testing

extension Fixtures {
  /// A project of `count` placements (`place_01`…), each held out, so registering one answers at
  /// once on the home screen ("place_40: skipped (holdout)").
  package static func manyPlacementsProject(_ count: Int) throws -> (directory: String, project: Project) {
    let campaigns = (1...count).map { #"{"placement": "\#(placementName($0, of: count))", "audiences": [{"holdout": 100}]}"# }
    let app = #"{"name": "Many placements", "catalog": "catalog.json", "paywalls": ["plans.json"], "campaigns": [\#(campaigns.joined(separator: ", "))]}"#
    let paywall = #"""
      {"id": "plans", "name": "Plans", "products": {"primary": "com.acme.pro.annual"},
       "components": [{"type": "title", "text": "Go Pro"}, {"type": "products"},
                      {"type": "button", "label": "Buy", "action": "purchase"}]}
      """#
    let directory = try Fixtures.directory(["app.json": app, "catalog.json": acmeCatalogJSON, "plans.json": paywall])
    let result = ProjectLoader.load(path: directory)
    return (directory, try #require(result.project, "\(result.diagnostics)"))
  }

  package static func placementName(_ i: Int, of count: Int) -> String {
    "place_" + String(repeating: "0", count: String(count).count - String(i).count) + String(i)
  }

  /// A copy of the demo project in a new temporary directory, to edit.
  package static func demoCopy() throws -> String {
    let copy = Scratch.root.appendingPathComponent("paywall-tui-reload-\(UUID().uuidString)").path
    try FileManager.default.copyItem(atPath: Fixtures.demoDirectory, toPath: copy)
    return copy
  }

  /// A scenario file: its `# args:` line, then `steps`.
  package static func scenario(_ steps: String, args: String = "paywalls --controller simulated --status inactive") -> String {
    "# args: \(args)\n\(steps)\n"
  }

  package static let passingScenario = scenario("press 1 enter\nexpect event freeTrial_start")
}
