import Testing
@testable import PaywallUI
@testable import PaywallCLI

@Suite("Arguments")
struct ArgumentsTests {
  static let spec = CommandSpec(
    name: "demo",
    abstract: "A test command.",
    positionals: [PositionalSpec(name: "path", help: "A path.", count: .optional)],
    options: [
      .option("state-dir", "dir", "Where state lives."),
      .option("override", "name=id", "Replace a slot.", repeatable: true),
      .flag("fresh", "Start fresh."),
      .option("controller", "kind", "Which controller."),
    ]
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
    #expect(parsed.value("state-dir") == "/tmp/s")
    #expect(parsed.values("override") == ["primary=a", "secondary=b"])
    #expect(parsed.flag("fresh"))
    #expect(parsed.value("controller") == nil)
    #expect(!parsed.wantsHelp)
  }

  @Test func aDoubleDashEndsTheOptions() throws {
    let parsed = try Arguments(["--", "--fresh"], spec: Self.spec)
    #expect(parsed.positionals == ["--fresh"])
    #expect(!parsed.flag("fresh"))
  }

  @Test func aValueMayStartWithASingleDash() throws {
    let parsed = try Arguments(["--state-dir", "-"], spec: Self.spec)
    #expect(parsed.value("state-dir") == "-")
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
    #expect(throws: CLIFailure.self) { try parsed.choice("controller", default: ControllerKind.simulated) }
    do {
      _ = try parsed.choice("controller", default: ControllerKind.simulated)
    } catch {
      #expect(error.message == "error: --controller 'scriptd' must be one of simulated, scripted, ask, command; did you mean 'scripted'?")
    }
    #expect(try Arguments([], spec: Self.spec).choice("controller", default: ControllerKind.ask) == .ask)
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
    #expect(message { try choice.choice("controller", default: ControllerKind.simulated) }
      == "error: --controller \(quoted) must be one of simulated, scripted, ask, command")
    var user = Self.spec
    user.options.append(.option("user", "key=value", "An attribute.", repeatable: true))
    let pairs = try Arguments(["--user", long], spec: user)
    #expect(message { try pairs.pairs("user") } == "error: --user \(quoted) must be KEY=VALUE, e.g. --user age=13")
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

  /// Every real command's table is well formed: unique names, and each declared option readable.
  @Test(arguments: PaywallCommand.subcommands.map { $0.spec.name })
  func realCommandsHaveUniqueOptionNames(name: String) throws {
    let spec = try #require(PaywallCommand.subcommands.first { $0.spec.name == name }).spec
    let names = spec.options.map(\.name)
    #expect(Set(names).count == names.count, "duplicated option in \(name)")
  }
}
