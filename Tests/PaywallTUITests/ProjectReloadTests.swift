import Foundation
import PaywallModel
import Synchronization
import PaywallTesting
import Testing
@testable import TerminalCore
@testable import PaywallUI

/// `run --watch` below the terminal: a reloaded project through `AppModel.update` keeps the
/// session; a project that no longer loads shows its errors over the last good screen; and
/// `ProjectWatch` turns a save of any of the project's files into a load.
@Suite("Project reload")
struct ProjectReloadTests {
  /// A copy of the demo project in a temporary directory, to edit.
  static func load(_ path: String) throws -> Project {
    let result = ProjectLoader.load(path: path)
    guard let project = result.project else { throw FixtureError(result.diagnostics.map(\.description).joined(separator: "\n")) }
    return project
  }

  static func edit(_ file: String, _ from: String, _ to: String) throws {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.contains(from))
    try text.replacingOccurrences(of: from, with: to).write(toFile: file, atomically: true, encoding: .utf8)
  }

  static func screen(_ state: AppState) -> String {
    FrameText.plain(AppView.render(state, size: Size(width: 80, height: 24)))
  }

  @Test func aReloadKeepsTheStatusTheSelectionAndTheOpenPaywall() throws {
    let copy = try Fixtures.demoCopy()
    var state = AppState(project: try Self.load(copy))
    _ = AppModel.update(&state, .presentation(.statusChanged(.inactive)))
    _ = AppModel.update(&state, .presentation(.open(paywallID: "onboarding", selected: nil)))
    _ = AppModel.update(&state, .key(.character("3")))
    _ = AppModel.update(&state, .key(.tab))
    let focus = state.focus
    #expect(Self.screen(state).contains("Unlock Acme Pro"))

    try Self.edit(copy + "/onboarding.json", "Unlock Acme Pro", "Unlock Acme Max")
    let effects = AppModel.update(&state, .projectReloaded(try Self.load(copy), warnings: []))
    #expect(AppModelTests.events(effects).isEmpty, "an edit is no event the app sees (no second paywall_open)")
    let screen = Self.screen(state)
    #expect(screen.contains("Unlock Acme Max") && !screen.contains("Unlock Acme Pro"), "\(screen)")
    #expect(state.session?.id == "onboarding")
    #expect(state.session?.selectedSlot == "tertiary")
    #expect(state.focus == focus)
    #expect(state.status == .inactive)
    #expect(state.notice?.hasPrefix("reloaded Acme Notes") == true)
  }

  @Test func aSlotTheEditRemovedFallsBackToThePaywallsChoice() throws {
    let copy = try Fixtures.demoCopy()
    var state = AppState(project: try Self.load(copy))
    _ = AppModel.update(&state, .presentation(.open(paywallID: "onboarding", selected: nil)))
    _ = AppModel.update(&state, .key(.character("3")))
    try Self.edit(copy + "/onboarding.json", "\"com.acme.pro.monthly\",\n                \"tertiary\": \"com.acme.pro.lifetime\"", "\"com.acme.pro.monthly\"")
    _ = AppModel.update(&state, .projectReloaded(try Self.load(copy), warnings: []))
    #expect(state.session?.selectedSlot == "primary")
    #expect(!Self.screen(state).contains("Lifetime"))
  }

  @Test func aPaywallGoneFromTheProjectGoesHomeAndSaysSo() throws {
    var state = AppState(project: try Fixtures.demoProject())
    _ = AppModel.update(&state, .presentation(.open(paywallID: "winback", selected: nil)))
    var edited = try Fixtures.demoProject()
    edited.paywalls.removeAll { $0.id == "winback" }
    _ = AppModel.update(&state, .projectReloaded(edited, warnings: []))
    #expect(state.session == nil)
    #expect(state.focus == nil)
    #expect(state.notice == "paywall 'winback' is no longer in the project: back to the home screen")
    #expect(state.presentation.lastPaywallID == nil, "Enter at home must not look for it")
  }

  @Test func aFailedLoadShowsItsErrorsOverTheLastGoodScreenUntilAGoodOne() throws {
    var state = AppState(project: try Fixtures.demoProject())
    _ = AppModel.update(&state, .presentation(.open(paywallID: "onboarding", selected: nil)))
    let error = "p/onboarding.json:2:1: error: invalid JSON: unexpected end of file, expected a value"
    _ = AppModel.update(&state, .projectInvalid([error]))
    let broken = Self.screen(state)
    #expect(broken.contains("The project no longer loads"))
    #expect(broken.contains("p/onboarding.json:2:1: error:"), "\(broken)")
    #expect(broken.contains("Unlock Acme Pro"), "the last good screen stays under the overlay")
    #expect(state.session?.id == "onboarding")
    // The keys still reach the paywall under it.
    _ = AppModel.update(&state, .key(.character("2")))
    #expect(state.session?.selectedSlot == "secondary")

    _ = AppModel.update(&state, .projectReloaded(try Fixtures.demoProject(), warnings: []))
    let fixed = Self.screen(state)
    #expect(!fixed.contains("The project no longer loads"))
    #expect(!fixed.contains("error:"))
    #expect(state.session?.selectedSlot == "secondary")
  }

  /// A single paywall file: the file, the catalog given, and the app.json beside it (which may name
  /// the catalog); while it does not load, the last good load's files stay watched.
  @Test func aPaywallFileWatchesItsCatalogAndTheAppJSONBesideIt() throws {
    let copy = try Fixtures.demoCopy()
    let paywall = copy + "/plans.json", catalog = copy + "/acme.storekit"
    let good = ProjectLoader.load(path: paywall, catalogPath: catalog)
    let targets = ProjectWatch.targets(path: paywall, catalog: catalog, project: good.project, diagnostics: good.diagnostics, previous: [])
    #expect(Set(targets) == [.file(paywall), .file(catalog), .file(copy + "/app.json")])
    let broken = ProjectWatch.targets(path: copy, catalog: nil, project: nil,
                                      diagnostics: [Diagnostic(file: copy + "/app.json", location: .start, severity: .error, message: "x", path: nil)],
                                      previous: [.file(copy + "/catalog.json")])
    #expect(Set(broken) == [.directory(copy), .file(copy + "/app.json"), .file(copy + "/catalog.json")])
  }

  /// The glue `run --watch` uses: a save of the catalog (not the path given) loads the project
  /// again; a broken file gives its diagnostics, and fixing it a project again.
  @Test func projectWatchLoadsAgainOnASaveOfAnyOfTheProjectsFiles() throws {
    let copy = try Fixtures.demoCopy()
    let watch = try ProjectWatch(path: copy + "/app.json", catalog: nil, loaded: ProjectLoader.load(path: copy + "/app.json"))
    let results = Mutex<[ProjectLoadResult]>([])
    let arrived = DispatchSemaphore(value: 0)
    #expect(watch.start { result in
      results.withLock { $0.append(result) }
      arrived.signal()
    })
    defer { watch.stop() }

    try Self.edit(copy + "/catalog.json", "\"59.99\"", "\"49.99\"")
    #expect(arrived.wait(timeout: .now() + 5) == .success)
    let first = try #require(results.withLock { $0.last?.project })
    #expect(first.catalog.product(id: "com.acme.pro.annual")?.price == Decimal(string: "49.99"))

    let paywall = copy + "/plans.json"
    let good = try String(contentsOfFile: paywall, encoding: .utf8)
    try "{\"id\": ".write(toFile: paywall, atomically: false, encoding: .utf8)
    #expect(arrived.wait(timeout: .now() + 5) == .success)
    let broken = results.withLock { $0.last! }
    #expect(broken.project == nil)
    #expect(broken.errors.contains { $0.file == paywall })

    try good.write(toFile: paywall, atomically: true, encoding: .utf8)
    #expect(arrived.wait(timeout: .now() + 5) == .success)
    #expect(results.withLock { $0.last?.project } != nil)
  }

  /// The results a started `ProjectWatch` hands on, one signal each.
  final class Results: Sendable {
    let all = Box()
    /// The results so far.
    final class Box: Sendable {
      let mutex = Mutex<[ProjectLoadResult]>([])
      func withLock<T>(_ body: (inout [ProjectLoadResult]) -> T) -> T { mutex.withLock { body(&$0) } }
    }
    let arrived = DispatchSemaphore(value: 0)
    var last: ProjectLoadResult? { all.withLock { $0.last } }

    /// Starts `watch`, its results collected here.
    init(_ watch: ProjectWatch) {
      let all = all, arrived = arrived
      let started = watch.start { result in
        all.withLock { $0.append(result) }
        arrived.signal()
      }
      #expect(started)
    }
  }

  /// `run DIR --catalog DIR/./catalog.json --watch`: one directory named two ways; a save of a
  /// paywall (named one way) and of the catalog (the other) are each seen.
  @Test func oneDirectoryNamedTwoWaysSeesEverySave() throws {
    let copy = try Fixtures.demoCopy()
    let catalog = copy + "/./catalog.json"
    let watch = try ProjectWatch(path: copy, catalog: catalog, loaded: ProjectLoader.load(path: copy, catalogPath: catalog))
    let results = Results(watch)
    defer { watch.stop() }
    try Self.edit(copy + "/onboarding.json", "Unlock Acme Pro", "Unlock Acme Max")
    #expect(results.arrived.wait(timeout: .now() + 5) == .success)
    var state = AppState(project: try #require(results.last?.project))
    _ = AppModel.update(&state, .presentation(.open(paywallID: "onboarding", selected: nil)))
    #expect(Self.screen(state).contains("Unlock Acme Max"), "the paywall's new title")
    try Self.edit(copy + "/catalog.json", "\"59.99\"", "\"49.99\"")
    #expect(results.arrived.wait(timeout: .now() + 5) == .success)
    #expect(results.last?.project?.catalog.product(id: "com.acme.pro.annual")?.price == Decimal(string: "49.99"))
  }

  /// A catalog that is a link into another directory: an edit of its target loads again.
  @Test func aLinkedCatalogIsFollowedToItsTarget() throws {
    let copy = try Fixtures.demoCopy()
    let shared = copy + "-shared"
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: copy + "/catalog.json", toPath: shared + "/catalog.json")
    try FileManager.default.createSymbolicLink(atPath: copy + "/catalog.json", withDestinationPath: "../" + URL(fileURLWithPath: shared).lastPathComponent + "/catalog.json")
    let watch = try ProjectWatch(path: copy, catalog: nil, loaded: ProjectLoader.load(path: copy))
    let results = Results(watch)
    defer { watch.stop() }
    try Self.edit(shared + "/catalog.json", "\"59.99\"", "\"49.99\"")
    #expect(results.arrived.wait(timeout: .now() + 5) == .success)
    #expect(results.last?.project?.catalog.product(id: "com.acme.pro.annual")?.price == Decimal(string: "49.99"))
  }
}
