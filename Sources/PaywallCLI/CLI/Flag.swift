import PaywallModel

/// What every option of a command says about itself, whatever the type of its value: the parser,
/// the help, the man page and the shell completions read a command's options through this, so
/// none of them drifts from the others.
package protocol CommandOption: Sendable {
  /// The long name without dashes, e.g. "state-dir".
  var name: String { get }
  /// The placeholder shown in help for an option that takes a value; nil for a switch.
  var placeholder: String? { get }
  var help: String { get }
  /// May be given more than once (each value kept); a value option that is not is refused twice.
  var repeatable: Bool { get }
  /// What the shell completions offer for the value (`paywall-tui completions`).
  var completion: ValueCompletion { get }
}

/// One option of the command line, declared once, as ripgrep declares each flag as one value
/// (`crates/core/flags/defs.rs`): its name, placeholder, help, whether it repeats, what completes
/// its value, and how the words given for it become a `Value`. A command lists its flags in its
/// `CommandSpec` and reads each through the same constant (`arguments[PlayFlags.size]`), so a
/// misspelt name does not compile, and a value is parsed, with its error message, in one place.
///
/// `Failure` is `Never` for an option whose value cannot be wrong (text, a list, a switch): such a
/// read needs no `try`. A value is read when the command asks for it, in the order its `init`
/// asks, so of two bad options the first one read is the one reported.
package struct Flag<Value, Failure: Error>: CommandOption {
  /// Everything but how the value is read: what the command's list of options holds.
  package let option: OptionInfo
  /// The words given for the option, in order (a switch: one empty word each time it is given),
  /// as its value.
  let read: @Sendable (_ given: [String]) throws(Failure) -> Value

  package var name: String { option.name }
  package var placeholder: String? { option.placeholder }
  package var help: String { option.help }
  package var repeatable: Bool { option.repeatable }
  package var completion: ValueCompletion { option.completion }

  init(name: String, placeholder: String?, help: String, repeatable: Bool = false,
       completion: @autoclosure @escaping @Sendable () -> ValueCompletion? = nil,
       read: @escaping @Sendable (_ given: [String]) throws(Failure) -> Value) {
    // By default what the placeholder says (`file`, `dir`, `a|b|c`, else free text).
    option = OptionInfo(name: name, placeholder: placeholder, help: help, repeatable: repeatable) {
      completion() ?? placeholder.map(ValueCompletion.init(placeholder:)) ?? .text
    }
    self.read = read
  }
}

/// A flag as a command's list of options (`CommandSpec.options`) holds it: everything but how its
/// value is read. Not generic: a list of `Flag`s boxed as `any CommandOption` made the runtime
/// build a type for each kind of value (and look up its conformances) on every start, a tenth of
/// the work before `run`'s first paint.
package struct OptionInfo: CommandOption {
  package let name: String
  package let placeholder: String?
  package let help: String
  package let repeatable: Bool
  /// Made when a completion script, the man page or help asks: a list such as `--locale`'s is
  /// worked out from a table of hundreds of entries, which `run`'s first paint should not wait on.
  private let completing: @Sendable () -> ValueCompletion
  package var completion: ValueCompletion { completing() }

  init(name: String, placeholder: String?, help: String, repeatable: Bool, completing: @escaping @Sendable () -> ValueCompletion) {
    (self.name, self.placeholder, self.help, self.repeatable, self.completing) = (name, placeholder, help, repeatable, completing)
  }
}

extension Flag where Value == Bool, Failure == Never {
  /// A switch: true when given.
  package static func bool(_ name: String, _ help: String) -> Flag {
    Flag(name: name, placeholder: nil, help: help) { !$0.isEmpty }
  }
}

extension Flag where Value == String?, Failure == Never {
  /// A value as given; nil when not given.
  package static func text(_ name: String, _ placeholder: String, _ help: String, completion: @autoclosure @escaping @Sendable () -> ValueCompletion? = nil) -> Flag {
    Flag(name: name, placeholder: placeholder, help: help, completion: completion()) { $0.last }
  }
}

