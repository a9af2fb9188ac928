#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

extension RegexParser {
  /// An escape that stands for a scalar or a class, inside or outside brackets; `i` is at the `\`.
  mutating func classEscape() throws(AudienceRegex.SyntaxError) -> ClassItem {
    let start = i
    i += 1
    guard i < s.count else { throw fail("incomplete escape sequence: the pattern ends with \\", at: start) }
    let c = s[i]
    i += 1
    func perl(_ key: String, negated: Bool) throws(AudienceRegex.SyntaxError) -> ClassItem {
      let unicode = flags.u
      guard unicode || !negated else { throw invalidUTF8(start) }
      return .set(namedSet(key, negated: negated) {
        func r(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> ClosedRange<UInt32> { a.value...b.value }
        switch key {
        case "d": return unicode ? UnicodeTables.shared.categories[.decimalNumber] ?? [] : [r("0", "9")]
        case "w": return unicode ? UnicodeTables.shared.word : [r("0", "9"), r("A", "Z"), r("_", "_"), r("a", "z")]
        default: return unicode ? UnicodeTables.shared.space : [r("\t", "\r"), r(" ", " ")]
        }
      })
    }
    switch c {
    case "d", "w", "s": return try perl(String(c), negated: false)
    case "D", "W", "S": return try perl(String(c).lowercased(), negated: true)
    case "p", "P":
      var negated = c == "P"
      var name = ""
      if i < s.count, s[i] == "{" {
        i += 1
        while i < s.count, s[i] != "}" { name.unicodeScalars.append(s[i]); i += 1 }
        guard i < s.count else { throw fail("unclosed Unicode class: add '}'", at: start) }
        i += 1
      } else if i < s.count {
        name = String(s[i])
        i += 1
      }
      if name.hasPrefix("^") { negated.toggle(); name.removeFirst() }
      guard flags.u else { throw fail("\\p{\(name)}: Unicode classes need the u flag (Rust's regex refuses them under -u); turn u back on", at: start) }
      let key = Self.unicodeClassKey(name)
      guard Self.unicodeClass(key) != nil else {
        throw fail("\\p{\(name)}: paywall-tui evaluates Unicode general categories (\\p{L}, \\p{Lu}, \\p{N}, …), not scripts or other properties", at: start)
      }
      return .set(namedSet("p" + key, negated: negated) {
        key == "any" ? [0...0x10FFFF] : key == "ascii" ? [0...0x7F] : Self.ranges(Self.unicodeClass(key) ?? [])
      })
    case "n": return .scalar("\n")
    case "t": return .scalar("\t")
    case "r": return .scalar("\r")
    case "f": return .scalar("\u{0C}")
    case "v": return .scalar("\u{0B}")
    case "a": return .scalar("\u{07}")
    case "0": throw fail("octal escapes are not supported (Rust's regex refuses them by default); write \\x00", at: start)
    case "1"..."9", "k": throw fail("backreferences are not supported (Rust's regex, which the SDK uses, has none)", at: start)
    case "x", "u", "U":
      let digits = c == "x" ? 2 : (c == "u" ? 4 : 8)
      var hex = ""
      if i < s.count, s[i] == "{" {
        i += 1
        while i < s.count, s[i] != "}" { hex.unicodeScalars.append(s[i]); i += 1 }
        guard i < s.count else { throw fail("unclosed hexadecimal escape: add '}'", at: start) }
        i += 1
      } else {
        for _ in 0..<digits where i < s.count { hex.unicodeScalars.append(s[i]); i += 1 }
        guard hex.unicodeScalars.count == digits else { throw fail("\\\(c) takes \(digits) hexadecimal digits", at: start) }
      }
      guard !hex.isEmpty, hex.count <= 8, let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
        throw fail("invalid hexadecimal escape: not a Unicode scalar value", at: start)
      }
      // Under -u, `\xFF` is the byte 0xFF (`\x{FF}` stays U+00FF), which is no UTF-8.
      if !flags.u, c == "x", hex.unicodeScalars.count == 2, s[start + 2] != "{", value >= 0x80 { throw invalidUTF8(start) }
      return .scalar(scalar)
    default:
      // Rust allows escaping any ASCII character that is not a letter, a digit, '<' or '>'.
      if c.isASCII, !c.properties.isAlphabetic, c.properties.numericType == nil {
        return .scalar(c)
      }
      throw fail("unrecognized escape sequence \\\(String(c))", at: start)
    }
  }

