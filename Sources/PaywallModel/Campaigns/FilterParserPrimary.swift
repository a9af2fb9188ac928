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

extension FilterParser {
  mutating func parsePrimary() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    skipSpace()
    guard index < chars.count else { throw fail("the filter ends where a value was expected") }
    let start = index
    let c = chars[index]
    if c == "(" {
      index += 1
      let inner = try parseConditional()
      skipSpace()
      guard index < chars.count, chars[index] == ")" else { throw fail("missing ')' for the '(' at column \(start + 1)") }
      index += 1
      return inner
    }
    if c == "[" || c == "{" {
      let close: Character = c == "[" ? "]" : "}"
      index += 1
      var keys: [AudienceFilter.Node] = []
      var items: [AudienceFilter.Node] = []
      if take(String(close)) { return c == "[" ? .list(items) : .map([], []) }
      while true {
        if c == "{" {
          keys.append(try parseConditional())
          guard take(":") else { throw fail("expected ':' after the map's key") }
        }
        items.append(try parseConditional())
        skipSpace()
        guard index < chars.count else { throw fail("missing '\(close)' for the '\(c)' at column \(start + 1)") }
        if chars[index] == "," { index += 1; continue }
        if chars[index] == close { index += 1; return c == "[" ? .list(items) : .map(keys, items) }
        throw fail("expected ',' or '\(close)' in the \(c == "[" ? "list" : "map")")
      }
    }
    if c == "\"" || c == "'" {
      index += 1
      var text = ""
      while index < chars.count, chars[index] != c {
        if chars[index] == "\\", index + 1 < chars.count { index += 1 }
        text.append(chars[index])
        index += 1
      }
      guard index < chars.count else { throw fail("unterminated string; close it with \(c)", at: start) }
      index += 1
      return .literal(.string(text))
    }
    if c.isNumber || (c == "-" && index + 1 < chars.count && chars[index + 1].isNumber) {
      index += 1
      while index < chars.count, chars[index].isNumber || chars[index] == "." { index += 1 }
      // CEL's unsigned suffix: 1u.
      let text = characters(in: start..<index)
      if index < chars.count, chars[index] == "u" || chars[index] == "U" { index += 1 }
      guard let number = DecimalParsing.parse(text) else { throw fail("\(quoting: text) is not a number", at: start) }
      return .literal(.number(number))
    }
    guard isNameStart(c) else {
      throw fail("unexpected '\(c)'; expected a value (a name such as user.age, a string, a number, true, false, null) or '('")
    }
    let word = readWord()
    switch word {
    case "true": return .literal(.bool(true))
    case "false": return .literal(.bool(false))
    case "null", "nil": return .literal(.null)
    default: break
    }
    if peek("(") { return try call(word, target: nil, at: start) }
    if scope.contains(word) { return .variable(word) }
    let roots = ["user", "params", "device", "computed"]
    let dotted = index + 1 < chars.count && chars[index] == "." && isNameStart(chars[index + 1])
    if roots.contains(word), !dotted {
      if word == "user" || word == "params", peek("[") { return try indexedRoot(word, at: start) }
      throw fail("unknown name \(quoting: characters(in: start..<min(index + 1, chars.count))) (a filter reads \(Self.namesRead))", at: start)
    }
    guard roots.contains(word) else {
      var end = index
      while end < chars.count, isNameCharacter(chars[end]) || chars[end] == "." { end += 1 }
      let full = characters(in: start..<end)
      let hint = Suggestions.closest(to: full, in: FilterName.deviceNames + ["user", "params", "device"])
        .map { "; did you mean \(quoting: $0)?" } ?? ""
      throw fail("unknown name \(quoting: full)\(hint) (a filter reads \(Self.namesRead))", at: start)
    }
    index += 1
    let keyStart = index
    let key = readWord()
    if peek("(") {
      // device.daysSince("event"), computed.placementsInDay("event"): the SDK's host functions.
      guard word != "user", word != "params", Self.hostFunctions.contains(key) else {
        let hint = Suggestions.closest(to: key, in: Self.hostFunctions).map { "; did you mean \(quoting: $0)?" } ?? ""
        throw fail("unknown function \(quoting: "\(word).\(key)")\(hint) (the SDK's host functions: \(Self.hostFunctions.joined(separator: ", ")))", at: keyStart)
      }
      _ = try arguments()
      let reads = Self.androidReviewFunctions.contains(key) ? "counts review requests, which"
        : key.hasSuffix("Since") ? "reads when a placement last happened, which" : "counts placements, which"
      warnings.append(.init(offset: start, message: "\(word).\(key)() \(reads) the emulator does not keep: it reads as a missing value here (the relation does not match)"))
      return .unavailable("\(word).\(key)")
    }
    switch word {
    case "user": return .name(.user(key))
    case "params": return .name(.params(key))
    case "computed":
      warnings.append(.init(offset: start, message: "computed.\(key) is not emulated: it reads as a missing value here (the relation does not match)"))
      return .unavailable("computed.\(key)")
    default:
      switch key {
      case "subscriptionStatus": return .name(.subscriptionStatus)
      case "activeEntitlements": return .name(.activeEntitlements)
      case "activeProducts": return .name(.activeProducts)
      default: break
      }
      // The customer's info is given by the SDK versions that have it (`validate` says which).
      if FilterName.emulatedDevice[key] == nil && !FilterName.customerDeviceKeys.contains(key) {
        let known = FilterName.sdkDeviceKeys.contains(key)
        let hint = known ? "" : Suggestions.closest(to: key, in: FilterName.sdkDeviceKeys).map { "; did you mean \(quoting: "device.\($0)")?" } ?? ""
        warnings.append(.init(offset: start, message: known
          ? "device.\(key) is not emulated: it reads as missing here (the relation does not match); the emulator gives \(Self.everyEmulatedDeviceName)"
          : "device.\(key) is not a key the SDK puts on device\(hint); it reads as missing (the relation does not match)"))
      }
      return .name(.device(key))
    }
  }

