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

/// `paywall-tui completions bash|zsh|fish`: a completion script written from the parser's own
/// tables (`PaywallCommand.subcommands`, each command's `spec`), so it offers exactly the
/// subcommands, options and values the parser accepts. `completions placements [PATH]` is what the
/// scripts call to complete `--placement`: the project's placements, one a line.
package struct CompletionsCommand: CLICommand {
  package static let spec = CommandSpec(
    name: "completions",
    abstract: "Print a shell completion script for bash, zsh or fish (see also 'paywall-tui man').",
    discussion: """
      The script completes every subcommand, option and help topic, the values of options that \
      have a known set (--controller, --format, --sdk, --status, --color), files and directories \
      where a path goes, and --placement from the project on the command line. It is written from \
      the tables the parser reads, so it never offers an option the parser would refuse. \
      'completions placements [PATH]' prints the placements of a project (default: the demo), one \
      a line: the scripts call it.
      """,
    positionals: [
      PositionalSpec(name: "shell", help: "bash, zsh or fish.", count: .one, values: .words(Shell.allCases.map(\.rawValue))),
      PositionalSpec(name: "path", help: "With 'placements': the project whose placements to print.", count: .optional, values: .file),
    ],
    examples: [
      "paywall-tui completions bash > ~/.local/share/bash-completion/completions/paywall-tui",
      "paywall-tui completions zsh > \"${fpath[1]}/_paywall-tui\"   # a directory on your $fpath",
      "paywall-tui completions fish > ~/.config/fish/completions/paywall-tui.fish",
      "paywall-tui completions fish | source                        # fish: this shell only",
    ]
  )

  /// The shells a script is written for.
  package enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  package var shell: String
  package var path: String?

  package init(_ arguments: Arguments) {
    shell = arguments.positionals[0]
    path = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
  }

  package func run() async throws {
    if shell == "placements" {
      // Called by the scripts at every TAB: quiet, and nothing at all for a project that does not load.
      guard let path = path ?? DemoProject.locate() ?? EmbeddedDemo.existingCopy(), let project = ProjectLoader.load(path: path, catalogPath: nil).project else { return }
      let names = Completion.placements(of: project)
      if !names.isEmpty { try Console.out(names.joined(separator: "\n")) }
      return
    }
    if let path {
      throw CLIFailure.usage("unexpected argument \(quoting: path) for 'completions \(shell)'; see 'paywall-tui completions --help'")
    }
    guard let chosen = Shell(rawValue: shell) else {
      let names = Shell.allCases.map(\.rawValue)
      throw CLIFailure.usage("no completions for \(quoting: shell) (shells: \(names.joined(separator: ", ")))\(Suggestions.hint(for: shell, in: names))")
    }
    let script = switch chosen {
    case .bash: Completion.bash()
    case .zsh: Completion.zsh()
    case .fish: Completion.fish()
    }
    try Console.out(script.hasSuffix("\n") ? String(script.dropLast()) : script)
  }
}

/// The completion scripts, each generated from the command tables.
package enum Completion {
  /// What `help` takes: every subcommand and help topic.
  package static var helpSpec: CommandSpec {
    CommandSpec(
      name: "help", abstract: "Show the help, a subcommand's, or a topic's ('help script': the play script language).",
      positionals: [PositionalSpec(name: "topic", help: "A subcommand or a help topic.", count: .optional, values: .topics)])
  }

  /// Every command the completions know, in help's order: the subcommands, then `help`.
  package static var commands: [CommandSpec] { PaywallCommand.subcommands.map { $0.spec } + [helpSpec] }

  /// The words `help` completes.
  package static var topics: [String] { PaywallCommand.subcommands.map { $0.spec.name } + PaywallCommand.topics.map(\.name) }

  /// The options a command's completion offers: its table's, then `--help`.
  package static func optionNames(_ spec: CommandSpec) -> [String] {
    spec.options.map { "--\($0.name)" } + ["--help"]
  }

  /// The project's placements that a shell can complete, in the order its campaigns name them,
  /// each once. Left out (and `validate` warns about each): a name holding a line break (the
  /// scripts read one name a line: it would be offered as two false names), a tab (fish reads the
  /// rest as a description) or starting with `-` (inserted, the parser reads it as an option:
  /// `explain proj --controller-command=…`).
  package static func placements(of project: Project) -> [String] {
    project.campaignPlacements.filter(offerable)
  }

  /// Whether completion can insert `name` as one word that the parser reads as a placement.
  package static func offerable(_ name: String) -> Bool {
    !name.contains(where: \.isNewline) && !name.contains("\t") && !name.hasPrefix("-")
  }

  /// The first sentence of a help text, for the one-line descriptions zsh and fish show.
  package static func summary(_ text: String) -> String {
    let flat = text.replacingOccurrences(of: "\n", with: " ")
    if let end = flat.range(of: ". ") { return String(flat[..<end.lowerBound]) }
    return flat.hasSuffix(".") ? String(flat.dropLast()) : flat
  }


  /// Single-quoted for a shell.
  package static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
