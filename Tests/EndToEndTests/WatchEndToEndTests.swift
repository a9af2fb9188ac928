import Foundation
import Synchronization
import PaywallTesting
import Testing
@testable import PaywallTUI

/// `--watch` as a designer meets it: the real binary in a real terminal (tmux) on a copy of the
/// demo project, edited from outside the way editors save.
@Suite("Watch end to end")
struct WatchEndToEndTests {
  /// Runs `command` (with $P, the copy of the demo) from the pane's scratch directory.
  static func pane(_ command: String, width: Int = 80, height: Int = 24) throws -> (TmuxPane, String) {
    let pane = try TmuxPane("""
      trap : INT
      cp -r paywalls "$DIR/p"
      cd "$DIR"
      \(command)
      echo $? > "$DIR/exit"
      """, width: width, height: height)
    return (pane, pane.directory + "/p")
  }

  /// Saved as most editors save: a temporary file renamed over the old one.
  static func save(_ text: String, to file: String) throws {
    try text.write(toFile: file, atomically: true, encoding: .utf8)
  }

  /// Saved in place: truncated, then written.
  static func overwrite(_ text: String, to file: String) throws {
    try text.write(toFile: file, atomically: false, encoding: .utf8)
  }

  @Test func runWatchFollowsEditsKeepsTheSelectionAndShowsABrokenFile() throws {
    let (pane, project) = try Self.pane(#""$BIN" run p --watch --controller scripted --state-dir "$DIR/state" --fresh"#)
    let file = project + "/onboarding.json"
    // The pane's script copies the project before the app starts; wait for its first frame.
    pane.wait(forText: "Unlock Acme Pro")
    let original = try String(contentsOfFile: file, encoding: .utf8)
    try pane.send("3")
    pane.wait(forText: "● Lifetime")

    try Self.save(original.replacingOccurrences(of: "Unlock Acme Pro", with: "Unlock Acme Max"), to: file)
    pane.wait(for: "the new title, the selection kept") { $0.contains("Unlock Acme Max") && $0.contains("● Lifetime") }

    try Self.overwrite(#"{"id": "onboarding", "#, to: file)
    pane.wait(for: "the error overlay naming the file and line") { screen in
      screen.contains("The project no longer loads") && screen.contains("p/onboarding.json:1:")
    }

    try Self.overwrite(original.replacingOccurrences(of: "Unlock Acme Pro", with: "Unlock Acme Fixed"), to: file)
    pane.wait(for: "the paywall again, without the overlay") { screen in
      screen.contains("Unlock Acme Fixed") && !screen.contains("no longer loads") && screen.contains("● Lifetime")
    }
    try pane.send("Escape")
    pane.wait(forText: "closed: declined")
    try pane.send("q")
    #expect(pane.wait(forFile: "exit") == "0")
  }

  /// `p` and `./p` are one directory: a paywall's save is seen, whichever name the catalog used.
  @Test func runWatchSeesASaveInADirectoryNamedTwoWays() throws {
    let (pane, project) = try Self.pane(#""$BIN" run p --catalog ./p/catalog.json --watch --controller scripted --state-dir "$DIR/state" --fresh"#)
    let file = project + "/onboarding.json"
    pane.wait(forText: "Unlock Acme Pro")
    let original = try String(contentsOfFile: file, encoding: .utf8)
    try Self.save(original.replacingOccurrences(of: "Unlock Acme Pro", with: "Unlock Acme Max"), to: file)
    pane.wait(for: "the new title") { $0.contains("Unlock Acme Max") }
    try pane.send("Escape")
    pane.wait(forText: "closed: declined")
    try pane.send("q")
    #expect(pane.wait(forFile: "exit") == "0")
  }

  @Test func runWatchGoesHomeWhenTheOpenPaywallIsRemoved() throws {
    let (pane, project) = try Self.pane(#""$BIN" run p --watch --paywall winback --controller scripted --state-dir "$DIR/state" --fresh"#)
    pane.wait(forText: "We miss you")
    let app = project + "/app.json"
    // Winback leaves the project, with the campaigns that name it (else the project would not load).
    let data = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: app))) as! [String: Any]
    var campaigns = data["campaigns"] as? [[String: Any]] ?? []
    campaigns.removeAll { String(describing: $0).contains("winback") }
    var edited = data
    edited["paywalls"] = ["onboarding.json", "plans.json"]
    edited["campaigns"] = campaigns
    try Self.save(String(decoding: try JSONSerialization.data(withJSONObject: edited), as: UTF8.self), to: app)
    pane.wait(forText: "'winback' is no longer in the project")
  }

  /// Whether `condition` holds for the screen at any moment of the next `seconds`.
  static func ever(_ pane: TmuxPane, within seconds: Double, _ condition: (String) -> Bool) -> String? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      let screen = pane.screen
      if condition(screen) { return screen }
      usleep(20_000)
    }
    return nil
  }

  /// The app's own files inside the project (its state directory is the project, its events file
  /// is there too) never reload it; a log written without pause beside the paywalls does not hold
  /// a save back: the save shows within a second and a half (the screen is read every 20 ms).
  @Test func runWatchIgnoresItsOwnFilesAndABusyLog() throws {
    let (pane, project) = try Self.pane(#""$BIN" run p --watch --controller simulated --status inactive --state-dir "$DIR/p" --events "$DIR/p/events.json" --fresh"#)
    let file = project + "/onboarding.json"
    pane.wait(forText: "Unlock Acme Pro")
    // The new user's id is saved after the first frame, the events as they happen; a key makes more.
    try pane.send("3")
    pane.wait(forText: "● Lifetime")
    if let shown = Self.ever(pane, within: 1.5, { $0.contains("reloaded") }) {
      Issue.record("the app's own files reloaded it:\n\(shown)")
    }
    #expect(FileManager.default.fileExists(atPath: project + "/user.json"))
    #expect(FileManager.default.fileExists(atPath: project + "/events.json"))

    let running = Atomic<Bool>(true)
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let log = open(project + "/app.log", O_WRONLY | O_CREAT | O_APPEND, 0o644)
      while running.load(ordering: .relaxed) {
        _ = "line\n".withCString { write(log, $0, strlen($0)) }
        usleep(2_000)
      }
      close(log)
      finished.signal()
    }
    defer { running.store(false, ordering: .relaxed); finished.wait() }
    usleep(200_000)
    let original = try String(contentsOfFile: file, encoding: .utf8)
    try Self.save(original.replacingOccurrences(of: "Unlock Acme Pro", with: "Unlock Acme Max"), to: file)
    pane.wait(for: "the save, while the log is written", within: 1.5) { $0.contains("Unlock Acme Max") }
    try pane.send("Escape")
    pane.wait(forText: "closed: declined")
    try pane.send("q")
    #expect(pane.wait(forFile: "exit") == "0")
  }

  /// The project directory moved aside and made again (a branch switch, a tool that rebuilds
  /// it) is watched again by its path: the new directory's saves show.
  @Test func runWatchFollowsAProjectDirectoryMadeAgain() throws {
    let (pane, project) = try Self.pane(#""$BIN" run p --watch --controller scripted --state-dir "$DIR/state" --fresh"#)
    pane.wait(forText: "Unlock Acme Pro")
    #expect(rename(project, project + ".old") == 0)
    pane.wait(forText: "The project no longer loads")
    try FileManager.default.copyItem(atPath: project + ".old", toPath: project)
    pane.wait(for: "the project again") { !$0.contains("no longer loads") && $0.contains("Unlock Acme Pro") }
    let file = project + "/onboarding.json"
    let original = try String(contentsOfFile: file, encoding: .utf8)
    try Self.save(original.replacingOccurrences(of: "Unlock Acme Pro", with: "Unlock Acme Max"), to: file)
    pane.wait(forText: "Unlock Acme Max")
    try pane.send("Escape")
    try pane.send("q")
    #expect(pane.wait(forFile: "exit") == "0")
  }

  /// `render --watch --out` into the project draws once per save, not once per drawing: its own
  /// output is no save.
  @Test func renderWatchIntoTheProjectDrawsOncePerSave() throws {
    let copy = try Fixtures.demoCopy()
    defer { try? FileManager.default.removeItem(atPath: copy) }
    let out = copy + "/drawn.json"
    let process = Process()
    process.executableURL = PaywallBinary.binary
    process.arguments = ["render", copy, "--watch", "--paywall", "plans", "--out", out]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
    // Each drawing is a new file renamed over the old: its inode and time say which one it is.
    func inode() -> [Int]? {
      var info = stat()
      guard stat(out, &info) == 0 else { return nil }
      #if os(Linux)
      let modified = info.st_mtim
      #else
      let modified = info.st_mtimespec
      #endif
      return [Int(info.st_ino), Int(modified.tv_sec), Int(modified.tv_nsec)]
    }
    let deadline = Date().addingTimeInterval(10)
    while inode() == nil, Date() < deadline { usleep(20_000) }
    let first = try #require(inode())
    usleep(1_000_000)
    #expect(inode() == first, "--out was written again with no save")
    let file = copy + "/plans.json"
    try Self.save(try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "Choose your plan", with: "Pick a plan"), to: file)
    let saved = Date().addingTimeInterval(10)
    while !((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains("Pick a plan"), Date() < saved { usleep(20_000) }
    #expect(try String(contentsOfFile: out, encoding: .utf8).contains("Pick a plan"))
  }

  @Test func renderWatchRedrawsOnEverySave() throws {
    let (pane, project) = try Self.pane(#""$BIN" render p --watch --size 60x16 --color never"#, width: 60, height: 20)
    let file = project + "/onboarding.json"
    pane.wait(forText: "Unlock Acme Pro")
    let original = try String(contentsOfFile: file, encoding: .utf8)
    try Self.save(original.replacingOccurrences(of: "Unlock Acme Pro", with: "Unlock Acme Max"), to: file)
    // A terminal is cleared before each drawing: the old title is gone.
    pane.wait(for: "the new drawing alone") { $0.contains("Unlock Acme Max") && !$0.contains("Unlock Acme Pro") }
    try Self.overwrite("{", to: file)
    pane.wait(for: "the error on stderr") { $0.contains("p/onboarding.json:1:2: error:") && $0.contains("does not load") }
    try Self.save(original, to: file)
    pane.wait(for: "the paywall again") { $0.contains("Unlock Acme Pro") && !$0.contains("error") }
    try pane.send("C-c")
    #expect(pane.wait(forFile: "exit") == "130")
  }

  /// Into a pipe, each drawing follows a separator line, and a signal ends it.
  @Test func renderWatchIntoAPipeSeparatesTheDrawings() throws {
    let copy = try Fixtures.demoCopy()
    let output = copy + "/out.txt"
    try #require(FileManager.default.createFile(atPath: output, contents: nil), "could not create \(output)")
    let process = Process()
    process.executableURL = PaywallBinary.binary
    process.arguments = ["render", copy, "--watch", "--paywall", "plans"]
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { process.terminate() } }
    func printed(within seconds: Double, _ condition: (String) -> Bool) -> String {
      let deadline = Date().addingTimeInterval(seconds)
      var text = ""
      while Date() < deadline {
        text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        if condition(text) { break }
        usleep(20_000)
      }
      return text
    }
    #expect(printed(within: 10) { $0.contains("Choose your plan") }.contains("Choose your plan"))
    let file = copy + "/plans.json"
    try Self.save(try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "Choose your plan", with: "Pick a plan"), to: file)
    let text = printed(within: 10) { $0.contains("Pick a plan") }
    #expect(text.contains("── saved: \(copy) ──\n"), "\(text)")
    #expect(!text.contains("\u{1B}["), "no escape sequences into a pipe")
    process.terminate()
    process.waitUntilExit()
    #expect(process.terminationStatus == SIGTERM)
  }
}
