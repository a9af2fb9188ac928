import PaywallModel
import PaywallScenarios

/// The command line, parsed from a table of options: no reflection, so the interactive `run`
/// path pays microseconds for its arguments, not the milliseconds a reflection-based parser spends
/// on Swift metadata at launch (measured in issue 4's first paint).
package struct OptionSpec: Sendable {
  /// The long name without dashes, e.g. "state-dir".
  package var name: String
  /// The placeholder shown in help for an option that takes a value; nil for a flag.
  package var value: String?
  package var help: String
  package var repeatable = false
  /// What the shell completions offer for the value (`paywall-tui completions`); by default what
  /// the placeholder says (`file`, `dir`, `a|b|c`, else free text).
  package var values: ValueCompletion = .text

  package static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, value: nil, help: help)
  }

  package static func option(_ name: String, _ value: String, _ help: String, repeatable: Bool = false,
                     values: ValueCompletion? = nil) -> OptionSpec {
    OptionSpec(name: name, value: value, help: help, repeatable: repeatable, values: values ?? ValueCompletion(placeholder: value))
  }
}

/// What completes an option's value or a positional argument in a shell: the same tables drive
/// the parser, the help, the completion scripts and the man page, so none of them drifts.
package enum ValueCompletion: Sendable, Equatable {
  /// Free text: nothing to offer.
  case text
  /// A file (or a directory on the way to one).
  case file
  case directory
  /// One of these words (all of them valid as they are).
  case words([String])
  /// A placement of the project named on the command line (`paywall-tui completions placements`).
  case placements
  /// A subcommand or help topic (`paywall-tui help <topic>`).
  case topics

  /// Read from a placeholder: `file`/`path` a file, `dir` a directory, `a|b|c` those words.
  package init(placeholder: String) {
    switch placeholder.lowercased() {
    case "file", "files", "path", "paths": self = .file
    case "dir", "directory": self = .directory
    case let text where text.contains("|"): self = .words(placeholder.split(separator: "|").map(String.init))
    default: self = .text
    }
  }
}

package struct PositionalSpec: Sendable {
  package enum Count: Sendable { case optional, one, oneOrMore, zeroOrMore }
  package var name: String
  package var help: String
  package var count: Count
  /// What the shell completions offer here; by default what the name says (`path`: a file).
  package var values: ValueCompletion

  package init(name: String, help: String, count: Count, values: ValueCompletion? = nil) {
    self.name = name
    self.help = help
    self.count = count
    self.values = values ?? ValueCompletion(placeholder: name)
  }
}

package struct CommandSpec: Sendable {
  package var name: String
  package var abstract: String
  package var discussion: String = ""
  package var positionals: [PositionalSpec] = []
  package var options: [OptionSpec] = []
  /// Command lines shown under EXAMPLES, each with a `# comment` saying what it does.
  package var examples: [String] = []

  package var usage: String {
    var parts = ["paywall-tui", name]
    for positional in positionals {
      switch positional.count {
      case .optional: parts.append("[<\(positional.name)>]")
      case .one: parts.append("<\(positional.name)>")
      case .oneOrMore: parts.append("<\(positional.name)> ...")
      case .zeroOrMore: parts.append("[<\(positional.name)> ...]")
      }
    }
    if !options.isEmpty { parts.append("[options]") }
    return parts.joined(separator: " ")
  }

  package var help: String {
    var lines = ["OVERVIEW: \(abstract)"]
    if !discussion.isEmpty { lines += ["", discussion] }
    lines += ["", "USAGE: \(usage)"]
    if !positionals.isEmpty {
      lines += ["", "ARGUMENTS:"]
      lines += positionals.map { HelpTable.row("<\($0.name)>", $0.help) }
    }
    lines += ["", "OPTIONS:"]
    for option in options {
      var left = "--\(option.name)"
      if let value = option.value { left += " <\(value)>" }
      lines.append(HelpTable.row(left, option.help + (option.repeatable ? " (repeatable)" : "")))
    }
    lines.append(HelpTable.row("-h, --help", "Show this help."))
    if !examples.isEmpty {
      lines += ["", "EXAMPLES:"] + examples.map { "  " + $0 }
    }
    return lines.joined(separator: "\n")
  }
}

package enum HelpTable {
  package static func row(_ left: String, _ right: String) -> String {
    let indent = "  " + left
    let column = 28
    return indent.count + 2 <= column
      ? indent + String(repeating: " ", count: column - indent.count) + right
      : indent + "\n" + String(repeating: " ", count: column) + right
  }
}

