import CTerminalGuard
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
import PaywallModel
import PaywallScenarios
import PaywallUI

/// `paywall-tui`: the root command. `run` is the default subcommand.
package enum PaywallCommand {
  /// The one place the version is written; `--version` and `help` print it.
  package static let version = "0.1.0"
  /// The man page's date (`paywall-tui man`): change it with `version`.
  package static let manualDate = "2026-11-22"
  /// What the program is, in one line: `help`'s overview and the man page's NAME.
  package static let summary = "a terminal paywall emulator: render, validate and demo JSON-defined paywalls"

  package static var subcommands: [any CLICommand.Type] {
    [RunCommand.self, DemoCommand.self, InitCommand.self, ValidateCommand.self, RenderCommand.self, PlayCommand.self, ExplainCommand.self, StoreCommand.self,
     SchemaCommand.self, TestCommand.self, ImportCommand.self, CompletionsCommand.self, ManCommand.self]
  }

  /// Help topics that are not subcommands: `help script`.
  package static let topics: [(name: String, text: @Sendable () -> String)] = [("script", { ScriptLanguage.help })]

  package static var help: String {
    var lines = [
      "OVERVIEW: paywall-tui \(version), \(summary).",
      "",
      "USAGE: paywall-tui [<subcommand>] [<arguments>] [options]",
      "",
      "SUBCOMMANDS:",
    ]
    for command in subcommands {
      lines.append(HelpTable.row(command.spec.name + (command == RunCommand.self ? " (default)" : ""), command.spec.abstract))
    }
    lines.append(HelpTable.row("help [<subcommand>]", "Show this help, a subcommand's, or 'help script': the play script language."))
    lines += ["", "OPTIONS:", HelpTable.row("--version", "Print the version."), HelpTable.row("-h, --help", "Show this help.")]
    lines += ["", "EXAMPLES:"] + [
      "paywall-tui demo                                # the demo project (built in), in your terminal",
      "paywall-tui init --demo acme                    # the demo project, written out to edit",
      "paywall-tui validate paywalls                   # every problem in a project, one line each",
      "paywall-tui render paywalls/plans.json --size 40x12",
      "paywall-tui play paywalls --keys \"2 enter\" --controller scripted",
    ].map { "  " + $0 }
    lines += ["", "  See 'paywall-tui help <subcommand>' or 'paywall-tui <subcommand> --help' for its options and examples."]
    return lines.joined(separator: "\n")
  }

  /// Runs the command line and ends with its `ExitStatus` (128 + N after signal N). Errors are
  /// one line on stderr, never a stack trace. A write that fails ends the program too (see `Console.finish`).
  package static func run(arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Never {
    await finish(start(arguments: arguments))
  }

  /// The part of the command line that needs no task, run on the calling thread (`main`, before
  /// the concurrency pool starts a thread): the arguments are read, and `run` loads its project
  /// and draws the first frame. A failure here is reported by `finish`, as any other.
  package static func start(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> CommandRest {
    // First, for every command: our own handlers for every signal that ends a program, in place
    // of the Swift runtime's crash reporter (which at a terminal waits 30 s on "Press space").
    tg_install_process_handlers()
    do {
      return try prepare(arguments)
    } catch {
      return CommandRest { throw error }
    }
  }

  /// Runs what `start` left and ends with its `ExitStatus`.
  package static func finish(_ rest: CommandRest) async -> Never {
    Console.finish(await ending { try await rest.body() })
  }

  /// Runs the command line and says how it ended (its error said on stderr), without ending the
  /// process: `run` and the test worker (`PlayWorker`) share it, so both end a command alike.
  package static func exitCode(_ arguments: [String]) async -> Int32 {
    await ending { try await prepare(arguments).body() }
  }

  /// Runs `body` as a command and says how it ended, its error said on stderr.
  package static func ending(_ body: () async throws -> Void) async -> Int32 {
    do {
      try await body()
      return ExitStatus.ok.rawValue
    } catch let failure as CLIFailure {
      if !failure.message.isEmpty { Console.warn(failure.message) }
      return failure.code
    } catch let failure as PlayFailure {
      if !failure.message.isEmpty { Console.warn(failure.message) }
      return failure.status.rawValue
    } catch let refusal as SessionError {
      let failure = CLIFailure(refusal)
      Console.warn(failure.message)
      return failure.code
    } catch let failure as OutputFailure {
      Console.record(failure)
      return ExitStatus.failed.rawValue
    } catch {
      Console.warn("error: \(error)")
      return ExitStatus.failed.rawValue
    }
  }

  /// Reads the command line and runs the command's `start`; what it returns is the rest.
  private static func prepare(_ arguments: [String]) throws -> CommandRest {
    var rest = arguments
    // `test`'s worker: hidden (no help, no completion), started by `test` only.
    if rest.first == PlayWorkerProtocol.command {
      guard rest.count == 1 else { throw CLIFailure.usage("\(PlayWorkerProtocol.command) takes no arguments; it is started by 'paywall-tui test'") }
      return CommandRest { await PlayWorker.serve() }
    }
    let named = rest.first.flatMap { name in subcommands.first { $0.spec.name == name } }
    if named != nil { rest.removeFirst() }
    if named == nil, rest.first == "help" {
      guard let topic = rest.dropFirst().first else { try Console.out(help); return .done }
      if let extra = rest.dropFirst(2).first {
        throw CLIFailure.usage("unexpected argument \(quoting: extra) for 'help'; see 'paywall-tui help'")
      }
      if let text = topics.first(where: { $0.name == topic })?.text { try Console.out(text()); return .done }
      guard let command = subcommands.first(where: { $0.spec.name == topic }) else {
        let names = subcommands.map { $0.spec.name } + topics.map(\.name)
        throw CLIFailure.usage("no subcommand or help topic \(quoting: topic)\(Suggestions.hint(for: topic, in: names)); see 'paywall-tui --help'")
      }
      try Console.out(command.spec.help)
      return .done
    }
    if named == nil, rest.first == "-h" || rest.first == "--help" {
      try Console.out(help)
      return .done
    }
    if named == nil, rest.first == "--version" {
      guard rest.count == 1 else { throw CLIFailure.usage("--version takes no arguments; see 'paywall-tui --help'") }
      try Console.out("paywall-tui \(version)")
      return .done
    }
    // A first word that is neither a subcommand nor an existing path: a mistyped subcommand is
    // told so (with a did-you-mean), not handed to `run` as a project path (which, in a pipe,
    // would only say it needs a terminal).
    if named == nil, let word = rest.first, !word.hasPrefix("-"), access(word, F_OK) != 0 {
      let names = subcommands.map { $0.spec.name } + ["help"]
      if let close = Suggestions.closest(to: word, in: names) {
        throw CLIFailure.usage("unknown command \(quoting: word); did you mean \(quoting: close)?")
      }
      if !word.contains("/") && !word.contains(".") {
        throw CLIFailure.usage("unknown command \(quoting: word), and no file or directory of that name (commands: \(names.joined(separator: ", "))); see 'paywall-tui help'")
      }
    }
    let type = named ?? RunCommand.self
    let parsed = try Arguments(rest, spec: type.spec)
    if parsed.wantsHelp {
      try Console.out(type.spec.help)
      return .done
    }
    return try type.init(parsed).start()
  }
}

/// An error the CLI reports itself: its message (already one clear line) and exit code.
package struct CLIFailure: Error {
  package var message: String
  package var code: Int32

  package static func usage(_ message: String) -> CLIFailure { CLIFailure(message: "error: \(message)", code: ExitStatus.usage.rawValue) }
  package static func invalid(_ message: String = "") -> CLIFailure { CLIFailure(message: message, code: ExitStatus.failed.rawValue) }
}

extension CLIFailure {
  /// A session's refusal as the command line reports it: a usage problem exits 2, a part that
  /// would not start 1.
  package init(_ error: SessionError) {
    self.init(message: error.message, code: (error.kind == .usage ? ExitStatus.usage : .failed).rawValue)
  }

  /// A play's or a scenario's failure, as the command line reports it.
  package init(_ failure: PlayFailure) {
    self.init(message: failure.message, code: failure.status.rawValue)
  }

  /// `body`'s `PlayFailure` as a `CLIFailure`, for the command line's typed paths.
  package static func reporting<T>(_ body: () throws(PlayFailure) -> T) throws(CLIFailure) -> T {
    do {
      return try body()
    } catch {
      throw CLIFailure(error)
    }
  }

  /// `body`'s `SessionError` as a `CLIFailure`, for the command line's typed paths.
  package static func reporting<T>(_ body: () throws(SessionError) -> T) throws(CLIFailure) -> T {
    do {
      return try body()
    } catch {
      throw CLIFailure(error)
    }
  }
}

/// Where the source tree's demo project is: `./paywalls` when run from the repository (as `swift
/// run` does), else found by walking up from the executable; nil for an installed binary, which
/// uses the copy built into it (`EmbeddedDemo`).
package enum DemoProject {
  package static func locate() -> String? {
    let cwd = FileManager.default.currentDirectoryPath
    var candidates = [cwd]
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<6 {
      candidates.append(directory.path)
      directory.deleteLastPathComponent()
    }
    for base in candidates {
      let path = (base).appendingPathComponent("paywalls")
      if FileManager.default.fileExists(atPath: (path).appendingPathComponent(ProjectLoader.projectFileName)) {
        return path
      }
    }
    return nil
  }
}

/// Options shared by commands that open a project (`run`, `demo`, `play`, `render`).
package enum ProjectFlags {
  package static let catalog = Flag.text("catalog", "file", "Catalog for a single paywall file (.json or .storekit).")
  package static let override = Flag.list("override", "name=id", "Replace a slot's product before display.")

  /// In the order help lists them.
  package static let all: [OptionInfo] = [catalog.option, override.option]
}

/// What the options of `ProjectFlags` say.
package struct ProjectOptions {
  package var catalog: String?
  package var overrides: [String] = []

  package init(_ arguments: Arguments) {
    catalog = arguments[ProjectFlags.catalog]
    overrides = arguments[ProjectFlags.override]
  }

  package init(catalog: String?) {
    self.catalog = catalog
  }

  package func parsedOverrides() throws -> [SlotOverride] {
    try overrides.map { text in
      guard let o = SlotOverride(argument: text) else {
        throw CLIFailure.usage("--override \(quoting: text) must be NAME=PRODUCT_ID, e.g. --override primary=com.acme.pro.monthly")
      }
      return o
    }
  }

  /// Loads `path`, printing warnings; a path with errors prints them and fails with exit code 1.
  /// `cache`: the test worker's projects, loaded once and kept.
  /// `sdk`: the session's `--platform` and `--sdk`, whose release the products are read for.
  package func load(_ path: String, cache: ProjectCache? = nil, sdk: SDKChoice = SDKChoice()) throws -> Project {
    try Self.load(path, catalog: catalog, cache: cache, sdk: sdk)
  }

  package static func load(_ path: String, catalog: String?, cache: ProjectCache? = nil, sdk: SDKChoice = SDKChoice()) throws -> Project {
    try checked(cache?.load(path, catalog: catalog, sdk: sdk) ?? ProjectLoader.load(path: path, catalogPath: catalog, sdk: sdk), path: path)
  }

  /// The project of `result` (the load of `path`), its diagnostics printed; with errors, exit code 1.
  package static func checked(_ result: ProjectLoadResult, path: String) throws -> Project {
    // A project with problems of its own, run with an --sdk that does not fit it: the flag first,
    // or its problems (read for its own release) would send the user to fix the wrong thing.
    if result.project == nil, let refusal = result.sdkRefusal { throw CLIFailure.usage(refusal.message) }
    for diagnostic in result.diagnostics {
      try Console.error(diagnostic.description)
    }
    guard let project = result.project else {
      // Counted as validate counts them: an error that follows from another is not one more to fix.
      let count = max(1, result.errors.filter { !$0.isConsequence }.count)
      throw CLIFailure.invalid("error: \(path) has \(count) problem\(count == 1 ? "" : "s"); fix \(count == 1 ? "it" : "them") or run 'paywall-tui validate \(path)'")
    }
    return project
  }
}
