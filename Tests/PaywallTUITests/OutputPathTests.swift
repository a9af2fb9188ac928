import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PaywallModel
import PaywallTesting
import Testing

@testable import PaywallCLI
import PaywallScenarios

/// The files `play`, `render` and `test` write: only a regular file (or a new name) is ever
/// replaced, a scenario run by `test` writes only inside its own directory, a failed run leaves
/// no folders behind, and a pace below 1ms is refused.
@Suite("Output paths")
struct OutputPathTests {
  static let play = ["play", "paywalls", "--controller", "scripted", "--status", "inactive", "--keys", "down enter"]

  static func kind(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
  }

  /// A named pipe, a link to a file of someone else's and (as root) a device at the path: refused
  /// with exit 2 before anything runs, and left exactly as they were.
  @Test func aPathThatIsNotARegularFileIsRefusedAndLeftAlone() throws {
    let directory = try Fixtures.directory(["theirs.txt": "not ours\n", "regular.svg": "old\n"])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let fifo = directory + "/pipe.svg", link = directory + "/link.svg", device = directory + "/null.svg"
    #expect(mkfifo(fifo, 0o644) == 0)
    #expect(symlink(directory + "/theirs.txt", link) == 0)
    var paths = [(fifo, "a named pipe", S_IFIFO), (link, "a symbolic link", S_IFLNK)]
    // A copy of /dev/null's node (root only: creating a device needs CAP_MKNOD).
    if mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 { paths.append((device, "a character device", S_IFCHR)) }
    for (path, said, type) in paths {
      let name = URL(fileURLWithPath: path).lastPathComponent
      let record = try PaywallBinary.run(Self.play + ["--record", path])
      #expect(record.status == 2, "\(name): \(record.stderr)")
      #expect(record.stderr.hasPrefix("error: --record '") && record.stderr.contains("' is \(said), not a regular file"), "\(record.stderr)")
      #expect(record.stdout.isEmpty)
      let render = try PaywallBinary.run(["render", "paywalls", "--format", "svg", "--out", path])
      #expect(render.status == 2, "\(name): \(render.stderr)")
      #expect(render.stderr.hasPrefix("error: --out '") && render.stderr.contains("' is \(said), not a regular file"), "\(render.stderr)")
      try "screenshot \(name)\n".write(toFile: directory + "/shot.play", atomically: true, encoding: .utf8)
      let shot = try PaywallBinary.run(["play", "paywalls", "--controller", "scripted", "--script", directory + "/shot.play"])
      #expect(shot.status == 2, "\(name): \(shot.stderr)")
      #expect(shot.stderr.contains("shot.play:1: 'screenshot \(name)': \(path) is \(said)"), "\(shot.stderr)")
      #expect(shot.stdout.isEmpty)
      #expect(Self.kind(path) == type, "\(name) was replaced")
    }
    #expect(try String(contentsOfFile: directory + "/theirs.txt", encoding: .utf8) == "not ours\n")
    // A regular file there is ours to replace.
    let replaced = try PaywallBinary.run(["render", "paywalls", "--format", "svg", "--out", directory + "/regular.svg"])
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(try String(contentsOfFile: directory + "/regular.svg", encoding: .utf8).contains("<svg"))
  }

  /// A run that fails before writing (the project is not there) makes none of the folders its
  /// --record names; a run that writes makes them.
  @Test func aFailedRunLeavesNoFoldersBehind() throws {
    let directory = try Fixtures.directory([:])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let failed = try PaywallBinary.run(["play", directory + "/nothere", "--keys", "down", "--record", directory + "/newdir/a/b/x.cast"])
    #expect(failed.status == 1, "\(failed.stderr)")
    #expect(!FileManager.default.fileExists(atPath: directory + "/newdir"))
    let written = try PaywallBinary.run(Self.play + ["--record", directory + "/newdir/a/b/x.cast"])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(FileManager.default.fileExists(atPath: directory + "/newdir/a/b/x.cast"))
    // A file where a folder would go: said before anything runs.
    try "".write(toFile: directory + "/file", atomically: true, encoding: .utf8)
    let blocked = try PaywallBinary.run(Self.play + ["--record", directory + "/file/x.cast"])
    #expect(blocked.status == 2)
    #expect(blocked.stderr.contains("is not a directory"), "\(blocked.stderr)")
  }

