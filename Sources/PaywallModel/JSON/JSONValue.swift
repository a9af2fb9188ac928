/// A position in a source file: 1-based line and column (columns count Unicode scalars).
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The line, from 1.
  public var line: Int
  /// The column, from 1, in Unicode scalars.
  public var column: Int

  package init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  package static let start = SourceLocation(line: 1, column: 1)

  /// Orders locations by line, then column.
  public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
    (a.line, a.column) < (b.line, b.column)
  }

  /// `LINE:COLUMN`.
  public var description: String { "\(line):\(column)" }
}

/// A decoded JSON value that remembers where it came from, so every validation error can name
/// the line and column a person has to fix.
package struct JSONNode: Sendable {
  package var value: JSONValue
  package var location: SourceLocation
  /// A string the length cap cut (`UntrustedText.maximumScalars`): its whole sanitised text, for
  /// checks that must see all of it (a template's variables). nil for any other value.
  package var uncut: String?

  package init(_ value: JSONValue, at location: SourceLocation, uncut: String? = nil) {
    self.value = value
    self.location = location
    self.uncut = uncut
  }
}

/// One `"key": value` pair of an object, in source order (duplicates are kept so they can be reported).
package struct JSONMember: Sendable {
  package var key: String
  package var keyLocation: SourceLocation
  package var value: JSONNode
}

package enum JSONValue: Sendable {
  case null
  case bool(Bool)
  /// The number's source text, kept exact so prices become `Decimal` without binary rounding.
  case number(String)
  case string(String)
  case array([JSONNode])
  case object([JSONMember])

  /// The JSON type name used in error messages ("expected a string, found an array").
  package var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

extension JSONNode {
  package var stringValue: String? {
    if case .string(let s) = value { return s }
    return nil
  }

  package var members: [JSONMember]? {
    if case .object(let m) = value { return m }
    return nil
  }

  package var elements: [JSONNode]? {
    if case .array(let a) = value { return a }
    return nil
  }

  /// The first member named `key`, for readers that do not need unknown-key checks (`.storekit`).
  package subscript(key: String) -> JSONNode? {
    members?.first(where: { $0.key == key })?.value
  }
}

extension JSONNode {
  /// Lets go of a large tree on every core: the elements of its root object's arrays (a config's
  /// paywalls and triggers) are freed beside one another.
  package static func dropTree(_ root: consuming JSONNode) {
    var elements: [JSONNode] = []
    if case .object(let members) = root.value {
      for member in members {
        if case .array(let items) = member.value.value { elements += items }
      }
    }
    // The tree lets go of them first, so the elements are held here only.
    _ = consume root
    dropOnEveryCore(consume elements)
  }
}