  /// A named class, made once a pattern: its ranges, negated and case folded as the flags say.
  mutating func namedSet(_ key: String, negated: Bool, _ ranges: () -> [ClosedRange<UInt32>]) -> ScalarSet {
    let full = "\(key)/\(negated)/\(flags.i)/\(flags.u)"
    if let set = named[full] { return set }
    var set = ScalarSet(ranges())
    if flags.i { set = set.caseFolded(unicode: flags.u) }
    if negated { set = set.inverted }
    named[full] = set
    return set
  }

  /// `\p{Lowercase_Letter}` and `\p{lowercaseletter}` are one class, as in Rust.
  static func unicodeClassKey(_ name: String) -> String {
    name.filter { $0 != " " && $0 != "_" && $0 != "-" }.lowercased()
  }

  /// The general categories of `\p{key}` (`any` and `ascii` are none), nil when it is no category.
  static func unicodeClass(_ key: String) -> [Unicode.GeneralCategory]? {
    key == "any" || key == "ascii" ? [] : categoryGroups[key]
  }

  static func ranges(_ categories: [Unicode.GeneralCategory]) -> [ClosedRange<UInt32>] {
    categories.flatMap { UnicodeTables.shared.categories[$0] ?? [] }
  }

  static let categoryGroups: [String: [Unicode.GeneralCategory]] = {
    typealias C = Unicode.GeneralCategory
    let groups: [String: [C]] = [
      "l": [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter],
      "letter": [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter],
      "lu": [.uppercaseLetter], "uppercaseletter": [.uppercaseLetter],
      "ll": [.lowercaseLetter], "lowercaseletter": [.lowercaseLetter],
      "lt": [.titlecaseLetter], "lm": [.modifierLetter], "lo": [.otherLetter],
      "m": [.nonspacingMark, .spacingMark, .enclosingMark], "mark": [.nonspacingMark, .spacingMark, .enclosingMark],
      "mn": [.nonspacingMark], "mc": [.spacingMark], "me": [.enclosingMark],
      "n": [.decimalNumber, .letterNumber, .otherNumber], "number": [.decimalNumber, .letterNumber, .otherNumber],
      "nd": [.decimalNumber], "decimalnumber": [.decimalNumber], "nl": [.letterNumber], "no": [.otherNumber],
      "p": [.connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation],
      "punctuation": [.connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation],
      "pc": [.connectorPunctuation], "pd": [.dashPunctuation], "ps": [.openPunctuation], "pe": [.closePunctuation],
      "pi": [.initialPunctuation], "pf": [.finalPunctuation], "po": [.otherPunctuation],
      "s": [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol], "symbol": [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol],
      "sm": [.mathSymbol], "sc": [.currencySymbol], "sk": [.modifierSymbol], "so": [.otherSymbol],
      "z": [.spaceSeparator, .lineSeparator, .paragraphSeparator], "separator": [.spaceSeparator, .lineSeparator, .paragraphSeparator],
      "zs": [.spaceSeparator], "zl": [.lineSeparator], "zp": [.paragraphSeparator],
      "c": [.control, .format, .surrogate, .privateUse, .unassigned], "other": [.control, .format, .surrogate, .privateUse, .unassigned],
      "cc": [.control], "cf": [.format], "cs": [.surrogate], "co": [.privateUse], "cn": [.unassigned],
    ]
    return groups
  }()

