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
  /// Text inside an `_arguments` spec's `[description]` or `:message:`.
  static func zshEscaped(_ text: String) -> String {
    var out = ""
    for character in text {
      if "\\[]:".contains(character) { out.append("\\") }
      out.append(character)
    }
    return out
  }

  static func zshAction(_ values: ValueCompletion) -> String {
    switch values {
    case .text: return " "
    case .file: return "_files"
    case .directory: return "_path_files -/"
    case .words(let words): return "(\(words.joined(separator: " ")))"
    case .placements: return "_paywall-tui_placements"
    case .topics: return "(\(topics.joined(separator: " ")))"
    }
  }

  static func zshSpecs(_ spec: CommandSpec) -> [String] {
    var specs: [String] = []
    for option in spec.options {
      let description = zshEscaped(summary(option.help))
      var text = (option.repeatable ? "*" : "") + "--\(option.name)"
      if let placeholder = option.placeholder {
        text += "=[\(description)]:\(zshEscaped(placeholder)):\(zshAction(option.completion))"
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
    let valued = Set(commands.flatMap { $0.options.filter { $0.placeholder != nil }.map { "--\($0.name)" } }).sorted()
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
}
