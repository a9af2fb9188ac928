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

  package func run() throws {
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
    var names: [String] = []
    var seen: Set<String> = []
    for campaign in project.campaigns where offerable(campaign.placement) && seen.insert(campaign.placement).inserted {
      names.append(campaign.placement)
    }
    return names
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

  // MARK: bash

  package static func bash() -> String {
    let names = commands.map(\.name)
    var out = """
      # bash completion for paywall-tui \(PaywallCommand.version), written by 'paywall-tui completions bash' from the
      # tables its parser reads. Install: paywall-tui completions bash > ~/.local/share/bash-completion/completions/paywall-tui

      # Nothing completed is ever evaluated: no compgen -W (it expands $(…), `…` and $VAR in its
      # words) and no unquoted $(…) (its words would be globbed). Words are compared as text.

      # Offers each argument that begins with the word being completed, as it is.
      _paywall_tui_words() {
        local word
        COMPREPLY=()
        for word in "$@"; do
          [[ $word == "$cur"* ]] && COMPREPLY+=("$word")
        done
      }

      _paywall_tui_files() {
        local path
        compopt -o filenames 2>/dev/null
        COMPREPLY=()
        while IFS= read -r path; do COMPREPLY+=("$path"); done < <(compgen -f -- "$cur")
      }

      _paywall_tui_dirs() {
        local path
        compopt -o filenames 2>/dev/null
        COMPREPLY=()
        while IFS= read -r path; do COMPREPLY+=("$path"); done < <(compgen -d -- "$cur")
      }

      # The project's placements: the first positional argument (default: the demo project). A name
      # is data from someone's project: read one a line, matched as text, and offered quoted for the
      # command line (printf %q), so `$(touch x)` completes as that name and runs nothing.
      _paywall_tui_placements() {
        local name quoted typed=$cur
        # An opening quote the user typed is not part of the name.
        [[ $typed == [\\"\\']* ]] && typed=${typed:1}
        COMPREPLY=()
        while IFS= read -r name; do
          printf -v quoted '%q' "$name"
          [[ $name == "$typed"* || $quoted == "$cur"* ]] && COMPREPLY+=("$quoted")
        done < <("${COMP_WORDS[0]}" completions placements ${project:+"$project"} 2>/dev/null)
      }

      # Sets npos to the number of positional arguments before the cursor and project to the first,
      # skipping options and the values of those in $1 (options that take a value).
      _paywall_tui_positionals() {
        local i=$first word
        npos=0
        project=
        while ((i < COMP_CWORD)); do
          word=${COMP_WORDS[i]}
          if [[ $word == -?* ]]; then
            if [[ " $1 " == *" $word "* ]]; then
              if [[ ${COMP_WORDS[i + 1]} == "=" ]]; then ((i += 2)); else ((i += 1)); fi
            fi
          elif [[ $word != "=" ]]; then
            [[ $npos == 0 ]] && project=$word
            ((npos += 1))
          fi
          ((i += 1))
        done
      }

      _paywall_tui() {
        local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd=run first=1 npos project
        ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
        # --option=value arrives as three words: --option, =, value.
        if [[ $cur == "=" ]]; then
          cur=
        elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
          prev=${COMP_WORDS[COMP_CWORD - 2]}
        fi
        if ((COMP_CWORD == 1)); then
          if [[ $cur == -* ]]; then
            _paywall_tui_words --version \(bashWords(optionNames(RunCommand.spec)))
          else
            _paywall_tui_words \(bashWords(names))
            local -a commands=("${COMPREPLY[@]}")
            _paywall_tui_files
            COMPREPLY=("${commands[@]}" "${COMPREPLY[@]}")
          fi
          return
        fi
        case ${COMP_WORDS[1]} in
          \(names.joined(separator: "|"))) cmd=${COMP_WORDS[1]} first=2 ;;
        esac
        case $cmd in

      """
    for spec in commands {
      out += bashCase(spec)
    }
    out += """
        esac
      }

      complete -F _paywall_tui paywall-tui

      """
    return out
  }

  private static func bashAction(_ values: ValueCompletion) -> String {
    switch values {
    case .text: return ":"
    case .file: return "_paywall_tui_files"
    case .directory: return "_paywall_tui_dirs"
    case .words(let words): return "_paywall_tui_words \(bashWords(words))"
    case .placements: return "_paywall_tui_placements"
    case .topics: return "_paywall_tui_words \(bashWords(topics))"
    }
  }

  /// Words as arguments of a bash function, each quoted when it needs to be.
  private static func bashWords(_ words: [String]) -> String {
    words.map(ShellWord.quoted).joined(separator: " ")
  }

  private static func bashCase(_ spec: CommandSpec) -> String {
    let valued = spec.options.filter { $0.value != nil }
    var lines = ["    \(spec.name))"]
    lines.append("      _paywall_tui_positionals \"\(valued.map { "--\($0.name)" }.joined(separator: " "))\"")
    if !valued.isEmpty {
      lines.append("      case $prev in")
      // Options whose values complete alike share one branch.
      var groups: [(action: String, names: [String])] = []
      for option in valued {
        let action = bashAction(option.values)
        if let index = groups.firstIndex(where: { $0.action == action }) {
          groups[index].names.append("--\(option.name)")
        } else {
          groups.append((action, ["--\(option.name)"]))
        }
      }
      for group in groups {
        lines.append("        \(group.names.joined(separator: "|"))) \(group.action); return ;;")
      }
      lines.append("      esac")
    }
    lines.append("      if [[ $cur == -* ]]; then _paywall_tui_words \(bashWords(optionNames(spec))); return; fi")
    if !spec.positionals.isEmpty {
      lines.append("      case $npos in")
      for (index, positional) in spec.positionals.enumerated() {
        let variadic = positional.count == .oneOrMore || positional.count == .zeroOrMore
        lines.append("        \(variadic ? "*" : String(index))) \(bashAction(positional.values)) ;;")
        if variadic { break }
      }
      lines.append("      esac")
    }
    lines.append("      ;;")
    return lines.joined(separator: "\n") + "\n"
  }

  // MARK: zsh

  /// Single-quoted for a shell.
  package static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// Text inside an `_arguments` spec's `[description]` or `:message:`.
  private static func zshEscaped(_ text: String) -> String {
    var out = ""
    for character in text {
      if "\\[]:".contains(character) { out.append("\\") }
      out.append(character)
    }
    return out
  }

  private static func zshAction(_ values: ValueCompletion) -> String {
    switch values {
    case .text: return " "
    case .file: return "_files"
    case .directory: return "_path_files -/"
    case .words(let words): return "(\(words.joined(separator: " ")))"
    case .placements: return "_paywall-tui_placements"
    case .topics: return "(\(topics.joined(separator: " ")))"
    }
  }

  private static func zshSpecs(_ spec: CommandSpec) -> [String] {
    var specs: [String] = []
    for option in spec.options {
      let description = zshEscaped(summary(option.help))
      var text = (option.repeatable ? "*" : "") + "--\(option.name)"
      if let placeholder = option.value {
        text += "=[\(description)]:\(zshEscaped(placeholder)):\(zshAction(option.values))"
      } else {
        text += "[\(description)]"
      }
      specs.append(quoted(text))
    }
    specs.append("'(- *)'{-h,--help}'[Show this help.]'")
    for positional in spec.positionals {
      let prefix = switch positional.count {
      case .one: ":"
      case .optional: "::"
      case .oneOrMore, .zeroOrMore: "*:"
      }
      specs.append(quoted("\(prefix)\(zshEscaped(positional.name)):\(zshAction(positional.values))"))
    }
    return specs
  }

  package static func zsh() -> String {
    let valued = Set(commands.flatMap { $0.options.filter { $0.value != nil }.map { "--\($0.name)" } }).sorted()
    var out = """
      #compdef paywall-tui
      # zsh completion for paywall-tui \(PaywallCommand.version), written by 'paywall-tui completions zsh' from the
      # tables its parser reads. Install: paywall-tui completions zsh > DIR/_paywall-tui, DIR on your $fpath
      # (before compinit runs), or: source <(paywall-tui completions zsh)

      # The project's placements: the first positional argument (default: the demo project). A name
      # is data from someone's project: one a line, added with compadd -a, which quotes it for the
      # command line and never evaluates it (_describe would also read a ':' in it as a description).
      _paywall-tui_placements() {
        local -a valued placements expl
        local project= i
        valued=(\(valued.joined(separator: " ")))
        for (( i = 2; i < CURRENT; i++ )); do
          if [[ $words[i] == -?* ]]; then
            (( ${valued[(Ie)${words[i]%%=*}]} )) && [[ $words[i] != *=* ]] && (( i++ ))
          else
            project=${(Q)words[i]}
            break
          fi
        done
        placements=(${(f)"$(_call_program placements ${(q)${(Q)prog}} completions placements ${project:+${(q)project}} 2>/dev/null)"})
        _wanted placements expl placement compadd -a placements
      }


      """
    for spec in commands {
      out += "_paywall-tui_\(spec.name)() {\n  _arguments -S : \"$@\" \\\n"
      out += zshSpecs(spec).map { "    " + $0 }.joined(separator: " \\\n") + "\n}\n\n"
    }
    out += """
      _paywall-tui() {
        local prog=$words[1]
        local -a commands
        commands=(
      \(commands.map { "    " + quoted("\($0.name):\(summary($0.abstract).replacingOccurrences(of: ":", with: "\\:"))") }.joined(separator: "\n"))
        )
        if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then
          _describe -t commands 'paywall-tui command' commands
          _files
          return
        fi
        case $words[2] in
          (\(commands.map(\.name).joined(separator: "|")))
            local cmd=$words[2]
            shift words
            (( CURRENT-- ))
            _paywall-tui_$cmd
            ;;
          (*)
            _paywall-tui_run '(- *)--version[Print the version.]'
            ;;
        esac
      }

      if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
        _paywall-tui "$@"
      else
        compdef _paywall-tui paywall-tui
      fi

      """
    return out
  }

  // MARK: fish

  private static func fishAction(_ values: ValueCompletion) -> String {
    switch values {
    case .text: return " -x"
    case .file: return " -r -F"
    case .directory: return " -x -a '(__fish_complete_directories (commandline -ct))'"
    case .words(let words): return " -x -a \(quoted(words.joined(separator: " ")))"
    case .placements: return " -x -a '(__paywall_tui_placements)'"
    case .topics: return " -x -a \(quoted(topics.joined(separator: " ")))"
    }
  }

  package static func fish() -> String {
    let names = commands.map(\.name).joined(separator: " ")
    let valued = Set(commands.flatMap { $0.options.filter { $0.value != nil }.map { "--\($0.name)" } }).sorted()
    var out = """
      # fish completion for paywall-tui \(PaywallCommand.version), written by 'paywall-tui completions fish' from the
      # tables its parser reads. Install: paywall-tui completions fish > ~/.config/fish/completions/paywall-tui.fish

      # The subcommand on the command line: its second word when that is one, else run (the default).
      function __paywall_tui_command
          set -l tokens (commandline -opc)
          if test (count $tokens) -ge 2; and contains -- $tokens[2] \(names)
              echo $tokens[2]
          else
              echo run
          end
      end

      function __paywall_tui_using
          test (__paywall_tui_command) = $argv[1]
      end

      # Positional arguments before the cursor (after the subcommand, if any).
      function __paywall_tui_positionals
          set -l tokens (commandline -opc)
          set -e tokens[1]
          if test (count $tokens) -ge 1; and contains -- $tokens[1] \(names)
              set -e tokens[1]
          end
          set -l skip 0
          for token in $tokens
              if test $skip = 1
                  set skip 0
              else if string match -q -- '-?*' $token
                  if contains -- $token \(valued.joined(separator: " "))
                      set skip 1
                  end
              else
                  echo $token
              end
          end
      end

      # The number of positional arguments before the cursor is $argv[2] for subcommand $argv[1].
      function __paywall_tui_at
          __paywall_tui_using $argv[1]; or return 1
          test (count (__paywall_tui_positionals)) -eq $argv[2]
      end

      function __paywall_tui_at_least
          __paywall_tui_using $argv[1]; or return 1
          test (count (__paywall_tui_positionals)) -ge $argv[2]
      end

      # The project's placements: the first positional argument (default: the demo project), one a
      # line. fish offers the lines of a command substitution as they are and escapes them when it
      # inserts one: a name is never evaluated.
      function __paywall_tui_placements
          set -l project (__paywall_tui_positionals)[1]
          set -l program (commandline -opc)[1]
          $program completions placements $project 2>/dev/null
      end

      complete -c paywall-tui -f
      complete -c paywall-tui -n __fish_use_subcommand -l version -d 'Print the version'

      """
    for spec in commands {
      out += "complete -c paywall-tui -n __fish_use_subcommand -a \(spec.name) -d \(quoted(summary(spec.abstract)))\n"
    }
    for spec in commands {
      out += "\n# \(spec.name)\n"
      let condition = "'__paywall_tui_using \(spec.name)'"
      for option in spec.options {
        out += "complete -c paywall-tui -n \(condition) -l \(option.name)"
        if option.value != nil { out += fishAction(option.values) }
        out += " -d \(quoted(summary(option.help)))\n"
      }
      out += "complete -c paywall-tui -n \(condition) -s h -l help -d 'Show this help'\n"
      for (index, positional) in spec.positionals.enumerated() {
        let variadic = positional.count == .oneOrMore || positional.count == .zeroOrMore
        let test = variadic ? "'__paywall_tui_at_least \(spec.name) \(index)'" : "'__paywall_tui_at \(spec.name) \(index)'"
        switch positional.values {
        case .text: break
        case .file: out += "complete -c paywall-tui -n \(test) -F\n"
        case .directory: out += "complete -c paywall-tui -n \(test) -a '(__fish_complete_directories (commandline -ct))'\n"
        case .words(let words): out += "complete -c paywall-tui -n \(test) -a \(quoted(words.joined(separator: " ")))\n"
        case .placements: out += "complete -c paywall-tui -n \(test) -a '(__paywall_tui_placements)'\n"
        case .topics: out += "complete -c paywall-tui -n \(test) -a \(quoted(topics.joined(separator: " ")))\n"
        }
        if variadic { break }
      }
    }
    return out
  }
}
