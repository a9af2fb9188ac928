/// One problem found in a file, printed the way compilers print them so editors and CI link to it:
/// `FILE:LINE:COL: error: MESSAGE ($.json.path)`.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
  public enum Severity: String, Sendable, Hashable {
    case error
    case warning
  }

  public var file: String
  public var location: SourceLocation
  public var severity: Severity
  public var message: String
  /// The JSON path of the offending value (`$.components[3].action`), or nil for file-level problems.
  public var path: JSONPath?

  package init(file: String, location: SourceLocation, severity: Severity, message: String, path: JSONPath?) {
    self.file = file
    self.location = location
    self.severity = severity
    self.message = message
    self.path = path
  }

  public var description: String {
    let suffix = path.map { " (\($0))" } ?? ""
    return "\(file):\(location.line):\(location.column): \(severity.rawValue): \(message)\(suffix)"
  }
}

/// A JSON path such as `$.components[3].action`, built as readers descend into a document.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
  public enum Component: Sendable, Hashable {
    case key(String)
    case index(Int)
  }

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

  public var description: String {
    var out = "$"
    for component in components {
      switch component {
      case .key(let key):
        // A key from the file: capped like every quote of it.
        if !key.isEmpty && key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }) {
          out += ".\(excerpt: key)"
        } else {
          out += "[\"\(excerpt: key)\"]"
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

  package func warning(_ message: String, at location: SourceLocation, path: JSONPath?) {
    diagnostics.append(Diagnostic(file: file, location: location, severity: .warning, message: message, path: path))
  }

  package func append(_ other: [Diagnostic]) {
    diagnostics.append(contentsOf: other)
  }
}

/// Thrown when a file cannot be used; carries every problem found, already sorted by position.
public struct ValidationFailure: Error, Sendable, CustomStringConvertible {
  public var diagnostics: [Diagnostic]

  public init(_ diagnostics: [Diagnostic]) {
    self.diagnostics = diagnostics
  }

  public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