  /// `user["key with spaces"]`: a root read by index with a string literal.
  mutating func indexedRoot(_ word: String, at start: Int) throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    guard take("[") else { throw fail("unknown name \(quoting: word) (a filter reads \(Self.namesRead))", at: start) }
    let keyNode = try parseConditional()
    guard take("]") else { throw fail("missing ']' after the index") }
    guard case .literal(let key) = keyNode else { throw fail("\(word)[…] takes a string, such as \(word)[\"plan\"]", at: start) }
    let text: String = switch key {
    case .string(let s): s
    case .number(let n): "\(n)"
    case .bool(let b): b ? "true" : "false"
    default: ""
    }
    return .name(word == "user" ? .user(text) : .params(text))
  }

  static let namesRead = "user.NAME, params.NAME, device.NAME (\(FilterName.deviceNames.joined(separator: ", ")), device.\(emulatedDeviceKeys))"
  static let emulatedDeviceKeys = FilterName.emulatedDevice.keys.sorted().joined(separator: ", device.")
  /// Every `device` key a filter here can read, the status ones too.
  static let everyEmulatedDeviceName = (FilterName.deviceNames + FilterName.emulatedDevice.keys.map { "device." + $0 }).sorted()
    .joined(separator: ", ")

  /// The characters in `range` as a string (String's init from a slice of characters is generic
  /// and unspecialized: runtime type lookups for a few characters).
  func characters(in range: Range<Int>) -> String {
    var text = ""
    for c in chars[range] { text.append(c) }
    return text
  }

  func isNameStart(_ c: Character) -> Bool {
    if let ascii = c.asciiValue { return ascii.isASCIILetter || ascii == UInt8(ascii: "_") || ascii == UInt8(ascii: "$") }
    return c.isLetter
  }

  func isNameCharacter(_ c: Character) -> Bool {
    if let ascii = c.asciiValue {
      return ascii.isASCIILetter || ascii.isASCIIDigit || ascii == UInt8(ascii: "_") || ascii == UInt8(ascii: "$")
    }
    return c.isLetter || c.isNumber
  }
}
