#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

struct RegexParser {
  let s: [Unicode.Scalar]
  var i = 0
  var depth = 0
  struct Flags { var i = false, m = false, s = false, x = false, u = true }
  var flags = Flags()
  /// The instructions of the leaves parsed so far: a lower bound of the pattern's size, so a
  /// pattern is refused as soon as it passes the limit, before the rest of it is parsed.
  var weight = 0
  /// The named classes (`\pL`, `\w`) built so far, by name and flags: each is made once a pattern.
  var named: [String: ScalarSet] = [:]

  init(_ pattern: String) {
    s = Array(pattern.unicodeScalars)
  }

  mutating func parse() throws(AudienceRegex.SyntaxError) -> RegexNode {
    let node = try alternation()
    if i < s.count { throw fail("unopened group: this ')' closes nothing; escape it as \\)") }
    return node
  }

  func fail(_ message: String, at offset: Int? = nil) -> AudienceRegex.SyntaxError {
    AudienceRegex.SyntaxError(offset: offset ?? i, message: message)
  }

  var atEnd: Bool { i >= s.count }

  mutating func skipVerbose() {
    guard flags.x else { return }
    while i < s.count {
      if s[i].properties.isWhitespace { i += 1; continue }
      if s[i] == "#" {
        while i < s.count, s[i] != "\n" { i += 1 }
        continue
      }
      break
    }
  }

  mutating func alternation() throws(AudienceRegex.SyntaxError) -> RegexNode {
    depth += 1
    defer { depth -= 1 }
    guard depth <= AudienceRegex.nestLimit else { throw fail("the pattern nests deeper than \(AudienceRegex.nestLimit) levels (Rust's regex limit)") }
    let saved = flags
    defer { flags = saved }
    var branches = [try concatenation()]
    while i < s.count, s[i] == "|" {
      i += 1
      branches.append(try concatenation())
    }
    return branches.count == 1 ? branches[0] : .alternate(branches)
  }

