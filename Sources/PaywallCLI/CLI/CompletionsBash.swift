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

  static func bashAction(_ values: ValueCompletion) -> String {
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
  static func bashWords(_ words: [String]) -> String {
    words.map(ShellWord.quoted).joined(separator: " ")
  }

  static func bashCase(_ spec: CommandSpec) -> String {
    let valued = spec.options.filter { $0.placeholder != nil }
    var lines = ["    \(spec.name))"]
    lines.append("      _paywall_tui_positionals \"\(valued.map { "--\($0.name)" }.joined(separator: " "))\"")
    if !valued.isEmpty {
      lines.append("      case $prev in")
      // Options whose values complete alike share one branch.
      var groups: [(action: String, names: [String])] = []
      for option in valued {
        let action = bashAction(option.completion)
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

}
