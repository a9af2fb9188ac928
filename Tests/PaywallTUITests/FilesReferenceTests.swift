import Foundation
import PaywallCLI
import PaywallModel
import PaywallTesting
import Testing

/// `docs/reference/files.md` lists what paywall-tui writes from the code that writes it
/// (`FilesReference`); regenerate its table with `UPDATE_DOCS=1 swift test --filter FilesReferenceTests`.
@Suite("Files reference")
struct FilesReferenceTests {
  static let page = "docs/reference/files.md"
  static let begin = "<!-- files written: generated from FilesReference; UPDATE_DOCS=1 swift test --filter FilesReferenceTests -->"
  static let end = "<!-- files written end -->"

  @Test func thePageListsWhatTheCodeWrites() throws {
    let url = Fixtures.repositoryRoot.appendingPathComponent(Self.page)
    let doc = try String(contentsOf: url, encoding: .utf8)
    let start = try #require(doc.range(of: Self.begin), "\(Self.page) has no \(Self.begin) marker")
    let stop = try #require(doc.range(of: Self.end, range: start.upperBound..<doc.endIndex), "\(Self.page) has no \(Self.end) marker")
    let wanted = "\n" + FilesReference.markdown + "\n"
    guard String(doc[start.upperBound..<stop.lowerBound]) != wanted else { return }
    if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
      try doc.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: wanted).write(to: url, atomically: true, encoding: .utf8)
    } else {
      Issue.record("\(Self.page) is not FilesReference.markdown: UPDATE_DOCS=1 swift test --filter FilesReferenceTests")
    }
  }

  /// Every option of every command whose value is a file or a directory is on one side: a new
  /// one that writes cannot be left off the page by forgetting it.
  @Test func everyFileOptionIsAWriterOrAReader() {
    // Two commands' options may share a name (`--state-dir` writes for `run`, is read by
    // `store`): an option is its name and its help.
    func key(_ option: any CommandOption) -> String { option.name + "|" + option.help }
    let writers = FilesReference.writers.map { key($0.option) }
    let readers = FilesReference.readers.map(key)
    var unsorted: [String] = []
    for command in Completion.commands {
      for option in command.options where option.completion == .file || option.completion == .directory {
        if !writers.contains(key(option)) && !readers.contains(key(option)) { unsorted.append("\(command.name) --\(option.name)") }
      }
    }
    #expect(unsorted.isEmpty, "put these in FilesReference.writers or .readers: \(unsorted)")
    #expect(Set(writers).isDisjoint(with: readers), "an option is both a writer and a reader")
  }

  /// The state directory's rows are the files the session keeps there, and a run makes no other.
  @Test func theStateRowsAreWhatARunLeaves() throws {
    let state = try Fixtures.directory([:]) + "/state"
    defer { try? FileManager.default.removeItem(atPath: (state as NSString).deletingLastPathComponent) }
    // A purchase (the ledger, the status), a trial's reminder (notifications.json), the user.
    let project = Fixtures.repositoryRoot.appendingPathComponent("scenarios/projects/trial-reminders").path
    let result = try PaywallBinary.run(["play", project, "--state-dir", state, "--status", "inactive", "--keys", "enter"])
    #expect(result.status == 0, "\(result.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: state)
    let known = Set(StateDirectory.stateFileNames + [StateLock.fileName])
    let strangers = left.filter { name in !known.contains(where: { name == $0 || name.hasPrefix($0 + ".") }) }
    #expect(strangers.isEmpty, "a run left files the page does not list: \(strangers)")
    for name in StateDirectory.stateFileNames + [StateLock.fileName] { #expect(left.contains(name), "a run did not write \(name): \(left)") }
    let page = FilesReference.markdown
    for name in StateDirectory.stateFileNames + [StateLock.fileName] { #expect(page.contains("`\(name)`"), "\(name)") }
  }

  /// A run refused before it starts (here, an events file in a folder that is not there) leaves
  /// no folder behind, `--screenshot-every`'s included.
  @Test func aRefusedRunLeavesNoFolder() throws {
    let directory = try Fixtures.directory([:])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let result = try PaywallBinary.run(["play", Fixtures.demoDirectory, "--keys", "enter", "--screenshot-every", directory + "/shots",
                                        "--events", directory + "/missing/events.jsonl"])
    #expect(result.status != 0)
    #expect(result.stderr.contains("events"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: directory + "/shots"), "an empty --screenshot-every folder was left")
  }
}
