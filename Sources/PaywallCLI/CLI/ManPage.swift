#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import PaywallModel
import PaywallScenarios
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `paywall-tui man`: the manual page, in roff (man(7), section 1), written from the same tables
/// as the parser, the help and the completions: every subcommand with its arguments, options and
/// examples, and the play script language (`ScriptLanguage.rows`).
package struct ManCommand: CLICommand {
  package static let spec = CommandSpec(
    name: "man",
    abstract: "Print the manual page (roff, section 1): every subcommand, option and script command.",
    examples: [
      "paywall-tui man | man -l -                                          # read it now",
      "paywall-tui man > ~/.local/share/man/man1/paywall-tui.1             # then: man paywall-tui",
    ]
  )

  package init(_ arguments: Arguments) {}

  package func run() async throws {
    try Console.out(ManPage.text)
  }
}

/// The roff source of `paywall-tui.1`.
package enum ManPage {
  package static var text: String {
    var lines = [
      #".\" The manual page of paywall-tui \#(PaywallCommand.version), written by 'paywall-tui man' from the tables its parser reads."#,
      ".TH PAYWALL-TUI 1 \(PaywallCommand.manualDate) \"paywall-tui \(PaywallCommand.version)\" \"User Commands\"",
      ".nh",
      ".SH NAME",
      escaped("paywall-tui \\- " + PaywallCommand.summary).replacingOccurrences(of: "\\e-", with: "\\-"),
      ".SH SYNOPSIS",
      ".B paywall-tui",
      ".RI [ subcommand ]",
      ".RI [ arguments ]",
      ".RI [ options ]",
      ".SH DESCRIPTION",
      "paywall-tui draws JSON-defined paywalls in a terminal as the Superwall SDK would",
      "present them, with a simulated App Store behind them.",
      "With no subcommand it runs",
      ".BR run :",
      "the project, app.json or paywall file given as the first argument, or with none",
      "the demo project (paywalls/ of the source tree, else the copy built in; see",
      ".BR demo ).",
      "Every subcommand prints its help with",
      ".B \\-\\-help",
      "(or",
      ".BR \"paywall-tui help\" \" \" \\fIsubcommand\\fR ),",
      "with examples.",
      ".TP",
      ".B \\-\\-version",
      "Print the version.",
      ".TP",
      ".BR \\-h \", \" \\-\\-help",
      "Show the overview.",
      ".SH COMMANDS",
    ]
    for command in PaywallCommand.subcommands {
      lines += section(command.spec)
    }
    lines += section(Completion.helpSpec)
    lines += [".SH \"SCRIPT LANGUAGE\"",
              "The scripts of", ".B play \\-\\-script", "have one command a line;", ".B #", "starts a comment.",
              "The same table is printed by", ".BR \"paywall-tui help script\" ."]
    for row in ScriptLanguage.rows {
      lines += [".TP", ".B \(literal(ScriptLanguage.plain(row.syntax)))", escaped(ScriptLanguage.plain(row.does))]
    }
    lines += [
      ".SH \"EXIT STATUS\"",
    ]
    for status in ExitStatus.allCases { lines += [".TP", ".B \(status.rawValue)", escaped(status.summary)] }
    lines += [
      ".TP", ".BI 128+ N", "Ended by signal", ".IR N .",
      ".SH ENVIRONMENT",
      ".TP", ".B XDG_STATE_HOME", escaped("Where run, store and explain keep each project's state (default: ~/.local/state)."),
      ".TP", ".B NO_COLOR", "When set,", ".B render \\-\\-color auto", "prints no colours.",
      ".SH \"SEE ALSO\"",
      ".BR \"paywall-tui help script\" ,",
      ".BR \"paywall-tui completions\" ;",
      "the README and docs/ of the project.",
    ]
    return lines.joined(separator: "\n")
  }

  private static func section(_ spec: CommandSpec) -> [String] {
    var lines = [".SS \"\(literal(spec.usage))\"", escaped(spec.abstract)]
    if !spec.discussion.isEmpty { lines += [".PP", escaped(spec.discussion)] }
    if !spec.positionals.isEmpty {
      lines += [".PP", "Arguments:"]
      for positional in spec.positionals {
        lines += [".TP", ".I \(positional.name)", escaped(positional.help + values(positional.values))]
      }
    }
    lines += [".PP", "Options:"]
    for option in spec.options {
      let name = "\\-\\-\(literal(option.name))"
      lines.append(".TP")
      if let placeholder = option.placeholder {
        lines.append(".BI \"\(name) \" \"\(literal(placeholder))\"")
      } else {
        lines.append(".B \(name)")
      }
      lines.append(escaped(option.help + (option.repeatable ? " (repeatable)" : "") + values(option.completion)))
    }
    lines += [".TP", ".BR \\-h \", \" \\-\\-help", "Show this help."]
    if !spec.examples.isEmpty {
      lines += [".PP", "Examples:", ".PP", ".RS", ".nf"]
      lines += spec.examples.flatMap(example)
      lines += [".fi", ".RE"]
    }
    return lines
  }

  /// An example as it reads in a terminal: one line, or, where that passes 80 bytes, its comment
  /// above it and the command continued with `\` over lines of at most 80.
  private static func example(_ text: String) -> [String] {
    guard literal(text).utf8.count > 80 else { return [literal(text)] }
    var command = text
    var lines: [String] = []
    if let hash = text.range(of: "  #") {
      command = String(text[..<hash.lowerBound])
      lines.append(literal(text[hash.upperBound...].trimmingSpaces().isEmpty ? "" : "#" + text[hash.upperBound...]))
    }
    var current = ""
    for word in command.split(separator: " ") {
      let piece = literal(String(word))
      if !current.isEmpty, current.utf8.count + 1 + piece.utf8.count + 3 > 80 {
        lines.append(current + " \\e")
        current = "    "
      }
      current += (current.isEmpty || current == "    " ? "" : " ") + piece
    }
    lines.append(current)
    return lines
  }

  /// The values the completions offer, when the help text does not already name them all.
  private static func values(_ values: ValueCompletion) -> String {
    guard case .words(let words) = values, words.count > 4 else { return "" }
    return " Values: \(words.joined(separator: ", "))."
  }

  /// Prose for roff: backslashes and non-ASCII as escapes, no line that reads as a request.
  package static func escaped(_ text: String, wrap: Bool = true) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\e"
      case "\n": out += "\n"
      case _ where scalar.isASCII: out.unicodeScalars.append(scalar)
      default: out += "\\[u" + cFormat("%04X", scalar.value) + "]"
      }
    }
    // One source line a sentence's worth, at most 80 bytes (roff joins them with a space when it fills).
    return out.split(separator: "\n", omittingEmptySubsequences: false).flatMap { wrap ? wrapped(String($0)) : [String($0)] }.map { line in
      line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }.joined(separator: "\n")
  }

  /// A text line broken at spaces into lines of at most 80 bytes (a longer word stays whole).
  private static func wrapped(_ line: String) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in line.split(separator: " ", omittingEmptySubsequences: true) {
      if !current.isEmpty, current.utf8.count + 1 + word.utf8.count > 80 {
        lines.append(current)
        current = ""
      }
      current += (current.isEmpty ? "" : " ") + word
    }
    lines.append(current)
    return lines
  }

  /// A command line, an option name or a syntax: `-` is the minus sign `\-`, so it can be copied,
  /// and `"` is safe inside a macro's quoted argument.
  package static func literal<S: StringProtocol>(_ text: S) -> String {
    escaped(String(text), wrap: false).replacingOccurrences(of: "-", with: "\\-").replacingOccurrences(of: "\"", with: "\\(dq")
  }
}
