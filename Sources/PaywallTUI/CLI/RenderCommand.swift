import ArgumentParser
import Foundation
import PaywallModel

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
  case auto, always, never
}

struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Print a paywall exactly as the interactive mode draws it, as text."
  )

  @Argument(help: ArgumentHelp("A paywall file or a project directory (its first paywall, or --paywall).", valueName: "path"))
  var path: String

  @OptionGroup var project: ProjectOptions

  @Option(name: .long, help: ArgumentHelp("Which paywall of a project to draw.", valueName: "id"))
  var paywall: String?

  @Option(name: .long, help: ArgumentHelp("Screen size, WIDTHxHEIGHT.", valueName: "size"))
  var size: String = "80x24"

  @Option(name: .long, help: ArgumentHelp("Slot to show as selected.", valueName: "slot"))
  var select: String?

  @Option(name: .long, help: "ANSI colours: auto (when stdout is a terminal and NO_COLOR is unset), always or never.")
  var color: ColorChoice = .auto

  func run() throws {
    guard let size = Size(size) else {
      throw CLIFailure.usage("--size '\(self.size)' must be WIDTHxHEIGHT, e.g. 80x24")
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
    Console.out(useColor ? FrameText.ansi(frame) : FrameText.plain(frame))
  }

  /// The screen state for one paywall of `project`, with overrides and a selection applied.
  static func screen(for project: Project, paywall id: String?, select: String?, overrides: [SlotOverride],
                     now: Date = Date()) throws -> PaywallScreenState {
    guard !project.paywalls.isEmpty else {
      throw CLIFailure.usage("\(project.catalog.file) is a catalog; give a paywall file or a project directory")
    }
    let ids = project.paywalls.map(\.id)
    guard let definition = id.map({ project.paywall(id: $0) }) ?? project.paywalls.first else {
      throw CLIFailure.usage("no paywall '\(id!)'\(Suggestions.hint(for: id!, in: ids)) (paywalls: \(ids.joined(separator: ", ")))")
    }
    let (overridden, warnings) = definition.applying(overrides, catalog: project.catalog)
    for warning in warnings { Console.error("warning: \(warning)") }
    if let select, !overridden.slotNames.contains(select) {
      throw CLIFailure.usage("--select '\(select)': paywall '\(definition.id)' has no such slot\(Suggestions.hint(for: select, in: overridden.slotNames)) (slots: \(overridden.slotNames.joined(separator: ", ")))")
    }
    let resolved = ResolvedPaywall(overridden, catalog: project.catalog, now: now)
    return PaywallScreenState(paywall: resolved, selectedSlot: select)
  }
}

struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Open a project or paywall (default: the bundled demo)."
  )

  @Argument(help: ArgumentHelp("A project directory, its app.json, or a paywall file.", valueName: "path"))
  var path: String?

  @OptionGroup var project: ProjectOptions

  func run() throws {
    guard let path = path ?? DemoProject.locate() else {
      throw CLIFailure.usage("no project given and the bundled demo (paywalls/app.json) was not found; pass a path")
    }
    let loaded = try project.load(path)
    let screen = try RenderCommand.screen(for: loaded, paywall: nil, select: nil, overrides: try project.parsedOverrides())
    // The interactive ncurses front end is the next milestone; until it lands, `run` prints what
    // it will show, exactly as `render` does, and says so.
    Console.error("note: the interactive mode is not built yet; showing \(path) as 'paywall-tui render' draws it (80x24)")
    Console.out(FrameText.plain(PaywallRenderer.render(screen, size: Size(width: 80, height: 24))))
  }
}
