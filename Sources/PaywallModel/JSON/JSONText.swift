/// Writing JSON text: string quoting and a small ordered object builder, so output (event lines,
/// state files) has a stable key order that tests and diffs can rely on.
package enum JSONText {
  package static func quote(_ text: String) -> String {
    var out = ""
    quote(text, into: &out)
    return out
  }

  /// `quote`, appended to `out`.
  package static func quote(_ text: String, into out: inout String) {
    out += "\""
    // Nearly every string needs no escape: it goes in whole.
    if !needsEscaping(text) {
      out += text
      out += "\""
      return
    }
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
    out += "\""
  }

  /// True when `text` holds a scalar `quote` escapes: a quote, a backslash, a C0 or C1 control,
  /// DEL, or U+2028/U+2029 (read in UTF-8: C2 80–9F is U+0080–U+009F, E2 80 A8–A9 the two separators).
  private static func needsEscaping(_ text: String) -> Bool {
    var previous: UInt8 = 0
    var beforePrevious: UInt8 = 0
    for byte in text.utf8 {
      if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return true }
      if previous == 0xC2 && byte >= 0x80 && byte <= 0x9F { return true }
      if beforePrevious == 0xE2 && previous == 0x80 && (byte == 0xA8 || byte == 0xA9) { return true }
      beforePrevious = previous
      previous = byte
    }
    return false
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
    var out = ""
    write(into: &out)
    return out
  }

  /// `text`, appended to `out` (one string for the whole value, not one per member).
  package func write(into out: inout String) {
    switch self {
    case .string(let s): JSONText.quote(s, into: &out)
    case .number(let n): out += n
    case .bool(let b): out += b ? "true" : "false"
    case .null: out += "null"
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += "," }
        item.write(into: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { out += "," }
        JSONText.quote(member.0, into: &out)
        out += ":"
        member.1.write(into: &out)
      }
      out += "}"
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
