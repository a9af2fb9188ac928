/// Writing JSON text: string quoting and a small ordered object builder, so output (event lines,
/// state files) has a stable key order that tests and diffs can rely on.
package enum JSONText {
  package static func quote(_ text: String) -> String {
    var out = "\""
    out.reserveCapacity(text.utf8.count + 2)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}

/// A JSON value to write, with object keys kept in insertion order.
public indirect enum JSONOutput: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral
{
  case string(String)
  case number(String)
  case bool(Bool)
  case null
  case array([JSONOutput])
  case object([(String, JSONOutput)])

  /// A JSON string written as a literal.
  public init(stringLiteral value: String) { self = .string(value) }
  /// A JSON number written as an integer literal.
  public init(integerLiteral value: Int) { self = .number(String(value)) }
  /// A JSON boolean written as a literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }

  /// The value as compact JSON text (no spaces), strings escaped.
  public var text: String {
    switch self {
    case .string(let s): JSONText.quote(s)
    case .number(let n): n
    case .bool(let b): b ? "true" : "false"
    case .null: "null"
    case .array(let items): "[" + items.map(\.text).joined(separator: ",") + "]"
    case .object(let members): "{" + members.map { JSONText.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
    }
  }

  /// The text of a `.string`, nil for any other value.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// Two values are equal when they write the same JSON text.
  public static func == (a: JSONOutput, b: JSONOutput) -> Bool { a.text == b.text }
  /// Hashes the JSON text, consistently with `==`.
  public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
