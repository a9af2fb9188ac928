import Foundation
import Testing
import PaywallModel
import PaywallScenarios
import PaywallTesting
@testable import PaywallUI
@testable import PaywallCLI

/// The options of the test command `demo`, each declared once.
private enum DemoFlags {
  static let stateDir = Flag.text("state-dir", "dir", "Where state lives.")
  static let override = Flag.list("override", "name=id", "Replace a slot.")
  static let fresh = Flag.bool("fresh", "Start fresh.")
  static let controller = Flag.choice("controller", "kind", "Which controller.", default: ControllerKind.simulated)
  /// The same option read with another default: a flag is its name and help, whatever reads it.
  static let controllerOrAsk = Flag.choice("controller", "kind", "Which controller.", default: ControllerKind.ask)
  static let user = Flag.pairs("user", "key=value", "An attribute.")
}

@Suite("Arguments")
struct ArgumentsTests {
  static let spec = CommandSpec(
    name: "demo",
    abstract: "A test command.",
    positionals: [PositionalSpec(name: "path", help: "A path.", count: .optional)],
    options: [DemoFlags.stateDir.option, DemoFlags.override.option, DemoFlags.fresh.option, DemoFlags.controller.option]
  )

  private func failure(_ arguments: [String], spec: CommandSpec = spec) -> String? {
    do {
      _ = try Arguments(arguments, spec: spec)
      return nil
    } catch {
      #expect(error.code == 2)
      return error.message
    }
  }

  @Test func readsValuesFlagsAndPositionalsInAnyOrder() throws {
    let parsed = try Arguments(["--fresh", "paywalls", "--state-dir", "/tmp/s", "--override=primary=a", "--override", "secondary=b"], spec: Self.spec)
    #expect(parsed.positionals == ["paywalls"])
    #expect(parsed[DemoFlags.stateDir] == "/tmp/s")
    #expect(parsed[DemoFlags.override] == ["primary=a", "secondary=b"])
    #expect(parsed[DemoFlags.fresh])
    #expect(parsed.written(DemoFlags.controller) == nil)
    #expect(!parsed.wantsHelp)
  }

  @Test func aDoubleDashEndsTheOptions() throws {
    let parsed = try Arguments(["--", "--fresh"], spec: Self.spec)
    #expect(parsed.positionals == ["--fresh"])
    #expect(!parsed[DemoFlags.fresh])
  }

  @Test func aValueMayStartWithASingleDash() throws {
    let parsed = try Arguments(["--state-dir", "-"], spec: Self.spec)
    #expect(parsed[DemoFlags.stateDir] == "-")
  }

  @Test func unknownOptionsSuggestTheClosestName() {
    #expect(failure(["--fersh"]) == "error: unknown option '--fersh' for 'demo' (did you mean '--fresh'?); see 'paywall-tui demo --help'")
    #expect(failure(["--zzz"]) == "error: unknown option '--zzz' for 'demo'; see 'paywall-tui demo --help'")
    #expect(failure(["-x"]) == "error: unknown option '-x' for 'demo'; see 'paywall-tui demo --help'")
  }

  @Test func valuesAreRequiredAndSingleOptionsGivenOnce() {
    #expect(failure(["--state-dir"]) == "error: --state-dir needs a value (<dir>), e.g. --state-dir VALUE")
    #expect(failure(["--state-dir", "--fresh"]) == "error: --state-dir needs a value (<dir>), e.g. --state-dir VALUE")
    #expect(failure(["--state-dir", "a", "--state-dir", "b"]) == "error: --state-dir is given twice; give it once")
    #expect(failure(["--fresh=yes"]) == "error: --fresh is a flag and takes no value")
  }

  @Test func positionalsAreCounted() {
    #expect(failure(["a", "b"]) == "error: unexpected argument 'b' for 'demo'; see 'paywall-tui demo --help'")
    var one = Self.spec
    one.positionals = [PositionalSpec(name: "path", help: "A path.", count: .one)]
    #expect(failure([], spec: one) == "error: 'demo' needs <path>; see 'paywall-tui demo --help'")
    var many = Self.spec
    many.positionals = [PositionalSpec(name: "path", help: "Paths.", count: .oneOrMore)]
    #expect(failure([], spec: many) == "error: 'demo' needs at least one <path>; see 'paywall-tui demo --help'")
    #expect((try? Arguments(["a", "b", "c"], spec: many))?.positionals == ["a", "b", "c"])
  }