  @Test(arguments: ["0.4ms", "0.999ms", "0s"])
  func aPaceBelowOneMillisecondIsRefused(pace: String) throws {
    let run = try PaywallBinary.run(Self.play + ["--record", "demo.cast", "--pace", pace])
    #expect(run.status == 2)
    #expect(run.stderr.contains("--pace '\(pace)' must be a duration from 1ms to 1h"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: Fixtures.repositoryRoot.appendingPathComponent("demo.cast").path))
  }

  /// Scenarios others wrote, run by `test` (in the worker and each in a process of its own):
  /// every way out of the scenario's directory is refused, naming FILE:LINE, and nothing is
  /// written outside; a file inside it is written.
  @Test(arguments: [false, true])
  func aScenarioWritesOnlyInsideItsDirectory(processPerScenario: Bool) throws {
    let top = try Fixtures.directory([:])
    defer { try? FileManager.default.removeItem(atPath: top) }
    let root = top + "/r/t1", outside = top + "/outside"
    try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    #expect(symlink(outside, root + "/sub/link") == 0)
    let args = "paywalls --controller simulated --status inactive"
    let scenarios: [String: String] = [
      "sub/evil.play": Fixtures.scenario("press down\nscreenshot ../../../pwned/requirements.txt", args: args),
      "absolute.play": Fixtures.scenario("screenshot \(top)/pwned/a.svg", args: args),
      "through-link.play": Fixtures.scenario("screenshot sub/link/b.svg", args: args),
      "record.play": Fixtures.scenario("press down", args: args + " --record \(top)/pwned/x.cast"),
      "every.play": Fixtures.scenario("press down", args: args + " --screenshot-every \(top)/pwned/shots"),
      "events.play": Fixtures.scenario("press down", args: args + " --events \(outside)/events.jsonl"),
      "inside.play": Fixtures.scenario("screenshot shots/ok.svg", args: args + " --record \(root)/rec/ok.cast"),
    ]
    for (name, text) in scenarios { try text.write(toFile: root + "/" + name, atomically: true, encoding: .utf8) }
    let run = try PaywallBinary.run(["test", root] + (processPerScenario ? ["--process-per-scenario"] : []))
    let said = run.stdout + run.stderr
    #expect(run.status == 1, "\(said)")
    #expect(said.contains("sub/evil.play:3: 'screenshot ../../../pwned/requirements.txt' would write"), "\(said)")
    #expect(said.contains("absolute.play:2: 'screenshot ") && said.contains("would write \(top)/pwned/a.svg, outside"))
    #expect(said.contains("through-link.play:2: 'screenshot sub/link/b.svg' would write"))
    #expect(said.contains("record.play:1: --record '") && said.contains("e.g. --record \(root)/demo.cast"))
    #expect(said.contains("every.play:1: --screenshot-every '") && said.contains("e.g. --screenshot-every \(root)/shots"))
    #expect(said.contains("events.play:1: --events '") && said.contains("e.g. --events \(root)/events.jsonl"))
    #expect(!FileManager.default.fileExists(atPath: top + "/pwned"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    #expect(FileManager.default.fileExists(atPath: root + "/shots/ok.svg"), "\(said)")
    #expect(FileManager.default.fileExists(atPath: root + "/rec/ok.cast"), "\(said)")
    // Plain `play` keeps its freedom: the same script writes where it says.
    let free = try PaywallBinary.run(["play", "paywalls", "--controller", "simulated", "--status", "inactive",
                                         "--script", root + "/absolute.play"])
    #expect(free.status == 0, "\(free.stderr)")
    #expect(FileManager.default.fileExists(atPath: top + "/pwned/a.svg"))
  }

