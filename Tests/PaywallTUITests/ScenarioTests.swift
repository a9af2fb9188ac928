import Foundation
import PaywallModel
import PaywallTesting
import Testing

/// Every `scenarios/*.play` replayed by `paywall-tui test`, as CI runs them, and the runner itself:
/// a failing scenario, `--filter`, `--shard`, a hung scenario, the JUnit it writes (read with
/// python3's xml.etree, as CI's report readers parse it).
@Suite("Scenarios")
struct ScenarioTests {
  static let directory = Fixtures.repositoryRoot.appendingPathComponent("scenarios")

  /// Every `.play` file under scenarios/, relative to it, sorted.
  static var files: [String] {
    let enumerator = FileManager.default.enumerator(atPath: directory.path)
    var found: [String] = []
    while let path = enumerator?.nextObject() as? String {
      if path.hasSuffix(".play") { found.append(path) }
    }
    return found.sorted()
  }

  /// What python3's xml.etree reads in a JUnit file: the counts, each testcase and each failure.
  struct JUnit: Decodable {
    struct Case: Decodable {
      var name: String
      var classname: String
      var file: String
      /// The failing step's line, where a CI annotates it.
      var line: Int?
      var time: Double
      var failure: String?
      var failureType: String?
      var failureText: String?
    }
    var tests: Int
    var failures: Int
    var suites: Int
    var cases: [Case]