  mutating func concatenation() throws(AudienceRegex.SyntaxError) -> RegexNode {
    var items: [RegexNode] = []
    while true {
      skipVerbose()
      guard i < s.count, s[i] != "|", s[i] != ")" else { break }
      let isGroup = s[i] == "("
      guard let atom = try atom() else { continue }
      if !isGroup {
        weight += atom.size
        guard weight <= AudienceRegex.maximumInstructions else { throw AudienceRegex.tooBig(weight, atLeast: true) }
      }
      var node = atom
      skipVerbose()
      // An empty group may be repeated, as in Rust (`()*`); a repetition of nothing at all is
      // refused where the operator is read.
      if let (low, high) = try quantifier() {
        node = .repetition(atom, min: low, max: high)
        skipVerbose()
        if i < s.count, "*+?{".unicodeScalars.contains(s[i]) {
          throw fail("a repetition cannot be repeated (Rust's regex has no possessive or stacked quantifiers); group it: (…)\(String(s[i]))")
        }
      }
      items.append(node)
    }
    return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .concat(items))
  }

  /// `* + ? {n} {n,} {n,m} {,m}` and a lazy `?`; nil when none follows.
  mutating func quantifier() throws(AudienceRegex.SyntaxError) -> (Int, Int?)? {
    guard i < s.count else { return nil }
    var result: (Int, Int?)
    switch s[i] {
    case "*": result = (0, nil); i += 1
    case "+": result = (1, nil); i += 1
    case "?": result = (0, 1); i += 1
    case "{":
      let open = i
      i += 1
      let low = number()
      var high: Int?
      if i < s.count, s[i] == "," {
        i += 1
        high = number()
        guard low != nil || high != nil else { throw fail("repetition quantifier expects a valid decimal", at: open) }
      } else {
        guard let low else { throw fail("repetition quantifier expects a valid decimal", at: open) }
        high = low
      }
      guard i < s.count, s[i] == "}" else { throw fail("unclosed counted repetition; write {n}, {n,} or {n,m}", at: open) }
      i += 1
      let lower = low ?? 0
      if let high, high < lower { throw fail("invalid repetition count range: the start {\(lower),\(high)} is greater than the end", at: open) }
      result = (lower, high)
    default: return nil
    }
    if i < s.count, s[i] == "?" { i += 1 }  // lazy: the same language
    return result
  }

  mutating func number() -> Int? {
    var value: Int?
    while i < s.count, let digit = s[i].properties.numericType == .decimal && s[i].isASCII ? Int(s[i].value) - 48 : nil {
      let (times, o1) = (value ?? 0).multipliedReportingOverflow(by: 10)
      let (sum, o2) = times.addingReportingOverflow(digit)
      // A count past any size limit: the size check refuses it.
      value = o1 || o2 ? Int.max / 8 : min(sum, Int.max / 8)
      i += 1
    }
    return value
  }

  mutating func atom() throws(AudienceRegex.SyntaxError) -> RegexNode? {
    let c = s[i]
    let start = i
    switch c {
    case "(": return try group()
    case "[":
      i += 1
      return .set(try bracket(open: start))
    case ".":
      guard flags.u else { throw invalidUTF8(start) }
      i += 1
      return .any(newline: flags.s)
    case "^":
      i += 1
      return .assert(flags.m ? .lineStart : .textStart)
    case "$":
      i += 1
      return .assert(flags.m ? .lineEnd : .textEnd)
    case "*", "+", "?", "{":
      throw fail("repetition operator missing expression")
    case "\\":
      return try escape()
    default:
      i += 1
      return literal(c)
    }
  }

  func literal(_ c: Unicode.Scalar) -> RegexNode {
    .scalars(flags.i ? CaseFolding.orbit(of: c, unicode: flags.u) : [c])
  }

  func invalidUTF8(_ at: Int) -> AudienceRegex.SyntaxError {
    fail("with the u flag off this can match invalid UTF-8, which Rust's regex refuses for a string; keep it ASCII or turn u back on", at: at)
  }

  mutating func group() throws(AudienceRegex.SyntaxError) -> RegexNode? {
    let open = i
    i += 1
    if i < s.count, s[i] == "?" {
      i += 1
      let rest = String(String.UnicodeScalarView(s[i..<min(s.count, i + 3)]))
      if rest.hasPrefix("=") || rest.hasPrefix("!") || rest.hasPrefix("<=") || rest.hasPrefix("<!") {
        throw fail("look-around, including look-ahead and look-behind, is not supported (Rust's regex, which the SDK uses, has none)", at: open)
      }
      if rest.hasPrefix("P=") || rest.hasPrefix("P>") || rest.hasPrefix("&") {
        throw fail("backreferences are not supported (Rust's regex, which the SDK uses, has none)", at: open)
      }
      if rest.hasPrefix("P<") || rest.hasPrefix("<") {
        i += rest.hasPrefix("P") ? 2 : 1
        let nameStart = i
        while i < s.count, s[i] != ">" {
          guard s[i].properties.isAlphabetic || s[i].properties.numericType == .decimal || "_.[]".unicodeScalars.contains(s[i]) else {
            throw fail("invalid capture group name; use letters, digits and _")
          }
          i += 1
        }
        guard i < s.count, i > nameStart else { throw fail(i >= s.count ? "unclosed capture group name" : "empty capture group name", at: nameStart) }
        i += 1
        return try closeGroup(open: open)
      }
      // Flags: (?imsxU-imsxU) alone, or (?flags:…) for the group.
      var on = true
      var changed = flags
      var sawFlag = false
      while i < s.count, s[i] != ")", s[i] != ":" {
        switch s[i] {
        case "-":
          guard on else { throw fail("repeated negation in the flags") }
          on = false
        case "i": changed.i = on
        case "m": changed.m = on
        case "s": changed.s = on
        case "x": changed.x = on
        case "u": changed.u = on
        case "U", "R": break  // greediness and CRLF do not change whether there is a match
        default: throw fail("unrecognized flag \(quoting: String(s[i])) (Rust's regex has i, m, s, x, U, R, u)")
        }
        sawFlag = true
        i += 1
      }
      guard i < s.count else { throw fail("unclosed group", at: open) }
      if s[i] == ")" {
        guard sawFlag else { throw fail("empty flag group '(?)'", at: open) }
        i += 1
        flags = changed  // to the end of the enclosing group
        return nil
      }
      i += 1  // ":"
      let outer = flags
      flags = changed
      defer { flags = outer }
      return try closeGroup(open: open)
    }
    return try closeGroup(open: open)
  }

  mutating func closeGroup(open: Int) throws(AudienceRegex.SyntaxError) -> RegexNode {
    let inner = try alternation()
    guard i < s.count, s[i] == ")" else { throw fail("unclosed group: add ')'", at: open) }
    i += 1
    return inner
  }

  mutating func escape() throws(AudienceRegex.SyntaxError) -> RegexNode {
    let start = i
    i += 1
    guard i < s.count else { throw fail("incomplete escape sequence: the pattern ends with \\", at: start) }
    let c = s[i]
    i += 1
    switch c {
    case "1"..."9", "k":
      throw fail("backreferences are not supported (Rust's regex, which the SDK uses, has none)", at: start)
    case "A": return .assert(.textStart)
    case "z": return .assert(.textEnd)
    case "b":
      // `\b{start}` and the others (Rust 1.10); `\b{2}` stays a repetition of `\b`.
      if i < s.count, s[i] == "{" {
        var j = i + 1
        var name = ""
        while j < s.count, s[j].isASCII, s[j].properties.isAlphabetic || s[j] == "-" {
          name.unicodeScalars.append(s[j])
          j += 1
        }
        if !name.isEmpty || (j < s.count && s[j] == "}") {
          guard j < s.count, s[j] == "}" else { throw fail("unclosed word boundary: write \\b{start}, \\b{end}, \\b{start-half} or \\b{end-half}", at: start) }
          let kinds: [String: RegexAssertion.Word] = ["start": .start, "end": .end, "start-half": .startHalf, "end-half": .endHalf]
          guard let kind = kinds[name] else {
            throw fail("unrecognized word boundary \\b{\(name)}: Rust's regex has \\b{start}, \\b{end}, \\b{start-half} and \\b{end-half}", at: start)
          }
          i = j + 1
          return .assert(.word(kind, unicode: flags.u))
        }
      }
      return .assert(.word(.boundary, unicode: flags.u))
    case "B": return .assert(.word(.notBoundary, unicode: flags.u))
    case "<": return .assert(.word(.start, unicode: flags.u))
    case ">": return .assert(.word(.end, unicode: flags.u))
    default:
      i = start
      switch try classEscape() {
      case .scalar(let scalar): return literal(scalar)
      case .set(let set): return .set(set)
      }
    }
  }

  enum ClassItem { case scalar(Unicode.Scalar), set(ScalarSet) }

}
