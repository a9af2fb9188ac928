import Foundation
import PaywallModel
import PaywallCLI
import PaywallUI

/// Paths and fixtures shared by the test targets.
package enum Fixtures {
  package static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  package static let demoDirectory = repositoryRoot.appendingPathComponent("paywalls").path
  package static let goldenDirectory = repositoryRoot.appendingPathComponent("Tests/PaywallTUITests/Goldens")
  /// A fixed clock so `trialPeriodEndDate` and friends never make goldens depend on the day.
  package static let now = Date(timeIntervalSince1970: 1_800_000_000)

  package static func demoProject() throws -> Project {
    let result = ProjectLoader.load(path: demoDirectory)
    guard let project = result.project else { throw FixtureError(result.diagnostics.map(\.description).joined(separator: "\n")) }
    return project
  }

  /// The demo without its campaigns: a project that only has paywalls.
  package static func demoProjectWithoutCampaigns() throws -> Project {
    var project = try demoProject()
    project.campaigns = []
    return project
  }

  package static func screen(_ project: Project, paywall: String, select: String? = nil, overrides: [SlotOverride] = []) throws -> PaywallScreenState {
    try RenderCommand.screen(for: project, paywall: paywall, select: select, overrides: overrides, now: now)
  }

  /// Writes `files` (name → contents) into a new temporary directory.
  package static func directory(_ files: [String: String]) throws -> String {
    let dir = Scratch.root.appendingPathComponent("paywall-tui-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for (name, text) in files {
      try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return dir.path
  }

  /// A script that tests run as a program: `text` in `name` (mode 755) in a new directory. The
  /// executable file is written by `cp`, a child, never through a descriptor of this process: a
  /// descriptor open for writing here would be inherited by a child another test starts meanwhile
  /// (a `sleep 30` keeps it for 30 s), and exec of the script then fails (ETXTBSY, "Text file busy").
  package static func script(_ text: String, named name: String) throws -> String {
    let dir = try directory([name + ".txt": text])
    let path = dir + "/" + name
    let copy = Process()
    copy.executableURL = URL(fileURLWithPath: "/bin/cp")
    copy.arguments = [path + ".txt", path]
    try copy.run()
    copy.waitUntilExit()
    guard copy.terminationStatus == 0 else { throw FixtureError("cp of \(name) failed with status \(copy.terminationStatus)") }
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    return path
  }
}

package struct FixtureError: Error, CustomStringConvertible {
  package var description: String
  package init(_ d: String) { description = d }
}

/// A small catalog with the three products of the spec's canonical paywall.
package let acmeCatalogJSON = """
  {"products": [
    {"id": "com.acme.pro.annual", "name": "Annual", "price": "59.99", "period": "P1Y", "trial": "P7D", "entitlements": ["pro"]},
    {"id": "com.acme.pro.monthly", "name": "Monthly", "price": "9.99", "period": "P1M", "entitlements": ["pro"]},
    {"id": "com.acme.pro.lifetime", "name": "Lifetime", "price": "149.99", "entitlements": ["pro", "lifetime"]}
  ]}
  """
