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

extension Completion {
  static func fishAction(_ values: ValueCompletion) -> String {
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
    let valued = Set(commands.flatMap { $0.options.filter { $0.placeholder != nil }.map { "--\($0.name)" } }).sorted()
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
        if option.placeholder != nil { out += fishAction(option.completion) }
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
