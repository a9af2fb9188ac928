import CTerminalGuard
import Foundation
import PaywallModel

/// `paywall-tui`: the root command. `run` is the default subcommand.
package enum PaywallCommand {
  static var subcommands: [any CLICommand.Type] {
    [RunCommand.self, ValidateCommand.self, RenderCommand.self, PlayCommand.self, ExplainCommand.self, StoreCommand.self]
      + [ImportCommand.self]
  }

  static var help: String {
    var lines = [
      "OVERVIEW: A terminal paywall emulator: render, validate and demo JSON-defined paywalls.",
      "",
      "USAGE: paywall-tui [<subcommand>] [<arguments>] [options]",
      "",
      "SUBCOMMANDS:",
    ]
    for command in subcommands {
      lines.append(HelpTable.row(command.spec.name + (command == RunCommand.self ? " (default)" : ""), command.spec.abstract))
    }
    lines += ["", "  See 'paywall-tui help <subcommand>' or 'paywall-tui <subcommand> --help' for its options."]
    return lines.joined(separator: "\n")
  }

  /// Runs the command line with the exit codes the spec names: 0 ok, 1 validation or scenario
  /// failure, 2 usage error, 3 no terminal; 128 + N after signal N. Errors are one line on stderr,
  /// never a stack trace. A write that fails ends the program too (see `Console.finish`).
  package static func run(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
    // First, for every command: our own handlers for every signal that ends a program, in place
    // of the Swift runtime's crash reporter (which at a terminal waits 30 s on "Press space").
    tg_install_process_handlers()
    do {
      try dispatch(arguments)
      Console.finish(0)
    } catch let failure as CLIFailure {
      if !failure.message.isEmpty { Console.warn(failure.message) }
      Console.finish(failure.code)
    } catch let failure as OutputFailure {
      Console.record(failure)
      Console.finish(1)
    } catch {
      Console.warn("error: \(error)")
      Console.finish(1)
    }
  }

  private static func dispatch(_ arguments: [String]) throws {
    var rest = arguments
    let named = rest.first.flatMap { name in subcommands.first { $0.spec.name == name } }
    if named != nil { rest.removeFirst() }
    if named == nil, rest.first == "help" {
      guard let topic = rest.dropFirst().first else { return try Console.out(help) }
      guard let command = subcommands.first(where: { $0.spec.name == topic }) else {
        throw CLIFailure.usage("no subcommand \(quoting: topic)\(Suggestions.hint(for: topic, in: subcommands.map { $0.spec.name })); see 'paywall-tui --help'")
      }
      return try Console.out(command.spec.help)
    }
    if named == nil, rest.first == "-h" || rest.first == "--help" {
      return try Console.out(help)
    }
    let type = named ?? RunCommand.self
    let parsed = try Arguments(rest, spec: type.spec)
    if parsed.wantsHelp {
      return try Console.out(type.spec.help)
    }
    try type.init(parsed).run()
  }
}

/// An error the CLI reports itself: its message (already one clear line) and exit code.
struct CLIFailure: Error {
  var message: String
  var code: Int32

  static func usage(_ message: String) -> CLIFailure { CLIFailure(message: "error: \(message)", code: 2) }
  static func invalid(_ message: String = "") -> CLIFailure { CLIFailure(message: message, code: 1) }
}

/// Where the bundled demo project is: `./paywalls` when run from the repository (as `swift run`
/// does), else found by walking up from the executable.
enum DemoProject {
  static func locate() -> String? {
    let cwd = FileManager.default.currentDirectoryPath
    var candidates = [cwd]
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<6 {
      candidates.append(directory.path)
      directory.deleteLastPathComponent()
    }
    for base in candidates {
      let path = (base as NSString).appendingPathComponent("paywalls")
      if FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(ProjectLoader.projectFileName)) {
        return path
      }
    }
    return nil
  }
}

/// Options shared by commands that open a project.
struct ProjectOptions {
  static let options: [OptionSpec] = [
    .option("catalog", "file", "Catalog for a single paywall file (.json or .storekit)."),
    .option("override", "name=id", "Replace a slot's product before display.", repeatable: true),
  ]

  var catalog: String?
  var overrides: [String] = []

  init(_ arguments: Arguments) {
    catalog = arguments.value("catalog")
    overrides = arguments.values("override")
  }

  init(catalog: String?) {
    self.catalog = catalog
  }

  func parsedOverrides() throws -> [SlotOverride] {
    try overrides.map { text in
      guard let o = SlotOverride(argument: text) else {
        throw CLIFailure.usage("--override \(quoting: text) must be NAME=PRODUCT_ID, e.g. --override primary=com.acme.pro.monthly")
      }
      return o
    }
  }

  /// Loads `path`, printing warnings; a path with errors prints them and fails with exit code 1.
  func load(_ path: String) throws -> Project {
    try Self.load(path, catalog: catalog)
  }

  static func load(_ path: String, catalog: String?) throws -> Project {
    let result = ProjectLoader.load(path: path, catalogPath: catalog)
    for diagnostic in result.diagnostics {
      try Console.error(diagnostic.description)
    }
    guard let project = result.project else {
      throw CLIFailure.invalid("error: \(path) has \(result.errors.count) problem\(result.errors.count == 1 ? "" : "s"); fix them or run 'paywall-tui validate \(path)'")
    }
    return project
  }
}
