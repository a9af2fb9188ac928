import Foundation
import PaywallModel
import PaywallTesting
import Testing

/// The state directory as the real binary meets trouble: a second instance, a directory it cannot
/// write, a disk that fills up mid-session, and `kill -9` in the middle of purchases. After each,
/// the files on disk and what the next launch shows are checked exactly.
@Suite("State robustness")
struct StateRobustnessTests {
  typealias Output = PaywallBinary.Output

  /// Runs the binary, after `prefix` (e.g. setpriv) when there is one.
  static func run(_ arguments: [String], prefix: [String] = []) throws -> Output {
    guard !prefix.isEmpty else { return try PaywallBinary.run(arguments) }
    return try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), prefix + [PaywallBinary.binary.path] + arguments)
  }

  static func shell(_ command: String) throws -> Output {
    try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", command])
  }

  static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  static func files(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
  }

  /// `text` quoted for /bin/sh.
  static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

  /// The last line of `play`'s output: {"status":…,"entitlements":[…]}.
  static func finalStatus(_ output: Output) -> String {
    output.stdout.split(separator: "\n").last.map(String.init) ?? ""
  }

  /// A scratch directory, removed by `remove()`.
  struct TemporaryDirectory {
    let path = Scratch.root.path + "/paywall-tui-state-\(UUID().uuidString)"
    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
  }

  // MARK: - Two instances

  @Test func aSecondInstanceOnTheSameStateDirectoryReadsButNeverWrites() throws {
    let pane = try TmuxPane("""
      "$BIN" run paywalls --controller simulated --status inactive --state-dir "$DIR/state"
      echo $? > "$DIR/exit"
      """)
    let state = pane.directory + "/state"
    pane.wait(forText: "status: inactive")
    try pane.send("Enter")
    pane.wait(forText: "status: active:pro")
    let ledger = try #require(Self.bytes(state + "/ledger.json"), "the first instance saved its purchase")
    let owner = try #require(try pane.appPID())

    let second = try Self.run(["play", "paywalls", "--controller", "simulated", "--state-dir", state, "--keys", "3 enter"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stderr.contains("warning: \(state) is in use by another paywall-tui (pid \(owner)); this session reads its state but saves nothing"),
            "\(second.stderr)")
    #expect(Self.finalStatus(second).contains("\"lifetime\""), "the second session bought, in memory: \(second.stdout)")
    #expect(Self.bytes(state + "/ledger.json") == ledger, "the owner's ledger is untouched")
    #expect(!Self.files(state).contains { $0.contains("tmp-") })

    // The first instance quits; the directory is free again.
    try pane.send("q")
    try pane.send("q")
    #expect(pane.wait(forFile: "exit") == "0")
    let third = try Self.run(["play", "paywalls", "--controller", "simulated", "--state-dir", state, "--keys", "3 enter"])
    #expect(third.status == 0 && !third.stderr.contains("in use"), "\(third.stderr)")
    #expect(Self.bytes(state + "/ledger.json") != ledger, "the new owner saves")
  }

  // MARK: - A directory that cannot be written

  @Test func aStateDirectoryThatCannotBeCreatedRunsTheSessionWithoutSaving() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let blocker = directory.path + "/file"
    try "not a directory".write(toFile: blocker, atomically: true, encoding: .utf8)
    let output = try Self.run(["play", "paywalls", "--controller", "simulated", "--status", "inactive",
                               "--state-dir", blocker + "/state", "--keys", "enter"])
    #expect(output.status == 0, "\(output.stderr)")
    let warnings = output.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
    #expect(warnings == ["warning: cannot write the state directory \(blocker)/state (cannot create it: Not a directory); this session saves nothing: status, ledger, assignments and trial reminders are kept in memory"],
            "one line, and nothing else complains: \(output.stderr)")
    #expect(Self.finalStatus(output) == #"{"status":"active","entitlements":["pro"]}"#)
  }

  @Test func aReadOnlyStateDirectoryIsReadAndLeftAlone() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let state = directory.path + "/state"
    let first = try Self.run(["play", "paywalls", "--controller", "simulated", "--status", "inactive", "--state-dir", state, "--keys", "enter"])
    #expect(first.status == 0, "\(first.stderr)")
    let before = Self.files(state).map { ($0, Self.bytes(state + "/" + $0)) }
    // root writes anywhere, so the read-only session runs as nobody; anyone else meets the mode bits.
    chmod(state, 0o555)
    chmod(directory.path, 0o755)
    defer { chmod(state, 0o755) }
    let prefix = getuid() == 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    let output = try Self.run(["play", "paywalls", "--controller", "simulated", "--state-dir", state, "--keys", "3 enter"], prefix: prefix)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stderr.contains("warning: cannot write the state directory \(state) (Permission denied)"), "\(output.stderr)")
    #expect(Self.finalStatus(output) == #"{"status":"active","entitlements":["lifetime","pro"]}"#,
            "it read the saved annual subscription and bought lifetime in memory: \(output.stdout)")
    let after = Self.files(state).map { ($0, Self.bytes(state + "/" + $0)) }
    #expect(after.map(\.0) == before.map(\.0) && zip(after, before).allSatisfy { $0.1 == $1.1 }, "nothing written: \(after.map(\.0))")
  }

  // MARK: - A hostile state directory

  /// A file of the user's that the state directory points at: never to be touched.
  static let precious = "line one\nline two\nline three\n"

  @Test func aStateDirectoryOthersCanWriteEndsWithExitTwo() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let state = directory.path + "/state"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
    chmod(state, 0o777)
    for arguments in [["play", "paywalls", "--keys", "enter"], ["store", "paywalls"], ["explain", "paywalls", "power_user_offer"]] {
      let output = try Self.run(arguments + ["--state-dir", state])
      #expect(output.status == 2, "\(arguments[0]): \(output.stderr)")
      #expect(output.stderr == "error: \(state) can be written by other users (mode 777), who could plant links in it; run chmod go-w \(state), or give --state-dir a directory of your own\n",
              "\(arguments[0]): \(output.stderr)")
      #expect(Self.files(state).isEmpty, "\(arguments[0]) created nothing: \(Self.files(state))")
    }
  }

  @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
  func aStateDirectoryAnotherUserOwnsEndsWithExitTwo() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let state = directory.path + "/state"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
    chmod(state, 0o755)
    #expect(chown(state, 65534, 65534) == 0)
    let output = try Self.run(["play", "paywalls", "--keys", "enter", "--state-dir", state])
    #expect(output.status == 2, "\(output.stderr)")
    #expect(output.stderr == "error: \(state) belongs to another user (uid 65534); give --state-dir a directory of your own, or take this one over (chown)\n",
            "\(output.stderr)")
    #expect(Self.files(state).isEmpty)
  }

  /// The repro of the review: another user's link in a sticky shared directory, higher up the
  /// path than the state directory, would have chosen where the state goes (/etc, here a scratch
  /// directory that stands for it). Every component is checked, as ssh does.
  @Test(.enabled(if: geteuid() == 0, "only root can act as another user (setpriv)"))
  func aStateDirectoryThroughAnotherUsersLinkEndsWithExitTwoAndNothingIsMadeAtItsTarget() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    chmod(directory.path, 0o755)
    let shared = directory.path + "/shared", target = directory.path + "/target"
    #expect(mkdir(shared, 0o755) == 0 && chmod(shared, 0o1777) == 0 && mkdir(target, 0o755) == 0)
    let ln = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"),
                                        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "ln", "-s", target, shared + "/qa"])
    #expect(ln.status == 0, "\(ln.stderr)")
    let state = shared + "/qa/paywall-state"
    for arguments in [["play", "paywalls", "--keys", "enter"], ["store", "paywalls"], ["explain", "paywalls", "power_user_offer"]] {
      let output = try Self.run(arguments + ["--state-dir", state])
      #expect(output.status == 2, "\(arguments[0]): \(output.stderr)")
      #expect(output.stderr == "error: \(shared)/qa is a symbolic link of another user's (uid 65534), on the way to \(state); give --state-dir a directory of your own\n",
              "\(arguments[0]): \(output.stderr)")
      #expect(Self.files(target).isEmpty, "\(arguments[0]) made nothing at the link's target: \(Self.files(target))")
    }
    // A relative --state-dir is walked from the current directory.
    let relative = try Self.shell("cd \(Self.quoted(shared)) && \(Self.quoted(PaywallBinary.binary.path)) play \(Self.quoted(Fixtures.demoDirectory)) --keys enter --state-dir qa/paywall-state")
    #expect(relative.status == 2, "\(relative.stderr)")
    #expect(relative.stderr == "error: \(shared)/qa is a symbolic link of another user's (uid 65534), on the way to qa/paywall-state; give --state-dir a directory of your own\n",
            "\(relative.stderr)")
    #expect(Self.files(target).isEmpty, "\(Self.files(target))")
  }

  @Test func aStateDirectoryUnderAParentOthersCanWriteEndsWithExitTwo() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    chmod(directory.path, 0o755)
    let parent = directory.path + "/d", state = directory.path + "/d/sub"
    #expect(mkdir(parent, 0o755) == 0 && chmod(parent, 0o777) == 0)
    let output = try Self.run(["play", "paywalls", "--keys", "enter", "--state-dir", state])
    #expect(output.status == 2, "\(output.stderr)")
    #expect(output.stderr == "error: \(parent) can be written by other users (mode 777) and is not sticky, on the way to \(state), so they could replace what is in it; run chmod go-w \(parent) (or chmod +t), or give --state-dir a directory of your own\n",
            "\(output.stderr)")
    #expect(Self.files(parent).isEmpty, "\(Self.files(parent))")
  }

  @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
  func aStateDirectoryUnderAParentAnotherUserOwnsEndsWithExitTwo() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    chmod(directory.path, 0o755)
    let parent = directory.path + "/d", state = directory.path + "/d/sub"
    #expect(mkdir(parent, 0o755) == 0)
    #expect(chown(parent, 65534, 65534) == 0)
    let owned = try Self.run(["play", "paywalls", "--keys", "enter", "--state-dir", state])
    #expect(owned.status == 2, "\(owned.stderr)")
    #expect(owned.stderr == "error: \(parent) belongs to another user (uid 65534), on the way to \(state), who could replace what is in it; give --state-dir a directory of your own\n",
            "\(owned.stderr)")
    #expect(Self.files(parent).isEmpty, "\(Self.files(parent))")
  }

  /// An empty or relative HOME (and no absolute XDG_STATE_HOME) would have put the state under
  /// the current directory: a usage error instead, and nothing is made there. `play` needs no
  /// state directory (without --state-dir its state is in memory): it runs, and makes nothing either.
  @Test(arguments: ["HOME=", "HOME=relative", "HOME=. XDG_STATE_HOME=state"])
  func aRelativeHomeWithoutStateDirIsAUsageError(environment: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for command in ["play \(Self.quoted(Fixtures.demoDirectory)) --keys enter", "store \(Self.quoted(Fixtures.demoDirectory))"] {
      let output = try Self.shell("cd \(Self.quoted(directory.path)) && env -u XDG_STATE_HOME \(environment) \(Self.quoted(PaywallBinary.binary.path)) \(command)")
      if command.hasPrefix("play") {
        #expect(output.status == 0, "\(environment) \(command): \(output.stderr)")
      } else {
        #expect(output.status == 2, "\(environment) \(command): \(output.stderr)")
        #expect(output.stderr == "error: neither XDG_STATE_HOME nor HOME is an absolute path, so there is no default state directory; give one with --state-dir DIR\n",
                "\(environment) \(command): \(output.stderr)")
      }
      #expect(Self.files(directory.path).isEmpty, "nothing made in the current directory: \(Self.files(directory.path))")
    }
  }

  @Test func aLockThatIsASymbolicLinkEndsWithExitTwoAndItsTargetIsKept() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let target = directory.path + "/precious.txt"
    try Self.precious.write(toFile: target, atomically: true, encoding: .utf8)
    let state = directory.path + "/state"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
    chmod(state, 0o755)
    #expect(symlink(target, state + "/lock") == 0)
    let output = try Self.run(["play", "paywalls", "--controller", "simulated", "--status", "inactive", "--keys", "enter", "--state-dir", state])
    #expect(output.status == 2, "\(output.stderr)")
    #expect(output.stderr == "error: \(state)/lock is a symbolic link; paywall-tui never follows links in its state directory: remove it (rm \(state)/lock)\n",
            "\(output.stderr)")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == Self.precious)
  }

  @Test func anEmptyStateDirIsAUsageErrorAndTheCurrentDirectoryIsLeftAlone() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try "the user's draft".write(toFile: directory.path + "/draft.tmp-keepme", atomically: true, encoding: .utf8)
    for command in ["play \(Self.quoted(Fixtures.demoDirectory)) --keys enter", "store \(Self.quoted(Fixtures.demoDirectory))"] {
      let output = try Self.shell("cd \(Self.quoted(directory.path)) && \(Self.quoted(PaywallBinary.binary.path)) \(command) --state-dir ''")
      #expect(output.status == 2, "\(command): \(output.stderr)")
      #expect(output.stderr == "error: --state-dir is empty; give a directory, e.g. --state-dir /tmp/paywall-qa\n", "\(output.stderr)")
      #expect(Self.files(directory.path) == ["draft.tmp-keepme"], "\(Self.files(directory.path))")
    }
  }

  @Test func aDirectoryWithFilesOfTheUsersIsUsedWithAWarningAndNeverCleaned() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try "the user's draft".write(toFile: directory.path + "/draft.tmp-keepme", atomically: true, encoding: .utf8)
    let output = try Self.run(["play", "paywalls", "--controller", "simulated", "--status", "inactive", "--keys", "enter",
                               "--state-dir", directory.path])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stderr.contains("warning: \(directory.path) holds files paywall-tui did not make (draft.tmp-keepme); it is used, but nothing in it is ever cleaned up"),
            "\(output.stderr)")
    #expect(Self.files(directory.path).contains("draft.tmp-keepme"))
    #expect(Self.finalStatus(output) == #"{"status":"active","entitlements":["pro"]}"#)
  }

  /// `run` too: the refusal comes before the terminal is taken, and leaves it as it was.
  @Test func runInADirectoryOthersCanWriteExitsTwoWithTheTerminalAsItWas() throws {
    let pane = try TmuxPane("""
      mkdir -m 777 "$DIR/state"
      stty -g > "$DIR/stty.before"
      "$BIN" run paywalls --controller simulated --state-dir "$DIR/state" 2> "$DIR/stderr"
      echo $? > "$DIR/exit"
      stty -g > "$DIR/stty.after"
      """)
    #expect(pane.wait(forFile: "exit") == "2")
    #expect(pane.wait(forFile: "stty.after") == pane.file("stty.before"))
    #expect(pane.file("stderr")?.hasPrefix("error: \(pane.directory)/state can be written by other users (mode 777)") == true,
            "\(pane.file("stderr") ?? "nil")")
    #expect(Self.files(pane.directory + "/state").isEmpty)
  }

  // MARK: - Closed standard streams

  /// `>&-`, `2>&-`, `<&-`: the lock file must not become fd 0, 1 or 2 and take the output.
  @Test(arguments: [">&-", "2>&-", "<&-"])
  func aClosedStandardStreamNeverTakesTheLockFile(redirection: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let state = directory.path + "/state"
    // The override warns, so stderr has something to say.
    let output = try Self.shell("\(Self.quoted(PaywallBinary.binary.path)) play paywalls --controller simulated --status inactive "
                                + "--override primary=com.acme.pro.anual --keys enter --state-dir \(Self.quoted(state)) \(redirection)")
    #expect(output.status == 0, "\(output.stderr)")
    let lock = try #require(Self.bytes(state + "/lock"))
    let text = String(decoding: lock, as: UTF8.self)
    #expect(lock.count == 11 && text.hasSuffix("\n") && Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) != nil,
            "the lock holds only the pid record: \(text.debugDescription)")
    let ledger = try LedgerFile(directory: StateDirectory(path: state)).read()
    #expect(ledger.entries.map(\.kind) == [.purchase], "the session ran and saved")
  }

  // MARK: - Pipes and devices as input

  @Test func aScriptOrProjectThatIsAFIFOOrADeviceIsRefusedAtOnce() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = directory.path + "/fifo.json"
    #expect(mkfifo(fifo, 0o644) == 0)
    let binary = Self.quoted(PaywallBinary.binary.path)
    // `timeout`: the old code waited in open() for a writer that never comes.
    let script = try Self.shell("timeout 20 \(binary) play paywalls --script \(Self.quoted(fifo))")
    #expect(script.status == 2, "\(script.stderr)")
    #expect(script.stderr.contains("\(fifo):1:1: error: is not a regular file (a named pipe)"), "\(script.stderr)")
    let validate = try Self.shell("timeout 20 \(binary) validate \(Self.quoted(fifo))")
    #expect(validate.status == 1, "\(validate.stderr)")
    #expect(validate.stdout.contains("\(fifo):1:1: error: is not a regular file (a named pipe)"), "\(validate.stdout)")
    let zero = try Self.shell("timeout 20 \(binary) validate /dev/zero")
    #expect(zero.status == 1, "\(zero.stderr)")
    #expect(zero.stdout.contains("/dev/zero:1:1: error: is not a regular file (a character device)"), "\(zero.stdout)")
    // A ledger that is a FIFO is set aside, not waited on.
    let state = directory.path + "/state"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
    chmod(state, 0o755)
    #expect(mkfifo(state + "/ledger.json", 0o644) == 0)
    let play = try Self.shell("timeout 20 \(binary) play paywalls --controller simulated --status inactive --keys enter --state-dir \(Self.quoted(state))")
    #expect(play.status == 0, "\(play.stderr)")
    #expect(play.stderr.contains("is not a regular file (a named pipe)"), "\(play.stderr)")
  }

  @Test func aScriptFromStandardInput() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = try Self.shell("printf 'press 3 enter\\nexpect status active\\n' | \(Self.quoted(PaywallBinary.binary.path)) play paywalls "
                                + "--controller simulated --status inactive --state-dir \(Self.quoted(directory.path + "/state")) --script -")
    #expect(output.status == 0, "\(output.stderr)")
    #expect(Self.finalStatus(output) == #"{"status":"active","entitlements":["lifetime","pro"]}"#, "\(output.stdout)")
  }

  // MARK: - A full disk

  /// A 256 KiB tmpfs, where mounting is allowed (root, or a container that permits it).
  static let tmpfsAvailable: Bool = {
    guard getuid() == 0 else { return false }
    let point = NSTemporaryDirectory() + "paywall-tui-mount-probe-\(getpid())"
    try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: point) }
    guard (try? Self.shell("mount -t tmpfs -o size=64k tmpfs '\(point)' && umount '\(point)'"))?.status == 0 else { return false }
    return true
  }()

  @Test(.enabled(if: tmpfsAvailable, "mounting a small tmpfs needs root"))
  func aDiskThatFillsUpMidSessionLosesNothing() throws {
    let pane = try TmuxPane("""
      mkdir -p "$DIR/disk" && mount -t tmpfs -o size=256k tmpfs "$DIR/disk" && echo mounted > "$DIR/mounted"
      "$BIN" run paywalls --controller simulated --status inactive --state-dir "$DIR/disk/state"
      echo $? > "$DIR/exit"
      """)
    let disk = pane.directory + "/disk"
    // Lazily: the app in the pane may still hold it when this runs, and a plain umount then
    // fails ("target is busy"), leaving a mount behind each run.
    defer { _ = try? Self.shell("umount -l '\(disk)'") }
    #expect(pane.wait(forFile: "mounted") == "mounted")
    pane.wait(forText: "status: inactive")
    // Fill the disk to the last block.
    _ = try Self.shell("dd if=/dev/zero of='\(disk)/filler' bs=4k 2>/dev/null; sync")
    try pane.send("Enter")
    pane.wait(forText: "status: active:pro")
    try pane.send("l")
    pane.wait(forText: "ledger not saved: No space left on device")
    pane.wait(forText: "status not cached: No space left on device")
    #expect(!Self.files(disk + "/state").contains("ledger.json"), "no half-written ledger")
    #expect(!Self.files(disk + "/state").contains { $0.contains("tmp-") })

    // Space again: the next change saves the whole ledger, and says so.
    try FileManager.default.removeItem(atPath: disk + "/filler")
    try pane.send("d")
    pane.wait(forText: "Debug panel")
    try pane.send("c")
    try pane.send("d")
    pane.wait(forText: "ledger saved again")
    let entries = try LedgerFile(directory: StateDirectory(path: disk + "/state")).read().entries
    #expect(entries.map(\.kind) == [.purchase, .autoRenewOff], "\(entries.map(\.kind))")
  }

  // MARK: - kill -9 mid-purchase

  /// Buys, refunds and advances over and over, so a kill lands in the middle of a purchase.
  static let busyScript: String = (0..<60).map { _ in
    "open onboarding\npress 2 enter\nadvance 3d\nrefund\nopen onboarding\npress 3 enter\nrefund\nadvance 1d\n"
  }.joined()

  @Test func killingTheAppMidPurchaseLeavesAConsistentLedgerAndStatus() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let script = directory.path + "/busy.play"
    try Self.busyScript.write(toFile: script, atomically: true, encoding: .utf8)
    let state = directory.path + "/state"
    var killedMidRun = 0
    // Fixed delays, so a failure reproduces; spread over the run (about a second in a debug build).
    for delay in [40, 90, 150, 230, 320, 430, 560, 700] {
      let process = Process()
      process.executableURL = PaywallBinary.binary
      process.arguments = ["play", "paywalls", "--controller", "simulated", "--state-dir", state, "--script", script]
      process.currentDirectoryURL = Fixtures.repositoryRoot
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(useconds_t(delay * 1000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason == .uncaughtSignal { killedMidRun += 1 }

      // What is on disk is whole and adds up.
      let file = LedgerFile(directory: StateDirectory(path: state))
      if file.exists {
        let contents = try file.read()
        let rules = contents.rules ?? StoreRules()
        let problems = LedgerDerivation.problems(in: contents.entries, catalog: try Fixtures.demoProject().catalog, rules: rules,
                                                 at: contents.clock ?? Date())
        #expect(problems.isEmpty, "after a kill at \(delay) ms: \(problems)")
      }
      // The next launch: no warning, no leftovers, and the status is the one the ledger gives.
      let next = try Self.run(["play", "paywalls", "--controller", "simulated", "--state-dir", state])
      #expect(next.status == 0 && !next.stderr.contains("warning"), "after a kill at \(delay) ms: \(next.stderr)")
      #expect(!Self.files(state).contains { $0.contains("tmp-") }, "\(Self.files(state))")
      let store = try Self.run(["store", "paywalls", "--state-dir", state, "--json"])
      let derived = try JSONParser.parse(bytes: Array(store.stdout.utf8))
      let status = derived["status"]?.stringValue ?? "?"
      let entitlements = (derived["entitlements"]?.elements ?? []).compactMap(\.stringValue)
      let expected = "{\"status\":\"\(status)\",\"entitlements\":[\(entitlements.map { "\"\($0)\"" }.joined(separator: ","))]}"
      #expect(Self.finalStatus(next) == expected, "after a kill at \(delay) ms")
    }
    #expect(killedMidRun >= 4, "most kills must land while the script runs (\(killedMidRun) of 8 did)")
  }
}