extension Flag where Value == String, Failure == Never {
  /// A value as given, `fallback` when not given.
  package static func text(_ name: String, _ placeholder: String, _ help: String, default fallback: String,
                           completion: @autoclosure @escaping @Sendable () -> ValueCompletion? = nil) -> Flag {
    Flag(name: name, placeholder: placeholder, help: help, completion: completion()) { $0.last ?? fallback }
  }
}

extension Flag where Value == [String], Failure == Never {
  /// A repeatable option: every value given, in order.
  package static func list(_ name: String, _ placeholder: String, _ help: String, completion: @autoclosure @escaping @Sendable () -> ValueCompletion? = nil) -> Flag {
    Flag(name: name, placeholder: placeholder, help: help, repeatable: true, completion: completion()) { $0 }
  }
}

extension Flag where Value == [String: String], Failure == CLIFailure {
  /// A repeatable `KEY=VALUE` option as a dictionary, e.g. `--user age=13 --user vip=true`.
  package static func pairs(_ name: String, _ placeholder: String, _ help: String) -> Flag {
    Flag(name: name, placeholder: placeholder, help: help, repeatable: true) { (given: [String]) throws(CLIFailure) in
      var out: [String: String] = [:]
      for text in given {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex else {
          throw .usage("--\(name) \(quoting: text) must be KEY=VALUE, e.g. --\(name) age=13")
        }
        out[String(text[..<eq])] = String(text[text.index(after: eq)...])
      }
      return out
    }
  }
}

extension Flag where Failure == CLIFailure {
  /// A value read by `parse` (whose error names the option itself); nil when not given.
  package static func parsed<Parsed>(_ name: String, _ placeholder: String, _ help: String, completion: @autoclosure @escaping @Sendable () -> ValueCompletion? = nil,
                                     _ parse: @escaping @Sendable (String) throws(CLIFailure) -> Parsed) -> Flag
  where Value == Parsed? {
    Flag(name: name, placeholder: placeholder, help: help, completion: completion()) { (given: [String]) throws(CLIFailure) -> Parsed? in
      guard let text = given.last else { return nil }
      return try parse(text)
    }
  }

  /// A value read by `parse`, which reads `fallback` when the option is not given.
  package static func parsed(_ name: String, _ placeholder: String, _ help: String, default fallback: String,
                             completion: @autoclosure @escaping @Sendable () -> ValueCompletion? = nil,
                             _ parse: @escaping @Sendable (String) throws(CLIFailure) -> Value) -> Flag {
    Flag(name: name, placeholder: placeholder, help: help, completion: completion()) { (given: [String]) throws(CLIFailure) -> Value in
      try parse(given.last ?? fallback)
    }
  }

  /// One of an enum's cases, e.g. `--controller scripted`; `fallback` when not given. The
  /// completions offer every case.
  package static func choice(_ name: String, _ placeholder: String, _ help: String, default fallback: Value) -> Flag
  where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    Flag(name: name, placeholder: placeholder, help: help, completion: .words(Value.allCases.map(\.rawValue))) {
      (given: [String]) throws(CLIFailure) -> Value in
      guard let text = given.last else { return fallback }
      return try choose(name, text)
    }
  }

  /// One of an enum's cases; nil when not given.
  package static func choice<Choice>(_ name: String, _ placeholder: String, _ help: String) -> Flag
  where Value == Choice?, Choice: RawRepresentable & CaseIterable & Sendable, Choice.RawValue == String {
    Flag(name: name, placeholder: placeholder, help: help, completion: .words(Choice.allCases.map(\.rawValue))) {
      (given: [String]) throws(CLIFailure) -> Choice? in
      guard let text = given.last else { return nil }
      return try choose(name, text)
    }
  }
}

/// `text` as one of `T`'s cases, or the error naming them all (and the closest).
private func choose<T: RawRepresentable & CaseIterable>(_ name: String, _ text: String) throws(CLIFailure) -> T where T.RawValue == String {
  guard let choice = T(rawValue: text) else {
    let cases = T.allCases.map(\.rawValue)
    throw .usage("--\(name) \(quoting: text) must be one of \(cases.joined(separator: ", "))\(Suggestions.hint(for: text, in: cases))")
  }
  return choice
}
