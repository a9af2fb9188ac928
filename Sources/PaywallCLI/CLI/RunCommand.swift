#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTerminalGuard
import PaywallModel
import PaywallScenarios
import CursesBackend
import PaywallUI

package struct RunCommand: CLICommand {
  package static let spec = CommandSpec(
    name: "run",
    abstract: "Open a project or paywall in the terminal (default: the demo project).",
    discussion: "Needs a terminal: without one it exits with code 3 and points at render and play.",
    positionals: [PositionalSpec(name: "path", help: "A project directory, its app.json, or a paywall file.", count: .optional)],
    options: ProjectFlags.all + SessionFlags.all + [RunFlags.watch.option, RunFlags.record.option],
    examples: [
      "paywall-tui                                                  # the demo: paywalls/ of the source tree, else the copy built in",
      "paywall-tui run paywalls --controller ask                    # you pick each purchase's result",
      "paywall-tui paywalls --home                                  # start on the home screen's placements",
      "paywall-tui paywalls --start pro=gracePeriod --time-rate day=10s   # a subscriber whose card just failed",
      "paywall-tui run paywalls --watch                             # edit a paywall in another window: the screen follows",
      "paywall-tui paywalls --fresh --record bug.play               # then: paywall-tui play bug.play --screen",
    ]
  )

  package var path: String?
  package var project: ProjectOptions
  package var session: SessionConfiguration
  package var watch: Bool
  package var record: String?
  /// The command line as given, for a recording's `# args:` line.
  package var raw: [String]
  /// `demo`: the project built into the binary, even where a paywalls/ folder is found.
  package var builtInDemo = false

  package init(_ arguments: Arguments) throws(CLIFailure) {
    record = arguments[RunFlags.record]
    raw = arguments.raw
    path = arguments.positionals.first
    project = ProjectOptions(arguments)
    session = try SessionConfiguration(arguments)
    watch = arguments[RunFlags.watch]
  }

  package func run() async throws {
    try await start().body()
  }

  /// Everything up to the first frame, on the calling thread: the project loaded, the session
  /// built, the terminal opened and the first frame drawn. The rest is the loop and the ending.
  package func start() throws -> CommandRest {
    // With no path: the source tree's paywalls/ (`swift run`), else the demo built into the
    // binary (an installed one), which is written out only once a terminal is there to show it.
    let located = path ?? (builtInDemo ? nil : DemoProject.locate())
    // A file --record may not write is a usage error, told before anything else.
    if let record {
      if let refusal = SessionRecorder.refusal(record) { throw CLIFailure.usage(refusal) }
    }
    // Checked before anything is loaded or started, so a pipe gets one clear line and exit code 3.
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
      guard let located else {
        throw CLIFailure(message: "error: paywall-tui \(builtInDemo ? "demo" : "run") needs a terminal (stdin and stdout); to print or script the demo instead, write it out with 'paywall-tui init --demo DIR', then use 'paywall-tui render DIR' or 'paywall-tui play DIR --keys \"…\"'", code: ExitStatus.noTerminal.rawValue)
      }
      // The hint is a command to copy; a path too long to echo (a mistyped subcommand) becomes PATH.
      let shown = located.count > UntrustedText.excerptLimit ? "PATH" : located
      throw CLIFailure(message: "error: paywall-tui run needs a terminal (stdin and stdout); use 'paywall-tui render \(shown)' to print a paywall or 'paywall-tui play \(shown) --keys \"…\"' to script one", code: ExitStatus.noTerminal.rawValue)
    }
    let path = try located ?? EmbeddedDemo.write()
    // Independent of the project, so the terminal thread gets ready while the project loads; it
    // takes the terminal (ncurses' modes and first output) only at `open`, once the project has
    // loaded and the session is built. Until then the terminal is as the shell left it, so the
    // diagnostics of a project that does not load, and the warnings of one that does, print as
    // clean lines on stderr.
    let inbox = AppInbox()
    let terminal = CursesTerminal { inbox.send($0.message) }
    do {
      try terminal.begin()
    } catch {
      throw CLIFailure(message: "error: \(error.description)", code: ExitStatus.noTerminal.rawValue)
    }
    let app: AppSession
    let eventFile: EventFile?
    let loaded: Project
    let watching: ProjectWatch?
    let overrides: [SlotOverride]
    var recorder: SessionRecorder?
    do {
      let result = ProjectLoader.load(path: path, catalogPath: project.catalog, sdk: session.sdkChoice)
      loaded = session.localized(try ProjectOptions.checked(result, path: path))
      eventFile = try session.openEventFile()
      overrides = try project.parsedOverrides()
      app = try AppSession.make(project: loaded, path: path, options: session, overrides: overrides,
                                clock: LiveTimeSource(), inbox: inbox, animates: true) { event in eventFile?.writeOrRecord(event) }
      // The session's own files (state, events) may be in the project: never a save.
      let own = (app.stateDirectory.map { directory in StateDirectory.stateFileNames.map(directory.file) } ?? [])
        + [session.events].compactMap { $0 }
      watching = watch ? try Self.watcher(path: path, catalog: project.catalog, sdk: session.sdkChoice, loaded: result, ignoring: own) : nil
      if let record {
        recorder = try Self.startRecording(record, app: app, path: path, raw: raw, options: session)
        app.runtime.recorder = recorder
      }
    } catch {
      // Ends the terminal thread before it touched the terminal.
      terminal.stop()
      throw error
    }
    // Once the loop has given the terminal back, a signal that ends the program waits until the
    // state and the recording's ending are written, then ends it: a terminal that goes away ends
    // the loop by its input's end of file, and its SIGHUP comes a moment later (when the shell that
    // owned it has died), which used to kill the program between the two and lose the ending.
    // During the loop signals quit through it, as ever. Held from before the terminal opens, so a
    // Ctrl-C while it opens reaches the loop; nothing between here and the loop throws.
    tg_hold_ending_signals()
    terminal.open()
    watching?.start { [session] result in
      if let project = result.project {
        let (prepared, warnings) = AppSession.prepared(session.localized(project), options: session, overrides: overrides, warningsFor: nil)
        inbox.send(.projectReloaded(prepared, warnings: result.warnings.map(\.description) + warnings))
      } else {
        inbox.send(.projectInvalid(result.errors.map(\.description)))
      }
    }
    // The project's warnings were printed on stderr before the screen opened; the screen hides
    // them, so they are in the status bar and the log too.
    for warning in loaded.warnings.map(\.description) + app.warnings { app.runtime.send(.notice(warning)) }
    app.runtime.send(.presentation(.launch(firstInstall: app.isFirstLaunch)))
    let start: AppMessage? = session.placement.map { .presentation(.register(placement: $0, params: [:])) }
      ?? app.firstPaywall.map { .presentation(.open(paywallID: $0, selected: nil)) }
    let started: InteractiveLoop.Started
    do {
      started = try InteractiveLoop.start(app.runtime, terminal: terminal, start: start, afterFirstFrame: app.keepNewUser)
    } catch {
      Self.stop(app, watching)
      tg_release_ending_signals()
      throw CLIFailure(message: "error: \(error.description)", code: ExitStatus.noTerminal.rawValue)
    }
    return CommandRest { [recorder] in
      defer { Self.stop(app, watching) }
      try await Self.finish(started, app: app, recorder: recorder)
    }
  }

  /// Every way out, in this order: the state files being written are waited for (the new user's
  /// id, kept after the first frame: a process that ends during a write leaves its temporary file
  /// behind), then the watch and the controller's process end.
  private static func stop(_ app: AppSession, _ watching: ProjectWatch?) {
    app.runtime.flushState()
    watching?.stop()
    app.command?.stop()
  }

  /// The loop, then the session's ending: its state and recording written, its summary printed.
  private static func finish(_ started: InteractiveLoop.Started, app: AppSession, recorder: SessionRecorder?) async throws {
    let ending = await started.finish()
    // The next session on this state directory continues from this moment of the store's clock.
    app.store?.checkpoint()
    app.runtime.flushState()
    // Before any output, which fails once the terminal is gone (SIGHUP).
    recorder?.finish(app.runtime.state)
    tg_release_ending_signals()
    if let summary = ending.summary { try Console.out(summary) }
    if let recorder {
      if let failure = recorder.failure {
        Console.warn("warning: the recording \(recorder.path) stopped early: \(failure); it replays up to there")
      } else {
        try Console.out("recorded: \(recorder.path); replay: paywall-tui play \(ShellWord.quoted(recorder.path)) --screen")
      }
    }
    if ending.exitCode != 0 { throw CLIFailure(message: "", code: ending.exitCode) }
  }

  /// The watch of `--watch`, or exit code 1 with the reason the system refused it.
  package static func watcher(path: String, catalog: String?, sdk: SDKChoice = SDKChoice(), loaded: ProjectLoadResult,
                              ignoring: [String] = []) throws(CLIFailure) -> ProjectWatch {
    do {
      return try ProjectWatch(path: path, catalog: catalog, sdk: sdk, loaded: loaded, ignoring: ignoring)
    } catch {
      throw CLIFailure(message: "error: --watch: \(error.description)", code: ExitStatus.failed.rawValue)
    }
  }

  /// Options a recording leaves out: where this session kept its state and events, and the ones
  /// it writes itself from what the session started with.
  package static let notReplayed: Set<String> = [RunFlags.record.name, SessionFlags.stateDir.name, SessionFlags.fresh.name,
                                                  SessionFlags.reinstall.name, SessionFlags.events.name, SessionFlags.status.name,
                                                  SessionFlags.userID.name, SessionFlags.controllerCommand.name, SessionFlags.controllerTimeout.name]

  /// Starts `--record`: the `# args:` line is this command line's options for `play` (paths made
  /// relative to the recording's folder, as `play` and `test` read that line, so the recording
  /// replays beside its project on another machine) with the session's start (its store's clock to
  /// the millisecond, the user, the status).
  package static func startRecording(_ file: String, app: AppSession, path: String, raw: [String],
                             options session: SessionConfiguration) throws(CLIFailure) -> SessionRecorder {
    let world = app.runtime.world
    let clock = world.adjustableClocks.last ?? LiveTimeSource()
    let state = app.runtime.state
    let folder = absolute(ScenarioPaths.folder(of: file))
    var arguments = [ScenarioPaths.relative(absolute(path), from: folder)] + replayed(raw, folder: folder)
      + ["--user-id", state.presentation.assignments.userID]
    if state.status != .unknown { arguments += ["--status", state.status.description] }
    var notes: [String] = []
    if let store = app.store, session.start.isEmpty, !store.entries.isEmpty {
      notes.append("this session began on a saved ledger of \(store.entries.count) transactions; the replay starts from an empty one (record with --fresh for one that matches)")
    }
    let recorder = try CLIFailure.reporting { () throws(PlayFailure) in
      try SessionRecorder.start(path: file, arguments: { now in arguments + ["--clock", millisecondISO(now)] },
                                clock: clock, notes: notes, version: PaywallCommand.version)
    }
    recorder.onFailure = { [runtime = app.runtime] message in runtime.send(.notice(message)) }
    recorder.answersFromController = session.controller == .command
    return recorder
  }

  /// The options of `raw` that `play` takes, `--catalog`'s file made relative to `folder` (the
  /// recording's, absolute); the positional path and `notReplayed` left out.
  package static func replayed(_ raw: [String], folder: String) -> [String] {
    var out: [String] = []
    var index = 0
    while index < raw.count {
      let word = raw[index]
      index += 1
      if word == "--" { break }
      guard word.hasPrefix("--") else { continue }
      let body = word.dropFirst(2)
      let (name, inline) = body.firstIndex(of: "=").map { (String(body[..<$0]), Optional(String(body[body.index(after: $0)...]))) }
        ?? (String(body), nil)
      guard let option = spec.options.first(where: { $0.name == name }) else { continue }
      var value: String?
      if option.placeholder != nil {
        value = inline ?? (index < raw.count ? raw[index] : nil)
        if inline == nil { index += 1 }
      }
      guard !notReplayed.contains(name) else { continue }
      if name == ProjectFlags.catalog.name, let file = value { value = ScenarioPaths.relative(absolute(file), from: folder) }
      // A command controller's answers are steps of the recording: the replay needs no process.
      if name == SessionFlags.controller.name, value == ControllerKind.command.rawValue { value = ControllerKind.scripted.rawValue }
      out += ["--" + name] + (value.map { [$0] } ?? [])
    }
    return out
  }

  /// `path` from the current directory, absolute; one already absolute as it is.
  package static func absolute(_ path: String) -> String {
    // Tidied for the `# args:` line a person reads: `.` is the directory itself, `./x` is `x`.
    if path == "." { return FileManager.default.currentDirectoryPath }
    return (path.hasPrefix("./") ? String(path.dropFirst(2)) : path).absolutePath
  }

  /// `2026-11-23T01:15:57.123Z`: `date` to the millisecond, as `play --clock` reads it.
  package static func millisecondISO(_ date: Date) -> String {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
    let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
    let text = StoreDates.format(Date(timeIntervalSince1970: Double(seconds))).replacing(" ", with: "T")
    return text + "." + String(String(fraction + 1000).dropFirst()) + "Z"
  }
}

/// `run`'s own options (it takes `ProjectFlags` and `SessionFlags` too; `demo` takes them all).
package enum RunFlags {
  package static let watch = Flag.bool("watch", "Reload the project whenever one of its files is saved, keeping the session (status, store, selection, the open paywall); a save that does not load shows its errors over the last good screen.")
  package static let record = Flag.text("record", "file", "Record the session as a play script that 'paywall-tui play FILE' replays (keys, resizes, the store's time between them); an existing file is replaced only if it is such a recording.")
}
