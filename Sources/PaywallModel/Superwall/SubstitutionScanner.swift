/// The substitutions of a decoded `paywalljs_event`, read from its bytes in one pass: what
/// `PaywallJSEvent.substitutions(in:)` reads from the tree `JSONParser` builds, without building
/// it (made and freed for each of a large config's paywalls, that tree was most of reading them).
/// It reads the plain JSON an editor writes; on anything else (a syntax error, a `\u` escape, a
/// byte order mark, nesting past `JSONParser.maximumDepth`) it gives nil and the caller parses the
/// text whole, so which substitutions a paywall gets, and the warning a bad one gets, do not change.
/// Each lookup keeps the tree's rules: a member is the first of its name, a string is sanitised as
/// the parser sanitises it, and keys compare as Strings do.
package struct SubstitutionScanner {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  private var depth = 0
  /// A string's decoded bytes, reused from string to string.
  private var scratch: [UInt8] = []

  /// Not the plain JSON this reads: the caller parses the text instead.
  private struct Unsure: Error {}

  package static func substitutions(in bytes: [UInt8]) -> [SuperwallConfig.Substitution]? {
    bytes.withUnsafeBufferPointer { buffer in
      var scanner = SubstitutionScanner(bytes: buffer)
      do {
        return try scanner.document()
      } catch {
        return nil
      }
    }
  }

  private init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  /// The events: an array of them, or one.
  private mutating func document() throws(Unsure) -> [SuperwallConfig.Substitution] {
    skipWhitespace()
    var out: [SuperwallConfig.Substitution] = []
    if current == UInt8(ascii: "[") {
      if try open(UInt8(ascii: "]")) {
        repeat { try event(into: &out) } while try next(closing: UInt8(ascii: "]"))
      }
    } else {
      try event(into: &out)
    }
    skipWhitespace()
    guard index == bytes.count else { throw Unsure() }
    return out
  }

  /// An event's substitutions when its `event_name` is `template_substitutions`.
  private mutating func event(into out: inout [SuperwallConfig.Substitution]) throws(Unsure) {
    guard current == UInt8(ascii: "{") else { return try skipValue() }
    var name: String??
    var list: [SuperwallConfig.Substitution]??
    if try open(UInt8(ascii: "}")) {
      repeat {
        let key = try memberKey()
        if key == "event_name" && name == nil {
          name = .some(try stringOrSkip())
        } else if key == "substitutions" && list == nil {
          if current == UInt8(ascii: "[") {
            list = .some(try items())
          } else {
            list = .some(nil)
            try skipValue()
          }
        } else {
          try skipValue()
        }
      } while try next(closing: UInt8(ascii: "}"))
    }
    if name == "template_substitutions", let found = list ?? nil { out += found }
  }

  private mutating func items() throws(Unsure) -> [SuperwallConfig.Substitution] {
    var list: [SuperwallConfig.Substitution] = []
    if try open(UInt8(ascii: "]")) {
      repeat {
        if let item = try item() { list.append(item) }
      } while try next(closing: UInt8(ascii: "]"))
    }
    return list
  }

  /// One `{"key", "value", "freeTrialValue", "properties"}`; nil without a string key and value.
  private mutating func item() throws(Unsure) -> SuperwallConfig.Substitution? {
    guard current == UInt8(ascii: "{") else {
      try skipValue()
      return nil
    }
    var (key, value, trial, behavior): (String??, String??, String??, String??) = (nil, nil, nil, nil)
    if try open(UInt8(ascii: "}")) {
      repeat {
        switch try memberKey() {
        case "key" where key == nil: key = .some(try stringOrSkip())
        case "value" where value == nil: value = .some(try stringOrSkip())
        case "freeTrialValue" where trial == nil: trial = .some(try stringOrSkip())
        case "properties" where behavior == nil: behavior = .some(try clickBehavior())
        default: try skipValue()
        }
      } while try next(closing: UInt8(ascii: "}"))
    }
    guard let key = key ?? nil, let value = value ?? nil else { return nil }
    return SuperwallConfig.Substitution(key: key, value: value, freeTrialValue: trial ?? nil, clickBehavior: behavior ?? nil)
  }

  /// The first `property.clickBehavior.type` string among `properties`.
  private mutating func clickBehavior() throws(Unsure) -> String? {
    guard current == UInt8(ascii: "[") else {
      try skipValue()
      return nil
    }
    var found: String?
    if try open(UInt8(ascii: "]")) {
      repeat {
        let type = try lookup((["property", "clickBehavior", "type"] as [StaticString])[...])
        if found == nil { found = type }
      } while try next(closing: UInt8(ascii: "]"))
    }
    return found
  }

  /// The string at `path` under the value here (each step the first member of its name), read past.
  private mutating func lookup(_ path: ArraySlice<StaticString>) throws(Unsure) -> String? {
    guard let step = path.first else { return try stringOrSkip() }
    guard current == UInt8(ascii: "{") else {
      try skipValue()
      return nil
    }
    var result: String??
    if try open(UInt8(ascii: "}")) {
      repeat {
        if try memberKey() == step && result == nil {
          result = .some(try lookup(path.dropFirst()))
        } else {
          try skipValue()
        }
      } while try next(closing: UInt8(ascii: "}"))
    }
    return result ?? nil
  }

  // MARK: - Grammar, as strict as JSONParser's

  private mutating func skipWhitespace() {
    while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
  }

  /// Steps into the array or object here; false when it is empty (and stepped past).
  private mutating func open(_ closing: UInt8) throws(Unsure) -> Bool {
    depth += 1
    guard depth <= JSONParser.maximumDepth else { throw Unsure() }
    index += 1
    skipWhitespace()
    guard current == closing else { return true }
    index += 1
    depth -= 1
    return false
  }

  /// After an element or member: true when a comma brings another, false past the closing bracket.
  private mutating func next(closing: UInt8) throws(Unsure) -> Bool {
    skipWhitespace()
    switch current {
    case UInt8(ascii: ","):
      index += 1
      skipWhitespace()
      return true
    case closing:
      index += 1
      depth -= 1
      return false
    default:
      throw Unsure()
    }
  }

  /// A member's key, and past its colon.
  private mutating func memberKey() throws(Unsure) -> Key {
    guard current == Self.quote else { throw Unsure() }
    let key: Key
    let open = index
    if let plain = plainString() {
      key = .plain(UnsafeBufferPointer(rebasing: bytes[plain]))
    } else {
      index = open
      key = .text(try string())
    }
    skipWhitespace()
    guard current == UInt8(ascii: ":") else { throw Unsure() }
    index += 1
    skipWhitespace()
    return key
  }

  /// A key as the tree compares it: printable ASCII with no escape sanitises to itself (past the
  /// cap, to a cut text no short name equals), so it equals an ASCII name exactly when its bytes
  /// do; any other is made the String the parser makes, and compared as Strings compare.
  private enum Key {
    case plain(UnsafeBufferPointer<UInt8>)
    case text(String)

    static func == (key: Key, name: StaticString) -> Bool {
      switch key {
      case .plain(let bytes): ByteSearch.equal(bytes, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
      case .text(let text): text == name.description
      }
    }

    static func ~= (name: StaticString, key: Key) -> Bool { key == name }
  }

  private mutating func stringOrSkip() throws(Unsure) -> String? {
    guard current == Self.quote else {
      try skipValue()
      return nil
    }
    return try string()
  }

  /// Steps past the run of string bytes here, by the parser's rule (to a quote, a backslash, a
  /// control character or the end); whether all of it is printable ASCII.
  private mutating func run() -> Bool {
    let ascii = JSONParser.runEnd(bytes, from: index, asciiOnly: true)
    index = JSONParser.runEnd(bytes, from: ascii, asciiOnly: false)
    return index == ascii
  }

  /// The bytes of the string here when it is printable ASCII without an escape, and past it; nil
  /// (somewhere inside it) otherwise.
  private mutating func plainString() -> Range<Int>? {
    index += 1
    let start = index
    guard run(), current == Self.quote else { return nil }
    index += 1
    return start..<(index - 1)
  }

  /// The string here, decoded and sanitised as `JSONParser` does (its text, cut at the cap).
  private mutating func string() throws(Unsure) -> String {
    index += 1
    var start = index
    var printable = run()
    if current == Self.quote {
      // No escape: made from the bytes in place.
      index += 1
      return Self.sanitised(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self), printable: printable)
    }
    scratch.removeAll(keepingCapacity: true)
    while true {
      scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
      guard let b = current else { throw Unsure() }
      index += 1
      if b == Self.quote { break }
      guard b == Self.backslash, let e = current, let byte = JSONParser.escaped(e) else { throw Unsure() }
      index += 1
      scratch.append(byte)
      // A control character: sanitising removes or replaces it.
      if byte < 0x20 { printable = false }
      start = index
      if !run() { printable = false }
    }
    return Self.sanitised(String(decoding: scratch, as: UTF8.self), printable: printable)
  }

  /// The text as the parser keeps it: sanitised, cut at the cap (printable ASCII needs the cut only).
  private static func sanitised(_ text: String, printable: Bool) -> String {
    printable ? UntrustedText.capping(printableASCII: text).text : UntrustedText.sanitizeKeepingWhole(text).text
  }

  private mutating func skipValue() throws(Unsure) {
    guard let b = current else { throw Unsure() }
    switch b {
    case UInt8(ascii: "{"):
      if try open(UInt8(ascii: "}")) {
        repeat {
          _ = try memberKey()
          try skipValue()
        } while try next(closing: UInt8(ascii: "}"))
      }
    case UInt8(ascii: "["):
      if try open(UInt8(ascii: "]")) {
        repeat { try skipValue() } while try next(closing: UInt8(ascii: "]"))
      }
    case Self.quote: _ = try string()
    case UInt8(ascii: "t"): try word("true")
    case UInt8(ascii: "f"): try word("false")
    case UInt8(ascii: "n"): try word("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
    default: throw Unsure()
    }
  }

  private mutating func word(_ word: StaticString) throws(Unsure) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count,
          ByteSearch.equal(UnsafeBufferPointer(rebasing: bytes[index..<(index + count)]), UnsafeBufferPointer(start: word.utf8Start, count: count))
    else { throw Unsure() }
    index += count
  }

  /// RFC 8259's number: `-`, no leading zero, a fraction and an exponent each with a digit.
  private mutating func number() throws(Unsure) {
    if current == UInt8(ascii: "-") { index += 1 }
    guard let first = current, first.isASCIIDigit else { throw Unsure() }
    index += 1
    if first == UInt8(ascii: "0") {
      if current?.isASCIIDigit == true { throw Unsure() }
    } else {
      digits()
    }
    if current == UInt8(ascii: ".") {
      index += 1
      guard current?.isASCIIDigit == true else { throw Unsure() }
      digits()
    }
    if let e = current, e | 0x20 == UInt8(ascii: "e") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard current?.isASCIIDigit == true else { throw Unsure() }
      digits()
    }
  }

  private mutating func digits() {
    while current?.isASCIIDigit == true { index += 1 }
  }
}
