/// Terminal column widths, as `wcwidth` counts them: East Asian wide and fullwidth characters and
/// emoji take 2 columns, combining marks and zero-width joiners take 0, everything else 1.
/// Measured per grapheme (a `Character`), so "é" written as e + U+0301 is one column, a family
/// emoji joined with ZWJs is two, and a Devanagari letter with a spacing vowel sign ("ति") is two.
package enum DisplayWidth {
  package static func of(_ character: Character) -> Int {
    if let ascii = character.asciiValue { return ascii < 0x20 || ascii == 0x7F ? 0 : 1 }
    // One scalar of at most three UTF-8 bytes (the BMP; no emoji sequence): its width alone.
    if character.utf8.count <= 3, character.unicodeScalars.count == 1, let only = character.unicodeScalars.first {
      return of(only)
    }
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if first.value < 0x7F {
      return first.value < 0x20 ? 0 : 1
    }
    // An Indic or South-East Asian cluster: a conjunct or a letter with a spacing vowel is one
    // grapheme, but the terminal gives each of its scalars its own width, as wcwidth does
    // ("प्रति" is four columns: प, र, त and ि one each, the virama none; "น้ำ" two).
    if isIndic(first) {
      return scalars.reduce(0) { $0 + of($1) }
    }
    var width = of(first)
    if width < 2 {
      for scalar in scalars.dropFirst() {
        // VS16 asks for emoji presentation; a skin tone or ZWJ sequence means an emoji glyph.
        if scalar.value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(scalar.value) {
          width = 2
          break
        }
      }
    }
    return width
  }

  /// Whether a grapheme starts in a script whose clusters the terminal lays out scalar by scalar:
  /// the Indic blocks (Devanagari to Sinhala), Thai, Lao, Tibetan, Myanmar and Khmer, whose
  /// spacing vowels (Thai's ำ, Devanagari's ि) take a column of their own.
  package static func isIndic(_ character: Character) -> Bool {
    character.unicodeScalars.first.map(isIndic) ?? false
  }

  static func isIndic(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return (0x900...0xFFF).contains(v) || (0x1000...0x109F).contains(v) || (0x1780...0x17FF).contains(v)
  }

  /// An Indic grapheme as the terminal lays it out: a unit for each scalar that takes a column,
  /// holding the marks after it that take none ("प्र" is "प्" and "र"), each a grapheme of its own.
  package static func terminalUnits(_ character: Character) -> [Character] {
    var units: [String] = []
    for scalar in character.unicodeScalars {
      if of(scalar) == 0, !units.isEmpty {
        units[units.count - 1].unicodeScalars.append(scalar)
      } else {
        units.append(String(scalar))
      }
    }
    // Each unit is a base and its marks, one grapheme; were one not, its scalars go one by one.
    return units.flatMap { unit in unit.count == 1 ? [Character(unit)] : unit.unicodeScalars.map { Character($0) } }
  }

  // A generic function called from another module runs unspecialised, through witness tables
  // (it halved the render rate when the view moved out of this module): the two types callers
  // pass have their own entry points, specialised here.
  package static func of(_ text: String) -> Int { measure(text) }
  package static func of(_ text: Substring) -> Int { measure(text) }

  @inline(__always)
  private static func measure(_ text: some StringProtocol) -> Int {
    // Most of what a paywall draws is ASCII: one pass over the bytes, no grapheme breaking.
    // (A "\r\n" cluster is 0 either way: both its bytes are controls.)
    var total = 0
    var ascii = true
    for byte in text.utf8 {
      if byte >= 0x80 {
        ascii = false
        break
      }
      if byte >= 0x20 && byte != 0x7F { total += 1 }
    }
    if ascii { return total }
    if let columns = simpleColumns(text) { return columns }
    total = 0
    for character in text {
      total += of(character)
    }
    return total
  }

  /// The columns of a text made only of ASCII and of the scalars `isNarrowWithoutLookup` knows
  /// (Latin letters, dashes, bullets, box drawing), nil for any other text. None of those scalars
  /// joins a neighbour into one grapheme (`DisplayWidthTests` checks each), so such a text is a
  /// column a scalar but its controls, with no grapheme breaking: what `Frame.put` and `of` take
  /// their shortcut on.
  @inline(__always)
  package static func simpleColumns(_ text: some StringProtocol) -> Int? {
    var columns = 0
    for scalar in text.unicodeScalars {
      let v = scalar.value
      if v < 0x80 {
        if v >= 0x20 && v != 0x7F { columns += 1 }
      } else if isNarrowWithoutLookup(v) {
        columns += 1
      } else {
        return nil
      }
    }
    return columns
  }

  package static func of(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x7F { return v < 0x20 ? 0 : 1 }
    if v < 0xA0 { return 0 }
    // What paywalls draw most besides ASCII, known to be one column with no property lookup:
    // Latin letters (U+00A0–U+024F but the soft hyphen, a format character), dashes, quotes,
    // bullets and ellipses (U+2010–U+2027), box drawing and block elements (U+2500–U+259F), and
    // geometric shapes (U+25A0–U+25FF) but ◽ ◾, which are emoji presentation.
    if isNarrowWithoutLookup(v) { return 1 }
    return measured(scalar)
  }

  /// The ranges `of` answers without Unicode's tables (`DisplayWidthTests` checks each scalar of
  /// them against `measured`).
  package static func isNarrowWithoutLookup(_ v: UInt32) -> Bool {
    (0xA0...0x24F).contains(v) && v != 0xAD || (0x2010...0x2027).contains(v) || (0x2500...0x25FC).contains(v) || v == 0x25FF
  }

  /// A scalar's width from Unicode's properties and the East Asian Wide ranges.
  package static func measured(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x7F { return v < 0x20 ? 0 : 1 }
    if v < 0xA0 { return 0 }
    if v == 0x200B || v == 0x200C || v == 0x200D || v == 0x2060 || v == 0xFEFF { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if (0x1160...0x11FF).contains(v) { return 0 }  // Hangul medial vowels and final consonants
    if scalar.properties.isEmojiPresentation { return 2 }
    return isWide(v) ? 2 : 1
  }

  /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode's EastAsianWidth.txt.
  private static func isWide(_ v: UInt32) -> Bool {
    switch v {
    case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
         0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
         0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
         0x17000...0x18AFF, 0x1B000...0x1B16F, 0x1F200...0x1F251, 0x1F300...0x1F64F,
         0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}
