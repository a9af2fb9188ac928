import Foundation
import PaywallModel
@testable import PaywallCLI
import PaywallScenarios
import PaywallTesting
import Testing

/// `paywall-tui completions bash|zsh|fish` and `paywall-tui man`, loaded into the real shells and
/// `man`, and compared with the tables the parser reads: every subcommand, every option of each,
/// the values of those with a known set, files, directories and the project's placements.
@Suite("Completions and the man page")
struct CompletionTests {
  /// Every command the completions know, as the parser's tables say, `help` included.
  static let commands: [CommandSpec] = PaywallCommand.subcommands.map { $0.spec } + [Completion.helpSpec]
  static let commandNames = PaywallCommand.subcommands.map { $0.spec.name } + ["help"]

  /// A private directory for the scripts, with `work/` holding a file `notes.txt` and a directory
  /// `state/`: the shells run there, so file and directory completion have exactly those to offer.
  static func sandbox() throws -> URL {
    let directory = Scratch.root.appendingPathComponent("paywall-tui-completions-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory.appendingPathComponent("work/state"), withIntermediateDirectories: true)
    try Data("x".utf8).write(to: directory.appendingPathComponent("work/notes.txt"))
    return directory
  }

  /// `PATH` with the built binary first, so the scripts (and their placement look-up) find it.
  static var environment: [String: String] {
    ["PATH": PaywallBinary.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
  }

  /// The script `paywall-tui completions SHELL` prints, in a file.
  static func script(_ shell: String, in directory: URL) throws -> String {
    let result = try PaywallBinary.run(["completions", shell])
    #expect(result.status == 0 && result.stderr.isEmpty, "completions \(shell): \(result.stderr)")
    let path = directory.appendingPathComponent("completion.\(shell)").path
    try Data(result.stdout.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static var demoPlacements: [String] {
    get throws { Completion.placements(of: try Fixtures.demoProject()) }
  }

  // MARK: bash

  /// Drives the bash function as bash's programmable completion does: COMP_WORDS, COMP_CWORD,
  /// COMP_LINE and COMP_POINT set, the function called, COMPREPLY printed one a line.
  static let bashDriver = """
    source "$1" || exit 9
    cd "$2" || exit 9
    shift 2
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    _paywall_tui
    printf '%s\\n' "${COMPREPLY[@]}"
    """

  /// What bash offers when TAB is pressed after `words` (the last one is the word being typed).
  static func bash(_ words: [String], script: String, in directory: URL) throws -> [String] {
    let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/timeout"),
                                            ["20", "bash", "--norc", "--noprofile", "-c", bashDriver, "bash", script, directory.appendingPathComponent("work").path] + words,
                                            environment: environment)
    #expect(result.status == 0 && result.stderr.isEmpty, "bash \(words): \(result.status) \(result.stderr)")
    return result.stdout.split(separator: "\n").map(String.init)
  }

  @Test func bashLoadsTheScriptAndRegistersTheFunction() throws {
    let directory = try Self.sandbox()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = try Self.script("bash", in: directory)
    let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/timeout"),
                                            ["20", "bash", "--norc", "--noprofile", "-c", "source \"$1\" && complete -p paywall-tui", "bash", script])
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    #expect(result.stdout == "complete -F _paywall_tui paywall-tui\n")
  }

  @Test func bashOffersEverySubcommandAndEveryOptionOfEach() throws {
    let directory = try Self.sandbox()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = try Self.script("bash", in: directory)
    // The first word: every subcommand and help, and (for run, the default) the files here.
    let first = try Self.bash(["paywall-tui", ""], script: script, in: directory)
    #expect(Array(first.prefix(Self.commandNames.count)) == Self.commandNames)
    #expect(Set(first.dropFirst(Self.commandNames.count)) == ["notes.txt", "state"])
    #expect(try Self.bash(["paywall-tui", "va"], script: script, in: directory) == ["validate"])
    // Every option of every command, from its table, and only those.
    for spec in Self.commands {
      let offered = try Self.bash(["paywall-tui", spec.name, "--"], script: script, in: directory)
      #expect(offered == spec.options.map { "--\($0.name)" } + ["--help"], "\(spec.name)")
    }
    #expect(try Self.bash(["paywall-tui", "play", "--"], script: script, in: directory).contains("--controller"))
    // No subcommand: run's options, and --version.
    #expect(try Self.bash(["paywall-tui", "--"], script: script, in: directory)
      == ["--version"] + RunCommand.spec.options.map { "--\($0.name)" } + ["--help"])
    #expect(try Self.bash(["paywall-tui", "paywalls", "--con"], script: script, in: directory)
      == ["--controller", "--controller-command", "--controller-timeout"])
    // help's topics: every subcommand and `script`.
    #expect(try Self.bash(["paywall-tui", "help", ""], script: script, in: directory)
      == PaywallCommand.subcommands.map { $0.spec.name } + ["script"])
  }

  @Test func bashOffersTheValuesFilesDirectoriesAndPlacements() throws {
    let directory = try Self.sandbox()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = try Self.script("bash", in: directory)
    #expect(try Self.bash(["paywall-tui", "play", "--controller", ""], script: script, in: directory) == ["simulated", "scripted", "ask", "command"])
    #expect(try Self.bash(["paywall-tui", "play", "--controller", "=", "sc"], script: script, in: directory) == ["scripted"])
    #expect(try Self.bash(["paywall-tui", "validate", "x", "--format", ""], script: script, in: directory) == ["text", "json", "github"])
    #expect(try Self.bash(["paywall-tui", "render", "x", "--color", ""], script: script, in: directory) == ["auto", "always", "never"])
    #expect(try Self.bash(["paywall-tui", "play", "x", "--status", ""], script: script, in: directory) == ["unknown", "inactive", "active"])
    #expect(try Self.bash(["paywall-tui", "explain", "--sdk", "4.1"], script: script, in: directory) == ["4.1", "4.10", "4.11", "4.12", "4.13", "4.14", "4.15", "4.16"])
    // Every option whose value is one of a set offers exactly that set, for every command.
    for spec in Self.commands {
      for option in spec.options {
        guard case .words(let words) = option.completion else { continue }
        #expect(try Self.bash(["paywall-tui", spec.name, "--\(option.name)", ""], script: script, in: directory) == words, "\(spec.name) --\(option.name)")
      }
    }
    // Files where a file goes, directories where a directory goes.
    #expect(Set(try Self.bash(["paywall-tui", "play", "x", "--script", ""], script: script, in: directory)) == ["notes.txt", "state"])
    #expect(Set(try Self.bash(["paywall-tui", "test", "--junit", ""], script: script, in: directory)) == ["notes.txt", "state"])
    #expect(try Self.bash(["paywall-tui", "play", "x", "--state-dir", ""], script: script, in: directory) == ["state"])
    #expect(try Self.bash(["paywall-tui", "validate", "no"], script: script, in: directory) == ["notes.txt"])
    // Free text: nothing (not the files).
    #expect(try Self.bash(["paywall-tui", "play", "x", "--keys", ""], script: script, in: directory) == [])
    // The placements of the project on the command line, for --placement and explain's second argument.
    let demo = Fixtures.demoDirectory
    #expect(try Self.bash(["paywall-tui", "play", demo, "--placement", ""], script: script, in: directory) == Self.demoPlacements)
    #expect(try Self.bash(["paywall-tui", "explain", "--sdk", "4", demo, ""], script: script, in: directory) == Self.demoPlacements)
    #expect(try Self.bash(["paywall-tui", "completions", ""], script: script, in: directory) == ["bash", "zsh", "fish"])
  }

  /// Whatever a completion offers as a value, the command's own parser accepts.
  @Test func everyOfferedValueIsAcceptedByTheParser() throws {
    for command in PaywallCommand.subcommands {
      let spec = command.spec
      for option in spec.options {
        guard case .words(let words) = option.completion else { continue }
        for word in words {
          let positionals = spec.positionals.filter { $0.count == .one || $0.count == .oneOrMore }.map { _ in "x" }
          // A command controller is refused without its command line, whatever the value's spelling.
          let needs = option.name == "controller" && word == "command" ? ["--controller-command", "sh"] : []
          let parsed = try Arguments(positionals + ["--\(option.name)", word] + needs, spec: spec)
          #expect(throws: Never.self, "\(spec.name) --\(option.name) \(word)") { _ = try command.init(parsed) }
        }
      }
    }
    #expect(ValueCompletion(placeholder: "file") == .file)
    #expect(ValueCompletion(placeholder: "dir") == .directory)
    #expect(ValueCompletion(placeholder: "text|json") == .words(["text", "json"]))
    #expect(ValueCompletion(placeholder: "key=value") == .text)
  }

  @Test func anUnknownShellIsAUsageErrorAndPlacementsAreQuiet() throws {
    let wrong = try PaywallBinary.run(["completions", "bsh"])
    #expect(wrong.status == 2)
    #expect(wrong.stderr == "error: no completions for 'bsh' (shells: bash, zsh, fish); did you mean 'bash'?\n")
    let placements = try PaywallBinary.run(["completions", "placements", "paywalls"])
    #expect(placements.status == 0)
    #expect(placements.stdout == (try Self.demoPlacements).joined(separator: "\n") + "\n")
    let broken = try PaywallBinary.run(["completions", "placements", "no/such/project"])
    #expect(broken.status == 0 && broken.stdout.isEmpty && broken.stderr.isEmpty)
  }

  // MARK: zsh

  /// Types a command line into an interactive zsh (in a pty, zsh/zpty) with compinit and the
  /// script loaded, presses TAB and prints each candidate zsh's completion system adds.
  static let zshCapture = #"""
    zmodload zsh/zpty
    zpty z zsh -f -i
    local line script=$1 directory=$2
    shift 2
    setopt rcquotes
    () {
      zpty -w z source $1
      repeat 20; do
        zpty -r z line
        [[ $line == ok* ]] && return
      done
      echo 'error initializing.' >&2
      exit 2
    } =( <<< '
    PROMPT=
    cd '$directory'
    autoload -Uz compinit
    compinit -u -d '$directory'/../.zcompdump
    source '$script'
    bindkey ''^M'' undefined
    bindkey ''^J'' undefined
    bindkey ''^I'' complete-word
    null-line () { echo -E - $''\0'' }
    compprefuncs=( null-line )
    comppostfuncs=( null-line exit )
    zmodload zsh/zutil
    compadd () {
      if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
        builtin compadd "$@"
        return $?
      fi
      typeset -a __hits
      builtin compadd -A __hits "$@"
      local i
      for i in {1..$#__hits}; do
        [[ -n $__hits[$i] ]] && echo -E - "<hit>"$__hits[$i]
      done
    }
    echo ok')
    zpty -w z "$*"$'\t'
    integer tog=0
    while zpty -r z; do :; done | while IFS= read -r line; do
      if [[ $line == *$'\0\r' ]]; then
        (( tog++ )) && return 0 || continue
      fi
      [[ $line == '<hit>'* ]] && echo -E - ${${line#<hit>}%$'\r'}
    done
    return 2
    """#

  static func zsh(_ line: String, script: String, in directory: URL) throws -> [String] {
    let capture = directory.appendingPathComponent("capture.zsh")
    try Data(zshCapture.utf8).write(to: capture)
    let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/timeout"), ["30", "zsh", "-f", capture.path, script, directory.appendingPathComponent("work").path, line],
                                            environment: environment)
    #expect(result.status == 0, "zsh '\(line)': \(result.status) \(result.stderr)")
    var seen: [String] = []
    for candidate in result.stdout.split(separator: "\n").map(String.init) where !seen.contains(candidate) { seen.append(candidate) }
    return seen
  }

  @Test(.requires(.zsh))
  func zshLoadsTheScriptAndOffersTheSameCandidates() throws {
    let directory = try Self.sandbox()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = try Self.script("zsh", in: directory)
    let syntax = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/timeout"), ["20", "zsh", "-n", script])
    #expect(syntax.status == 0 && syntax.stderr.isEmpty, "zsh -n: \(syntax.stderr)")
    let loaded = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/timeout"), [
      "20", "zsh", "-fc", "autoload -Uz compinit; compinit -u -d \"$2/.zcompdump\"; source \"$1\" && print -r -- $_comps[paywall-tui]", "zsh", script, directory.path,
    ])
    #expect(loaded.status == 0 && loaded.stderr.isEmpty, "\(loaded.stderr)")
    #expect(loaded.stdout == "_paywall-tui\n")

    #expect(try Self.zsh("paywall-tui play --con", script: script, in: directory) == ["--controller", "--controller-command", "--controller-timeout"])
    #expect(try Self.zsh("paywall-tui play --controller ", script: script, in: directory) == ["simulated", "scripted", "ask", "command"])
    #expect(try Self.zsh("paywall-tui ", script: script, in: directory) == Self.commandNames + ["notes.txt", "state"])
    #expect(try Self.zsh("paywall-tui help ", script: script, in: directory) == PaywallCommand.subcommands.map { $0.spec.name } + ["script"])
    #expect(try Self.zsh("paywall-tui play x --state-dir ", script: script, in: directory) == ["state"])
    #expect(try Self.zsh("paywall-tui play \(Fixtures.demoDirectory) --placement ", script: script, in: directory) == Self.demoPlacements)
    for spec in Self.commands {
      let offered = try Self.zsh("paywall-tui \(spec.name) --", script: script, in: directory)
      #expect(Set(offered) == Set(spec.options.map { "--\($0.name)" } + ["--help"]), "\(spec.name): \(offered)")
    }
  }

  // MARK: fish

  static func fish(_ line: String, script: String, in directory: URL) throws -> [String] {
    let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/timeout"), [
      "20", "fish", "--no-config", "-c", "cd $argv[2]; and source $argv[1]; and complete -C$argv[3]", script, directory.appendingPathComponent("work").path, line,
    ], environment: environment)
    #expect(result.status == 0 && result.stderr.isEmpty, "fish '\(line)': \(result.status) \(result.stderr)")
    return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t", maxSplits: 1).first ?? "") }
  }

  @Test(.requires(.fish))
  func fishLoadsTheScriptAndOffersTheSameCandidates() throws {
    let directory = try Self.sandbox()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = try Self.script("fish", in: directory)
    let syntax = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/timeout"), ["20", "fish", "--no-config", "-n", script])
    #expect(syntax.status == 0 && syntax.stderr.isEmpty, "fish -n: \(syntax.stderr)")

    #expect(try Self.fish("paywall-tui play --con", script: script, in: directory) == ["--controller", "--controller-command", "--controller-timeout"])
    #expect(Set(try Self.fish("paywall-tui play --controller ", script: script, in: directory)) == ["simulated", "scripted", "ask", "command"])
    #expect(Set(try Self.fish("paywall-tui ", script: script, in: directory)) == Set(Self.commandNames + ["notes.txt", "state/"]))
    #expect(Set(try Self.fish("paywall-tui help ", script: script, in: directory)) == Set(PaywallCommand.subcommands.map { $0.spec.name } + ["script"]))
    #expect(try Self.fish("paywall-tui play x --state-dir ", script: script, in: directory) == ["state/"])
    #expect(Set(try Self.fish("paywall-tui play \(Fixtures.demoDirectory) --placement ", script: script, in: directory)) == Set(try Self.demoPlacements))
    for spec in Self.commands {
      let offered = try Self.fish("paywall-tui \(spec.name) --", script: script, in: directory)
      #expect(Set(offered) == Set(spec.options.map { "--\($0.name)" } + ["--help"]), "\(spec.name): \(offered)")
    }
  }

  // MARK: placement names that are shell code

  /// Placement names a hostile project (or a Superwall `event_name`) may hold: command
  /// substitution, backquotes, `;`, quotes, runs of spaces, a variable, a glob, `:` and `\`.
  /// Completing `--placement ` must run none of them and offer each as the word it is.
  static let hostileNames = ["$(touch PWNED)", "`touch PWNED`", "a;touch PWNED", "it's \"quoted\"", "two  words", "${HOME}x",
                             "*", "colon:name", "back\\slash", " padded ", "plain"]
  /// A name with a line break: no app types it, and a shell reading names one a line would see
  /// two false ones. It is not offered (and `validate` warns about it).
  static let newlineName = "line\ntouch PWNED"
  /// A name that begins with `-`: inserted on the command line, the parser reads it as an option
  /// (`explain proj --controller-command=touch\ x` would run a command). It is not offered (and
  /// `validate` warns about it).
  static let dashName = "--controller-command=touch PWNED"

  /// A project in `directory/hostile` whose campaigns have `hostileNames`, `newlineName` and `dashName`.
  static func hostileProject(in directory: URL) throws -> String {
    let project = directory.appendingPathComponent("hostile")
    try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
    for file in ["catalog.json", "plans.json"] {
      try FileManager.default.copyItem(atPath: Fixtures.demoDirectory + "/" + file, toPath: project.appendingPathComponent(file).path)
    }
    let campaigns = (hostileNames + [newlineName, dashName]).map { ["placement": $0, "audiences": [["paywall": "plans"]]] as [String: Any] }
    let app: [String: Any] = ["name": "Hostile", "catalog": "catalog.json", "paywalls": ["plans.json"], "campaigns": campaigns]
    try JSONSerialization.data(withJSONObject: app, options: [.prettyPrinted]).write(to: project.appendingPathComponent("app.json"))
    return project.path
  }

  /// Every file below `directory`, for "completion created nothing".
  static func files(under directory: URL) -> Set<String> {
    Set((FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String]) ?? [])
  }

  /// Reads each word back as bash reads the command line it was inserted into (in a directory of
  /// its own, so a word that still held live code would leave its file there): one argument each.
  static func bashReadBack(_ words: [String], in directory: URL) throws -> [String] {
    let readBack = directory.appendingPathComponent("read-back")
    try FileManager.default.createDirectory(at: readBack, withIntermediateDirectories: true)
    let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/timeout"), [
      "20", "bash", "--norc", "--noprofile", "-c", #"cd "$1" || exit 9; shift; for w; do eval "a=($w)"; printf '%s\0%s\0' "${#a[@]}" "${a[0]}"; done"#,
      "bash", readBack.path,
    ] + words)
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    #expect(files(under: readBack).isEmpty, "reading the offered words back ran code: \(files(under: readBack))")
    let fields = result.stdout.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
    var out: [String] = []
    for index in stride(from: 0, to: fields.count - 1, by: 2) {
      #expect(fields[index] == "1", "\(fields[index + 1]) is read as \(fields[index]) words")
      out.append(fields[index + 1])
    }
    return out
  }

  @Test func bashCompletesHostilePlacementNamesWithoutRunningThem() throws {
    let directory = try Self.sandbox()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = try Self.script("bash", in: directory)
    let project = try Self.hostileProject(in: directory)
    let before = Self.files(under: directory)
    let offered = try Self.bash(["paywall-tui", "play", project, "--placement", ""], script: script, in: directory)
    #expect(Self.files(under: directory) == before, "completion created \(Self.files(under: directory).subtracting(before))")
    // Each offered word, as the command line reads it, is one placement name exactly.
    #expect(try Self.bashReadBack(offered, in: directory).sorted() == Self.hostileNames.sorted(), "\(offered)")
    // The words being typed are matched as text, quoted or not.
    #expect(try Self.bashReadBack(try Self.bash(["paywall-tui", "play", project, "--placement", "two"], script: script, in: directory), in: directory) == ["two  words"])
    #expect(try Self.bashReadBack(try Self.bash(["paywall-tui", "play", project, "--placement", "'it"], script: script, in: directory), in: directory) == ["it's \"quoted\""])
    #expect(try Self.bashReadBack(try Self.bash(["paywall-tui", "play", project, "--placement", "\\$\\("], script: script, in: directory), in: directory) == ["$(touch PWNED)"])
    #expect(try Self.bash(["paywall-tui", "explain", project, "pla"], script: script, in: directory) == ["plain"])
    #expect(try Self.bashReadBack(try Self.bash(["paywall-tui", "explain", project, ""], script: script, in: directory), in: directory).sorted()
              == Self.hostileNames.sorted())
    #expect(Self.files(under: directory).subtracting(before) == ["read-back"])
  }

  @Test(.requires(.zsh))
  func zshCompletesHostilePlacementNamesWithoutRunningThem() throws {
    let directory = try Self.sandbox()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = try Self.script("zsh", in: directory)
    let project = try Self.hostileProject(in: directory)
    let before = Self.files(under: directory)
    let offered = try Self.zsh("paywall-tui play \(project) --placement ", script: script, in: directory)
    #expect(Self.files(under: directory).subtracting(before).subtracting(["capture.zsh", ".zcompdump"]).isEmpty,
            "completion created \(Self.files(under: directory).subtracting(before))")
    // Each match is the name quoted as zsh inserts it; read back as zsh reads the command line
    // (in a directory of its own), it is one word, the name.
    let readBack = directory.appendingPathComponent("read-back")
    try FileManager.default.createDirectory(at: readBack, withIntermediateDirectories: true)
    let result = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/timeout"), [
      "20", "zsh", "-f", "-c", #"cd "$1" || exit 9; shift; for w; do eval "a=($w)"; print -rn -- "${#a}"$'\0'"$a[1]"$'\0'; done"#, "zsh", readBack.path,
    ] + offered)
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    #expect(Self.files(under: readBack).isEmpty, "reading the offered words back ran code: \(Self.files(under: readBack))")
    let fields = result.stdout.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
    #expect(stride(from: 0, to: fields.count, by: 2).allSatisfy { fields[$0] == "1" }, "\(fields)")
    #expect(stride(from: 1, to: fields.count, by: 2).map { fields[$0] }.sorted() == Self.hostileNames.sorted(), "\(offered)")
  }

  @Test(.requires(.fish))
  func fishCompletesHostilePlacementNamesWithoutRunningThem() throws {
    let directory = try Self.sandbox()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = try Self.script("fish", in: directory)
    let project = try Self.hostileProject(in: directory)
    let before = Self.files(under: directory)
    let offered = try Self.fish("paywall-tui play \(project) --placement ", script: script, in: directory)
    #expect(Self.files(under: directory) == before, "completion created \(Self.files(under: directory).subtracting(before))")
    #expect(offered.sorted() == Self.hostileNames.sorted(), "\(offered)")
  }

  /// `validate` names the placements no app could register (a line break, a space at an end) and
  /// those completion leaves out (a leading `-`).
  /// Shell characters are fine (a Swift string holds them).
  @Test func validateWarnsAboutAPlacementNameNoAppCouldType() throws {
    let directory = try Self.sandbox()
    defer { try? FileManager.default.removeItem(at: directory) }
    let project = try Self.hostileProject(in: directory)
    let result = try PaywallBinary.run(["validate", project])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let warnings = (result.stdout + result.stderr).split(separator: "\n").filter { $0.contains("warning: placement") }
    let newline = Self.hostileNames.count, dash = newline + 1
    let padded = try #require(Self.hostileNames.firstIndex(of: " padded "))
    #expect(warnings.count == 3, "\(warnings)")
    #expect(warnings.contains { $0.hasPrefix(project + "/app.json:") && $0.contains("placement '--controller-command=touch PWNED' begins with '-'")
      && $0.contains("--placement=--controller-command=touch PWNED") && $0.hasSuffix("($.campaigns[\(dash)].placement) [placement-name]") }, "\(warnings)")
    #expect(warnings.contains { $0.hasPrefix(project + "/app.json:") && $0.contains("placement 'line\\ntouch PWNED' has a line break in it")
      && $0.hasSuffix("($.campaigns[\(newline)].placement) [placement-name]") }, "\(warnings)")
    #expect(warnings.contains { $0.hasPrefix(project + "/app.json:") && $0.contains("placement ' padded ' begins or ends with a space")
      && $0.contains("remove it: 'padded'") && $0.hasSuffix("($.campaigns[\(padded)].placement) [placement-name]") }, "\(warnings)")
  }

  /// A name the scripts cannot offer as one word is left out of `completions placements`: a line
  /// break, a leading `-`, and a tab (fish reads a tab as the start of the description; the JSON
  /// reader turns a tab into a space, so only a project built in code can hold one).
  @Test func placementsLeaveOutNamesNoShellCanOffer() throws {
    var project = try Fixtures.demoProject()
    let kept = project.campaigns.map(\.placement)
    let offered = ["a\tb", "-v", "--placement=x", "line\nbreak", "mid-dash", "x-"]
    for (index, name) in offered.enumerated() {
      var campaign = project.campaigns[index % project.campaigns.count]
      campaign.placement = name
      project.campaigns.append(campaign)
    }
    var seen: Set<String> = []
    #expect(Completion.placements(of: project) == kept.filter { seen.insert($0).inserted } + ["mid-dash", "x-"])
    #expect(PlacementNames.untypable("a\tb")?.contains("has a tab in it") == true)
    #expect(PlacementNames.untypable("-v")?.contains("begins with '-'") == true)
    #expect(PlacementNames.untypable("mid-dash") == nil)
  }

  // MARK: man

  /// `paywall-tui man` written to a file in `directory`.
  static func manPage(in directory: URL) throws -> URL {
    let result = try PaywallBinary.run(["man"])
    #expect(result.status == 0 && result.stderr.isEmpty)
    let page = directory.appendingPathComponent("paywall-tui.1")
    try Data(result.stdout.utf8).write(to: page)
    return page
  }

  @Test(.requires(.groff)) func theManPageRendersWithoutWarningsAndListsEveryCommandAndOption() throws {
    let directory = try Self.sandbox()
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = try Self.manPage(in: directory)
    let shell = URL(fileURLWithPath: "/bin/sh")
    let rendered = try PaywallBinary.spawn(shell, ["-c", "groff -man -Tutf8 -ww -rLL=300n -P-c -P-b -P-u \"$1\"", "sh", page.path])
    #expect(rendered.status == 0 && rendered.stderr.isEmpty, "groff: \(rendered.stderr)")
    // groff's UTF-8 output draws \\- as a minus sign and may hyphenate with U+2010: read both as '-'.
    let text = rendered.stdout.replacingOccurrences(of: "\u{2212}", with: "-").replacingOccurrences(of: "\u{2010}", with: "-")
    #expect(text.contains("paywall-tui - \(PaywallCommand.summary)"))
    // Each command's section lists every option of its table, and its examples.
    let sections = text.components(separatedBy: "\n   paywall-tui ").dropFirst()
    for spec in Self.commands {
      let section = try #require(sections.first { $0.hasPrefix(spec.name + " ") || $0.hasPrefix(spec.name + "\n") }, "no section for \(spec.name)")
      for option in spec.options {
        #expect(section.contains("\n       --\(option.name)"), "\(spec.name) --\(option.name) is not in the man page")
      }
      for example in spec.examples {
        let command = example.components(separatedBy: "  #").first!.trimmingCharacters(in: .whitespaces)
        #expect(section.contains(command.split(separator: " ").prefix(3).joined(separator: " ")), "\(spec.name): \(example)")
      }
    }
    for row in ScriptLanguage.rows {
      #expect(text.contains(ScriptLanguage.plain(row.syntax)), "\(row.syntax) is not in the man page")
    }
  }

  @Test(.requires(.mandoc)) func mandocFindsNothingToLintInTheManPage() throws {
    let directory = try Self.sandbox()
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = try Self.manPage(in: directory)
    let lint = try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", "mandoc -T lint -W all \"$1\" 2>&1", "sh", page.path])
    #expect(lint.status == 0 && lint.stdout.isEmpty, "mandoc -T lint: \(lint.stdout)")
  }

  @Test(.requires(.man)) func manShowsTheManPageWithoutWarnings() throws {
    let directory = try Self.sandbox()
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = try Self.manPage(in: directory)
    let man = try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", "man -l \"$1\" 2>&1 >/dev/null", "sh", page.path], environment: ["MANWIDTH": "80"])
    #expect(man.status == 0 && man.stdout.isEmpty, "man -l: \(man.stdout)")
  }
}
