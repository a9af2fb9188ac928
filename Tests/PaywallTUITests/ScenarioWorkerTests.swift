import Foundation
import PaywallTesting
import Testing

@testable import PaywallCLI
import PaywallScenarios

/// `test`'s long-lived worker (`PlayWorkerExecutor`, one `paywall-tui __play-worker` per job that
/// loads each project once) against a `play` process per scenario (`--process-per-scenario`):
/// the same lines, failures and JUnit; a worker that crashes or hangs costs one scenario; nothing
/// of one scenario reaches the next.
@Suite("Scenario worker")
struct ScenarioWorkerTests {
  /// stdout with the times (`12 ms`, `1.2 s`, `(0.45 s)`) masked: they are all that may differ.
  static func masked(_ stdout: String) -> String {
    stdout.replacingOccurrences(of: #"[0-9]+(\.[0-9]+)? (ms|s)\b"#, with: "T", options: .regularExpression)
  }

  /// Failing variants of the repository's scenarios (an `expect` that cannot hold appended to
  /// every third one), a usage error, a project that is not there and a script error: their
  /// messages must come out of the worker exactly as out of a child.
  static func failingVariants() throws -> String {
    var files: [String: String] = [:]
    for (index, name) in ScenarioTests.files.enumerated() where index % 3 == 0 && !name.contains("/") {
      // Copied elsewhere, the `# args:` line names its projects absolute (it reads them from its folder).
      let folder = ScenarioTests.directory.path
      let text = try String(contentsOf: ScenarioTests.directory.appendingPathComponent(name), encoding: .utf8)
        .replacingOccurrences(of: "# args: ../paywalls ", with: "# args: \(Fixtures.demoDirectory) ")
        .replacingOccurrences(of: "# args: projects/", with: "# args: \(folder)/projects/")
        .replacingOccurrences(of: "--catalog projects/", with: "--catalog \(folder)/projects/")
      files["fail-\(name)"] = text + (text.hasSuffix("\n") ? "" : "\n") + "expect status unknown\n"
    }
    files["usage.play"] = Fixtures.scenario("press enter", args: "paywalls --controller scripted --no-such-option")
    // Four on one missing project: some worker loads it twice, and must say its errors twice.
    for n in 1...4 {
      files["no-project-\(n).play"] = Fixtures.scenario("press enter", args: "scenarios/projects/not-there --controller scripted")
    }
    files["bad-step.play"] = Fixtures.scenario("press enter\nfrobnicate 3")
    files["bad-product.play"] = Fixtures.scenario("buy com.acme.nope")
    files["pass.play"] = Fixtures.passingScenario
    return try Fixtures.directory(files)
  }

  @Test func theWorkerGivesWhatAProcessPerScenarioGives() throws {
    let variants = try Self.failingVariants()
    let reports = try Fixtures.directory([:])
    let worker = try PaywallBinary.run(["test", "scenarios", variants, "--allow-commands", "--junit", reports + "/worker.xml"])
    let children = try PaywallBinary.run(["test", "scenarios", variants, "--allow-commands", "--junit", reports + "/children.xml", "--process-per-scenario"])
    #expect(worker.status == 1 && children.status == 1, "\(worker.stderr)\(children.stderr)")
    #expect(worker.stderr == children.stderr)
    #expect(Self.masked(worker.stdout) == Self.masked(children.stdout))
    // Every failing variant failed, with its own message (not only "the same as the other").
    let failures = worker.stdout.components(separatedBy: "\n---- ").count - 1
    #expect(failures >= 10, "\(worker.stdout)")
    #expect(worker.stdout.contains("expected status unknown; it is"))
    #expect(worker.stdout.contains("error: unknown option '--no-such-option' for 'play'"))
    #expect(worker.stdout.components(separatedBy: "not-there:1:1: error: no such file or directory").count == 5)

    let fromWorker = try ScenarioTests.JUnit.read(reports + "/worker.xml")
    let fromChildren = try ScenarioTests.JUnit.read(reports + "/children.xml")
    #expect(fromWorker.tests == fromChildren.tests && fromWorker.failures == fromChildren.failures)
    #expect(fromWorker.tests == ScenarioTests.files.count + failures + 1)
    for (ours, theirs) in zip(fromWorker.cases, fromChildren.cases) {
      #expect(ours.name == theirs.name && ours.classname == theirs.classname && ours.file == theirs.file && ours.line == theirs.line,
              "\(ours.name)")
      #expect(ours.failure == theirs.failure && ours.failureType == theirs.failureType && ours.failureText == theirs.failureText,
              "\(ours.name)")
    }
  }

  /// A failed step comes back as fields, the same from the worker and from a child: its file and
  /// line, the step, what the `expect` wanted and what was there; JUnit points at the line.
  @Test(arguments: [false, true]) func aFailedStepComesBackAsFields(processPerScenario: Bool) throws {
    let dir = try Fixtures.directory([
      "status.play": Fixtures.scenario("press 2 enter\nexpect status unknown"),
      "event.play": Fixtures.scenario("press 2 enter\n\nexpect event freeTrial_start"),
      "unknown-product.play": Fixtures.scenario("buy com.acme.nope"),
      "pass.play": Fixtures.passingScenario,
      "usage.play": Fixtures.scenario("press enter", args: "paywalls --no-such-option"),
    ])
    let scenarios = ["event.play", "pass.play", "status.play", "unknown-product.play", "usage.play"].map {
      Scenario(path: dir + "/" + $0, root: dir, relativePath: $0)
    }
    let scratch = try Fixtures.directory([:])
    let binary = PaywallBinary.binary.path
    let runner = ScenarioRunner(jobs: 1) {
      TestCommand.makeExecutor(processPerScenario: processPerScenario, binary: binary, timeout: 30, scratch: scratch)
    }
    let results = runner.run(scenarios) { _ in }
    let event = try #require(results[0].step)
    #expect(event.file == dir + "/event.play" && event.line == 4 && event.step == "expect event freeTrial_start")
    #expect(event.expected == "event freeTrial_start")
    #expect(event.actual == "events so far: app_install, app_open, session_start, user_attributes, app_launch, first_seen, paywall_open, transaction_start, subscriptionStatus_didChange, transaction_complete, subscription_start, paywall_close")
    #expect(results[1].step == nil && results[1].passed)
    let status = try #require(results[2].step)
    #expect(status.line == 3 && status.expected == "unknown" && status.actual == "active:pro", "\(status)")
    #expect(status.message == "\(dir)/status.play:3: expected status unknown; it is active:pro")
    // A step that is not an `expect`: its line, no sides.
    let buy = try #require(results[3].step)
    #expect(buy.line == 2 && buy.step == "buy com.acme.nope" && buy.expected == nil && buy.actual == nil)
    // Refused before any step ran: no step to name.
    #expect(results[4].step == nil && !results[4].passed)

    let out = scratch + "/junit.xml"
    try JUnitReport.write(JUnitReport.xml(results, seconds: 1), to: out)
    let junit = try ScenarioTests.JUnit.read(out)
    #expect(junit.cases.map(\.line) == [4, nil, 3, 2, nil])
  }

  /// The report's descriptor is the runner's file only: a `play` run by hand with the variable
  /// set and its own file open as descriptor 3 (as bats keeps one) writes nothing there, and the
  /// variable does not reach a controller the play starts.
  @Test func aPlayByHandNeverWritesToADescriptorItWasNotGiven() throws {
    let dir = try Fixtures.directory(["fail.play": "expect status active\n", "mine.txt": "KEEP THIS LINE\n"])
    let binary = PaywallBinary.binary.path
    for value in ["3", "3:1:1"] {
      let script = "exec 3<>'\(dir)/mine.txt'; PAYWALL_TUI_REPORT_FD=\(value) '\(binary)' play paywalls --controller scripted --status inactive --script '\(dir)/fail.play'"
      let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
      #expect(result.status == 1, "\(result.stderr)")
      #expect(try String(contentsOfFile: dir + "/mine.txt", encoding: .utf8) == "KEEP THIS LINE\n", "PAYWALL_TUI_REPORT_FD=\(value)")
    }
    // A controller of a child play sees no such variable.
    let seen = dir + "/controller-env"
    // The controller sets the launch status only once its environment is written, and `play`
    // waits for that status before its first step, so the file is whole when the play ends.
    let controller = #"env > "$1"; printf '%s\n' '{"method":"setSubscriptionStatus","status":"inactive"}'; cat >/dev/null"#
    try controller.write(toFile: dir + "/controller.sh", atomically: true, encoding: .utf8)
    let scenario = Fixtures.scenario("expect status inactive", args: "paywalls --controller command --controller-command \"sh \(dir)/controller.sh \(seen)\" --controller-timeout 5s")
    try scenario.write(toFile: dir + "/controller.play", atomically: true, encoding: .utf8)
    let runner = ScenarioRunner(jobs: 1) {
      TestCommand.makeExecutor(processPerScenario: true, binary: binary, timeout: 30, scratch: dir, allowCommands: true)
    }
    _ = runner.run([Scenario(path: dir + "/controller.play", root: dir, relativePath: "controller.play")]) { _ in }
    let environment = try String(contentsOfFile: seen, encoding: .utf8)
    #expect(!environment.isEmpty && !environment.contains(StepReport.environmentVariable), "\(environment)")
  }

  /// A scenario buys; the next ones, in the same worker (one job), start from nothing: not
  /// subscribed, no purchase in their store, no events of the first.
  @Test func testRunsScenariosInAWorkerUnlessAskedForAProcessEach() throws {
    // Every other test here would pass if `test` quietly went back to a process per scenario.
    let plain = try TestCommand(try Arguments(["scenarios"], spec: TestCommand.spec))
    let perScenario = try TestCommand(try Arguments(["scenarios", "--process-per-scenario"], spec: TestCommand.spec))
    let made = { (command: TestCommand) in
      TestCommand.makeExecutor(processPerScenario: command.processPerScenario, binary: "/bin/false", timeout: 1, scratch: "/tmp")
    }
    #expect(made(plain) is PlayWorkerExecutor)
    #expect(made(perScenario) is PlayProcessExecutor)
  }

  @Test func nothingOfAScenarioReachesTheNextInTheSameWorker() throws {
    let dir = try Fixtures.directory([
      "1-buys.play": Fixtures.scenario("press 1 enter\nexpect status active\nexpect subscription com.acme.pro.annual trial"),
      "2-after.play": Fixtures.scenario("expect status inactive\nexpect no event transaction_complete\nexpect screen Start my free trial"),
      "3-buys-monthly.play": Fixtures.scenario("press 2 enter\nexpect status active"),
      "4-after-default-status.play": "# args: paywalls --controller simulated\nexpect status inactive\nexpect no event transaction_complete\n",
      "5-restore-finds-nothing.play": Fixtures.scenario("press r\nexpect status inactive"),
    ])
    let result = try PaywallBinary.run(["test", dir, "--jobs", "1"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("5 passed, 0 failed"))
  }

  /// A stand-in worker that speaks the protocol: answers exit 0, but dies of SIGSEGV on a
  /// request naming `crash`, and never answers one naming `hang`; each writes a line on stderr.
  static func fakeWorker() throws -> String {
    try Fixtures.script("""
      #!/bin/sh
      [ "$1" = "__play-worker" ] || exit 64
      while IFS= read -r request; do
        case "$request" in
          *crash.play*) echo "about to crash" >&2; kill -SEGV $$ ;;
          *hang.play*) echo "hanging" >&2; exec sleep 30 ;;
          *) echo "fine" >&2; echo '{"code":0}' ;;
        esac
      done
      """, named: "worker.sh")
  }

  @Test func aWorkerThatCrashesOrHangsCostsOneScenarioAndTheRunGoesOn() throws {
    let worker = try Self.fakeWorker()
    let names = ["1.play", "2-crash.play", "3.play", "4-hang.play", "5.play"]
    let dir = try Fixtures.directory(Dictionary(uniqueKeysWithValues: names.map { ($0, Fixtures.passingScenario) }))
    let scenarios = names.map { Scenario(path: dir + "/" + $0, root: dir, relativePath: $0) }
    let scratch = try Fixtures.directory([:])
    let runner = ScenarioRunner(jobs: 1) { PlayWorkerExecutor(binary: worker, timeout: 1, scratch: scratch, commandLine: PlayCommand.commandLine) }
    var reported: [String] = []
    let results = runner.run(scenarios) { reported.append($0.scenario.relativePath) }
    #expect(reported == names)
    #expect(results.map(\.passed) == [true, false, true, false, true])
    #expect(results[1].outcome == .failed(kind: .crashed, message: "play was killed by signal 11 (Segmentation fault)\nabout to crash"))
    #expect(results[3].outcome == .failed(kind: .timeout, message: "timed out after 1 s; it had said:\nhanging"))
    #expect(results[3].seconds >= 1 && results[3].seconds < 1 + PlayProcessExecutor.grace + 2)
    // The scenarios' state directories and the workers' stderr files are gone.
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch) == [])
  }

  @Test func scenariosThatNeedAProcessOfTheirOwnGetOne() {
    func needsOwnProcess(_ words: [String]) -> Bool { PlayWorkerExecutor.needsOwnProcess(PlayCommand.commandLine.read(words)) }
    #expect(needsOwnProcess(["paywalls", "--controller", "command", "--controller-command", "cat"]))
    #expect(needsOwnProcess(["paywalls", "--controller=ask"]))
    #expect(needsOwnProcess(["paywalls", "--no-such-option"]))
    #expect(!needsOwnProcess(["paywalls", "--controller", "simulated", "--status", "inactive"]))
    #expect(!needsOwnProcess(["paywalls", "--controller", "scripted", "--outcome", "purchase=pending"]))
  }
}
