import Foundation
import PaywallTesting
import Testing
@testable import PaywallCLI
import PaywallScenarios

/// The exit codes are one table (`ExitStatus`): the reference page is generated from it, and no
/// command ends with a code written as a bare number instead.
@Suite struct ExitStatusTests {
  static let page = "docs/reference/exit-codes.md"

  /// After a change to the table: `UPDATE_DOCS=1 swift test --filter ExitStatusTests`.
  @Test func theReferencePageIsTheTable() throws {
    let url = Fixtures.repositoryRoot.appendingPathComponent(Self.page)
    if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
      try ExitStatus.markdown.write(to: url, atomically: true, encoding: .utf8)
    }
    let kept = try String(contentsOf: url, encoding: .utf8)
    #expect(kept == ExitStatus.markdown, "\(Self.page) is not ExitStatus.markdown: UPDATE_DOCS=1 swift test --filter ExitStatusTests")
  }

  /// A failure's code comes from the table: `code: 2` in a source file would be a code the page
  /// may not describe.
  @Test func noCommandEndsWithABareNumber() throws {
    let sources = Fixtures.repositoryRoot.appendingPathComponent("Sources/PaywallCLI")
    let walker = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
    var found: [String] = []
    for case let url as URL in walker where url.pathExtension == "swift" {
      let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
      for (i, line) in lines.enumerated() where line.range(of: #"code: [0-9]"#, options: .regularExpression) != nil {
        found.append("\(url.lastPathComponent):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    #expect(found.isEmpty, "write ExitStatus.X.rawValue: \(found.joined(separator: "\n"))")
  }

  /// What the binary returns is what the table says, for each code a user can meet without a signal.
  @Test func theBinaryEndsAsTheTableSays() throws {
    #expect(try PaywallBinary.run(["validate", "paywalls"]).status == ExitStatus.ok.rawValue)
    #expect(try PaywallBinary.run(["validate", "--no-such-option"]).status == ExitStatus.usage.rawValue)
    let directory = try Fixtures.directory(["bad.json": "{"])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(try PaywallBinary.run(["validate", directory + "/bad.json"]).status == ExitStatus.failed.rawValue)
    #expect(try PaywallBinary.run(["run", "paywalls"]).status == ExitStatus.noTerminal.rawValue, "no terminal under the test runner")
    // An output path refused before anything runs is a usage error; output lost while running is a failure.
    // A path under a regular file: no folder can be made there, on any system.
    let file = directory + "/bad.json"
    #expect(try PaywallBinary.run(["render", "paywalls", "--out", file + "/x.txt"]).status == ExitStatus.usage.rawValue)
    #expect(try PaywallBinary.run(["play", "paywalls", "--keys", "enter", "--record", file + "/x.cast"]).status == ExitStatus.usage.rawValue)
  }

  /// The man page lists every code of the table.
  @Test func theManPageListsEveryCode() throws {
    // man wraps its lines at 80 columns: compared with the breaks read as spaces.
    let man = try PaywallBinary.run(["man"]).stdout.replacingOccurrences(of: "\n", with: " ")
    for status in ExitStatus.allCases {
      #expect(man.contains(".B \(status.rawValue) \(status.summary)"), "\(status)")
    }
  }
}
