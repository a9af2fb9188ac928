import PaywallModel

/// The command line, parsed from a table of options (`Flag` values): no reflection, so the
/// interactive `run` path pays microseconds for its arguments, not the milliseconds a
/// reflection-based parser spends on Swift metadata at launch.
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
  package var options: [OptionInfo] = []
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
      if let placeholder = option.placeholder { left += " <\(placeholder)>" }
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

/// What the user typed, checked against a `CommandSpec`. An option's value is read through its
/// `Flag` (`arguments[PlayFlags.size]`), never by a name typed again.
package struct Arguments {
  package let spec: CommandSpec
  package private(set) var positionals: [String] = []
  /// The words given for each option, by name, in order; a switch has one empty word each time.
  private var given: [String: [String]] = [:]
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
      guard let placeholder = option.placeholder else {
        if inline != nil { throw .usage("--\(name) is a flag and takes no value") }
        given[name, default: []].append("")
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
      if !option.repeatable, given[name] != nil {
        throw .usage("--\(name) is given twice; give it once")
      }
      given[name, default: []].append(value)
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

  /// `flag`'s value: what was given for it, read as the flag reads it (its default when not
  /// given). Reading a flag the command's table does not list is a programming error.
  package subscript<Value>(flag: Flag<Value, Never>) -> Value {
    flag.read(words(for: flag))
  }

  /// `flag`'s value, or the error that says what is wrong with what was given. (Two subscripts,
  /// not one generic over the failure: Swift 6.3 crashes lowering a `get throws(Failure)` read
  /// where Failure is Never.)
  package subscript<Value>(flag: Flag<Value, CLIFailure>) -> Value {
    get throws(CLIFailure) { try flag.read(words(for: flag)) }
  }

  /// Whether `flag` was given at all (a default is not).
  package func isGiven(_ flag: some CommandOption) -> Bool {
    !words(for: flag).isEmpty
  }

  /// `flag`'s value as it was written, not read: the last one given, nil when not given.
  package func written(_ flag: some CommandOption) -> String? {
    words(for: flag).last
  }

  private func words(for flag: some CommandOption) -> [String] {
    precondition(spec.options.contains { $0.name == flag.name && $0.help == flag.help },
                 "--\(flag.name) is not an option of '\(spec.name)'")
    return given[flag.name] ?? []
  }
}

/// A subcommand: its table, how it is built from parsed arguments, and what it does.
package protocol CLICommand {
  static var spec: CommandSpec { get }
  init(_ arguments: Arguments) throws(CLIFailure)
  func run() async throws
  /// Does on the calling thread what needs no task, and returns the rest; by default all of
  /// `run` is the rest. `run` starts the interactive session here: the project loads and the
  /// first frame is drawn before the concurrency pool has a thread.
  func start() throws -> CommandRest
}

/// What a command leaves to run as a task once `start` has done its part. Handed to one task
/// once, so it may hold what is not `Sendable`.
package struct CommandRest: @unchecked Sendable {
  let body: () async throws -> Void

  package init(_ body: @escaping () async throws -> Void) { self.body = body }

  /// Nothing left: the command finished in `start`.
  package static let done = CommandRest {}
}

extension CLICommand {
  package func start() throws -> CommandRest { CommandRest { try await run() } }
}
