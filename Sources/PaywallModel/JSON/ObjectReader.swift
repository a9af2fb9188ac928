#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one JSON object, reporting every problem to the collector and reading it as nil, so one
/// pass finds them all. Its `Policy` says whose format it is: one we own (every key it is asked
/// for is marked as known, and `finish()` reports the rest as unknown keys with a did-you-mean), or
/// one another program's decoder reads (a Superwall config, as the SDK's `Codable` reads it).
package final class ObjectReader {
  /// How strictly a format is read where JSON leaves it open.
  package enum Policy: Sendable {
    /// A format we own: a duplicate key is an error, `null` is a value of the wrong type, a key
    /// nobody asked for is reported by `finish()`, a string must not be blank unless asked.
    case strict
    /// A format the SDK's decoder reads (Foundation's `JSONDecoder`): `null` reads as absent (as
    /// `decodeIfPresent` reads it), the last of duplicate keys wins, other keys are ignored, a
    /// whole number may be written `5.0`, and a missing required key says the SDK requires it.
    case decoder
  }

  package let node: JSONNode
  package let path: JSONPath
  package let diagnostics: DiagnosticCollector
  package let policy: Policy
  private let members: [JSONMember]
  /// Per member, whether a reader asked for it; and the keys asked for that no member has. Marks
  /// by position, not a set of names: hashing every key of every object read was a tenth of
  /// loading a large Superwall config.
  private var used: [Bool]
  private var askedAbsent: [String] = []
  private static let alwaysKnown = ["$schema", "$comment"]

  /// Nil (after reporting) when `node` is not an object.
  package init?(_ node: JSONNode, path: JSONPath, diagnostics: DiagnosticCollector, policy: Policy = .strict, what: String) {
    guard let members = node.members else {
      diagnostics.error("\(what) must be an object, found \(node.value.typeName)", at: node.location, path: path)
      return nil
    }
    self.node = node
    self.path = path
    self.diagnostics = diagnostics
    self.policy = policy
    self.members = members
    self.used = Array(repeating: false, count: members.count)
    guard policy == .strict else { return }
    // Most objects have a handful of keys: compared pairwise, without hashing; a set past that.
    let pairwise = members.count <= 16
    var seen: Set<String> = []
    for (index, member) in members.enumerated() {
      let repeated = pairwise ? members[..<index].contains { $0.key == member.key } : !seen.insert(member.key).inserted
      if repeated { diagnostics.error("duplicate key \(quoting: member.key)", at: member.keyLocation, path: path.appending(member.key)) }
    }
  }

  package func has(_ key: String) -> Bool {
    members.contains { $0.key == key }
  }

  /// The member named `key`, marking it known (under `.decoder` the last of duplicates, and none
  /// for a `null`). Reports a missing required key at the object.
  package func member(_ key: String, required: Bool = false) -> JSONMember? {
    switch policy {
    case .strict:
      if let index = members.firstIndex(where: { $0.key == key }) {
        used[index] = true
        return members[index]
      }
      askedAbsent.append(key)
      if required { diagnostics.error("missing required key \(quoting: key)", at: node.location, path: path) }
    case .decoder:
      let found = members.last { $0.key == key }
      if let found {
        if case .null = found.value.value {} else { return found }
      }
      if required {
        let isNull = found != nil
        diagnostics.error(isNull ? "\(quoting: key) must not be null (the SDK requires it)" : "missing required key \(quoting: key) (the SDK requires it)",
                          at: found?.value.location ?? node.location, path: isNull ? path.appending(key) : path)
      }
    }
    return nil
  }

  package func value(_ key: String, required: Bool = false) -> JSONNode? {
    member(key, required: required)?.value
  }

  private func mismatch(_ key: String, _ node: JSONNode, expected: String) {
    diagnostics.error("\(quoting: key) must be \(expected), found \(node.value.typeName)", at: node.location, path: path.appending(key))
  }

  /// A string; blank is refused when `nonEmpty` (by default under `.strict`, never under `.decoder`).
  package func string(_ key: String, required: Bool = false, nonEmpty: Bool? = nil) -> String? {
    guard let node = value(key, required: required) else { return nil }
    guard let s = node.stringValue else {
      mismatch(key, node, expected: "a string")
      return nil
    }
    if nonEmpty ?? (policy == .strict) && s.trimmingSpaces().isEmpty {
      diagnostics.error("\(quoting: key) must not be empty", at: node.location, path: path.appending(key))
      return nil
    }
    return s
  }

  /// The object under `key`, read with this reader's policy.
  package func object(_ key: String, required: Bool = false) -> ObjectReader? {
    guard let found = value(key, required: required) else { return nil }
    guard found.members != nil else {
      mismatch(key, found, expected: "an object")
      return nil
    }
    return ObjectReader(found, path: path.appending(key), diagnostics: diagnostics, policy: policy, what: "\(quoting: key)")
  }

  package func bool(_ key: String, required: Bool = false) -> Bool? {
    guard let node = value(key, required: required) else { return nil }
    guard case .bool(let b) = node.value else {
      mismatch(key, node, expected: "true or false")
      return nil
    }
    return b
  }

  /// A whole number; with `range` (and `meaning`, what it counts), one inside it. Under `.decoder`
  /// `5.0` is 5, as Foundation's decoder reads it (not 5.5, nor a number out of range); every
  /// number the importer does arithmetic on is read with a range, so no sum of them overflows.
  package func int(_ key: String, required: Bool = false, range: ClosedRange<Int>? = nil, meaning: String? = nil) -> Int? {
    guard let node = value(key, required: required) else { return nil }
    guard case .number(let text) = node.value else {
      mismatch(key, node, expected: "a whole number")
      return nil
    }
    var whole = Int(text)
    if whole == nil, policy == .decoder, let d = Double(text), d.rounded() == d, abs(d) < 9.0e15 { whole = Int(d) }
    guard let n = whole else {
      if let range, policy == .decoder {
        diagnostics.error("\(quoting: key) must be a whole number from \(range.lowerBound) to \(range.upperBound)\(meaning.map { " (\($0))" } ?? ""), found \(excerpt: text)",
                          at: node.location, path: path.appending(key))
      } else if policy == .decoder {
        diagnostics.error("\(quoting: key) must be a whole number, found \(excerpt: text)", at: node.location, path: path.appending(key))
      } else {
        mismatch(key, node, expected: "a whole number")
      }
      return nil
    }
    if let range, !range.contains(n) {
      let message = policy == .decoder
        ? "\(quoting: key) must be a whole number from \(range.lowerBound) to \(range.upperBound)\(meaning.map { " (\($0))" } ?? ""), found \(excerpt: text)"
        : "\(quoting: key) must be between \(range.lowerBound) and \(range.upperBound), found \(n)"
      diagnostics.error(message, at: node.location, path: path.appending(key))
      return nil
    }
    return n
  }

  /// A decimal given as a JSON string ("59.99", preferred: exact) or a JSON number.
  package func decimal(_ key: String, required: Bool = false) -> (Decimal, SourceLocation)? {
    guard let node = value(key, required: required) else { return nil }
    let text: String
    switch node.value {
    case .string(let s): text = s
    case .number(let s): text = s
    default:
      mismatch(key, node, expected: "a price such as \"4.99\"")
      return nil
    }
    guard let d = DecimalParsing.parse(text), d >= 0 else {
      diagnostics.error("\(quoting: key) must be a non-negative decimal such as \"4.99\", found \"\(excerpt: text)\"",
                        at: node.location, path: path.appending(key))
      return nil
    }
    return (d, node.location)
  }

  package func array(_ key: String, required: Bool = false) -> [JSONNode]? {
    guard let node = value(key, required: required) else { return nil }
    guard let elements = node.elements else {
      mismatch(key, node, expected: "an array")
      return nil
    }
    return elements
  }

  package func stringArray(_ key: String, required: Bool = false) -> [(String, SourceLocation)]? {
    guard let elements = array(key, required: required) else { return nil }
    var out: [(String, SourceLocation)] = []
    for (i, element) in elements.enumerated() {
      if let s = element.stringValue {
        out.append((s, element.location))
      } else {
        diagnostics.error("\(quoting: key) items must be strings, found \(element.value.typeName)",
                          at: element.location, path: path.appending(key).appending(i))
      }
    }
    return out
  }

  /// One of `choices`, with a did-you-mean when it is not.
  package func choice(_ key: String, _ choices: [String], required: Bool = false) -> String? {
    guard let node = value(key, required: required) else { return nil }
    guard let s = node.stringValue else {
      mismatch(key, node, expected: "one of \(choices.map { "\(quoting: $0)" }.joined(separator: ", "))")
      return nil
    }
    guard choices.contains(s) else {
      let list = choices.map { "\(quoting: $0)" }.joined(separator: ", ")
      diagnostics.error("unknown \(key) \(quoting: s)\(Suggestions.hint(for: s, in: choices)) (expected one of \(list))",
                        at: node.location, path: path.appending(key))
      return nil
    }
    return s
  }

  /// Reports every key nobody asked for.
  package func finish() {
    guard policy == .strict, used.contains(false) else { return }
    // A key asked for is known wherever it stands: a duplicate of it is reported as a duplicate only.
    var known = Set(Self.alwaysKnown + askedAbsent)
    for (index, member) in members.enumerated() where used[index] { known.insert(member.key) }
    let names = known.sorted()
    for member in members where !known.contains(member.key) {
      diagnostics.error("unknown key \(quoting: member.key)\(Suggestions.hint(for: member.key, in: names))",
                        at: member.keyLocation, path: path.appending(member.key))
    }
  }
}

