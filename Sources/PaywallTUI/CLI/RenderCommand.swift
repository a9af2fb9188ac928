import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
      .option("color", "when", "ANSI colours: auto (when stdout is a terminal and NO_COLOR is unset), always or never.",
              values: .words(ColorChoice.allCases.map(\.rawValue))),
    ],
    examples: [
      "paywall-tui render paywalls/plans.json --size 40x12         # a narrow terminal",
      "paywall-tui render paywalls --paywall winback --select secondary",
      "paywall-tui render paywalls/onboarding.json --catalog paywalls/acme.storekit --override primary=com.acme.pro.weekly --color always",
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
    // A picture of what was not asked for misleads: a bad override is an error here (the SDK, and
    // `run`/`play`, ignore it with a warning).
    let errors = definition.overrideErrors(overrides, catalog: project.catalog)
    for error in errors { try Console.error("error: \(error)") }
    guard errors.isEmpty else { throw CLIFailure.invalid() }
    let (overridden, _) = definition.applying(overrides, catalog: project.catalog)
    if let select, !overridden.slotNames.contains(select) {
      throw CLIFailure.usage("--select \(quoting: select): paywall \(quoting: definition.id) has no such slot\(Suggestions.hint(for: select, in: overridden.slotNames)) (slots: \(overridden.slotNames.joined(separator: ", ")))")
    }
    let resolved = ResolvedPaywall(overridden, catalog: project.catalog, now: now)
    return PaywallScreenState(paywall: resolved, selectedSlot: select)
  }
}
