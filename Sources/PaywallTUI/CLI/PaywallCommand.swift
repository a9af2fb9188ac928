import ArgumentParser
import Foundation
import PaywallModel

/// `paywall-tui`: the root command. `run` is the default subcommand.
public struct PaywallCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "paywall-tui",
    abstract: "A terminal paywall emulator: render, validate and demo JSON-defined paywalls.",
    subcommands: [RunCommand.self, ValidateCommand.self, RenderCommand.self, PlayCommand.self],
    defaultSubcommand: RunCommand.self
  )

  public init() {}

  /// Runs the command line with the exit codes the spec names: 0 ok, 1 validation or scenario
  /// failure, 2 usage error, 3 no terminal. Errors are one line on stderr, never a stack trace.
  public static func run(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
    do {
      var command = try parseAsRoot(arguments)
      try command.run()
      Foundation.exit(0)
    } catch let failure as CLIFailure {
      if !failure.message.isEmpty { Console.error(failure.message) }
      Foundation.exit(failure.code)
    } catch {
      let code = exitCode(for: error)
      let message = fullMessage(for: error)
      if code == .success {
        if !message.isEmpty { print(message) }
        Foundation.exit(0)
      }
      Console.error(message)
      // ArgumentParser reports usage errors as 64 (EX_USAGE); ours is 2.
      Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
    }
  }
}

/// An error the CLI reports itself: its message (already one clear line) and exit code.
struct CLIFailure: Error {
  var message: String
  var code: Int32

  static func usage(_ message: String) -> CLIFailure { CLIFailure(message: "error: \(message)", code: 2) }
  static func invalid(_ message: String = "") -> CLIFailure { CLIFailure(message: message, code: 1) }
}

enum Console {
  static func error(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  static func out(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }
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
struct ProjectOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("Catalog for a single paywall file (.json or .storekit).", valueName: "file"))
  var catalog: String?

  @Option(name: .customLong("override"), help: ArgumentHelp("Replace a slot's product before display (repeatable).", valueName: "name=id"))
  var overrides: [String] = []

  func parsedOverrides() throws -> [SlotOverride] {
    try overrides.map { text in
      guard let o = SlotOverride(argument: text) else {
        throw CLIFailure.usage("--override '\(text)' must be NAME=PRODUCT_ID, e.g. --override primary=com.acme.pro.monthly")
      }
      return o
    }
  }

  /// Loads `path`, printing warnings; a path with errors prints them and fails with exit code 1.
  func load(_ path: String) throws -> Project {
    let result = ProjectLoader.load(path: path, catalogPath: catalog)
    for diagnostic in result.diagnostics {
      Console.error(diagnostic.description)
    }
    guard let project = result.project else {
      throw CLIFailure.invalid("error: \(path) has \(result.errors.count) problem\(result.errors.count == 1 ? "" : "s"); fix them or run 'paywall-tui validate \(path)'")
    }
    return project
  }
}