  /// A link committed inside the scenario's folder is no way out either: `--events` through
  /// `scenarios/events.jsonl -> ../outside.txt` (or a link to a folder further down the path) is
  /// refused, naming the scenario and the option, and the file it points at is not touched.
  @Test(arguments: [false, true])
  func aScenarioWritesThroughNoLinkInItsDirectory(processPerScenario: Bool) throws {
    let top = try Fixtures.directory([:])
    defer { try? FileManager.default.removeItem(atPath: top) }
    let root = top + "/scenarios", outsideFile = top + "/outside.txt"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try "# my shell settings\n".write(toFile: outsideFile, atomically: true, encoding: .utf8)
    #expect(symlink("../outside.txt", root + "/events.jsonl") == 0)
    #expect(symlink("../nowhere", root + "/dangling.jsonl") == 0)
    #expect(symlink("../outside.txt", root + "/shot.svg") == 0)
    #expect(symlink("../made-elsewhere", root + "/shots") == 0)
    let args = "paywalls --controller simulated --status inactive"
    let scenarios: [String: String] = [
      "events.play": Fixtures.scenario("press down", args: args + " --events \(root)/events.jsonl"),
      "dangling.play": Fixtures.scenario("press down", args: args + " --events \(root)/dangling.jsonl"),
      "record.play": Fixtures.scenario("press down", args: args + " --record \(root)/events.jsonl"),
      "shot.play": Fixtures.scenario("screenshot shot.svg", args: args),
      "folder.play": Fixtures.scenario("screenshot shots/a.svg", args: args),
    ]
    for (name, text) in scenarios { try text.write(toFile: root + "/" + name, atomically: true, encoding: .utf8) }
    let run = try PaywallBinary.run(["test", root] + (processPerScenario ? ["--process-per-scenario"] : []))
    let said = run.stdout + run.stderr
    #expect(run.status == 1, "\(said)")
    // One line names the scenario, the option and what is wrong (the long path is quoted cut short).
    func oneLine(_ start: String, _ problem: String) -> Bool {
      said.split(separator: "\n").contains { $0.contains(start) && $0.contains(problem) }
    }
    #expect(oneLine("events.play:1: --events '", "' is a symbolic link, not a regular file"), "\(said)")
    #expect(oneLine("dangling.play:1: --events '", "' is a symbolic link, not a regular file"), "\(said)")
    #expect(oneLine("record.play:1: --record '", "' is a symbolic link, not a regular file"), "\(said)")
    #expect(said.contains("shot.play:2: 'screenshot shot.svg'") && said.contains("is a symbolic link"), "\(said)")
    #expect(try String(contentsOfFile: outsideFile, encoding: .utf8) == "# my shell settings\n")
    #expect(said.contains("folder.play:2: 'screenshot shots/a.svg' would write") && said.contains("a link that leads nowhere"), "\(said)")
    #expect(!FileManager.default.fileExists(atPath: top + "/nowhere"))
    #expect(!FileManager.default.fileExists(atPath: top + "/made-elsewhere"))
    for link in ["events.jsonl", "dangling.jsonl", "shot.svg"] {
      #expect(OutputPath.notRegular(root + "/" + link) == "a symbolic link", "the link \(link) is left as it was")
    }
  }
}

extension OutputPathTests {
  /// A hard link committed in the scenario's folder is the same file as the one outside it: the
  /// events would be appended to that file. `--events` refuses a file with more than one name,
  /// naming the scenario and the option, and the file outside is not touched.
  @Test(arguments: [false, true])
  func aScenarioAppendsNoEventsThroughAHardLink(processPerScenario: Bool) throws {
    let top = try Fixtures.directory([:])
    defer { try? FileManager.default.removeItem(atPath: top) }
    let root = top + "/scenarios", outsideFile = top + "/outside.txt"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try "# my shell settings\n".write(toFile: outsideFile, atomically: true, encoding: .utf8)
    #expect(link(outsideFile, root + "/events.jsonl") == 0)
    let args = "paywalls --controller simulated --status inactive"
    try Fixtures.scenario("press down", args: args + " --events \(root)/events.jsonl")
      .write(toFile: root + "/events.play", atomically: true, encoding: .utf8)
    let run = try PaywallBinary.run(["test", root] + (processPerScenario ? ["--process-per-scenario"] : []))
    let said = run.stdout + run.stderr
    #expect(run.status == 1, "\(said)")
    #expect(said.split(separator: "\n").contains { $0.contains("events.play:1: --events '") && $0.contains("is a hard link")
      && $0.contains("e.g. --events \(root)/events.jsonl") }, "\(said)")
    #expect(try String(contentsOfFile: outsideFile, encoding: .utf8) == "# my shell settings\n")
    // The open itself refuses it too (the check before it and the open are apart in time).
    #expect(throws: (any Error).self) { try EventFile(path: root + "/events.jsonl", confined: true) }
    #expect(try String(contentsOfFile: outsideFile, encoding: .utf8) == "# my shell settings\n")
  }
}
