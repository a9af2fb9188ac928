import Foundation
import PaywallModel
@testable import PaywallUI
@testable import PaywallCLI
import PaywallTesting
import Testing

/// A paywall naming `acme_pro:sw-auto:sw-auto` sells acme_pro's first base plan under
/// Superwall-Android 2.7, and nothing under the releases before, which read `sw-auto` as a base
/// plan's id: refused before anything is shown, with the place and the fix, whether the release
/// comes from app.json or from `--sdk`.
@Suite("A Play id the release followed sells nothing under")
struct PlayIDReadingSessionTests {
  /// `Examples/android` with `primary` naming `sw-auto` as its base plan, and app.json's options as given.
  static func project(options: String) throws -> String {
    var files: [String: String] = [:]
    for file in ["plans.json", "play-catalog.json", "play-catalog.entitlements.json"] {
      files[file] = try String(contentsOfFile: "Examples/android/" + file, encoding: .utf8)
    }
    let plans = try #require(files["plans.json"])
    files["plans.json"] = plans.replacingOccurrences(of: #""primary": "acme_pro:annual:sw-auto""#, with: #""primary": "acme_pro:sw-auto:sw-auto""#)
    #expect(files["plans.json"] != plans, "the example's primary product changed")
    files["app.json"] = #"{"name": "A", "options": \#(options), "catalog": "play-catalog.json", "paywalls": ["plans.json"], "campaigns": []}"#
    return try Fixtures.directory(files)
  }

  @Test func appJsonsReleaseIsReadAtLoadWithThePlace() throws {
    let dir = try Self.project(options: #"{"platform": "android", "sdk": "2.6"}"#)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let result = ProjectLoader.load(path: dir)
    #expect(result.project == nil)
    let error = try #require(result.diagnostics.first { $0.severity == .error })
    #expect(error.file.hasSuffix("plans.json") && error.location.line == 6, "\(error)")
    #expect(error.message.contains("names 'acme_pro:sw-auto:sw-auto'") && error.message.contains("before 2.7")
              && error.message.contains("name the product alone ('acme_pro'"), "\(error.message)")
  }

  /// The command line's release is the one the paywalls are checked for, with the place: app.json's
  /// 2.6 gives way to `--sdk 2.7`, and a project of 2.7 run with `--sdk 2.6` is refused at load.
  @Test func theCommandLinesReleaseIsTheOneLoaded() throws {
    let old = try Self.project(options: #"{"platform": "android", "sdk": "2.6"}"#)
    defer { try? FileManager.default.removeItem(atPath: old) }
    let v27 = try SDKVersion.parse("2.7").get()
    #expect(ProjectLoader.load(path: old, catalogPath: nil, sdk: SDKChoice(given: v27)).project != nil)
    let new = try Self.project(options: #"{"platform": "android"}"#)
    defer { try? FileManager.default.removeItem(atPath: new) }
    let v26 = try SDKVersion.parse("2.6").get()
    let refused = ProjectLoader.load(path: new, catalogPath: nil, sdk: SDKChoice(given: v26))
    let error = try #require(refused.diagnostics.first { $0.severity == .error })
    #expect(refused.project == nil && error.file.hasSuffix("plans.json") && error.location.line == 6, "\(error)")
    // A platform that does not fit the version is the session's to refuse: the load keeps app.json's.
    #expect(ProjectLoader.load(path: new, catalogPath: nil, sdk: SDKChoice(platform: .ios, given: v26)).project != nil)
  }

  @Test(arguments: [("2.6", true), ("2.0", true), ("2.7", false), ("2", false)])
  func sdkOnTheCommandLineIsCheckedBeforeTheSession(sdk: String, refused: Bool) async throws {
    let dir = try Self.project(options: #"{"platform": "android"}"#)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let project = try #require(ProjectLoader.load(path: dir).project)
    let options = try SessionConfiguration(Arguments([dir, "--controller", "simulated", "--sdk", sdk], spec: PlayCommand.spec))
    let clock = SimulatedTimeSource()
    do {
      let app = try AppSession.make(project: project, path: dir, options: options, overrides: [], clock: clock, simulatedClock: clock,
                                    animates: false, state: .commandLineOrMemory) { _ in }
      app.command?.stop()
      #expect(!refused, "--sdk \(sdk) sold acme_pro:sw-auto:sw-auto")
      #expect(app.runtime.state.project.catalog.product(id: "acme_pro:sw-auto:sw-auto")?.price == Decimal(string: "9.99"))
    } catch {
      #expect(refused, "--sdk \(sdk): \(error.reason)")
      #expect(error.reason.contains("plans.json: slot 'primary' names 'acme_pro:sw-auto:sw-auto'") && error.reason.contains("--sdk 2.7"),
              "\(error.reason)")
    }
  }

  /// `explain` reads the project for `--sdk` as `play` does, and a flag that does not fit the
  /// project is the error, not the project's problems read for its own release.
  @Test func explainAndAFlagThatDoesNotFitFollowTheCommandLine() throws {
    let old = try Self.project(options: #"{"platform": "android", "sdk": "2.6"}"#)
    defer { try? FileManager.default.removeItem(atPath: old) }
    let explained = try PaywallBinary.run(["explain", old, "--sdk", "2.7", "--status", "inactive", "x"])
    #expect(!explained.stderr.contains("sw-auto"), "\(explained.stderr)")
    let ios = try PaywallBinary.run(["play", old, "--sdk", "4.2", "--keys", "q"])
    #expect(ios.status == 2 && ios.stderr.hasPrefix("error: --sdk 4.2 is a Superwall-iOS version"), "\(ios.stderr)")
  }

  /// An override naming a Play id the SDK sells by falling back is said, as a paywall file's
  /// slot is: under 2.6 the rental sells the legacy option.
  @Test func anOverrideThatFallsBackIsSaid() throws {
    let dir = try Self.project(options: #"{"platform": "android", "sdk": "2.6"}"#)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fixed = try String(contentsOfFile: dir + "/plans.json", encoding: .utf8)
      .replacingOccurrences(of: "acme_pro:sw-auto:sw-auto", with: "acme_pro:annual:sw-auto")
    try fixed.write(toFile: dir + "/plans.json", atomically: true, encoding: .utf8)
    let project = try #require(ProjectLoader.load(path: dir).project)
    let plans = try #require(project.paywall(id: "plans"))
    let rental = plans.applying([SlotOverride(slot: "tertiary", productID: "acme_lifetime:rent-30-days")], catalog: project.catalog)
    #expect(rental.warnings.count == 1 && rental.warnings[0].contains("its legacy one ('buy')"), "\(rental.warnings)")
    #expect(rental.0.slots.first { $0.name == "tertiary" }?.productID == "acme_lifetime:rent-30-days")
    let buy = plans.applying([SlotOverride(slot: "tertiary", productID: "acme_lifetime:buy")], catalog: project.catalog)
    #expect(buy.warnings.isEmpty)
  }
}
