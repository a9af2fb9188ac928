/// The one sanitiser every string read from a file goes through (the JSON parser calls it), so
/// nothing raw from a paywall, catalog or project reaches a terminal. It removes:
/// - C0 controls except newline (a tab becomes a space, a carriage return disappears),
/// - DEL and the C1 controls U+0080–U+009F (U+009B is a one-byte CSI on some terminals),
/// - bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069: "Trojan Source"),
/// and caps the length at `maximumScalars`, ending a cut string with "…". The cut never splits a
/// template variable (`{{ … }}`): a variable the cap would cut is dropped whole, so the reader
/// never reports a problem that only the cut made. The cap is for what is kept and shown: the
/// JSON parser keeps a cut string's whole text too (`JSONNode.uncut`), so a template problem
/// that is really in the file, past the cut or in the variable it dropped, is still reported.
package enum UntrustedText {
  package static let maximumScalars = 4096

  /// How many characters of what a file says a message quotes (`excerpt`).
  package static let excerptLimit = 60

  /// At most `limit` characters of `text`, for quoting in a message: longer text keeps its first
  /// `limit - 1` characters and ends with "…". An error line stays one readable line whatever
  /// the file holds.
  package static func excerpt(_ text: some StringProtocol, limit: Int = excerptLimit) -> String {
    var end = text.startIndex
    var count = 0
    while end < text.endIndex && count < limit {
      text.formIndex(after: &end)
      count += 1
    }
    guard end < text.endIndex else { return String(text) }
    return String(text[..<text.index(before: end)]) + "…"
  }

  /// `text` (a file name, a path: not sanitised when read) for a terminal: every control
  /// character, bidirectional override and newline written as `\u{…}`, so a name can never drive
  /// the terminal or split a line.
  package static func printable(_ text: some StringProtocol) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar.value == 0x0A || isRemoved(scalar) { out += "\\u{\(String(scalar.value, radix: 16))}" } else { out.unicodeScalars.append(scalar) }
    }
    return out
  }

  package static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A: false
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  package static func sanitize(_ text: String) -> String {
    sanitizeKeepingWhole(text).text
  }

  /// `sanitize`, and the sanitised text before the length cap when the cap cut it.
  package static func sanitizeKeepingWhole(_ text: String) -> (text: String, uncut: String?) {
    // Printable ASCII (a long base64 value in a Superwall config): see `capping(printableASCII:)`.
    let printableASCII = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
      ?? text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    if printableASCII { return capping(printableASCII: text) }
    let needsWork = text.unicodeScalars.contains { isRemoved($0) } || text.unicodeScalars.count > maximumScalars
    guard needsWork else { return (text, nil) }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar == "\t" {
        out.append(" ")
      } else if !isRemoved(scalar) {
        out.append(scalar)
      }
    }
    guard out.count > maximumScalars else { return (String(out), nil) }
    var kept = Array(out.prefix(maximumScalars - 1))
    if let open = unclosedVariable(in: kept, open: "{", close: "}") { kept.removeSubrange(open...) }
    var cut = String.UnicodeScalarView(kept)
    cut.append("…")
    return (String(cut), String(out))
  }

  /// `sanitizeKeepingWhole` of text known to be printable ASCII (the JSON parser's fast path has
  /// just looked at every byte): nothing to remove, and the cut is made on the first scalars alone
  /// instead of rebuilding the whole string scalar by scalar.
  package static func capping(printableASCII text: String) -> (text: String, uncut: String?) {
    guard text.utf8.count > maximumScalars else { return (text, nil) }
    // One byte a scalar: the cut `sanitizeKeepingWhole` makes on scalars, made on the bytes in
    // place (the generic prefix of a UTF-8 view copied a byte at a time: most of a large Superwall
    // import's sanitising), and scanned for a `{{` only when it has a brace.
    var whole = text
    let cut = whole.withUTF8 { bytes -> String in
      var count = maximumScalars - 1
      if ByteSearch.first(UInt8(ascii: "{"), in: bytes, from: 0) < count,
         let open = unclosedVariable(in: UnsafeBufferPointer(rebasing: bytes[..<count]), open: UInt8(ascii: "{"), close: UInt8(ascii: "}")) {
        count = open
      }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<count]), as: UTF8.self) + "\u{2026}"
    }
    return (cut, text)
  }

  /// Where the last `{{` without a `}}` after it starts, if any: in scalars, or in bytes where
  /// each is one scalar.
  private static func unclosedVariable<Items: RandomAccessCollection<Element>, Element: Equatable>(
    in items: Items, open: Element, close: Element) -> Int? where Items.Index == Int {
    var index = items.count - 1
    while index > 0 {
      if items[index - 1] == close && items[index] == close { return nil }
      if items[index - 1] == open && items[index] == open { return index - 1 }
      index -= 1
    }
    return nil
  }
}

extension DefaultStringInterpolation {
  /// `'text'`, capped at `UntrustedText.excerptLimit` characters: how a message quotes a name or
  /// value from a file or from the command line.
  package mutating func appendInterpolation(quoting text: some StringProtocol) {
    appendLiteral("'")
    // A newline (the one control the sanitiser keeps) would break the message's one line.
    appendLiteral(UntrustedText.excerpt(text.contains("\n") ? String(text).replacingOccurrences(of: "\n", with: "\\n") : String(text)))
    appendLiteral("'")
  }

  /// `text` capped at `UntrustedText.excerptLimit` characters, unquoted.
  package mutating func appendInterpolation(excerpt text: some StringProtocol) {
    appendLiteral(UntrustedText.excerpt(text))
  }
}
