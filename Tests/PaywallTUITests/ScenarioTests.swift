import Foundation
import Testing

/// Every `scenarios/*.play` replayed through the real binary, as CI runs them.
@Suite("Scenarios")
struct ScenarioTests {
  static let directory = Fixtures.repositoryRoot.appendingPathComponent("scenarios")

  static var files: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".play") }.sorted()
  }

  @Test func thereAreScenarios() {
    #expect(Self.files.count >= 21)
  }

  @Test(arguments: files)
  func scenarioPasses(file: String) throws {
    let path = Self.directory.appendingPathComponent(file).path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let header = try #require(text.split(separator: "\n").first, "empty scenario")
    #expect(header.hasPrefix("# args: "), "the first line gives the arguments")
    let arguments = Self.words(String(header.dropFirst("# args: ".count)))
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("paywall-tui-scenario-\(UUID().uuidString)").path
    let result = try CommandLineTests.run(["play"] + arguments + ["--state-dir", state, "--script", "scenarios/\(file)"])
    #expect(result.status == 0, "\(file): \(result.stderr)")
  }

  /// Splits on spaces, keeping "double-quoted words" whole.
  static func words(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    for character in line {
      if character == "\"" {
        quoted.toggle()
      } else if character == " " && !quoted {
        if !current.isEmpty { words.append(current) }
        current = ""
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }
}
