import Foundation
import PaywallTesting
import Testing
import enum PaywallModel.SpawnPlatform

/// The real binary writing where writes fail: a full disk (`/dev/full`) for stdout, stderr or the
/// `--events` file, and a reader that goes away (`| head -1`). Before, each crashed with SIGILL and
/// a Swift crash report (Foundation's `FileHandle.write(_: Data)` traps on an error), or exited 0
/// having printed nothing (`print` drops errors).
@Suite("Output failures")
struct OutputFailureTests {
  /// Where one of the child's streams goes.
  enum Sink {
    /// A pipe the test reads to the end.
    case captured
    /// A file opened for writing (`/dev/full`).
    case file(String)
    /// A pipe whose read end is closed before the program starts: every write meets a reader
    /// that has gone, as after `| head -1` has its line (but without a race on when).
    case closedPipe
  }

  struct Outcome {
    /// The exit code, or 128 + the signal that ended the process (as a shell reports it).
    var status: Int32
    var signal: Int32?
    var stdout: String
    var stderr: String
  }

  /// Runs the binary with its stdout and stderr sent to `out` and `err`; waits at most 30 s.
  /// `stateDirectory` (for play and explain) is the caller's, kept; without one each run gets a
  /// fresh directory, removed after.
  static func run(_ arguments: [String], out: Sink, err: Sink, stateDirectory given: String? = nil) throws -> Outcome {
    var actions = SpawnPlatform.emptyFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    var readEnds: [Int32: Int32] = [:]  // child fd → the parent's read end
    var writeEnds: [Int32] = []
    for (fd, sink) in [(Int32(1), out), (Int32(2), err)] {
      switch sink {
      case .file(let path):
        posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY, 0)
      case .captured, .closedPipe:
        var fds: [Int32] = [0, 0]
        #if canImport(Glibc)
        // Close-on-exec from the start: between pipe() and fcntl() a child another test spawns
        // inherited the ends and kept them, so the closed pipe still had a reader (the program's
        // writes went through and it exited 0; seen once in a full run), and a captured one no end.
        // (glibc's pipe2, which Swift's Glibc module does not show, looked up as the sources' spawn does.)
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        let pipe2 = unsafeBitCast(try #require(dlsym(nil, "pipe2")), to: Pipe2.self)
        guard pipe2(&fds, O_CLOEXEC) == 0 else { throw FixtureError("pipe2: \(errno)") }
        #else
        guard pipe(&fds) == 0 else { throw FixtureError("pipe: \(errno)") }
        for end in fds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        #endif
        posix_spawn_file_actions_adddup2(&actions, fds[1], fd)
        writeEnds.append(fds[1])
        if case .closedPipe = sink { close(fds[0]) } else { readEnds[fd] = fds[0] }
      }
    }
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    var cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    // Paths into the repository made absolute: the child runs where the tests run. Commands that
    // keep state get a directory of their own (tests run in parallel).
    var absolute = arguments.map { $0.hasPrefix("paywalls") ? Fixtures.repositoryRoot.path + "/" + $0 : $0 }
    let stateDirectory = given ?? Scratch.root.appendingPathComponent("output-failure-\(UUID().uuidString)").path
    defer { if given == nil { try? FileManager.default.removeItem(atPath: stateDirectory) } }
    if ["play", "explain"].contains(arguments.first) { absolute += ["--state-dir", stateDirectory] }
    var cArguments = ([PaywallBinary.binary.path] + absolute).map { strdup($0) } + [nil]
    defer { for pointer in cArguments + cEnvironment { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, PaywallBinary.binary.path, &actions, nil, &cArguments, &cEnvironment)
    for fd in writeEnds { close(fd) }
    guard spawned == 0 else { throw FixtureError("posix_spawn: \(spawned)") }

    // Read the captured pipes until the child is done with them.
    var collected: [Int32: [UInt8]] = [1: [], 2: []]
    let deadline = Date().addingTimeInterval(30)
    while !readEnds.isEmpty && Date() < deadline {
      var fds = readEnds.values.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      _ = poll(&fds, nfds_t(fds.count), 100)
      for (fd, readEnd) in readEnds {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var probe = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        guard poll(&probe, 1, 0) > 0 else { continue }
        let n = read(readEnd, &buffer, buffer.count)
        if n > 0 { collected[fd]! += buffer[..<n] }
        if n <= 0 {
          close(readEnd)
          readEnds[fd] = nil
        }
      }
    }
    for readEnd in readEnds.values { close(readEnd) }
    var status: Int32 = 0
    var waited: pid_t = 0
    while Date() < deadline {
      waited = waitpid(pid, &status, WNOHANG)
      if waited == pid { break }
      usleep(10_000)
    }
    if waited != pid {
      kill(pid, SIGKILL)
      waitpid(pid, &status, 0)
      throw FixtureError("\(arguments) did not end within 30 s")
    }
    let signal = status & 0x7f
    return Outcome(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, signal: signal == 0 ? nil : signal,
                   stdout: String(decoding: collected[1]!, as: UTF8.self), stderr: String(decoding: collected[2]!, as: UTF8.self))
  }

  /// Nothing of a crash: no signal but SIGPIPE, no crash report, no "Fatal error".
  static func expectNoCrash(_ outcome: Outcome, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(outcome.signal == nil || outcome.signal == SIGPIPE, "\(what) died of signal \(outcome.signal ?? 0): \(outcome.stderr)",
            sourceLocation: sourceLocation)
    for text in ["Fatal error", "Crash", "💣", "Backtrace", "Thread 0"] {
      #expect(!outcome.stderr.contains(text), "\(what) printed a crash report: \(outcome.stderr)", sourceLocation: sourceLocation)
    }
  }

  static let brokenPaywall = """
    {"id": "broken", "name": "Broken", "products": {"primary": "com.acme.pro.annual"},
     "components": [{"type": "buton", "label": "Go", "action": "purchase"}]}
    """

  /// stdout on a full disk: one line on stderr saying what failed, exit 1. Every command that
  /// prints to stdout, including help and a validate that finds problems.
  @Test(arguments: [
    ["play", "paywalls", "--controller", "scripted", "--keys", "enter"],
    ["render", "paywalls/onboarding.json"],
    ["explain", "paywalls", "onboarding"],
    ["--help"],
    ["help", "play"],
    ["validate", "--help"],
    ["validate", "BROKEN"],
  ])
  func aFullStdoutIsOneLineAndExitOne(arguments: [String]) throws {
    let dir = try Fixtures.directory(["catalog.json": acmeCatalogJSON, "broken.json": Self.brokenPaywall])
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let args = arguments.map { $0 == "BROKEN" ? dir + "/broken.json" : $0 }
    let outcome = try Self.run(args, out: .file("/dev/full"), err: .captured)
    Self.expectNoCrash(outcome, "\(arguments)")
    #expect(outcome.status == 1, "\(arguments): \(outcome.stderr)")
    let lines = outcome.stderr.split(separator: "\n").filter { !$0.hasPrefix("warning:") && !$0.contains("error found") && !$0.contains("errors found") }
    #expect(lines == ["error: cannot write to standard output: No space left on device"], "\(arguments): \(outcome.stderr)")
  }

  /// The events file on a full disk: `play` stops and says so, exit 1; what stdout got is whole lines.
  @Test func aFullEventsFileStopsPlayWithOneLine() throws {
    let outcome = try Self.run(["play", "paywalls", "--controller", "scripted", "--keys", "down enter", "--events", "/dev/full"],
                               out: .captured, err: .captured)
    Self.expectNoCrash(outcome, "play --events /dev/full")
    #expect(outcome.status == 1)
    #expect(outcome.stderr == "error: cannot write the events to /dev/full: No space left on device\n", "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty || outcome.stdout.hasSuffix("\n"))
  }

  /// stderr on a full disk while a warning is pending: nothing can be said, so exit 1 silently,
  /// never 0 (the user would not learn that the override did not apply).
  @Test(arguments: [
    ["render", "paywalls", "--override", "primary=com.acme.pro.anual"],
    ["play", "paywalls", "--controller", "scripted", "--override", "primary=com.acme.pro.anual"],
    ["render", "nowhere/paywall.json"],
  ])
  func aFullStderrExitsOneSilently(arguments: [String]) throws {
    let outcome = try Self.run(arguments, out: .captured, err: .file("/dev/full"))
    Self.expectNoCrash(outcome, "\(arguments)")
    #expect(outcome.status == 1, "\(arguments)")
  }

  /// stderr on a full disk while the state directory (holding a file of the user's, so it is never
  /// cleaned up) warns: the run still happens, its events and status go to stdout, exit 1, and the
  /// new user's id is written whole, no temporary file left. Before, the failed warning ended play
  /// at once, printing nothing, while user.json was still being written: about one run in five
  /// left `.paywall-tui-tmp-user.json-…` behind.
  @Test func aWarningThatCannotBeWrittenNeitherStopsPlayNorLeavesATemporaryFile() throws {
    for run in 1...20 {
      let dir = try Fixtures.directory(["notes.txt": "x\n"])
      defer { try? FileManager.default.removeItem(atPath: dir) }
      let outcome = try Self.run(["play", "paywalls", "--controller", "scripted", "--keys", "enter"],
                                 out: .captured, err: .file("/dev/full"), stateDirectory: dir)
      Self.expectNoCrash(outcome, "run \(run)")
      #expect(outcome.status == 1, "run \(run)")
      #expect(outcome.stdout.contains("\"status\":"), "run \(run): \(outcome.stdout)")
      let files = try FileManager.default.contentsOfDirectory(atPath: dir)
      #expect(files.contains("user.json"), "run \(run): \(files)")
      let leftovers = files.filter { $0.hasPrefix(".paywall-tui-tmp-") }
      #expect(leftovers.isEmpty, "run \(run) left \(leftovers)")
      if !leftovers.isEmpty || outcome.status != 1 { break }
    }
  }

  /// `| head -1`: the reader has gone. The program ends at once and
  /// quietly, with the status a shell gives a program killed by SIGPIPE (141), whether or not
  /// the command controller (which ignores SIGPIPE so a dead controller cannot kill us) runs.
  @Test(arguments: [
    ["play", "paywalls", "--controller", "scripted", "--keys", "down enter down enter"],
    // A status is given: this controller sets none, and play would wait for it.
    ["play", "paywalls", "--controller", "command", "--controller-command", "cat >/dev/null", "--status", "inactive", "--keys", "down down"],
    ["render", "paywalls/onboarding.json"],
    ["--help"],
  ])
  func aReaderThatGoesAwayEndsTheProgramQuietly(arguments: [String]) throws {
    let outcome = try Self.run(arguments, out: .closedPipe, err: .captured)
    Self.expectNoCrash(outcome, "\(arguments)")
    #expect(outcome.status == 141, "\(arguments): \(outcome.stderr)")
    #expect(outcome.stderr.isEmpty, "\(arguments): \(outcome.stderr)")
  }
}