/// What the user typed, checked against a `CommandSpec`. Values are read by name; asking for a
/// name the spec does not declare is a programming error.
package struct Arguments {
  package let spec: CommandSpec
  package private(set) var positionals: [String] = []
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []
  /// `-h` / `--help` was given: the caller prints `spec.help`.
  package private(set) var wantsHelp = false
  /// The words as given (`play RECORDING` parses them again after the recording's own).
  package let raw: [String]

  package init(_ arguments: [String], spec: CommandSpec) throws(CLIFailure) {
    self.spec = spec
    raw = arguments
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument == "-h" || argument == "--help" {
        wantsHelp = true
        continue
      }
      let body = argument.hasPrefix("--") ? String(argument.dropFirst(2)) : String(argument.dropFirst())
      let (name, inline) = body.firstIndex(of: "=").map { (String(body[..<$0]), Optional(String(body[body.index(after: $0)...]))) }
        ?? (body, nil)
      guard argument.hasPrefix("--"), let option = spec.options.first(where: { $0.name == name }) else {
        let names = spec.options.map(\.name) + ["help"]
        let hint = Suggestions.closest(to: name, in: names).map { " (did you mean '--\($0)'?)" } ?? ""
        throw .usage("unknown option \(quoting: argument) for '\(spec.name)'\(hint); see 'paywall-tui \(spec.name) --help'")
      }
      guard let placeholder = option.value else {
        if inline != nil { throw .usage("--\(name) is a flag and takes no value") }
        flags.insert(name)
        continue
      }
      let value: String
      if let inline {
        value = inline
      } else if index < arguments.count, !(arguments[index].hasPrefix("--") && arguments[index].count > 2) {
        value = arguments[index]
        index += 1
      } else {
        throw .usage("--\(name) needs a value (<\(placeholder)>), e.g. --\(name) VALUE")
      }
      if !option.repeatable, values[name] != nil {
        throw .usage("--\(name) is given twice; give it once")
      }
      values[name, default: []].append(value)
    }
    guard !wantsHelp else { return }
    try checkPositionals()
  }

  private func checkPositionals() throws(CLIFailure) {
    var remaining = positionals.count
    for positional in spec.positionals {
      switch positional.count {
      case .optional: remaining = max(0, remaining - 1)
      case .one:
        guard remaining >= 1 else { throw .usage("'\(spec.name)' needs <\(positional.name)>; see 'paywall-tui \(spec.name) --help'") }
        remaining -= 1
      case .oneOrMore:
        guard remaining >= 1 else { throw .usage("'\(spec.name)' needs at least one <\(positional.name)>; see 'paywall-tui \(spec.name) --help'") }
        remaining = 0
      case .zeroOrMore: remaining = 0
      }
    }
    if remaining > 0 {
      let extra = positionals[positionals.count - remaining]
      throw .usage("unexpected argument \(quoting: extra) for '\(spec.name)'; see 'paywall-tui \(spec.name) --help'")
    }
  }

  package func value(_ name: String) -> String? {
    precondition(spec.options.contains { $0.name == name && $0.value != nil }, "undeclared option --\(name)")
    return values[name]?.last
  }

  package func values(_ name: String) -> [String] {
    precondition(spec.options.contains { $0.name == name && $0.repeatable }, "undeclared repeatable option --\(name)")
    return values[name] ?? []
  }

  package func flag(_ name: String) -> Bool {
    precondition(spec.options.contains { $0.name == name && $0.value == nil }, "undeclared flag --\(name)")
    return flags.contains(name)
  }

  /// A repeatable `KEY=VALUE` option as a dictionary, e.g. `--user age=13 --user vip=true`.
  package func pairs(_ name: String) throws(CLIFailure) -> [String: String] {
    var out: [String: String] = [:]
    for text in values(name) {
      guard let eq = text.firstIndex(of: "="), eq != text.startIndex else {
        throw .usage("--\(name) \(quoting: text) must be KEY=VALUE, e.g. --\(name) age=13")
      }
      out[String(text[..<eq])] = String(text[text.index(after: eq)...])
    }
    return out
  }

  /// A value that must be one of an enum's cases, e.g. `--controller scripted`.
  package func choice<T: RawRepresentable & CaseIterable>(_ name: String, default fallback: T) throws(CLIFailure) -> T where T.RawValue == String {
    guard let text = value(name) else { return fallback }
    guard let choice = T(rawValue: text) else {
      let cases = T.allCases.map(\.rawValue)
      throw .usage("--\(name) \(quoting: text) must be one of \(cases.joined(separator: ", "))\(Suggestions.hint(for: text, in: cases))")
    }
    return choice
  }
}

/// A subcommand: its table, how it is built from parsed arguments, and what it does.
package protocol CLICommand {
  static var spec: CommandSpec { get }
  init(_ arguments: Arguments) throws(CLIFailure)
  func run() throws
}
