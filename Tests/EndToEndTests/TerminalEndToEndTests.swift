import Foundation
import PaywallTesting
import Testing
import enum PaywallModel.SpawnPlatform
@testable import TerminalCore

/// The interactive mode in a real terminal, as a person meets it.
@Suite("Terminal end to end")
struct TerminalEndToEndTests {
  /// Runs the app between two `stty -g` snapshots and records its exit code.
  static func wrapped(_ arguments: String) -> String {
    // `trap : INT` keeps this shell alive through the app's Ctrl-C (the app handles its own).
    """
    trap : INT
    stty -g > "$DIR/stty.before"
    "$BIN" run \(arguments) --state-dir "$DIR/state" --fresh
    echo $? > "$DIR/exit"
    stty -g > "$DIR/stty.after"
    """
  }

  @Test func firstPaintShowsThePaywallAndPrices() throws {
    let pane = try TmuxPane(Self.wrapped("paywalls --controller scripted"))
    pane.wait(for: "the paywall with its prices") { screen in
      ["Unlock Acme Pro", "$59.99/year", "$9.99/month", "$149.99 once", "7-day free trial", "▸ Start my free trial ◂", "status: unknown"]
        .allSatisfy(screen.contains)
    }
  }

  @Test func runSellsInTheStorefrontAskedFor() throws {
    // --storefront / --locale are session options: run takes them as play does.
    let pane = try TmuxPane(Self.wrapped("paywalls --controller scripted --storefront DEU"))
    pane.wait(for: "the paywall in euros") { ["Unlock Acme Pro", "59,99", "€/year"].allSatisfy($0.contains) }
  }

  @Test func arrowsAndNumbersMoveTheSelection() throws {
    let pane = try TmuxPane(Self.wrapped("paywalls --controller scripted"))
    pane.wait(forText: "● Annual")
    try pane.send("Right")
    pane.wait(forText: "● Monthly")
    try pane.send("3")
    pane.wait(forText: "● Lifetime")
    try pane.send("Left")
    pane.wait(forText: "● Monthly")
  }

  /// A key typed while the app starts applies to the paywall it shows. The terminal thread reads
  /// keys only once the first frame is out: read as soon as the terminal opened, a key could
  /// reach the app before the paywall was opened and be spent on the screen behind it. The
  /// arrow goes in as a terminal in keypad mode sends it (ESC O C), five launches in a row.
  @Test func aKeyTypedWhileTheAppStartsMovesTheSelection() throws {
    for _ in 1...5 {
      let pane = try TmuxPane(Self.wrapped("paywalls --controller scripted"))
      try pane.tmux(["send-keys", "-t", "main", "-l", "\u{1B}OC"])
      pane.wait(forText: "● Monthly", within: 5)
    }
  }

  @Test func enterWithTheScriptedControllerTurnsTheStatusActive() throws {
    let pane = try TmuxPane(Self.wrapped("paywalls --controller scripted --status inactive"))
    pane.wait(forText: "status: inactive")
    try pane.send("Enter")
    pane.wait(forText: "status: active:pro")
    pane.wait(forText: "closed: purchased(com.acme.pro.annual)")
  }

