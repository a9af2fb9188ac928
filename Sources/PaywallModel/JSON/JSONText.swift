/// Writing JSON text: string quoting and a small ordered object builder, so output (event lines,
/// state files) has a stable key order that tests and diffs can rely on.
package enum JSONText {
  package static func quote(_ text: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count + 2)
    quote(text, into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `quote`, appended to `out` as UTF-8. Text is built in bytes: an append to a `[UInt8]` is a
  /// copy, where each `+=` on a `String` pays for its capacity, ASCII flag and count.
  package static func quote(_ text: String, into out: inout [UInt8]) {
    out.append(0x22)
    var text = text
    text.withUTF8 { utf8 in
      // Nearly every string needs no escape: it goes in whole.
      if !needsEscaping(utf8) {
        out.append(contentsOf: utf8)
      } else {
        escape(utf8, into: &out)
      }
    }
    out.append(0x22)
  }

  /// `utf8` with each scalar `needsEscaping` finds escaped: `\"`, `\\`, `\n`, `\r`, `\t`, else `\u00XX`.
  private static func escape(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
    for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
      switch scalar {
      case "\"": out += [0x5C, 0x22]
      case "\\": out += [0x5C, 0x5C]
      case "\n": out += [0x5C, 0x6E]
      case "\r": out += [0x5C, 0x72]
      case "\t": out += [0x5C, 0x74]
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 {
          let hex = String(scalar.value, radix: 16)
          out += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
        } else {
          out += Array(String(scalar).utf8)
        }
      }
    }
  }

  /// True when `utf8` holds a scalar `quote` escapes: a quote, a backslash, a C0 or C1 control,
  /// DEL, or U+2028/U+2029 (read in UTF-8: C2 80–9F is U+0080–U+009F, E2 80 A8–A9 the two separators).
  private static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    var previous: UInt8 = 0
    var beforePrevious: UInt8 = 0
    for byte in utf8 {
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
    var out: [UInt8] = []
    out.reserveCapacity(256)
    write(into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// `text`, appended to `out` as UTF-8 (one buffer for the whole value, not one per member).
  package func write(into out: inout [UInt8]) {
    switch self {
    case .string(let s): JSONText.quote(s, into: &out)
    case .number(let n): out.append(contentsOf: n.utf8)
    case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
    case .null: out.append(contentsOf: "null".utf8)
    case .array(let items):
      out.append(0x5B)
      for (index, item) in items.enumerated() {
        if index > 0 { out.append(0x2C) }
        item.write(into: &out)
      }
      out.append(0x5D)
    case .object(let members):
      out.append(0x7B)
      for (index, member) in members.enumerated() {
        if index > 0 { out.append(0x2C) }
        JSONText.quote(member.0, into: &out)
        out.append(0x3A)
        member.1.write(into: &out)
      }
      out.append(0x7D)
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
