import TerminalCore
/// Word wrapping and truncation by display columns.
package enum TextLayout {
  /// Wraps on spaces so no line is wider than `width`; a word longer than a line is broken
  /// between graphemes. Newlines in the text start new lines.
  package static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    // A title, a feature, a label: one line that fits, spaced as wrapping would space it.
    // (Wrapping drops a first word of no width, "\u{200B} Pro" being "Pro": that goes the long way.)
    if isSpacedAsWrapped(text) && DisplayWidth.of(text) <= width && DisplayWidth.of(text.prefix { $0 != " " }) > 0 {
      return [text]
    }
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      var lineWidth = 0
      for word in paragraph.split(separator: " ") {
        var word = Substring(word)
        var wordWidth = DisplayWidth.of(word)
        if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
          line += " "
          line += word
          lineWidth += 1 + wordWidth
          continue
        }
        if lineWidth > 0 {
          lines.append(line)
          line = ""
          lineWidth = 0
        }
        while wordWidth > width {
          let (head, headWidth) = prefix(word, width: width)
          lines.append(String(head))
          word = word.dropFirst(head.count)
          wordWidth -= headWidth
        }
        line = String(word)
        lineWidth = wordWidth
      }
      lines.append(line)
    }
    return lines
  }

  /// True when wrapping `text` on one line gives it back unchanged: no newline, no space at
  /// either end, no two spaces in a row (wrapping keeps one space between words).
  private static func isSpacedAsWrapped(_ text: String) -> Bool {
    var previous: UInt8 = 0x20
    for byte in text.utf8 {
      if byte == 0x0A || byte == 0x20 && previous == 0x20 { return false }
      previous = byte
    }
    return previous != 0x20 || text.isEmpty
  }

  /// `text` cut to `width` columns, ending in "…" when cut.
  package static func truncate(_ text: String, width: Int) -> String {
    guard width > 0 else { return "" }
    if DisplayWidth.of(text) <= width { return text }
    return String(prefix(Substring(text), width: width - 1).0) + "…"
  }

  /// The longest prefix of `text` that fits in `width` columns (at least one grapheme, so wrapping
  /// always progresses), and its width.
  package static func prefix(_ text: Substring, width: Int) -> (Substring, Int) {
    var used = 0
    var end = text.startIndex
    for index in text.indices {
      let w = DisplayWidth.of(text[index])
      if used + w > width && end != text.startIndex { break }
      used += w
      end = text.index(after: index)
      if used >= width { break }
    }
    return (text[..<end], used)
  }
}