/// Exact decimal parsing: `Decimal(string:)` accepts trailing garbage ("4.99abc"), so check the shape.
package enum DecimalParsing {
  package static func parse(_ text: String) -> Decimal? {
    var sawDigit = false
    var sawDot = false
    for (i, c) in text.enumerated() {
      if c.isASCII && c.isNumber {
        sawDigit = true
      } else if c == "." && !sawDot {
        sawDot = true
      } else if c == "-" && i == 0 {
        continue
      } else {
        return nil
      }
    }
    guard sawDigit else { return nil }
    // Checked above to be [-]digits[.digits], so the value is built directly: no Locale (and no
    // ICU data load, which costs a millisecond at startup) for the usual price of up to 19 digits.
    var significand: UInt64 = 0
    var digits = 0
    var fractionDigits = 0
    var afterDot = false
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "."): afterDot = true
      case UInt8(ascii: "-"): continue
      default:
        if significand == 0 && byte == UInt8(ascii: "0") {
          if afterDot { fractionDigits += 1 }
          continue
        }
        digits += 1
        guard digits <= 19 else { return Decimal(string: text, locale: posix) }
        significand = significand * 10 + UInt64(byte - UInt8(ascii: "0"))
        if afterDot { fractionDigits += 1 }
      }
    }
    let sign: FloatingPointSign = text.utf8.first == UInt8(ascii: "-") && significand != 0 ? .minus : .plus
    return Decimal(sign: sign, exponent: -fractionDigits, significand: Decimal(significand))
  }

  /// Only for the rare number of more than 19 significant digits.
  private static let posix = Locale(identifier: "en_US_POSIX")
}
