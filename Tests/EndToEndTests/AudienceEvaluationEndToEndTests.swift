import Foundation
import PaywallTesting
import Testing
@testable import PaywallTUI

/// A registration whose audiences take long to evaluate never holds up `q` or a signal: before,
/// `run` sat in the C library's regexec for the whole registration (12.6 s an audience with
/// back-references) and heard neither `q`, Ctrl-C, SIGTERM nor SIGHUP.
@Suite
struct AudienceEvaluationEndToEndTests {
  /// A project whose placement `heavy` has 2,000 audiences, each a filter whose pattern is a
  /// program of 20,000 instructions: over a 200-letter name, far more work than a registration
  /// may do.
  static func heavyProject() throws -> String {
    let directory = Scratch.root.appendingPathComponent("paywall-tui-heavy-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let demo = Fixtures.demoDirectory
    for file in ["catalog.json", "onboarding.json"] {
      try FileManager.default.copyItem(atPath: demo + "/" + file, toPath: directory + "/" + file)
    }
    let audience = #"{"filter": "user.name.matches(\"(.{0,100}){100}x\")", "paywall": "onboarding"}"#
    let audiences = Array(repeating: audience, count: 2_000).joined(separator: ",\n")
    let app = """
      {"name": "Heavy", "catalog": "catalog.json", "paywalls": ["onboarding.json"],
       "campaigns": [{"placement": "heavy", "audiences": [\(audiences)]}]}
      """
    try app.write(toFile: directory + "/app.json", atomically: true, encoding: .utf8)
    return directory
  }

  static let name = String(repeating: "a", count: 200)

  @Test(arguments: [false, true])
  func qQuitsPromptlyWhileAHeavyRegistrationEvaluates(afterAPause: Bool) throws {
    let project = try Self.heavyProject()
    defer { try? FileManager.default.removeItem(atPath: project) }
    let pane = try TmuxPane(TerminalEndToEndTests.wrapped("'\(project)' --home --controller scripted --status inactive --user name=\(Self.name)"))
    pane.wait(forText: "heavy")
    try pane.send("Enter")
    if afterAPause { usleep(300_000) }
    let start = ContinuousClock.now
    try pane.send("q")
    #expect(pane.wait(forFile: "exit", within: 20) == "0")
    let elapsed = ContinuousClock.now - start
    #expect(elapsed < .seconds(2), "q took \(elapsed)")
    #expect(pane.wait(forFile: "stty.after") == pane.file("stty.before"))
  }

  @Test func sigtermEndsTheSessionPromptlyWhileAHeavyRegistrationEvaluates() throws {
    let project = try Self.heavyProject()
    defer { try? FileManager.default.removeItem(atPath: project) }
    let pane = try TmuxPane(TerminalEndToEndTests.wrapped("'\(project)' --home --controller scripted --status inactive --user name=\(Self.name)"))
    pane.wait(forText: "heavy")
    let pid = try #require(try pane.appPID())
    try pane.send("Enter")
    usleep(300_000)
    let start = ContinuousClock.now
    kill(pid, SIGTERM)
    #expect(pane.wait(forFile: "exit", within: 20) == "143")
    let elapsed = ContinuousClock.now - start
    #expect(elapsed < .seconds(2), "SIGTERM took \(elapsed)")
  }

  /// Left alone, the registration stops at its budget and says so on the screen, and the app goes on.
  @Test func aRegistrationOverItsBudgetFailsWithItsReasonOnScreen() throws {
    let project = try Self.heavyProject()
    defer { try? FileManager.default.removeItem(atPath: project) }
    let pane = try TmuxPane(TerminalEndToEndTests.wrapped("'\(project)' --home --controller scripted --status inactive --user name=\(Self.name)"), width: 120)
    pane.wait(forText: "heavy")
    try pane.send("Enter")
    pane.wait(forText: "budget", within: 30)
    try pane.send("q")
    #expect(pane.wait(forFile: "exit", within: 5) == "0")
  }
}