  @Test func helpIsAskedForWithoutCheckingTheRest() throws {
    var one = Self.spec
    one.positionals = [PositionalSpec(name: "path", help: "A path.", count: .one)]
    #expect(try Arguments(["--help"], spec: one).wantsHelp)
    #expect(try Arguments(["-h"], spec: one).wantsHelp)
  }

  @Test func choicesNameTheirCases() throws {
    let parsed = try Arguments(["--controller", "scriptd"], spec: Self.spec)
    #expect(throws: CLIFailure.self) { try parsed[DemoFlags.controller] }
    do {
      _ = try parsed[DemoFlags.controller]
    } catch {
      #expect(error.message == "error: --controller 'scriptd' must be one of simulated, scripted, ask, command; did you mean 'scripted'?")
    }
    #expect(try Arguments([], spec: Self.spec)[DemoFlags.controllerOrAsk] == .ask)
  }

  /// Issue 14 item 13: what the parser quotes of a token is 59 characters and "…", whatever its length.
  @Test func aLongTokenIsQuotedAsAnExcerpt() throws {
    let long = String(repeating: "q", count: 5000)
    let quoted = "'" + String(repeating: "q", count: 59) + "…'"
    #expect(failure(["a", long]) == "error: unexpected argument \(quoted) for 'demo'; see 'paywall-tui demo --help'")
    let option = "'--" + String(repeating: "q", count: 57) + "…'"
    #expect(failure(["--" + long]) == "error: unknown option \(option) for 'demo'; see 'paywall-tui demo --help'")
    #expect(failure(["--" + long + "=x"]) == "error: unknown option \(option) for 'demo'; see 'paywall-tui demo --help'")
    let choice = try Arguments(["--controller", long], spec: Self.spec)
    #expect(message { try choice[DemoFlags.controller] }
      == "error: --controller \(quoted) must be one of simulated, scripted, ask, command")
    var user = Self.spec
    user.options.append(DemoFlags.user.option)
    let pairs = try Arguments(["--user", long], spec: user)
    #expect(message { try pairs[DemoFlags.user] } == "error: --user \(quoted) must be KEY=VALUE, e.g. --user age=13")
  }

  private func message(_ body: () throws -> Any) -> String? {
    do {
      _ = try body()
      return nil
    } catch {
      return (error as? CLIFailure)?.message
    }
  }

  @Test func helpListsEveryOptionWithItsPlaceholder() {
    let help = Self.spec.help
    #expect(help.contains("USAGE: paywall-tui demo [<path>] [options]"))
    for line in ["--state-dir <dir>", "--override <name=id>", "--fresh", "-h, --help", "<path>"] {
      #expect(help.contains(line), "help lacks \(line)")
    }
    #expect(help.contains("Replace a slot. (repeatable)"))
  }

  /// The command line becomes one checked configuration in one step: every option that cannot
  /// work is refused when the options are read, before a project is loaded, with the option named.
  /// Before, these were read as text and refused only when the session was made, after the
  /// project had loaded (or never, for a bad `--outcome` with another controller).
  @Test(arguments: [
    (["--controller", "scripted", "--outcome", "purchase=bogus"], "error: --outcome purchase='bogus' is not a purchase result"),
    (["--outcome", "purchase=pending"], "error: --outcome applies to --controller scripted"),
    (["--controller", "command"], "error: --controller command needs --controller-command"),
    (["--controller-timeout", "forever"], "error: --controller-timeout 'forever' must be a duration"),
    (["--controller-timeout", "5s"], "error: --controller-timeout applies to --controller command"),
    (["--controller-command", "./ctl.sh"], "error: --controller-command applies to --controller command"),
    (["--status", "activ"], "error: --status 'activ' must be unknown, inactive, active"),
    (["--time-rate", "fast"], "error: --time-rate 'fast': use realtime"),
    (["--start", "pro=dormant"], "error: --start "),
  ])
  func aSessionsOptionsAreCheckedWhenRead(options: [String], refusal: String) throws {
    let arguments = try Arguments(["/no/such/project"] + options, spec: PlayCommand.spec)
    let found = message { try SessionConfiguration(arguments) }
    #expect(found?.hasPrefix(refusal) == true, "\(found ?? "accepted")")
  }

  /// A flag reads its value as it declares it: text as given or its default, every value of a
  /// repeatable one, a switch as given, a parsed value checked with its own message; and whether
  /// it was given at all is told apart from its default.
  @Test func aFlagReadsItsValueAsItDeclaresIt() throws {
    let parsed = try Arguments(["x", "--size", "40x12", "--start", "pro=trial", "--start", "plus=expired", "--home", "--user", "age=13",
                                "--sdk", "3", "--controller", "ask"], spec: PlayCommand.spec)
    #expect(parsed[PlayFlags.size] == "40x12")
    #expect(try parsed[SessionFlags.start] == [StartState(parsing: "pro=trial"), StartState(parsing: "plus=expired")])
    #expect(parsed[SessionFlags.home])
    #expect(!parsed[SessionFlags.fresh])
    #expect(try parsed[SessionFlags.user] == ["age": "13"])
    #expect(try parsed[SessionFlags.sdk] == SDKVersion.parse("3").get())
    #expect(try parsed[SessionFlags.controller] == .ask)
    #expect(parsed.written(SessionFlags.controller) == "ask")
    #expect(parsed[SessionFlags.paywall] == nil)

    let bare = try Arguments(["x"], spec: PlayCommand.spec)
    #expect(bare[PlayFlags.size] == "80x24")
    #expect(!bare.isGiven(PlayFlags.size))
    #expect(try bare[SessionFlags.controller] == .simulated)
    #expect(try bare[SessionFlags.sdk] == nil)
    #expect(try bare[SessionFlags.controllerTimeout] == 10)

    #expect(message { try Arguments(["x", "--sdk", "5"], spec: PlayCommand.spec)[SessionFlags.sdk] as Any }?.hasPrefix("error: --sdk ") == true)
    #expect(message { try Arguments(["--jobs", "0"], spec: TestCommand.spec)[TestFlags.jobs] as Any }
      == "error: --jobs '0' must be a whole number from 1 to \(RunningChildren.capacity), e.g. --jobs 4")
    #expect(try Arguments(["--timeout", "2"], spec: TestCommand.spec)[TestFlags.timeout] == 2)
    #expect(try Arguments([], spec: TestCommand.spec)[TestFlags.timeout] == 60)
    #expect(try Arguments(["x"], spec: RenderCommand.spec)[RenderFlags.format] == nil)
    #expect(try Arguments(["x", "--format", "svg"], spec: RenderCommand.spec)[RenderFlags.format] == .svg)
  }

  /// Options are read through their `Flag` values only: no command reads one by a name typed
  /// again (`arguments.value("size")`), where a misspelling would compile and fail at run time.
  @Test func noOptionIsReadByAName() throws {
    let sources = Fixtures.repositoryRoot.appendingPathComponent("Sources/PaywallCLI")
    let walker = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
    // `.value("size")`, `parsed.flag("fresh")`, a row `.flag("fresh", "…")`; not `Flag.choice("color", …)`, a declaration.
    let read = try Regex(#"(^|\W)(?!Flag\.)\w*\.(value|values|flag|option|pairs|choice)\("[a-z][a-z-]*"[,)]"#)
    var found: [String] = []
    for case let url as URL in walker where url.pathExtension == "swift" {
      let text = try String(contentsOf: url, encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains(read) {
        found.append("\(url.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    #expect(found.isEmpty, "options read or declared by a name, not a Flag:\n\(found.joined(separator: "\n"))")
  }

  /// Every command's table, `help`'s too, lists each option once: a second row of the same name
  /// would never be read (the parser takes the first) and help would show both.
  @Test(arguments: Completion.commands.map(\.name))
  func realCommandsHaveUniqueOptionNames(name: String) throws {
    let spec = try #require(Completion.commands.first { $0.name == name })
    let names = spec.options.map(\.name)
    #expect(Set(names).count == names.count, "duplicated option in \(name): \(names.filter { name in names.filter { $0 == name }.count > 1 })")
  }
}
