import Foundation
import PaywallModel
@testable import PaywallUI
@testable import PaywallCLI

/// Paths and helpers shared by the front-end suites.
enum Fixtures {
  static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let demoDirectory = repositoryRoot.appendingPathComponent("paywalls").path
  static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
  /// A fixed clock so `trialPeriodEndDate` and friends never make goldens depend on the day.
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  static func demoProject() throws -> Project {
    let result = ProjectLoader.load(path: demoDirectory)
    guard let project = result.project else { throw FixtureError(result.diagnostics.map(\.description).joined(separator: "\n")) }
    return project
  }

  /// The demo without its campaigns: a project that only has paywalls.
  static func demoProjectWithoutCampaigns() throws -> Project {
    var project = try demoProject()
    project.campaigns = []
    return project
  }

  static func screen(_ project: Project, paywall: String, select: String? = nil, overrides: [SlotOverride] = []) throws -> PaywallScreenState {
    try RenderCommand.screen(for: project, paywall: paywall, select: select, overrides: overrides, now: now)
  }

  /// Writes `files` (name → contents) into a new temporary directory.
  static func directory(_ files: [String: String]) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("paywall-tui-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for (name, text) in files {
      try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return dir.path
  }
}

struct FixtureError: Error, CustomStringConvertible {
  var description: String
  init(_ d: String) { description = d }
}

/// A small catalog with the three products of the spec's canonical paywall.
let acmeCatalogJSON = """
  {"products": [
    {"id": "com.acme.pro.annual", "name": "Annual", "price": "59.99", "period": "P1Y", "trial": "P7D", "entitlements": ["pro"]},
    {"id": "com.acme.pro.monthly", "name": "Monthly", "price": "9.99", "period": "P1M", "entitlements": ["pro"]},
    {"id": "com.acme.pro.lifetime", "name": "Lifetime", "price": "149.99", "entitlements": ["pro", "lifetime"]}
  ]}
  """

extension AppModel {
  /// `update` at the fixtures' fixed moment: the model's tests never depend on the day.
  static func update(_ state: inout AppState, _ message: AppMessage) -> [AppEffect] {
    update(&state, message, now: Fixtures.now)
  }
}

extension AppRuntime {
  /// A runtime for a test, built from parts as the composition root would: the controller wrapped
  /// in the fault injector, a simulated clock moved only by `advance`.
  convenience init(state: AppState, controller: any PurchaseController, statusStore: SubscriptionStatusStore, clock: SimulatedTimeSource,
                   statusCache: StatusCache?, store: SimulatedStore? = nil, timeRate: String = "realtime",
                   onEvent: @escaping @Sendable (PaywallEvent) -> Void) {
    let injector = controller as? FaultInjectingController ?? FaultInjectingController(controller, clock: clock)
    let world = AppWorld(controller: injector, statusStore: statusStore, clock: clock, simulatedClock: clock, adjustableClocks: [clock],
                         store: store, timeRate: timeRate)
    self.init(state: state, world: world, statusCache: statusCache, animates: false, onEvent: onEvent)
  }
}
