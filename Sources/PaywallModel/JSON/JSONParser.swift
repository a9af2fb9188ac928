/// A syntax error in a JSON file, with the position of the offending character.
package struct JSONSyntaxError: Error, Sendable, Equatable {
  package var message: String
  package var location: SourceLocation
}

/// A strict JSON (RFC 8259) parser over UTF-8 bytes that records the line and column of every
/// value and object key. Every string it produces has been through `UntrustedText.sanitize`,
/// so no control or escape sequence from a file survives decoding.
package struct JSONParser {
  /// The document, read in place: an array's buffer retained and released at every string was
  /// a good part of parsing, and more on several cores at once (one count, shared between them).
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  var line = 1
  var lineStart = 0
  /// The last column worked out on this line, to count on from (see `here()`).
  private var columnMark = (offset: 0, column: 1)
  var depth = 0
  /// Whether values and keys are placed (see `parse(bytes:positions:)`).
  private var positions = true
  /// Arrays already parsed on other cores, by the offset of their `[` (see `parseSplitting`).
  var parsedArrays: [Int: ParsedArray]?
  /// Nesting deeper than this is refused instead of risking the stack.
  package static let maximumDepth = 512

  init(buffer: UnsafeBufferPointer<UInt8>) {
    self.bytes = buffer
  }

  /// `body` with a parser of `bytes`, valid only within it.
  static func reading<T>(_ bytes: [UInt8], _ body: (inout JSONParser) throws(JSONSyntaxError) -> T) throws(JSONSyntaxError) -> T {
    let result = bytes.withUnsafeBufferPointer { buffer -> Result<T, JSONSyntaxError> in
      var parser = JSONParser(buffer: buffer)
      do throws(JSONSyntaxError) { return .success(try body(&parser)) } catch { return .failure(error) }
    }
    return try result.get()
  }

  package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
    try parse(bytes: Array(text.utf8))
  }

  /// `positions: false` leaves every value at 1:1, for a tree whose places nobody reads (a
  /// Superwall paywall's decoded `paywalljs_event` that `SubstitutionScanner` leaves to the
  /// parser: counting its columns was 6% of parsing it); an error is still placed exactly, by
  /// parsing again with positions.
  package static func parse(bytes: [UInt8], positions: Bool) throws(JSONSyntaxError) -> JSONNode {
    guard !positions else { return try parse(bytes: bytes) }
    do {
      return try reading(bytes) { (parser) throws(JSONSyntaxError) in
        parser.positions = false
        return try parser.parseDocument()
      }
    } catch {
      return try parse(bytes: bytes)
    }
  }

  package static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
    try reading(bytes) { (parser) throws(JSONSyntaxError) in try parser.parseDocument() }
  }

  mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
    // A UTF-8 byte order mark is legal at the very start.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      index = 3
      lineStart = 3
    }
    skipWhitespace()
    let root = try parseValue()
    skipWhitespace()
    if index < bytes.count {
      throw error("unexpected \(describeCurrent()) after the top-level value")
    }
    return root
  }

  // MARK: - Positions

  private var location: SourceLocation {
    SourceLocation(line: line, column: column(of: index))
  }

  /// Where `index` is, counting the column on from the last one asked for on this line: a long
  /// line (a minified file) then costs one pass, not one pass per value.
  private mutating func here() -> SourceLocation {
    guard positions else { return .start }
    if columnMark.offset < lineStart || columnMark.offset > index { columnMark = (lineStart, 1) }
    let (start, column) = columnMark
    let end = min(index, bytes.count)
    guard start < end else { return SourceLocation(line: line, column: column) }
    // Counted over the buffer, a word at a time (indexing the array, it was 6% of a large import).
    let scalars = ByteSearch.scalarCount(bytes, start..<end)
    columnMark = (end, column + scalars)
    return SourceLocation(line: line, column: column + scalars)
  }

  /// Columns count Unicode scalars, so a multi-byte character before the error counts once.
  private func column(of offset: Int) -> Int {
    let end = min(offset, bytes.count)
    guard lineStart < end else { return 1 }
    return 1 + ByteSearch.scalarCount(bytes, lineStart..<end)
  }

  private func error(_ message: String) -> JSONSyntaxError {
    JSONSyntaxError(message: message, location: location)
  }

  private func describeCurrent() -> String {
    guard index < bytes.count else { return "end of file" }
    let b = bytes[index]
    if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
    if b == 0x20 { return "space" }
    if b < 0x20 || b == 0x7F { return "control character 0x\(String(b, radix: 16, uppercase: true))" }
    return "character"
  }

  // MARK: - Grammar

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0D:
        index += 1
      case 0x0A:
        index += 1
        line += 1
        lineStart = index
      default:
        return
      }
    }
  }

  mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
    guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
    let start = here()
    switch bytes[index] {
    case UInt8(ascii: "{"): return JSONNode(try parseObject(), at: start)
    case UInt8(ascii: "["): return JSONNode(try parseArray(), at: start)
    case UInt8(ascii: "\""):
      let (text, uncut) = try parseStringKeepingWhole()
      return JSONNode(.string(text), at: start, uncut: uncut)
    case UInt8(ascii: "t"): try expectWord("true"); return JSONNode(.bool(true), at: start)
    case UInt8(ascii: "f"): try expectWord("false"); return JSONNode(.bool(false), at: start)
    case UInt8(ascii: "n"): try expectWord("null"); return JSONNode(.null, at: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return JSONNode(.number(try parseNumber()), at: start)
    case UInt8(ascii: "'"):
      throw error("strings must use double quotes (\"), not single quotes")
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      throw error("expected a value, found \(describeCurrent()) (a trailing comma?)")
    default:
      throw error("expected a value, found \(describeCurrent())")
    }
  }

  private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
    let utf8 = word.utf8
    guard index + utf8.count <= bytes.count, bytes[index..<index + utf8.count].elementsEqual(utf8) else {
      throw error("expected a value, found \(describeCurrent())")
    }
    index += utf8.count
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
  }

  private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1  // {
    var members: [JSONMember] = []
    skipWhitespace()
    if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of file inside an object, expected '}'") }
      guard bytes[index] == UInt8(ascii: "\"") else {
        if bytes[index] == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
        if bytes[index] == UInt8(ascii: "'") { throw error("keys must use double quotes (\"), not single quotes") }
        throw error("expected a quoted key, found \(describeCurrent())")
      }
      let keyLocation = here()
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error("expected ':' after the key \(JSONText.quote(UntrustedText.excerpt(key))), found \(describeCurrent())")
      }
      index += 1
      skipWhitespace()
      let value = try parseValue()
      members.append(JSONMember(key: key, keyLocation: keyLocation, value: value))
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of file inside an object, expected '}'") }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"): index += 1; return .object(members)
      default: throw error("expected ',' or '}' after the value of \(JSONText.quote(UntrustedText.excerpt(key))), found \(describeCurrent())")
      }
    }
  }

  private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
    if let parsed = parsedArrays?[index] {
      (index, line, lineStart) = (parsed.end, parsed.endLine, parsed.endLineStart)
      return .array(parsed.elements)
    }
    try enter()
    defer { depth -= 1 }
    index += 1  // [
    var elements: [JSONNode] = []
    skipWhitespace()
    if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      if index < bytes.count && bytes[index] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
      elements.append(try parseValue())
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of file inside an array, expected ']'") }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"): index += 1; return .array(elements)
      default: throw error("expected ',' or ']' in the array, found \(describeCurrent())")
      }
    }
  }

  private mutating func parseNumber() throws(JSONSyntaxError) -> String {
    let start = index
    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '-'") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count && isDigit(bytes[index]) { throw error("numbers must not have leading zeros") }
    } else {
      while index < bytes.count && isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
      while index < bytes.count && isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
      while index < bytes.count && isDigit(bytes[index]) { index += 1 }
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
  }

  private mutating func parseString() throws(JSONSyntaxError) -> String {
    try parseStringKeepingWhole().text
  }

  /// The string, sanitised and capped, and its whole sanitised text if the cap cut it.
  private mutating func parseStringKeepingWhole() throws(JSONSyntaxError) -> (text: String, uncut: String?) {
    let openQuote = here()
    index += 1  // "
    let start = index
    // Fast path: printable ASCII with no escapes needs no decoding and no sanitising.
    index = run(from: start, asciiOnly: true)
    if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
      let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      index += 1
      // Every byte of it is a column: the next position is counted on from its end.
      columnMark = (index, openQuote.column + index - (start - 1))
      return UntrustedText.capping(printableASCII: s)
    }
    // The rest is decoded into bytes and made a String once: appending each run and escape to a
    // String cost an allocation and a UTF-8 check apiece (a config's substitutions are full of
    // `\"`). A run ends on an ASCII byte and an escape adds whole scalars, so invalid UTF-8 in a
    // run is repaired as it was run by run.
    var text: [UInt8] = []
    text.reserveCapacity(index - start + 64)
    text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
    func append(_ scalar: Unicode.Scalar) {
      UTF8.encode(scalar) { text.append($0) }
    }
    while true {
      // A run of bytes that are neither a quote, a backslash nor a control character is copied
      // whole (it ends on an ASCII byte, so never inside a character).
      let end = run(from: index, asciiOnly: false)
      if end > index {
        text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
        index = end
      }
      guard index < bytes.count else {
        throw JSONSyntaxError(message: "unterminated string (opened here)", location: openQuote)
      }
      let b = bytes[index]
      switch b {
      case UInt8(ascii: "\""):
        index += 1
        return UntrustedText.sanitizeKeepingWhole(String(decoding: text, as: UTF8.self))
      case UInt8(ascii: "\\"):
        index += 1
        guard index < bytes.count else { throw error("unterminated escape sequence") }
        let e = bytes[index]
        index += 1
        if let byte = Self.escaped(e) {
          text.append(byte)
          continue
        }
        guard e == UInt8(ascii: "u") else {
          index -= 1
          // The offending byte is described, never echoed: it may be a control character.
          guard e >= 0x21 && e < 0x7F else {
            throw error("invalid escape: '\\' followed by \(e >= 0x80 ? "a non-ASCII character" : describeCurrent()) in a string")
          }
          throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))' in a string")
        }
        var code = try parseHex4()
        if (0xD800...0xDBFF).contains(code) {
          // A high surrogate must be followed by \uDC00-\uDFFF; a lone one becomes U+FFFD.
          if index + 1 < bytes.count && bytes[index] == UInt8(ascii: "\\") && bytes[index + 1] == UInt8(ascii: "u") {
            index += 2
            let low = try parseHex4()
            if (0xDC00...0xDFFF).contains(low) {
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else {
              append("\u{FFFD}")
              code = low
            }
          } else {
            code = 0xFFFD
          }
        }
        append(Unicode.Scalar(code) ?? "\u{FFFD}")
      case 0x0A:
        throw error("unescaped line break inside a string (write \\n)")
      default:
        throw error("unescaped control character 0x\(String(b, radix: 16, uppercase: true)) inside a string")
      }
    }
  }

  /// Where the run of string bytes from `start` ends: at a quote, a backslash, a control character
  /// or the end, and with `asciiOnly` at a byte past printable ASCII too.
  private func run(from start: Int, asciiOnly: Bool) -> Int {
    Self.runEnd(bytes, from: start, asciiOnly: asciiOnly)
  }

  /// The byte a one-character escape stands for (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`),
  /// nil for `\u` and any other.
  static func escaped(_ e: UInt8) -> UInt8? {
    switch e {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): e
    case UInt8(ascii: "b"): 0x08
    case UInt8(ascii: "f"): 0x0C
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "r"): 0x0D
    case UInt8(ascii: "t"): 0x09
    default: nil
    }
  }

  private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let b = bytes[index]
      let digit: UInt32
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - 0x30)
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - 0x61 + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - 0x41 + 10)
      default: throw error("expected four hex digits after \\u")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }
}