    static func read(_ path: String) throws -> JUnit {
      let script = """
        import json, sys, xml.etree.ElementTree as ET
        root = ET.parse(sys.argv[1]).getroot()
        assert root.tag == "testsuites", root.tag
        cases = []
        for suite in root.findall("testsuite"):
            assert int(suite.get("tests")) == len(suite.findall("testcase"))
            for case in suite.findall("testcase"):
                failure = case.find("failure")
                cases.append({"name": case.get("name"), "classname": case.get("classname"), "file": case.get("file"),
                              "line": None if case.get("line") is None else int(case.get("line")),
                              "time": float(case.get("time")),
                              "failure": None if failure is None else failure.get("message"),
                              "failureType": None if failure is None else failure.get("type"),
                              "failureText": None if failure is None else failure.text})
        print(json.dumps({"tests": int(root.get("tests")), "failures": int(root.get("failures")),
                          "suites": len(root.findall("testsuite")), "cases": cases}))
        """
      let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, path])
      guard result.status == 0 else { throw FixtureError("xml.etree could not read \(path): \(result.stderr)") }
      return try JSONDecoder().decode(JUnit.self, from: Data(result.stdout.utf8))
    }
  }

  /// A scenario on the demo project (the runner's children start in the repository root).
  /// The monthly plan has no trial.
  static let failing = Fixtures.scenario("press 2 enter\nexpect event freeTrial_start")

  @Test func thereAreScenarios() {
    #expect(Self.files.count >= 21)
  }

  @Test func everyScenarioPassesUnderTest() throws {
    let out = try Fixtures.directory([:]) + "/reports/junit.xml"
    // Two scenarios run a command controller of this repository (scenarios/controllers/): trusted.
    let result = try PaywallBinary.run(["test", "scenarios", "--allow-commands", "--junit", out])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.last?.hasPrefix("\(Self.files.count) passed, 0 failed (") == true, "\(lines.last ?? "")")
    // One line per scenario, in path order.
    let listed = lines.filter { $0.hasPrefix("ok ") }.map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] }
    #expect(listed == Self.files.map { "scenarios/\($0)"[...] })
    let junit = try JUnit.read(out)
    #expect(junit.tests == Self.files.count && junit.failures == 0 && junit.suites == 1)
    #expect(junit.cases.map(\.name) == Self.files)
    #expect(junit.cases.allSatisfy { $0.classname == "scenarios" && $0.failure == nil && $0.time > 0 })
  }

  @Test func aFailingScenarioFailsTheRunWithItsMessage() throws {
    let dir = try Fixtures.directory(["pass.play": Fixtures.passingScenario, "fail.play": Self.failing, "noargs.play": "press 2 enter\n",
                                      "own-state.play": Fixtures.scenario("press 2 enter", args: "paywalls --state-dir /tmp/mine")])
    let temporary = try Fixtures.directory([:])
    let out = try Fixtures.directory([:]) + "/junit.xml"
    let result = try PaywallBinary.run(["test", dir, "--junit", out], environment: ["TMPDIR": temporary])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    let failure = "\(dir)/fail.play:3: expected event freeTrial_start; the events so far were: app_install, app_open, session_start, user_attributes, app_launch, first_seen, paywall_open, transaction_start"
    #expect(result.stdout.contains("FAILED \(dir)/fail.play "))
    #expect(result.stdout.contains("ok     \(dir)/pass.play "))
    // Each failure's message under its name, and how to run it alone.
    #expect(result.stdout.contains("---- \(dir)/fail.play ----\n\(failure)"), "\(result.stdout)")
    #expect(result.stdout.contains("To run it alone: paywall-tui play paywalls --controller simulated --status inactive --script \(dir)/fail.play\n"))
    #expect(result.stdout.contains("---- \(dir)/noargs.play ----\n\(dir)/noargs.play:1: the first line must be '# args: PATH [OPTIONS]'"))
    #expect(result.stdout.contains("---- \(dir)/own-state.play ----\n\(dir)/own-state.play:1: '--state-dir' is given by 'paywall-tui test' itself"))
    #expect(result.stdout.hasSuffix("\n1 passed, 3 failed (" + (result.stdout.components(separatedBy: "1 passed, 3 failed (").last ?? "")))
    // Every scenario's private state directory is gone.
    #expect((try FileManager.default.contentsOfDirectory(atPath: temporary)) == [])

    let junit = try JUnit.read(out)
    #expect(junit.tests == 4 && junit.failures == 3)
    let failed = try #require(junit.cases.first { $0.name == "fail.play" })
    #expect(failed.failure?.hasPrefix(failure) == true, "\(failed.failure ?? "nil")")
    #expect(failed.failureType == "failed" && failed.file == "\(dir)/fail.play" && failed.classname == dir)
    #expect(failed.failureText?.contains("To run it alone: paywall-tui play") == true)
    #expect(junit.cases.first { $0.name == "noargs.play" }?.failureType == "notRun")
    #expect(junit.cases.first { $0.name == "pass.play" }?.failure == nil)
  }

  @Test func markupInAFailureIsEscapedInTheJUnit() throws {
    let dir = try Fixtures.directory(["a&b <c>.play": Fixtures.scenario(#"expect screen <tag attr="x"> & 'more'"#)])
    let out = try Fixtures.directory([:]) + "/junit.xml"
    let result = try PaywallBinary.run(["test", dir, "--junit", out])
    #expect(result.status == 1)
    let junit = try JUnit.read(out)
    let failed = try #require(junit.cases.first)
    #expect(failed.name == "a&b <c>.play")
    #expect(failed.failure == #"\#(dir)/a&b <c>.play:2: expected the screen to show "<tag attr="x"> & 'more'"; the screen was:"#)
    #expect(failed.failureText?.contains("Unlock Acme Pro") == true, "the screen, with its line breaks")
  }

  /// Seven scenarios, two in a folder; `--list` prints what would run.
  static func selectionFixture() throws -> String {
    let dir = try Fixtures.directory(["a-purchase.play": Fixtures.passingScenario, "b-restore.play": Fixtures.passingScenario, "c-refund.play": Fixtures.passingScenario,
                                      "d-purchase.play": Fixtures.passingScenario, "e-other.play": Fixtures.passingScenario, "notes.txt": "not a scenario"])
    try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
    try Fixtures.passingScenario.write(toFile: dir + "/sub/f-purchase.play", atomically: true, encoding: .utf8)
    try Self.failing.write(toFile: dir + "/sub/g-restore.play", atomically: true, encoding: .utf8)
    return dir
  }

  static func list(_ dir: String, _ options: [String]) throws -> [String] {
    let result = try PaywallBinary.run(["test", dir, "--list"] + options)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.split(separator: "\n").map { String($0.dropFirst(dir.count + 1)) }
  }

  @Test func filterSelectsByThePathBelowTheRoot() throws {
    let dir = try Self.selectionFixture()
    #expect(try Self.list(dir, []) == ["a-purchase.play", "b-restore.play", "c-refund.play", "d-purchase.play", "e-other.play",
                                        "sub/f-purchase.play", "sub/g-restore.play"])
    #expect(try Self.list(dir, ["--filter", "purchase"]) == ["a-purchase.play", "d-purchase.play", "sub/f-purchase.play"])
    #expect(try Self.list(dir, ["--filter", "^sub/"]) == ["sub/f-purchase.play", "sub/g-restore.play"])
    #expect(try Self.list(dir, ["--filter", "^a-", "--filter", "refund"]) == ["a-purchase.play", "c-refund.play"])
    // A run with a filter runs only those, and says how many it left out.
    let result = try PaywallBinary.run(["test", dir, "--filter", "restore"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("ok     \(dir)/b-restore.play ") && result.stdout.contains("FAILED \(dir)/sub/g-restore.play "))
    #expect(!result.stdout.contains("purchase.play"))
    #expect(result.stdout.contains("1 passed, 1 failed (") && result.stdout.hasSuffix("; 5 of 7 not selected (--filter)\n"), "\(result.stdout)")
  }

  /// Found by review: file names are not sanitised when read, so `test` prints them printable.
  @Test func aFileNameCannotDriveTheTerminal() throws {
    let dir = try Fixtures.directory(["\u{1B}]0;pwned\u{07}\u{1B}[2J.play": Fixtures.scenario("expect status active")])
    let result = try PaywallBinary.run(["test", dir])
    #expect(result.status == 1)
    #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(result.stdout)")
    #expect(result.stdout.contains("\\u{1b}]0;pwned\\u{7}"), "\(result.stdout)")
    let listed = try PaywallBinary.run(["test", dir, "--list"])
    #expect(!listed.stdout.unicodeScalars.contains { $0.value == 0x1B })
  }

  /// Found by review: `# args: … --help` made play print its help, and the scenario passed.
  @Test func helpOnTheArgsLineFailsTheScenario() throws {
    let dir = try Fixtures.directory(["h.play": "# args: paywalls --help\nexpect status active\n"])
    let result = try PaywallBinary.run(["test", dir])
    #expect(result.status == 1 && result.stdout.contains("'--help' on the '# args:' line"), "\(result.stdout)")
  }

  @Test func aFilterThatSelectsNothingFails() throws {
    let dir = try Self.selectionFixture()
    let result = try PaywallBinary.run(["test", dir, "--filter", "purchse"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("--filter selects none of the 7 scenarios"), "\(result.stderr)")
  }

  @Test func shardsPartitionTheSortedList() throws {
    let dir = try Self.selectionFixture()
    let all = try Self.list(dir, [])
    for count in 1...4 {
      let shards = try (1...count).map { try Self.list(dir, ["--shard", "\($0)/\(count)"]) }
      #expect(shards.flatMap { $0 }.sorted() == all, "shards of \(count) cover the set once")
      #expect(Set(shards.flatMap { $0 }).count == all.count)
      #expect(shards.allSatisfy { $0 == $0.sorted() && abs($0.count - all.count / count) <= 1 })
    }
    #expect(try Self.list(dir, ["--shard", "2/3"]) == ["b-restore.play", "e-other.play"])
    // Filter first, then shard: the shards of a filtered run partition the filtered set.
    #expect(try Self.list(dir, ["--filter", "purchase", "--shard", "1/2"]) == ["a-purchase.play", "sub/f-purchase.play"])
    #expect(try Self.list(dir, ["--filter", "purchase", "--shard", "2/2"]) == ["d-purchase.play"])
  }

  @Test(arguments: [("0/2", "K must be from 1 to N"), ("3/2", "K must be from 1 to N"), ("x", "must be K/N"), ("1/0", "N must be at least 1")])
  func aBadShardIsAUsageError(shard: String, says: String) throws {
    let result = try PaywallBinary.run(["test", "scenarios", "--shard", shard])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("error: --shard '\(shard)'") && result.stderr.contains(says), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func aHungScenarioTimesOut() throws {
    // The command controller never answers, and play may wait an hour for it.
    let hung = Fixtures.scenario("press 2 enter", args: #"paywalls --controller command --controller-command "sleep 30" --controller-timeout 1h --status inactive"#)
    let dir = try Fixtures.directory(["hung.play": hung])
    let out = try Fixtures.directory([:]) + "/junit.xml"
    let result = try PaywallBinary.run(["test", dir, "--timeout", "1s", "--junit", out, "--allow-commands"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("---- \(dir)/hung.play ----\ntimed out after 1 s\n"), "\(result.stdout)")
    #expect(result.stdout.contains("0 passed, 1 failed ("))
    let junit = try JUnit.read(out)
    let hungCase = try #require(junit.cases.first { $0.name == "hung.play" })
    #expect(hungCase.failure == "timed out after 1 s" && hungCase.failureType == "timeout")
    #expect(hungCase.time >= 1)
  }

  /// A timeout its deadline arithmetic cannot hold (1e16 s is 1e19 ms, past Int64) crashed
  /// `test` after "running 1 scenario": every such value is a usage error naming the bounds,
  /// before anything runs.
  @Test(arguments: ["1e16", "1e16s", "99999999999999999999", "1e400", "25h", "nan", "inf", "-inf", "-1", "-1s", "0", "0s", "1e-9", "soon", ""])
  func aTimeoutOutOfBoundsIsAUsageError(timeout: String) throws {
    let dir = try Fixtures.directory(["pass.play": Fixtures.passingScenario])
    let result = try PaywallBinary.run(["test", dir, "--timeout", timeout])
    #expect(result.status == 2, "\(timeout): \(result.status) \(result.stdout) \(result.stderr)")
    #expect(result.stdout.isEmpty, "\(result.stdout)")
    #expect(result.stderr == "error: --timeout '\(timeout)' must be a duration from 1ms to 24h, e.g. 60s or 500ms\n", "\(result.stderr)")
  }

  @Test func theTimeoutsBoundsAreAccepted() throws {
    let dir = try Fixtures.directory(["pass.play": Fixtures.passingScenario])
    for timeout in ["24h", "86400", "90s", "1e3"] {
      let result = try PaywallBinary.run(["test", dir, "--timeout", timeout])
      #expect(result.status == 0, "\(timeout): \(result.stderr)")
    }
    // The shortest is taken too (and the scenario does not finish in it).
    let shortest = try PaywallBinary.run(["test", dir, "--timeout", "1ms"])
    #expect(shortest.status == 1 && shortest.stdout.contains("timed out after"), "\(shortest.stdout)\(shortest.stderr)")
  }

  /// Every duration option of every command is bounded where it is parsed: a huge, negative,
  /// not-a-number or infinite value is a usage error (exit 2), never a crash.
  @Test(arguments: ["1e16s", "1e400s", "99999999999999999999ms", "nan", "inf", "-1s", "nans", "infs"])
  func everyDurationOptionRefusesWhatItCannotHold(value: String) throws {
    let dir = try Fixtures.directory([:])
    let runs: [[String]] = [
      ["play", "paywalls", "--keys", "q", "--record", dir + "/x.cast", "--pace", value],
      ["play", "paywalls", "--keys", "q", "--controller", "command", "--controller-command", "cat", "--controller-timeout", value],
      ["play", "paywalls", "--keys", "q", "--controller", "scripted", "--outcome", "latency=\(value)"],
      ["play", "paywalls", "--keys", "q", "--time-rate", "month=\(value)"],
      ["play", "paywalls", "--keys", "q", "--time-rate", "renewal=\(value)"],
    ]
    for arguments in runs {
      let result = try PaywallBinary.run(arguments)
      #expect(result.status == 2, "\(arguments.suffix(2)): \(result.status) \(result.stderr)")
      #expect(result.stderr.hasPrefix("error: ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
  }

  // MARK: commands from a scenario

  /// A scenario whose `--controller-command` leaves a file: whether the command ran.
  static func commandScenario(marker: String, option: String = "--controller-command") -> String {
    Fixtures.scenario("expect status inactive", args: #"paywalls --controller command \#(option) "touch \#(marker); cat >/dev/null" --status inactive"#)
  }

  @Test func aScenarioRunsNoCommandUnlessTestAllowsIt() throws {
    let marks = try Fixtures.directory([:])
    let dir = try Fixtures.directory([
      "evil.play": Self.commandScenario(marker: marks + "/evil"),
      "inline.play": Fixtures.scenario("expect status inactive", args: #"paywalls --controller command "--controller-command=touch \#(marks)/inline" --status inactive"#),
      "self-allowed.play": Fixtures.scenario("expect status inactive", args: "paywalls --status inactive --allow-commands"),
      "pass.play": Fixtures.passingScenario,
    ])
    let refused = try PaywallBinary.run(["test", dir])
    #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: marks + "/evil") && !FileManager.default.fileExists(atPath: marks + "/inline"),
            "a scenario's command ran")
    // The command is quoted as an excerpt (60 characters), as every error quotes what a file says.
    let why = ", a command that would run on this machine; a file's arguments run no command unless the command line allows it: if you trust this scenario, run it with 'paywall-tui test --allow-commands'\n"
    for name in ["evil", "inline"] {
      let section = try #require(refused.stdout.components(separatedBy: "---- \(dir)/\(name).play ----\n").dropFirst().first, "\(refused.stdout)")
      #expect(section.hasPrefix("\(dir)/\(name).play:1: the '# args:' line gives --controller-command 'touch /") && section.contains(why), "\(section)")
    }
    #expect(refused.stdout.contains("\(dir)/self-allowed.play:1: '--allow-commands' on the '# args:' line: a file cannot allow its own commands; remove it"), "\(refused.stdout)")
    #expect(refused.stdout.contains("1 passed, 3 failed"), "\(refused.stdout)")
    // The process-per-scenario runner refuses them alike.
    let perProcess = try PaywallBinary.run(["test", dir + "/evil.play", "--process-per-scenario"])
    #expect(perProcess.status == 1 && !FileManager.default.fileExists(atPath: marks + "/evil"), "\(perProcess.stdout)")

    // The command line opts in: the commands run.
    let allowed = try PaywallBinary.run(["test", dir + "/evil.play", dir + "/inline.play", "--allow-commands"])
    #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
    // Allowed, each controller is started: its `touch` may not have run yet when the one-step
    // scenario ends and the controller's group is ended, so what `test` said holds it, not the file.
    #expect(!allowed.stdout.contains("would run on this machine") && allowed.stdout.contains("2 passed, 0 failed"), "\(allowed.stdout)")
    #expect(try PaywallBinary.run(["test", "--help"]).stdout.contains("--allow-commands"))
  }

  /// `play FILE` reads a recording's `# args:` line too: a file's command runs only with
  /// `play --allow-commands`.
  @Test func playRunsARecordingsCommandOnlyWhenAllowed() throws {
    let marks = try Fixtures.directory([:])
    let dir = try Fixtures.directory(["evil.play": Self.commandScenario(marker: marks + "/evil")])
    let refused = try PaywallBinary.run(["play", dir + "/evil.play"])
    #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: marks + "/evil"))
    #expect(refused.stderr.hasPrefix("error: \(dir)/evil.play:1: the '# args:' line gives --controller-command") &&
            refused.stderr.hasSuffix("if you trust it, replay it with 'paywall-tui play \(dir)/evil.play --allow-commands'\n"), "\(refused.stderr)")
    let allowed = try PaywallBinary.run(["play", dir + "/evil.play", "--allow-commands"])
    // Allowed, the controller is started (its `touch` may not have run before the one-step replay
    // ends its group, so the file is not the evidence): no refusal, and the replay passes.
    #expect(allowed.status == 0 && !allowed.stderr.contains("the '# args:' line gives"), "\(allowed.stderr)")
  }

  @Test func stateDirectoriesAKilledRunLeftAreRemovedByTheNext() throws {
    let temporary = try Fixtures.directory([:])
    // A process that has ended: its pid names no one now.
    let ended = try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo $$"])
    let dead = try #require(Int32(ended.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    let live = ProcessInfo.processInfo.processIdentifier
    for name in ["paywall-tui-test-\(dead)-AbC123", "paywall-tui-test-\(live)-AbC123", "someone-else-\(dead)"] {
      try FileManager.default.createDirectory(atPath: "\(temporary)/\(name)/sub", withIntermediateDirectories: true)
      try "x".write(toFile: "\(temporary)/\(name)/sub/ledger.json", atomically: true, encoding: .utf8)
    }
    let dir = try Fixtures.directory(["pass.play": Fixtures.passingScenario])
    let result = try PaywallBinary.run(["test", dir], environment: ["TMPDIR": temporary])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).sorted() == ["paywall-tui-test-\(live)-AbC123", "someone-else-\(dead)"])
  }

  @Test func aJUnitPathThatCannotBeWrittenStopsBeforeRunning() throws {
    let dir = try Fixtures.directory([:])
    let result = try PaywallBinary.run(["test", "scenarios", "--junit", dir])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty, "nothing ran")
    // Quoted as every path in a message is: whole up to 60 characters, cut to an excerpt past them
    // (a scratch folder's path is longer than that on macOS).
    #expect(result.stderr == "error: --junit \(quoting: dir) is a directory; give a file path, e.g. --junit \(dir)/junit.xml\n")
  }

  @Test func theJUnitReplacesAnEarlierReport() throws {
    let dir = try Fixtures.directory(["pass.play": Fixtures.passingScenario])
    let out = try Fixtures.directory(["junit.xml": "an earlier report"]) + "/junit.xml"
    let result = try PaywallBinary.run(["test", dir, "--junit", out])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let junit = try JUnit.read(out)
    #expect(junit.tests == 1 && junit.failures == 0 && junit.cases.first?.name == "pass.play")
    #expect(try FileManager.default.contentsOfDirectory(atPath: (out as NSString).deletingLastPathComponent) == ["junit.xml"])
  }

  @Test func helpNamesTheCommandAndItsOptions() throws {
    let help = try PaywallBinary.run(["help", "test"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("USAGE: paywall-tui test [<path> ...] [options]"))
    for option in ["--filter <regex>", "--shard <K/N>", "--jobs <n>", "--timeout <duration>", "--junit <file>", "--list"] {
      #expect(help.stdout.contains("\n  \(option)"), "\(option)")
    }
    #expect(try PaywallBinary.run(["test", "--help"]).stdout == help.stdout)
    #expect(try PaywallBinary.run(["--help"]).stdout.contains("\n  test    "))
  }

  @Test func aPathThatIsNotThereIsAUsageError() throws {
    let result = try PaywallBinary.run(["test", "scenarios/nope"])
    #expect(result.status == 2)
    #expect(result.stderr == "error: no file or directory 'scenarios/nope'; give a .play file or a directory of them\n")
  }
}

/// Found by review: a named pipe or a device as a scenario said "cannot read the scenario (Success)".
@Suite("test and files that are not files")
struct ScenarioNotAFileTests {
  @Test func aPipeOrADeviceIsNotAScenario() throws {
    let dir = try Fixtures.directory([:])
    #expect(mkfifo(dir + "/p.play", 0o600) == 0)
    try FileManager.default.createSymbolicLink(atPath: dir + "/z.play", withDestinationPath: "/dev/zero")
    let result = try PaywallBinary.run(["test", dir, "--timeout", "20s"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("p.play: not a regular file") && result.stdout.contains("z.play: not a regular file"), "\(result.stdout)")
  }
}
