/// Maps a position inside a decoded JSON string back to its line and column in the source, so an
/// error inside a template points at the exact `{{` even after escapes or emoji.
enum StringLiteralScanner {
  /// The byte offset of `location` (line and scalar column) in `source`.
  static func byteOffset(of location: SourceLocation, in source: [UInt8]) -> Int? {
    var line = 1
    var index = source.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while line < location.line {
      guard let newline = source[index...].firstIndex(of: 0x0A) else { return nil }
      index = newline + 1
      line += 1
    }
    var column = 1
    while column < location.column {
      guard index < source.count else { return nil }
      index += 1
      while index < source.count && source[index] & 0xC0 == 0x80 { index += 1 }
      column += 1
    }
    return index
  }

  /// Walks the literal whose opening quote is at `index` until `target` decoded scalars (as the
  /// sanitiser leaves them) have gone by, and returns where the next one starts.
  static func location(ofDecodedScalar target: Int, literalAt index: inout Int, startingAt start: SourceLocation,
                       in source: [UInt8]) -> SourceLocation? {
    guard index < source.count, source[index] == UInt8(ascii: "\"") else { return nil }
    index += 1
    var column = start.column + 1
    var decoded = 0
    while index < source.count && decoded < target {
      let byte = source[index]
      if byte == UInt8(ascii: "\"") { break }
      var produced: Unicode.Scalar?
      if byte == UInt8(ascii: "\\") && index + 1 < source.count {
        let escape = source[index + 1]
        if escape == UInt8(ascii: "u"), index + 6 <= source.count,
           let code = UInt32(String(decoding: source[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16) {
          index += 6
          column += 6
          if (0xD800...0xDBFF).contains(code), index + 6 <= source.count, source[index] == UInt8(ascii: "\\"),
             source[index + 1] == UInt8(ascii: "u") {
            index += 6  // the low surrogate completes one scalar
            column += 6
          }
          produced = Unicode.Scalar(code) ?? "\u{FFFD}"
        } else {
          index += 2
          column += 2
          produced = switch escape {
          case UInt8(ascii: "n"): "\n"
          case UInt8(ascii: "t"): "\t"
          case UInt8(ascii: "r"): "\r"
          case UInt8(ascii: "b"): "\u{08}"
          case UInt8(ascii: "f"): "\u{0C}"
          default: Unicode.Scalar(escape)
          }
        }
      } else {
        var end = index + 1
        while end < source.count && source[end] & 0xC0 == 0x80 { end += 1 }
        produced = String(decoding: source[index..<end], as: UTF8.self).unicodeScalars.first
        index = end
        column += 1
      }
      if let scalar = produced, scalar == "\t" || !UntrustedText.isRemoved(scalar) {
        decoded += 1
      }
    }
    return SourceLocation(line: start.line, column: column)
  }
}
