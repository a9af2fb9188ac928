import Foundation
import PaywallModel

enum ColorChoice: String, CaseIterable {
  case auto, always, never
}

struct RenderCommand: CLICommand {
  static let spec = CommandSpec(
    name: "render",
    abstract: "Print a paywall exactly as the interactive mode draws it, as text.",
    positionals: [PositionalSpec(name: "path", help: "A paywall file or a project directory (its first paywall, or --paywall).", count: .one)],
    options: ProjectOptions.options + [
      .option("paywall", "id", "Which paywall of a project to draw."),
      .option("size", "size", "Screen size, WIDTHxHEIGHT (default 80x24)."),
      .option("select", "slot", "Slot to show as selected."),
      .option("color", "when", "ANSI colours: auto (when stdout is a terminal and NO_COLOR is unset), always or never."),
    ]
  )

  var path: String
  var project: ProjectOptions
  var paywall: String?
  var size: String
  var select: String?
  var color: ColorChoice

  init(_ arguments: Arguments) throws(CLIFailure) {
    path = arguments.positionals[0]
    project = ProjectOptions(arguments)
    paywall = arguments.value("paywall")
    size = arguments.value("size") ?? "80x24"
    select = arguments.value("select")
    color = try arguments.choice("color", default: .auto)
  }

  func run() throws {
    guard let size = Size(size) else {
      throw CLIFailure.usage("--size \(quoting: self.size) must be WIDTHxHEIGHT, e.g. 80x24")
    }
    let overrides = try project.parsedOverrides()
    let loaded = try project.load(path)
    let screen = try Self.screen(for: loaded, paywall: paywall, select: select, overrides: overrides)
    let frame = PaywallRenderer.render(screen, size: size)
    let useColor = switch color {
    case .always: true
    case .never: false
    case .auto: isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }
    try Console.out(useColor ? FrameText.ansi(frame) : FrameText.plain(frame))
  }

  /// The screen state for one paywall of `project`, with overrides and a selection applied.
  static func screen(for project: Project, paywall id: String?, select: String?, overrides: [SlotOverride],
                     now: Date = Date()) throws -> PaywallScreenState {
    guard !project.paywalls.isEmpty else {
      throw CLIFailure.usage("\(project.catalog.file) is a catalog; give a paywall file or a project directory")
    }
    let ids = project.paywalls.map(\.id)
    guard let definition = id.map({ project.paywall(id: $0) }) ?? project.paywalls.first else {
      throw CLIFailure.usage("no paywall \(quoting: id!)\(Suggestions.hint(for: id!, in: ids)) (paywalls: \(ids.joined(separator: ", ")))")
    }
    let (overridden, warnings) = definition.applying(overrides, catalog: project.catalog)
    for warning in warnings { try Console.error("warning: \(warning)") }
    if let select, !overridden.slotNames.contains(select) {
      throw CLIFailure.usage("--select \(quoting: select): paywall \(quoting: definition.id) has no such slot\(Suggestions.hint(for: select, in: overridden.slotNames)) (slots: \(overridden.slotNames.joined(separator: ", ")))")
    }
    let resolved = ResolvedPaywall(overridden, catalog: project.catalog, now: now)
    return PaywallScreenState(paywall: resolved, selectedSlot: select)
  }
}

struct RunCommand: CLICommand {
  static let spec = CommandSpec(
    name: "run",
    abstract: "Open a project or paywall in the terminal (default: the bundled demo).",
    discussion: "Needs a terminal: without one it exits with code 3 and points at render and play.",
    positionals: [PositionalSpec(name: "path", help: "A project directory, its app.json, or a paywall file.", count: .optional)],
    options: ProjectOptions.options + SessionOptions.options
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
      throw CLIFailure.usage("no project given and the bundled demo (paywalls/app.json) was not found; pass a path")
    }
    // Checked before anything is loaded or started, so a pipe gets one clear line and exit code 3.
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
      // The hint is a command to copy; a path too long to echo (a mistyped subcommand) becomes PATH.
      let shown = path.count > UntrustedText.excerptLimit ? "PATH" : path
      throw CLIFailure(message: "error: paywall-tui run needs a terminal (stdin and stdout); use 'paywall-tui render \(shown)' to print a paywall or 'paywall-tui play \(shown) --keys \"…\"' to script one", code: 3)
    }
    // Independent of the project, so it runs while the project loads: ncurses opens on the
    // terminal thread.
    let opening: InteractiveLoop.Opening
    do {
      opening = try InteractiveLoop.Opening()
    } catch {
      throw CLIFailure(message: "error: \(error.description)", code: 3)
    }
    let app: AppSession
    let eventFile: EventFile?
    do {
      let loaded = try project.load(path)
      PriceFormatter.shared.prepare(for: loaded)
      eventFile = try session.openEventFile()
      app = try AppSession.make(project: loaded, path: path, options: session, overrides: try project.parsedOverrides(),
                                clock: LiveTimeSource()) { event in eventFile?.writeOrRecord(event) }
    } catch {
      opening.cancel()
      throw error
    }
    defer { app.command?.stop() }
    // Every way out waits for the state files being written (the new user's id, kept after the
    // first frame): a process that ends during a write leaves its temporary file behind.
    defer { app.runtime.flushState() }
    for warning in app.warnings { app.runtime.send(.notice(warning)) }
    let start: AppMessage? = session.placement.map { .register(placement: $0, params: [:]) }
      ?? app.firstPaywall.map { .open(paywallID: $0, selected: nil) }
    let ending: InteractiveLoop.Ending
    do {
      ending = try InteractiveLoop.run(app.runtime, opening: opening, start: start, afterFirstFrame: app.keepNewUser)
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
