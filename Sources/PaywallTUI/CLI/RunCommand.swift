import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PaywallModel

struct RunCommand: CLICommand {
  static let spec = CommandSpec(
    name: "run",
    abstract: "Open a project or paywall in the terminal (default: the bundled demo).",
    discussion: "Needs a terminal: without one it exits with code 3 and points at render and play.",
    positionals: [PositionalSpec(name: "path", help: "A project directory, its app.json, or a paywall file.", count: .optional)],
    options: ProjectOptions.options + SessionOptions.options,
    examples: [
      "paywall-tui                                                  # the bundled demo",
      "paywall-tui run paywalls --controller ask                    # you pick each purchase's result",
      "paywall-tui paywalls --home                                  # start on the home screen's placements",
      "paywall-tui paywalls --start pro=gracePeriod --time-rate day=10s   # a subscriber whose card just failed",
    ]
  )

  var path: String?
  var project: ProjectOptions
  var session: SessionOptions

  init(_ arguments: Arguments) throws(CLIFailure) {
    path = arguments.positionals.first
    project = ProjectOptions(arguments)
    session = try SessionOptions(arguments)
  }

  func run() throws {
    guard let path = path ?? DemoProject.locate() else {
      throw CLIFailure.usage("no project given, and the bundled demo (paywalls/ of the source tree) is not here; pass a project path, or make one: paywall-tui init my-paywalls")
    }
    // Checked before anything is loaded or started, so a pipe gets one clear line and exit code 3.
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
      // The hint is a command to copy; a path too long to echo (a mistyped subcommand) becomes PATH.
      let shown = path.count > UntrustedText.excerptLimit ? "PATH" : path
      throw CLIFailure(message: "error: paywall-tui run needs a terminal (stdin and stdout); use 'paywall-tui render \(shown)' to print a paywall or 'paywall-tui play \(shown) --keys \"…\"' to script one", code: 3)
    }
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
      throw CLIFailure(message: "error: \(error.description)", code: 3)
    }
    let app: AppSession
    let eventFile: EventFile?
    let loaded: Project
    do {
      loaded = try project.load(path)
      eventFile = try session.openEventFile()
      app = try AppSession.make(project: loaded, path: path, options: session, overrides: try project.parsedOverrides(),
                                clock: LiveTimeSource(), inbox: inbox, animates: true) { event in eventFile?.writeOrRecord(event) }
    } catch {
      // Ends the terminal thread before it touched the terminal.
      terminal.stop()
      throw error
    }
    terminal.open()
    defer { app.command?.stop() }
    // Every way out waits for the state files being written (the new user's id, kept after the
    // first frame): a process that ends during a write leaves its temporary file behind.
    defer { app.runtime.flushState() }
    // The project's warnings were printed on stderr before the screen opened; the screen hides
    // them, so they are in the status bar and the log too.
    for warning in loaded.warnings.map(\.description) + app.warnings { app.runtime.send(.notice(warning)) }
    let start: AppMessage? = session.placement.map { .register(placement: $0, params: [:]) }
      ?? app.firstPaywall.map { .open(paywallID: $0, selected: nil) }
    let ending: InteractiveLoop.Ending
    do {
      ending = try InteractiveLoop.run(app.runtime, terminal: terminal, start: start, afterFirstFrame: app.keepNewUser)
    } catch {
      throw CLIFailure(message: "error: \(error.description)", code: 3)
    }
    // The next session on this state directory continues from this moment of the store's clock.
    app.store?.checkpoint()
    app.runtime.flushState()
    if let summary = ending.summary { try Console.out(summary) }
    if ending.exitCode != 0 { throw CLIFailure(message: "", code: ending.exitCode) }
  }
}
