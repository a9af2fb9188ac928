/// One problem found in a file, printed the way compilers print them so editors and CI link to it:
/// `FILE:LINE:COL: error: MESSAGE ($.json.path)`.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
  /// How bad a problem is: an `error` stops the project from loading, a `warning` does not.
  public enum Severity: String, Sendable, Hashable {
    case error
    case warning
  }

  /// The file the problem is in, as it was named when loaded.
  public var file: String
  /// Where in the file: line and column.
  public var location: SourceLocation
  /// Whether the problem stops the project from loading.
  public var severity: Severity
  /// What is wrong, in one line, often with a did-you-mean.
  public var message: String
  /// The JSON path of the offending value (`$.components[3].action`), or nil for file-level problems.
  public var path: JSONPath?
  /// True for an error that only follows from another one: a reference to a paywall or a product
  /// whose definition failed to load. Its message says so ("main.json failed to load, see above");
  /// it is listed after every other diagnostic and not counted as a problem of its own.
  public var isConsequence: Bool
  /// A warning's kind, whose stable name follows it in print (`[no-close-button]`) and silences it
  /// (`validate --allow NAME`, app.json's `"ignore"`); nil for errors.
  public var kind: WarningKind?

  package init(file: String, location: SourceLocation, severity: Severity, message: String, path: JSONPath?,
               isConsequence: Bool = false, kind: WarningKind? = nil) {
    self.file = file
    self.location = location
    self.severity = severity
    self.message = message
    self.path = path
    self.isConsequence = isConsequence
    self.kind = kind
  }

  /// Diagnostics in the order they are printed: every cause by file and position, then the
  /// consequences in the order they were found, which is the order they follow from each other (a
  /// paywall's slot naming a product that failed, then a campaign naming that paywall), so every
  /// "see above" holds.
  package static func ordered(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.filter { !$0.isConsequence }.sorted { ($0.file, $0.location) < ($1.file, $1.location) }
      + diagnostics.filter(\.isConsequence)
  }

  /// `FILE:LINE:COL: SEVERITY: MESSAGE ($.path) [NAME]`, as compilers print problems (a warning's
  /// name last, as clang prints `[-Wname]`).
  public var description: String {
    let suffix = path.map { " (\($0))" } ?? ""
    let name = kind.map { " [\($0.rawValue)]" } ?? ""
    return "\(file):\(location.line):\(location.column): \(severity.rawValue): \(message)\(suffix)\(name)"
  }
}

/// A JSON path such as `$.components[3].action`, built as readers descend into a document.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
  /// One step of a path: an object key or an array index.
  public enum Component: Sendable, Hashable {
    case key(String)
    case index(Int)
  }

  /// The steps from the document's root, outermost first.
  public var components: [Component]

  package init(_ components: [Component] = []) {
    self.components = components
  }

  package static let root = JSONPath()

  package func appending(_ key: String) -> JSONPath {
    JSONPath(components + [.key(key)])
  }

  package func appending(_ index: Int) -> JSONPath {
    JSONPath(components + [.index(index)])
  }

  /// The path as written in messages: `$.components[3].action`.
  public var description: String {
    var out = "$"
    for component in components {
      switch component {
      case .key(let key):
        // A key from the file: capped like every quote of it.
        if !key.isEmpty && key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }) {
          out += ".\(excerpt: key)"
        } else {
          out += "[\"\(excerpt: key.replacingOccurrences(of: "\n", with: "\\n"))\"]"
        }
      case .index(let i):
        out += "[\(i)]"
      }
    }
    return out
  }
}

/// Collects every problem in one pass so a person fixes them all at once, not one per run.
package final class DiagnosticCollector {
  package let file: String
  /// The file's bytes, so a position inside a string can be mapped to its column.
  let source: [UInt8]
  package private(set) var diagnostics: [Diagnostic] = []

  package init(file: String, source: [UInt8]) {
    self.file = file
    self.source = source
  }

  /// The position of the decoded scalar at `offset` inside the string literal that opens at
  /// `literal`. Escapes (`\u001b`, `\n`) and characters the sanitiser removed are skipped the way
  /// the parser read them, so the column is the one an editor shows.
  package func location(inStringAt literal: SourceLocation, offset: Int) -> SourceLocation {
    // Only reached if the location does not match the source, which the parser never produces.
    let fallback = SourceLocation(line: literal.line, column: literal.column + 1 + offset)
    guard var index = StringLiteralScanner.byteOffset(of: literal, in: source) else { return fallback }
    return StringLiteralScanner.location(ofDecodedScalar: offset, literalAt: &index, startingAt: literal, in: source) ?? fallback
  }

  package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  package func error(_ message: String, at location: SourceLocation, path: JSONPath?) {
    diagnostics.append(Diagnostic(file: file, location: location, severity: .error, message: message, path: path))
  }

  /// An error that follows from another one already reported (see `Diagnostic.isConsequence`).
  package func consequence(_ message: String, at location: SourceLocation, path: JSONPath?) {
    diagnostics.append(Diagnostic(file: file, location: location, severity: .error, message: message, path: path, isConsequence: true))
  }

  package func warning(_ kind: WarningKind, _ message: String, at location: SourceLocation, path: JSONPath?) {
    diagnostics.append(Diagnostic(file: file, location: location, severity: .warning, message: message, path: path, kind: kind))
  }

  package func append(_ other: [Diagnostic]) {
    diagnostics.append(contentsOf: other)
  }
}

/// Thrown when a file cannot be used; carries every problem found, already sorted by position.
public struct ValidationFailure: Error, Sendable, CustomStringConvertible {
  /// Every problem found, sorted by file and position.
  public var diagnostics: [Diagnostic]

  /// A failure carrying `diagnostics` (given sorted).
  public init(_ diagnostics: [Diagnostic]) {
    self.diagnostics = diagnostics
  }

  /// Every diagnostic, one per line.
  public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