  /// A bracket class; `i` is just after its `[`.
  mutating func bracket(open: Int) throws(AudienceRegex.SyntaxError) -> ScalarSet {
    // A class nests like a group: past the limit it is refused here, before recursion can
    // exhaust the stack (`[[[…` a hundred thousand deep).
    depth += 1
    defer { depth -= 1 }
    guard depth <= AudienceRegex.nestLimit else {
      throw fail("the pattern nests deeper than \(AudienceRegex.nestLimit) levels (Rust's regex limit): too many nested classes", at: open)
    }
    var ranges: [ClosedRange<UInt32>] = []
    // The named classes already in, so ten thousand `\pL` are added once.
    var namedIn = Set<String>()
    var negated = false
    if i < s.count, s[i] == "^" { negated = true; i += 1 }
    var first = true
    while true {
      guard i < s.count else { throw fail("unclosed character class: add ']'", at: open) }
      let c = s[i]
      if c == "]", !first {
        i += 1
        var set = ScalarSet(ranges)
        if flags.i { set = set.caseFolded(unicode: flags.u) }
        if negated { set = set.inverted }
        if !flags.u, set.reachesPastASCII { throw invalidUTF8(open) }
        return set
      }
      first = false
      if i + 1 < s.count, (c == "&" && s[i + 1] == "&") || (c == "-" && s[i + 1] == "-") || (c == "~" && s[i + 1] == "~") {
        throw fail("class set operations (&&, --, ~~) are not evaluated by paywall-tui; write the class out", at: i)
      }
      if c == "[" {
        if i + 1 < s.count, s[i + 1] == ":" {
          try posix(into: &ranges)
          continue
        }
        let nested = i
        i += 1
        if i < s.count, s[i] == "^" { throw fail("a negated class inside a class is not evaluated by paywall-tui; write it out", at: nested) }
        ranges += try bracket(open: nested).ranges
        continue
      }
      let low: Unicode.Scalar
      if c == "\\" {
        let escape = i
        switch try classEscape() {
        case .set(let inner):
          if namedIn.insert(String(String.UnicodeScalarView(s[escape..<i]))).inserted { ranges += inner.ranges }
          continue
        case .scalar(let scalar): low = scalar
        }
      } else {
        low = c
        i += 1
      }
      // A range `a-z`, unless the '-' is last.
      if i + 1 < s.count, s[i] == "-", s[i + 1] != "]" {
        let dash = i
        i += 1
        let high: Unicode.Scalar
        if s[i] == "\\" {
          guard case .scalar(let scalar) = try classEscape() else { throw fail("invalid range: a class cannot end a range", at: dash) }
          high = scalar
        } else {
          high = s[i]
          i += 1
        }
        guard low.value <= high.value else { throw fail("invalid character class range \(String(low))-\(String(high)): the start is after the end", at: dash) }
        ranges.append(low.value...high.value)
      } else {
        ranges.append(low.value...low.value)
      }
    }
  }

  /// `[:alpha:]` and the other ASCII classes Rust has; `i` is at its `[`.
  mutating func posix(into set: inout [ClosedRange<UInt32>]) throws(AudienceRegex.SyntaxError) {
    let start = i
    i += 2
    var negated = false
    if i < s.count, s[i] == "^" { negated = true; i += 1 }
    var name = ""
    while i < s.count, s[i] != ":" { name.unicodeScalars.append(s[i]); i += 1 }
    guard i + 1 < s.count, s[i] == ":", s[i + 1] == "]" else { throw fail("unclosed ASCII class: write [:name:]", at: start) }
    i += 2
    let ranges: [ClosedRange<UInt32>]
    func r(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> ClosedRange<UInt32> { a.value...b.value }
    switch name {
    case "alnum": ranges = [r("0", "9"), r("A", "Z"), r("a", "z")]
    case "alpha": ranges = [r("A", "Z"), r("a", "z")]
    case "ascii": ranges = [0...0x7F]
    case "blank": ranges = [r("\t", "\t"), r(" ", " ")]
    case "cntrl": ranges = [0...0x1F, 0x7F...0x7F]
    case "digit": ranges = [r("0", "9")]
    case "graph": ranges = [r("!", "~")]
    case "lower": ranges = [r("a", "z")]
    case "print": ranges = [r(" ", "~")]
    case "punct": ranges = [r("!", "/"), r(":", "@"), r("[", "`"), r("{", "~")]
    case "space": ranges = [r("\t", "\r"), r(" ", " ")]
    case "upper": ranges = [r("A", "Z")]
    case "word": ranges = [r("0", "9"), r("A", "Z"), r("a", "z"), r("_", "_")]
    case "xdigit": ranges = [r("0", "9"), r("A", "F"), r("a", "f")]
    default: throw fail("unknown ASCII class [:\(name):]", at: start)
    }
    if negated {
      // Everything outside `ranges`.
      var gaps: [ClosedRange<UInt32>] = []
      var next: UInt32 = 0
      for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
        if range.lowerBound > next { gaps.append(next...(range.lowerBound - 1)) }
        next = max(next, range.upperBound + 1)
      }
      gaps.append(next...0x10FFFF)
      set += gaps
    } else {
      set += ranges
    }
  }
}