  /// A command controller's stderr is its log: the log pane shows each line as the controller's,
  /// and nothing in the status bar calls it an error.
  @Test func aControllersStderrIsItsLogInTheLogPane() throws {
    let controller = Fixtures.repositoryRoot.path + "/Examples/controllers/minimal.sh"
    let pane = try TmuxPane(Self.wrapped("paywalls --controller command --controller-command 'sh \(controller)' --status inactive"))
    pane.wait(forText: "Start my free trial")
    try pane.send("2")
    try pane.send("Enter")
    pane.wait(forText: "status: active:pro")
    try pane.send("l")
    pane.wait(for: "the controller's log line in the log pane") { screen in
      screen.contains(#"controller: purchase, request 1: granting ["pro"]"#)
    }
    let screen = pane.screen
    #expect(!screen.contains("controller stderr") && !screen.contains("controller_error"), "\(screen)")
  }

  @Test func pendingShowsTheAlert() throws {
    let pane = try TmuxPane(Self.wrapped("paywalls --controller scripted --outcome purchase=pending"))
    pane.wait(forText: "Start my free trial")
    try pane.send("Enter")
    pane.wait(forText: "Waiting for Approval")
    try pane.send("Enter")
    pane.wait(for: "the alert to close") { !$0.contains("Waiting for Approval") && $0.contains("Start my free trial") }
  }

  @Test func escClosesAtOnce() throws {
    let pane = try TmuxPane(Self.wrapped("paywalls --controller scripted"))
    pane.wait(forText: "Start my free trial")
    try pane.send("Escape")
    // ncurses' default Esc delay is a full second; ours answers well within it.
    pane.wait(forText: "closed: declined", within: 0.8)
  }

  @Test func theHomeScreenRegistersAPlacementAndShowsTheOutcome() throws {
    let pane = try TmuxPane(Self.wrapped("paywalls --home --controller scripted --status inactive"))
    pane.wait(forText: "export_pdf")
    try pane.send("Down")
    pane.wait(forText: "▸ 2 export_pdf")
    try pane.send("Enter")
    pane.wait(forText: "Choose your plan")
    try pane.send("q")
    pane.wait(forText: "feature did not run (gated)")
    try pane.send("5")
    pane.wait(forText: "beta_sync: skipped (holdout)")
    pane.wait(forText: "feature ran: beta_sync")
  }

  /// A project of 40 placements in an 80x12 pane: before, ↓ walked the selection off the screen
  /// and Enter registered a placement the tester could not see. Now the list scrolls: after ↓ 39
  /// times the last placement is selected and shown, under "↑ N more", and Enter registers it.
  @Test func theHomeListScrollsToTheLastOfFortyPlacementsAndEnterRegistersIt() throws {
    let project = try Fixtures.manyPlacementsProject(40).directory
    let pane = try TmuxPane(Self.wrapped("'\(project)' --home --controller scripted --status inactive"), width: 80, height: 12)
    pane.wait(forText: "place_01")
    try pane.tmux(["send-keys", "-t", "main"] + Array(repeating: "Down", count: 39))
    pane.wait(for: "the last placement selected, on screen, the rest counted above it") { screen in
      screen.contains("▸ 40 place_40") && screen.range(of: "↑ [0-9]+ more", options: .regularExpression) != nil
    }
    try pane.send("Enter")
    pane.wait(forText: "place_40: skipped (holdout)")
    try pane.send("q")
    #expect(pane.wait(forFile: "exit") == "0")
  }

  /// Issue 17 item 6: at 40x12 the help was cut off with no marker and ↓ closed it. It scrolls
  /// with the arrows and the page keys of a real terminal, and says how much is below and above.
  @Test func theHelpScrollsInASmallTerminal() throws {
    let pane = try TmuxPane(Self.wrapped("paywalls --controller scripted"), width: 40, height: 12)
    pane.wait(forText: "Unlock Acme Pro")
    try pane.send("?")
    pane.wait(for: "the help with a marker below") { $0.contains("Keys") && $0.range(of: "↓ [0-9]+ more", options: .regularExpression) != nil }
    try pane.send("Down")
    pane.wait(forText: "↑ 1 more")
    try pane.send("NPage")
    pane.wait(for: "a page further") { $0.range(of: "↑ ([2-9]|[0-9]{2}) more", options: .regularExpression) != nil }
    try pane.send("End")
    pane.wait(for: "the end of the help") { screen in
      screen.contains("Not now") && screen.range(of: "↓ [0-9]+ more", options: .regularExpression) == nil
    }
    try pane.send("Home")
    pane.wait(for: "the top again") { $0.range(of: "↑ [0-9]+ more", options: .regularExpression) == nil && $0.contains("select the") }
    try pane.send("Escape")
    pane.wait(for: "the help closed, the paywall still up") { !$0.contains("Keys") && $0.contains("Unlock Acme Pro") }
    try pane.send("q")
    pane.wait(forText: "Placements")
    try pane.send("q")
    #expect(pane.wait(forFile: "exit") == "0")
  }

  @Test func resizeRelayoutsAndComesBack() throws {
    let pane = try TmuxPane(Self.wrapped("paywalls --controller scripted"))
    pane.wait(forText: "╭────────────────────╮", within: 10)
    try pane.resize(width: 50, height: 20)
    pane.wait(for: "one-line product rows at 50x20") { screen in
      !screen.contains("╭") && screen.contains("○ Monthly") && screen.contains("$9.99/month")
        && screen.split(separator: "\n").allSatisfy { $0.count <= 50 }
    }
    try pane.resize(width: 80, height: 24)
    pane.wait(forText: "╭────────────────────╮")
  }

  @Test func aTinyTerminalAsksToBeEnlargedAndRecovers() throws {
    let pane = try TmuxPane(Self.wrapped("paywalls --controller scripted"), width: 20, height: 6)
    pane.wait(forText: "too small")
    pane.wait(forText: "30x10")
    try pane.resize(width: 80, height: 24)
    pane.wait(forText: "Unlock Acme Pro")
  }

  /// SIGTERM and SIGHUP quit cleanly; SIGILL is what a Swift trap raises on x86-64 (ud2), and SIGSEGV a
  /// crash: the handlers restore the terminal before the process dies of the signal.
  @Test(arguments: [(SIGTERM, "143"), (SIGHUP, "129"), (SIGILL, "132"), (SIGSEGV, "139"), (SIGABRT, "134")])
  func everyExitPathLeavesTheTerminalAsItWas(signal: Int32, exitCode: String) throws {
    let pane = try TmuxPane(Self.wrapped("paywalls --controller scripted"))
    pane.wait(forText: "Unlock Acme Pro")
    let pid = try #require(try pane.appPID())
    kill(pid, signal)
    #expect(pane.wait(forFile: "exit") == exitCode)
    let after = pane.wait(forFile: "stty.after")
    #expect(after == pane.file("stty.before"))
    // Nothing of the app's screen is left behind on the main screen.
    pane.wait(for: "the paywall to be gone") { !$0.contains("Unlock Acme Pro") }
  }

  /// Every other signal that ends a program: SIGQUIT is handled as SIGTERM is (the app quits
  /// through its loop), and so are the rest. Run with SWIFT_BACKTRACE unset, as a user runs it:
  /// before, SIGQUIT drew Swift's crash report over the screen, waited 30 s on "Press space", then
  /// went on running with the terminal raw; the others left the terminal in the alternate screen
  /// with echo off. Now each exits with 128 + the signal, the terminal as it was, nothing left
  /// running and the state directory free for the next session.
  @Test(arguments: [(SIGQUIT, "131"), (SIGPIPE, "141"), (SIGUSR1, "138"), (SIGUSR2, "140"), (SIGALRM, "142"),
                    (SIGXCPU, "152"), (SIGXFSZ, "153"), (SIGVTALRM, "154"), (SIGPROF, "155")])
  func everyEndingSignalRestoresTheTerminalAndReleasesTheState(signal: Int32, exitCode: String) throws {
    let pane = try TmuxPane("unset SWIFT_BACKTRACE\n" + Self.wrapped("paywalls --controller scripted"))
    pane.wait(forText: "Unlock Acme Pro")
    let pid = try #require(try pane.appPID())
    kill(pid, signal)
    #expect(pane.wait(forFile: "exit") == exitCode)
    #expect(pane.wait(forFile: "stty.after") == pane.file("stty.before"))
    #expect(pane.alternateScreen == false)
    let screen = pane.screen
    for text in ["Press space", "Crash", "💣", "Backtrace", "Thread 0"] {
      #expect(!screen.contains(text), "the screen shows \(text):\n\(screen)")
    }
    #expect(kill(pid, 0) != 0 || Self.isZombie(pid), "the app (pid \(pid)) still runs")
    let next = try PaywallBinary.run(["play", "paywalls", "--controller", "simulated", "--state-dir", pane.directory + "/state"])
    #expect(next.status == 0 && !next.stderr.contains("in use"), "the state directory is still held: \(next.stderr)")
  }

  /// The same without a screen: `play` waiting on a controller that never answers (a status is
  /// given: it sets none, and play would first wait for one). No command shows the crash prompt,
  /// whatever the signal.
  @Test(arguments: [(SIGQUIT, "131"), (SIGSEGV, "139"), (SIGUSR1, "138")])
  func noCommandShowsTheCrashPrompt(signal: Int32, exitCode: String) throws {
    let pane = try TmuxPane("""
      unset SWIFT_BACKTRACE
      "$BIN" play paywalls --controller command --controller-command 'cat >/dev/null' --status inactive --keys enter --state-dir "$DIR/state" > "$DIR/out"
      echo $? > "$DIR/exit"
      """)
    let started = pane.wait(for: "play to ask the controller") { _ in (pane.file("out") ?? "").contains("transaction_start") }
    let pid = try #require(try pane.appPID())
    if started { kill(pid, signal) }
    #expect(pane.wait(forFile: "exit") == exitCode)
    let screen = pane.screen
    for text in ["Press space", "Crash", "💣", "Backtrace", "Thread 0"] {
      #expect(!screen.contains(text), "the screen shows \(text):\n\(screen)")
    }
  }

  @Test func aNewUsersIdIsSavedWhileTheSessionRunsAndOutlivesAKill() throws {
    let pane = try TmuxPane(#""$BIN" run paywalls --controller scripted --state-dir "$DIR/state""#)
    pane.wait(forText: "Unlock Acme Pro")
    // Saved once the first frame is out, not only when the session ends.
    let saved = try #require(pane.wait(forFile: "state/user.json"))
    #expect(saved.contains(#""userId":"$anon:"#), "\(saved)")
    let pid = try #require(try pane.appPID())
    kill(pid, SIGKILL)
    pane.wait(for: "the app to be gone") { _ in kill(pid, 0) != 0 }
    #expect(pane.file("state/user.json") == saved)
  }

  @Test func ctrlCLeavesTheTerminalAsItWas() throws {
    let pane = try TmuxPane(Self.wrapped("paywalls --controller scripted"))
    pane.wait(forText: "Unlock Acme Pro")
    try pane.send("C-c")
    #expect(pane.wait(forFile: "exit") == "130")
    let after = pane.wait(forFile: "stty.after")
    #expect(after == pane.file("stty.before"))
  }

  @Test func escapeSequencesInCopyNeverReachTheTerminal() throws {
    let paywall = #"""
      {"id": "evil", "name": "Evil", "products": {"primary": "com.acme.pro.annual"},
       "components": [
         {"type": "title", "text": "Pro\u001b]0;pwned\u0007 now\u001b[2J"},
         {"type": "products"},
         {"type": "button", "label": "Buy", "action": "purchase"}]}
      """#
    let dir = try Fixtures.directory(["catalog.json": try String(contentsOfFile: Fixtures.demoDirectory + "/catalog.json", encoding: .utf8),
                                      "evil.json": paywall])
    let pane = try TmuxPane(Self.wrapped("'\(dir)/evil.json' --controller scripted"))
    pane.wait(forText: "Pro]0;pwned now[2J")
    pane.wait(forText: "$59.99/year")
    #expect(pane.title != "pwned", "an OSC title sequence reached the terminal")
  }

  @Test func theStatusBarFollowsTheStreamWithNoKeyPressed() throws {
    // A command controller that sets the status on its own, a moment after it starts.
    let controller = """
      import sys, time, json
      time.sleep(0.3)
      print(json.dumps({"method": "setSubscriptionStatus", "status": "active", "entitlements": ["pro"]}), flush=True)
      for line in sys.stdin: pass
      """
    let dir = try Fixtures.directory(["ctl.py": controller])
    let pane = try TmuxPane(Self.wrapped("paywalls --controller command --controller-command 'python3 \(dir)/ctl.py'"))
    pane.wait(forText: "Unlock Acme Pro")
    pane.wait(forText: "status: active:pro")
  }

  @Test func theDebugPanelSetsTheStatus() throws {
    // The simulated store derives inactive from its empty ledger.
    let pane = try TmuxPane(Self.wrapped("paywalls"))
    pane.wait(forText: "status: inactive")
    try pane.send("d")
    pane.wait(forText: "Debug panel (QA)")
    try pane.send("s")
    pane.wait(forText: "status: active:lifetime,pro")
    try pane.send("s")
    pane.wait(forText: "status: unknown")
    // One entitlement and not the other, typed as --status takes it.
    try pane.send("=")
    pane.wait(forText: "active:ENTITLEMENT")
    try pane.send("active:pro")
    try pane.send("Enter")
    pane.wait(forText: "status: active:pro")
    #expect(!pane.screen.contains("active:lifetime,pro"))
  }

  /// The debug panel redeems an offer code as the App Store's sheet would: `o`, the code, enter.
  /// An unknown code and one the user may not redeem are a message in the panel, nothing more.
  @Test func theDebugPanelRedeemsAnOfferCode() throws {
    let pane = try TmuxPane(Self.wrapped("paywalls"))
    pane.wait(forText: "status: inactive")
    try pane.send("d")
    pane.wait(forText: "redeem an offer code")
    try pane.send("o")
    pane.wait(forText: "offer code▏")
    try pane.send("NOPE", "Enter")
    pane.wait(forText: "no offer code 'NOPE'")
    try pane.send("o")
    try pane.send("acmefriends", "Enter")
    pane.wait(forText: "redeemed offer code ACMEFRIENDS")
    pane.wait(forText: "status: active:pro")
    pane.wait(forText: "code ACMEFRIENDS · renews")
    try pane.send("o")
    try pane.send("ACMEFRIENDS", "Enter")
    pane.wait(forText: "this user is subscribed in its group now")
  }

  /// The simulated store's timer changes the status bar by itself: at renewal=2s a cancelled
  /// subscription expires within two seconds of the last key.
  @Test func theStatusBarChangesOnTheStoresClockWithNoKeyPressed() throws {
    let pane = try TmuxPane(Self.wrapped("paywalls --time-rate renewal=2s --start pro=subscribed"))
    pane.wait(forText: "status: active:pro")
    try pane.send("d")
    pane.wait(forText: "Debug panel (QA)")
    pane.wait(forText: "(renewal=2s)")
    try pane.send("c")
    pane.wait(forText: "auto-renewal off")
    try pane.send("Escape")
    pane.wait(for: "the debug panel to close") { !$0.contains("Debug panel (QA)") }
    // No key from here on: the store's timer ends the period and the status bar follows.
    pane.wait(forText: "status: inactive", within: 10)
  }

  /// Monochrome terminals and NO_COLOR get attributes only, and every text stays readable.
  @Test(arguments: [("vt100", false), ("xterm-256color", true), ("xterm-color", false), ("linux", false), ("screen", false)])
  func everyTerminalKindPaints(term: String, noColor: Bool) throws {
    let prefix = noColor ? "NO_COLOR=1 " : ""
    let pane = try TmuxPane(prefix + Self.wrapped("paywalls --controller scripted"), term: term)
    pane.wait(for: "the paywall on \(term)") { screen in
      ["Unlock Acme Pro", "$59.99/year", "▸ Start my free trial ◂", "status: unknown"].allSatisfy(screen.contains)
    }
    try pane.send("Right")
    pane.wait(forText: "● Monthly")
  }

  /// Wide characters keep their columns: the card borders after a CJK and emoji name line up.
  @Test func cjkAndEmojiKeepTheirColumns() throws {
    let catalog = """
      {"products": [
        {"id": "a", "name": "年間プラン 🎉", "price": "59.99", "period": "P1Y", "entitlements": ["pro"]},
        {"id": "b", "name": "月額", "price": "9.99", "period": "P1M", "entitlements": ["pro"]}]}
      """
    let paywall = """
      {"id": "jp", "name": "日本語", "products": {"primary": "a", "secondary": "b"},
       "components": [{"type": "title", "text": "プロにアップグレード 🚀"}, {"type": "products"},
                      {"type": "button", "label": "続ける", "action": "purchase"}]}
      """
    let dir = try Fixtures.directory(["catalog.json": catalog, "jp.json": paywall])
    let pane = try TmuxPane(Self.wrapped("'\(dir)/jp.json' --controller scripted"))
    pane.wait(forText: "プロにアップグレード 🚀")
    pane.wait(for: "card borders aligned after wide names") { screen in
      let lines = screen.split(separator: "\n").map(String.init)
      guard let top = lines.first(where: { $0.contains("╭") }), let name = lines.first(where: { $0.contains("年間プラン") }) else {
        return false
      }
      let corners = Self.columns(of: ["╭", "╮"], in: top)
      return corners.count == 4 && corners == Self.columns(of: ["│"], in: name)
    }
  }

  /// Display columns at which any of `markers` appear in `line`.
  static func columns(of markers: Set<Character>, in line: String) -> [Int] {
    var width = 0
    var found: [Int] = []
    for character in line {
      if markers.contains(character) { found.append(width) }
      width += DisplayWidth.of(character)
    }
    return found
  }

  @Test func anUnknownTermExitsWithCode3() throws {
    let pane = try TmuxPane(#""$BIN" run paywalls --state-dir "$DIR/state" 2> "$DIR/err"; echo $? > "$DIR/exit""#, term: "paywall-tui-no-such-term")
    #expect(pane.wait(forFile: "exit") == "3")
    #expect(pane.file("err")?.contains("unknown terminal type 'paywall-tui-no-such-term'") == true)
  }

  /// `--events` on a full disk in the interactive mode: the session goes on (the screen is what
  /// matters there), and on quitting the failure is said in one line and the exit code is 1.
  /// Before, the first event crashed the app with SIGILL, the terminal left raw.
  @Test func aFullEventsFileEndsTheSessionWithOneLineAndExitOne() throws {
    let pane = try TmuxPane("""
      stty -g > "$DIR/stty.before"
      "$BIN" run paywalls --controller scripted --state-dir "$DIR/state" --events /dev/full 2> "$DIR/err"
      echo $? > "$DIR/exit"
      stty -g > "$DIR/stty.after"
      """)
    pane.wait(forText: "Unlock Acme Pro")
    try pane.send("Right")
    pane.wait(forText: "● Monthly")
    try pane.send("q")
    try pane.send("q")
    #expect(pane.wait(forFile: "exit") == "1")
    #expect(pane.file("err") == "error: cannot write the events to /dev/full: No space left on device")
    #expect(pane.wait(forFile: "stty.after") == pane.file("stty.before"))
  }

  /// A terminal that cannot move the cursor (TERM=dumb has no `cup`) cannot show a screen: it is
  /// refused like an unknown TERM, and the terminal's modes are left as they were. Before, the app
  /// started and drew only its status line; then the refusal left the modes newterm had set.
  @Test(arguments: ["dumb"])
  func aTerminalWithoutCursorAddressingExitsWithCode3(term: String) throws {
    let pane = try TmuxPane("""
      stty -g > "$DIR/stty.before"
      "$BIN" run paywalls --state-dir "$DIR/state" 2> "$DIR/err"
      echo $? > "$DIR/exit"
      stty -g > "$DIR/stty.after"
      """, term: term)
    #expect(pane.wait(forFile: "exit") == "3")
    let error = pane.file("err") ?? ""
    #expect(error.contains("'\(term)' (TERM)") && error.contains("set TERM=xterm-256color"), "\(error)")
    #expect(error.split(separator: "\n").count == 1, "\(error)")
    // newterm had set its modes before the refusal: they are put back.
    #expect(pane.wait(forFile: "stty.after") == pane.file("stty.before"))
  }

  /// A controller that sets the status a thousand times a second (Benchmarks/flood_controller.py)
  /// while keys are pressed: every key shows within two seconds, the last status shows, memory
  /// does not grow with the changes, and the status cache holds the last one after quitting.
  /// (`python3 Benchmarks/status_flood.py` runs the same for a minute and prints the figures.)
  @Test func aFloodOfStatusChangesNeverHoldsUpTheKeys() throws {
    let pane = try TmuxPane("""
      FLOOD_SECONDS=4 FLOOD_REPORT="$DIR/report" "$BIN" run paywalls --controller command \\
        --controller-command 'python3 Benchmarks/flood_controller.py' --state-dir "$DIR/state" --fresh
      echo $? > "$DIR/exit"
      """)
    pane.wait(forText: "● Annual")
    let pid = try #require(try pane.appPID())
    func rss() -> Int {
      ProcessTable.residentKilobytes(of: pid) ?? 0
    }
    pane.wait(for: "the flood to start") { $0.contains("status: active:pro") || $0.contains("status: inactive") }
    let before = rss()
    var rounds = 0
    while pane.file("report") == nil {
      try pane.send("Right")
      guard pane.wait(forText: "● Monthly", within: 2) else { break }
      try pane.send("Left")
      guard pane.wait(forText: "● Annual", within: 2) else { break }
      rounds += 1
    }
    let after = rss()
    let sent = Int(pane.file("report")?.split(separator: " ").first ?? "") ?? 0
    #expect(sent >= 3000, "the flood ran: \(sent) changes")
    #expect(rounds >= 3, "keys were answered all through the flood (\(rounds) rounds)")
    pane.wait(forText: "status: active:done", within: 2)
    #expect(after - before < 4096, "RSS grew \(after - before) KiB over \(sent) status changes")
    try pane.send("q")
    try pane.send("q")
    #expect(pane.wait(forFile: "exit") == "0")
    #expect(pane.file("state/status.json")?.contains("\"active:done\"") == true, "\(pane.file("state/status.json") ?? "nil")")
  }

  /// Found with the flood: when the terminal went away mid-flood, the hangup waited behind the
  /// queued changes while the terminal thread, polling a stdin at end of file, reported it in a
  /// busy loop; the app lived on at full CPU. Now it exits.
  @Test func closingTheTerminalMidFloodEndsTheApp() throws {
    let pane = try TmuxPane("""
      FLOOD_SECONDS=60 "$BIN" run paywalls --controller command \\
        --controller-command 'python3 Benchmarks/flood_controller.py' --state-dir "$DIR/state" --fresh
      """)
    pane.wait(for: "the flood to start") { $0.contains("status: active:pro") || $0.contains("status: inactive") }
    let pid = try #require(try pane.appPID())
    // As when a terminal window is closed: the terminal's end goes away, the app's side hangs up.
    #expect(pane.serverPID > 0 && kill(pane.serverPID, SIGKILL) == 0)
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline && kill(pid, 0) == 0 && !Self.isZombie(pid) { usleep(20_000) }
    let alive = kill(pid, 0) == 0 && !Self.isZombie(pid)
    #expect(!alive, "the app (pid \(pid)) still runs 5 s after its terminal closed (state \(ProcessTable.state(of: pid) ?? "?"))")
    if alive { kill(pid, SIGKILL) }
  }

  /// A controller that floods stderr (Benchmarks/stderr_flood_controller.py): keys still move the
  /// selection, and `q` or SIGTERM quits at once with the usual code, taking the controller and
  /// the child it started with it. Before: keys, `q`, Ctrl-C, SIGTERM and SIGHUP were all ignored.
  @Test(arguments: ["q", "SIGTERM"])
  func aControllerFloodingStderrNeverHoldsUpTheKeysOrTheQuit(quit: String) throws {
    let pane = try TmuxPane("""
      FLOOD_PIDS="$DIR/pids" "$BIN" run paywalls --controller command \\
        --controller-command 'python3 Benchmarks/stderr_flood_controller.py' --state-dir "$DIR/state" --fresh
      echo $? > "$DIR/exit"
      """)
    pane.wait(forText: "● Annual")
    let pids = try #require(ControllerProcessTests.pids(in: pane.directory + "/pids"))
    defer { for pid in pids where !ControllerProcessTests.isGone(pid) { kill(pid, SIGKILL) } }
    try pane.send("Right")
    #expect(pane.wait(forText: "● Monthly", within: 5))
    try pane.send("Left")
    #expect(pane.wait(forText: "● Annual", within: 5))
    if quit == "q" {
      try pane.send("q")
      try pane.send("q")
    } else {
      let pid = try #require(try pane.appPID())
      kill(pid, SIGTERM)
    }
    #expect(pane.wait(forFile: "exit", within: 10) == (quit == "q" ? "0" : "143"))
    #expect(ControllerProcessTests.waitUntilGone(pids).isEmpty, "the controller \(pids[0]) or its child \(pids[1]) outlived the app")
  }

  static func isZombie(_ pid: Int32) -> Bool {
    ProcessTable.state(of: pid) == "Z"
  }
}

// MARK: - Issue 17 item 1: the project loads before the terminal is taken

extension TerminalEndToEndTests {
  /// `run` on a project with errors: the diagnostics are clean lines from column 0, nothing of
  /// ncurses reaches the terminal, its modes are as before, and the shell goes on. Before, ncurses
  /// had the terminal (no newline translation, the screen cleared) while the diagnostics printed:
  /// each line started where the last ended.
  @Test func runOnABrokenProjectPrintsCleanLinesAndLeavesTheShellUsable() throws {
    let broken = CascadeProject.paywall("main", product: "pro.annual").replacingOccurrences(of: "\"id\": \"main\",", with: "\"id\": \"main\",,")
    let project = try CascadeProject.directory(["main.json": broken])
    let pane = try TmuxPane("""
      cd '\(project)'
      echo "before the run"
      stty -g > "$DIR/stty.before"
      "$BIN" run . --state-dir "$DIR/state"
      echo "exit=$?"
      stty -g > "$DIR/stty.after"
      echo "the shell goes on"
      """, width: 160)
    #expect(pane.wait(forFile: "stty.after") == pane.file("stty.before"))
    pane.wait(forText: "the shell goes on")
    let rows = pane.screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    #expect(rows == [
      "before the run",
      "./main.json:2:16: error: invalid JSON: expected a quoted key, found ','",
      "./app.json:6:56: error: no paywall 'main': main.json failed to load, see above ($.campaigns[0].audiences[0].paywall)",
      "./app.json:7:80: error: no paywall 'main': main.json failed to load, see above ($.campaigns[1].audiences[1].paywall)",
      "error: . has 1 problem; fix it or run 'paywall-tui validate .'",
      "exit=1",
      "the shell goes on",
    ], "\(rows.joined(separator: "\n"))")
    #expect(!pane.alternateScreen)
  }

  /// The same under a pty with nothing reading the screen: not one escape sequence is written
  /// (no `\e[?1049l` for a screen that never opened, no cursor addressing), and every line ends
  /// with the terminal's own CR LF.
  @Test func runOnABrokenProjectWritesNoEscapeSequences() throws {
    let broken = CascadeProject.catalog.replacingOccurrences(of: "\"59.99\"", with: "\"59,99\"")
    let project = try CascadeProject.directory(["catalog.json": broken])
    let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/script"),
                                            ["-qec", "\"$BIN\" run '\(project)' --state-dir '\(project)/state'", "/dev/null"],
                                            environment: ["BIN": PaywallBinary.binary.path, "TERM": "xterm-256color"])
    #expect(result.status == 1)
    #expect(!result.stdout.contains("\u{1b}"), "\(result.stdout.debugDescription)")
    let lines = result.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    #expect(lines.count == 6 && lines.allSatisfy { !$0.contains("\n") && !$0.contains("\r") }, "\(result.stdout.debugDescription)")
    #expect(lines.last == "error: \(project) has 1 problem; fix it or run 'paywall-tui validate \(project)'")
  }

  /// A warning (an unknown storefront) is printed on stderr before the screen opens, so it is
  /// there when the session ends, and shown in the status bar while it runs.
  @Test func aWarningIsPrintedBeforeTheScreenOpensAndShownInTheApp() throws {
    let pane = try TmuxPane("""
      mkdir "$DIR/p" && cp paywalls/onboarding.json paywalls/acme.storekit "$DIR/p/"
      sed -i 's/"_storefront" : "USA"/"_storefront" : "USX"/' "$DIR/p/acme.storekit"
      "$BIN" run "$DIR/p/onboarding.json" --catalog "$DIR/p/acme.storekit" --controller scripted --state-dir "$DIR/state"
      echo "exit=$?"
      """, width: 200)
    pane.wait(forText: "Unlock Acme Pro")
    #expect(pane.wait(forText: "unknown storefront 'USX'"))
    try pane.send("q")
    try pane.send("q")
    pane.wait(forText: "exit=0")
    let rows = pane.screen.split(separator: "\n").map(String.init)
    #expect(rows.contains { $0.hasPrefix(pane.directory + "/p/acme.storekit:") && $0.contains(": warning: unknown storefront 'USX'") },
            "\(rows.joined(separator: "\n"))")
  }
}
