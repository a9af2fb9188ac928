#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// The regular expressions of an audience filter's `matches()`, in the syntax the SDK reads
/// them: the SDK evaluates filters with Superscript (superwall/superscript), whose CEL
/// (`cel-interpreter`, `Cargo.toml`) compiles `matches` with Rust's `regex` crate. That crate has
/// no back-references and no look-around, refuses a pattern whose compiled program passes its
/// size limit (10 MiB by default, `RegexBuilder::size_limit`; nesting 250 deep), and matches in
/// time linear in the text. So does this one: a parser for that syntax, a compiler to a program
/// bounded by `maximumInstructions`, and a Pike VM (every thread advanced in step over the text,
/// each instruction at most once per position) whose work is counted against a budget.
///
/// Accepted: literals and escapes (`\.`, `\n`, `\x7F`, `\u{1F600}`), `.`, classes (`[a-z]`,
/// `[^…]`, `[[:alpha:]]`, `\d \w \s` and their negations, `\pL`, `\p{Lu}`), `^ $ \A \z \b \B \< \>`
/// and `\b{start} \b{end} \b{start-half} \b{end-half}`, groups (`(…)`, `(?:…)`, `(?P<name>…)`,
/// `(?<name>…)`, an empty `()` that may be repeated), flags `i m s x U R u` (`(?i)`, `(?i:…)`;
/// `-u` makes `\d \w \s \b` and case folding ASCII, and refuses what could match invalid UTF-8,
/// as Rust's `Regex` for a string does), alternation and repetition (`* + ? {n} {n,} {n,m} {,m}`,
/// lazy with `?`). Refused, as Rust refuses them: back-references, look-around, a repetition of
/// nothing, an unclosed group or class, nesting past 250 levels of groups and classes. Refused
/// although Rust has them (the emulator does not evaluate them): Unicode scripts (`\p{Greek}`)
/// and class set operations (`&&`, `--`, `~~`).
///
/// Size: a literal, `.`, an assertion, a split or a jump is one instruction; a class is as many
/// as its merged scalar ranges (`[a-z]` 1, `(?i)[a-z]` 4 with `ſ` and the Kelvin sign, `\d` 72, `\pL`
/// 684, `\w` 802, as Rust compiles a Unicode class to a UTF-8 automaton whose size grows with its
/// ranges); a repetition `{n,m}` is its body (plus 2) copied max(n, m) times. Past 100,000 the
/// pattern is refused: `\w{30000}` and `\pL{20000}` are, as Rust refuses them for its 10 MiB.
/// The estimate refuses a Unicode class repeated a few hundred times earlier than Rust may
/// (`\w{200}`); `(?-u:\w)` or `[A-Za-z0-9_]` is the ASCII class such a pattern usually means.
/// Every class is merged when the pattern is parsed into sorted, disjoint ranges, case folding
/// applied there, so testing a scalar against it is one binary search, charged to the budget as
/// 1 + log2 of its ranges.
package struct AudienceRegex: Sendable, Hashable {
  /// A pattern the SDK would refuse (or the emulator cannot evaluate), at a 0-based offset in
  /// Unicode scalars of the pattern.
  package struct SyntaxError: Error, Sendable, Hashable {
    package var offset: Int
    package var message: String
  }

  /// The largest program a pattern may compile to, a class counted as its ranges. Rust's default
  /// size limit is 10 MiB of compiled program; at its tens of bytes a state, this is the same
  /// order, and it keeps `(a{32767}){32767}` (a billion states) from being built at all.
  package static let maximumInstructions = 100_000
  /// How deep groups and classes may nest (Rust's `nest_limit`), the whole pattern the first level.
  static let nestLimit = 250

  package let pattern: String
  /// The parsed pattern: small whatever its repetition counts. The program is built from it when
  /// a match runs, its size spent from the budget first, so a project of 2,000 patterns of
  /// 100,000 instructions each neither takes long to load nor holds gigabytes.
  private let tree: RegexNode
  private let size: Int

  package static func == (a: AudienceRegex, b: AudienceRegex) -> Bool { a.pattern == b.pattern }
  package func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

  /// Parses and compiles `pattern`; throws what Rust's `regex` would refuse, and what is too big.
  package init(_ pattern: String) throws(SyntaxError) {
    var parser = RegexParser(pattern)
    let tree = try parser.parse()
    let size = tree.size
    guard size <= Self.maximumInstructions else { throw Self.tooBig(size) }
    self.pattern = pattern
    self.tree = tree
    self.size = size
  }

  static func tooBig(_ size: Int, atLeast: Bool = false) -> SyntaxError {
    SyntaxError(offset: 0, message: "the pattern compiles to \(atLeast ? "at least " : "")\(size >= Int.max / 8 ? "more than a billion" : "\(size)") instructions, more than the \(Self.maximumInstructions) a regular expression may have (Rust's regex refuses a program over its size limit; a class counts as its ranges, \\w and \\pL as hundreds); lower the repetition counts or use an ASCII class")
  }

  /// Whether the pattern matches anywhere in `text`, each thread step taken from `budget`; nil
  /// when the budget stopped it first.
  func matches(_ text: String, budget: inout EvaluationBudget) -> Bool? {
    guard budget.spend(size + 1) else { return nil }
    var compiler = RegexCompiler()
    compiler.program.reserveCapacity(size + 1)
    tree.emit(into: &compiler)
    compiler.program.append(.match)
    let program = compiler.program
    let scalarTables = compiler.scalarTables
    let sets = compiler.sets
    let setCosts = sets.map(\.cost)
    // Instructions carry no reference (indices into the tables), so stepping copies nothing.
    func accepts(_ instruction: Instruction, _ c: Unicode.Scalar) -> Bool {
      switch instruction {
      case .scalar(let value): return c.value == value
      case .scalars(let table): return scalarTables[table].contains(c)
      case .set(let index): return sets[index].contains(c)
      case .any(let newline): return newline || c != "\n"
      default: return false
      }
    }
    // The work of testing a scalar: a table's entries, a class's binary search.
    func cost(_ instruction: Instruction) -> Int {
      switch instruction {
      case .scalars(let table): return scalarTables[table].count
      case .set(let index): return setCosts[index]
      default: return 1
      }
    }
    let scalars = Array(text.unicodeScalars)
    let count = scalars.count
    var current: [Int] = []
    var next: [Int] = []
    var stack: [Int] = []
    // The generation (position + 1) at which each instruction was last put on a list.
    var seen = [Int](repeating: 0, count: program.count)
    // Work is taken from the budget a slice at a time, so the interrupt is looked at after a
    // bounded amount of work, whatever one step costs.
    let slice = 1_024
    var left = 0
    func step(_ work: Int = 1) -> Bool {
      if left < work {
        let more = max(slice, work - left)
        guard budget.spend(more) else { return false }
        left += more
      }
      left -= work
      return true
    }
    func add(_ start: Int, at position: Int, to list: inout [Int]) -> Bool {
      stack.append(start)
      while let pc = stack.popLast() {
        guard step() else { return false }
        guard seen[pc] != position + 1 else { continue }
        seen[pc] = position + 1
        switch program[pc] {
        case .jump(let target): stack.append(target)
        case .split(let a, let b):
          stack.append(b)
          stack.append(a)
        case .assert(let assertion):
          if assertion.holds(scalars, at: position) { stack.append(pc + 1) }
        default: list.append(pc)
        }
      }
      return true
    }
    for position in 0...count {
      // Unanchored: a thread starts at every position.
      guard add(0, at: position, to: &current) else { return nil }
      for pc in current {
        let instruction = program[pc]
        guard step(cost(instruction)) else { return nil }
        if case .match = instruction { return true }
        guard position < count, accepts(instruction, scalars[position]) else { continue }
        guard add(pc + 1, at: position + 1, to: &next) else { return nil }
      }
      swap(&current, &next)
      next.removeAll(keepingCapacity: true)
    }
    return false
  }
}

// MARK: - The program

enum RegexAssertion: Sendable, Hashable {
  enum Word: Sendable, Hashable { case boundary, notBoundary, start, end, startHalf, endHalf }
  case textStart, textEnd, lineStart, lineEnd
  /// A word assertion; `unicode` false (the `-u` flag) knows only ASCII word characters.
  case word(Word, unicode: Bool)

  func holds(_ s: [Unicode.Scalar], at p: Int) -> Bool {
    switch self {
    case .textStart: return p == 0
    case .textEnd: return p == s.count
    case .lineStart: return p == 0 || s[p - 1] == "\n"
    case .lineEnd: return p == s.count || s[p] == "\n"
    case .word(let kind, let unicode):
      func isWord(_ c: Unicode.Scalar) -> Bool {
        unicode ? UnicodeTables.isWord(c) : (c.isASCII && (c.properties.isAlphabetic || c.properties.numericType != nil || c == "_"))
      }
      let before = p > 0 && isWord(s[p - 1])
      let after = p < s.count && isWord(s[p])
      switch kind {
      case .boundary: return before != after
      case .notBoundary: return before == after
      case .start: return !before && after
      case .end: return before && !after
      case .startHalf: return !before
      case .endHalf: return !after
      }
    }
  }
}

enum Instruction: Sendable {
  case scalar(UInt32)
  /// Any of `scalarTables[n]` (a letter in every case).
  case scalars(Int)
  /// `sets[n]`.
  case set(Int)
  case any(newline: Bool)
  case split(Int, Int)
  case jump(Int)
  case assert(RegexAssertion)
  case match
}

/// The program being built, with the tables its instructions point into.
struct RegexCompiler {
  var program: [Instruction] = []
  var scalarTables: [[Unicode.Scalar]] = []
  var sets: [ScalarSet] = []
}

/// A class of scalars as sorted, disjoint, non-adjacent ranges: merged when the pattern is parsed,
/// case folding and negation applied there, so a test is one binary search however the class was
/// written (`[\pL\pL…]` ten thousand times is `\pL`).
struct ScalarSet: Sendable, Hashable {
  private(set) var ranges: [ClosedRange<UInt32>]

  init(_ ranges: [ClosedRange<UInt32>]) {
    self.ranges = Self.merged(ranges)
  }

  /// Sorts and merges overlapping and touching ranges.
  static func merged(_ input: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
    guard input.count > 1 else { return input }
    let sorted = input.sorted { $0.lowerBound < $1.lowerBound }
    var out: [ClosedRange<UInt32>] = []
    out.reserveCapacity(sorted.count)
    for range in sorted {
      if let last = out.last, range.lowerBound <= last.upperBound + 1 {
        if range.upperBound > last.upperBound { out[out.count - 1] = last.lowerBound...range.upperBound }
      } else {
        out.append(range)
      }
    }
    return out
  }

  func contains(_ c: Unicode.Scalar) -> Bool {
    let v = c.value
    var low = 0
    var high = ranges.count
    while low < high {
      let mid = (low + high) / 2
      if ranges[mid].upperBound < v { low = mid + 1 } else { high = mid }
    }
    return low < ranges.count && ranges[low].lowerBound <= v
  }

  /// The work of one test, in budget steps: 1 + log2 of the ranges.
  var cost: Int { 1 + (Int.bitWidth - ranges.count.leadingZeroBitCount) }

  /// Every scalar not in the set.
  var inverted: ScalarSet {
    var gaps: [ClosedRange<UInt32>] = []
    var next: UInt32 = 0
    for range in ranges {
      if range.lowerBound > next { gaps.append(next...(range.lowerBound - 1)) }
      next = range.upperBound + 1
    }
    if next <= 0x10FFFF { gaps.append(next...0x10FFFF) }
    var set = ScalarSet([])
    set.ranges = gaps
    return set
  }

  /// The set with every scalar's simple case variants added (Rust's simple case folding), ASCII
  /// letters only when `unicode` is false (the `-u` flag).
  func caseFolded(unicode: Bool) -> ScalarSet {
    let tables = UnicodeTables.shared
    var added: [ClosedRange<UInt32>] = []
    for range in ranges {
      var k = tables.firstFoldEntry(atLeast: range.lowerBound)
      while k < tables.foldScalars.count, tables.foldScalars[k] <= range.upperBound {
        if unicode || tables.foldScalars[k] < 0x80 {
          for member in tables.orbits[tables.foldOrbits[k]] where unicode || member < 0x80 { added.append(member...member) }
        }
        k += 1
      }
    }
    return added.isEmpty ? self : ScalarSet(ranges + added)
  }

  /// Whether a scalar outside ASCII is in the set.
  var reachesPastASCII: Bool { (ranges.last?.upperBound ?? 0) >= 0x80 }
}

/// The Unicode tables the classes are made of, read from the standard library's Unicode data once
/// a process, the first time a pattern names a Unicode class or folds case: a scan of every
/// scalar but planes 4 to 13, about 0.1 s in a debug build (the price of one binary search per class test later).
struct UnicodeTables: Sendable {
  static let shared = UnicodeTables()

  let categories: [Unicode.GeneralCategory: [ClosedRange<UInt32>]]
  /// Rust's `\w`: `[\p{Alphabetic}\p{M}\d\p{Pc}\p{Join_Control}]`.
  let word: [ClosedRange<UInt32>]
  /// Rust's `\s`: `\p{White_Space}`.
  let space: [ClosedRange<UInt32>]
  /// Every scalar that has another case form, sorted, with the index of its orbit (the scalars
  /// its simple case mappings connect it to, itself included).
  let foldScalars: [UInt32]
  let foldOrbits: [Int]
  let orbits: [[UInt32]]

  private init() {
    var categories: [Unicode.GeneralCategory: [ClosedRange<UInt32>]] = [:]
    var word: [ClosedRange<UInt32>] = []
    var space: [ClosedRange<UInt32>] = []
    var cased: [(UInt32, [UInt32])] = []
    func extend(_ list: inout [ClosedRange<UInt32>], _ v: UInt32) {
      if let last = list.last, last.upperBound + 1 == v { list[list.count - 1] = last.lowerBound...v } else { list.append(v...v) }
    }
    var runCategory = Unicode.GeneralCategory.control
    var runStart: UInt32 = 0
    var next: UInt32 = 0
    while next <= 0x10FFFF {
      var v = next
      next += 1
      // Planes 4 to 13 have no assigned scalar in any Unicode version yet: one unassigned run,
      // which halves the scan.
      if v == 0x40000 {
        categories[runCategory, default: []].append(runStart...(v - 1))
        categories[.unassigned, default: []].append(0x40000...0xDFFFF)
        v = 0xE0000
        next = v + 1
        runCategory = Unicode.Scalar(v)!.properties.generalCategory
        runStart = v
      }
      guard let c = Unicode.Scalar(v) else { continue }  // surrogates
      let p = c.properties
      let category = p.generalCategory
      if category != runCategory || v == 0 {
        if v > 0 { categories[runCategory, default: []].append(runStart...(v - 1)) }
        runCategory = category
        runStart = v
      }
      switch category {
      case .unassigned, .privateUse, .surrogate: continue
      case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: extend(&word, v)
      default: if p.isAlphabetic || p.isJoinControl { extend(&word, v) }
      }
      if p.isWhitespace { extend(&space, v) }
      if p.changesWhenCaseMapped {
        cased.append((v, CaseFolding.variants(of: c).map(\.value)))
      }
    }
    categories[runCategory, default: []].append(runStart...0x10FFFF)
    // The surrogates are no scalars: a category's run across them closes at 0xD7FF and reopens.
    for (key, list) in categories { categories[key] = ScalarSet.merged(list) }
    // Orbits: scalars joined by any simple mapping, in either direction.
    var parent: [UInt32: UInt32] = [:]
    func root(_ v: UInt32) -> UInt32 {
      var r = v
      while let up = parent[r], up != r { r = up }
      return r
    }
    for (scalar, variants) in cased {
      for variant in variants where variant != scalar {
        let a = root(scalar)
        let b = root(variant)
        if a != b { parent[max(a, b)] = min(a, b) }
      }
    }
    var members: [UInt32: [UInt32]] = [:]
    for (scalar, variants) in cased {
      for v in [scalar] + variants { members[root(v), default: []].append(v) }
    }
    var orbits: [[UInt32]] = []
    for list in members.values {
      let unique = Array(Set(list)).sorted()
      if unique.count > 1 { orbits.append(unique) }
    }
    var entries: [(UInt32, Int)] = []
    for (index, orbit) in orbits.enumerated() {
      for member in orbit { entries.append((member, index)) }
    }
    entries.sort { $0.0 < $1.0 }
    self.categories = categories
    self.word = word
    self.space = space
    self.orbits = orbits
    foldScalars = entries.map(\.0)
    foldOrbits = entries.map(\.1)
  }

  func firstFoldEntry(atLeast v: UInt32) -> Int {
    var low = 0
    var high = foldScalars.count
    while low < high {
      let mid = (low + high) / 2
      if foldScalars[mid] < v { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// Rust's Unicode `\w`, for word boundaries: the same scalars as `word`.
  static func isWord(_ c: Unicode.Scalar) -> Bool {
    let p = c.properties
    if p.isAlphabetic || p.isJoinControl { return true }
    switch p.generalCategory {
    case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: return true
    default: return false
    }
  }
}

enum CaseFolding {
  /// `c` and its simple upper, lower and title case forms.
  static func variants(of c: Unicode.Scalar) -> [Unicode.Scalar] {
    var all: [Unicode.Scalar] = [c]
    let p = c.properties
    for mapping in [p.lowercaseMapping, p.uppercaseMapping, p.titlecaseMapping] {
      let scalars = mapping.unicodeScalars
      if scalars.count == 1, let only = scalars.first, !all.contains(only) { all.append(only) }
    }
    return all
  }

  /// The scalars `c` matches under `(?i)`: its orbit (ASCII letters only without `u`).
  static func orbit(of c: Unicode.Scalar, unicode: Bool) -> [Unicode.Scalar] {
    if !unicode && !c.isASCII { return [c] }
    let folded = ScalarSet([c.value...c.value]).caseFolded(unicode: unicode)
    return folded.ranges.flatMap { $0.compactMap(Unicode.Scalar.init) }
  }
}

// MARK: - The tree

indirect enum RegexNode: Sendable {
  case empty
  case scalars([Unicode.Scalar])
  case set(ScalarSet)
  case any(newline: Bool)
  case assert(RegexAssertion)
  case concat([RegexNode])
  case alternate([RegexNode])
  case repetition(RegexNode, min: Int, max: Int?)

  /// Instructions it compiles to, saturating well below overflow.
  var size: Int {
    let cap = Int.max / 4
    switch self {
    case .empty: return 0
    case .scalars, .any, .assert: return 1
    case .set(let set): return max(1, set.ranges.count)
    case .concat(let items): return items.reduce(0) { min(cap, $0 + $1.size) }
    case .alternate(let items): return min(cap, items.reduce(0) { min(cap, $0 + $1.size) } + 2 * (items.count - 1))
    case .repetition(let node, let low, let high):
      let one = node.size + 2
      let copies = high ?? (low + 1)
      let (product, overflow) = one.multipliedReportingOverflow(by: max(copies, 1))
      return overflow ? cap : min(cap, product)
    }
  }

  func emit(into compiler: inout RegexCompiler) {
    switch self {
    case .empty: break
    case .scalars(let s):
      if s.count == 1 {
        compiler.program.append(.scalar(s[0].value))
      } else {
        compiler.program.append(.scalars(compiler.scalarTables.count))
        compiler.scalarTables.append(s)
      }
    case .set(let set):
      compiler.program.append(.set(compiler.sets.count))
      compiler.sets.append(set)
    case .any(let newline): compiler.program.append(.any(newline: newline))
    case .assert(let a): compiler.program.append(.assert(a))
    case .concat(let items): for item in items { item.emit(into: &compiler) }
    case .alternate(let items):
      var jumps: [Int] = []
      for (i, item) in items.enumerated() {
        if i < items.count - 1 {
          let split = compiler.program.count
          compiler.program.append(.split(0, 0))
          item.emit(into: &compiler)
          jumps.append(compiler.program.count)
          compiler.program.append(.jump(0))
          compiler.program[split] = .split(split + 1, compiler.program.count)
        } else {
          item.emit(into: &compiler)
        }
      }
      for jump in jumps { compiler.program[jump] = .jump(compiler.program.count) }
    case .repetition(let node, let low, let high):
      for _ in 0..<low { node.emit(into: &compiler) }
      if let high {
        // Each optional copy may be skipped to the end.
        var splits: [Int] = []
        for _ in low..<high {
          splits.append(compiler.program.count)
          compiler.program.append(.split(0, 0))
          node.emit(into: &compiler)
        }
        for split in splits { compiler.program[split] = .split(split + 1, compiler.program.count) }
      } else {
        let split = compiler.program.count
        compiler.program.append(.split(0, 0))
        node.emit(into: &compiler)
        compiler.program.append(.jump(split))
        compiler.program[split] = .split(split + 1, compiler.program.count)
      }
    }
  }
}

// MARK: - The parser

struct RegexParser {
  private let s: [Unicode.Scalar]
  private var i = 0
  private var depth = 0
  private struct Flags { var i = false, m = false, s = false, x = false, u = true }
  private var flags = Flags()
  /// The instructions of the leaves parsed so far: a lower bound of the pattern's size, so a
  /// pattern is refused as soon as it passes the limit, before the rest of it is parsed.
  private var weight = 0
  /// The named classes (`\pL`, `\w`) built so far, by name and flags: each is made once a pattern.
  private var named: [String: ScalarSet] = [:]

  init(_ pattern: String) {
    s = Array(pattern.unicodeScalars)
  }

  mutating func parse() throws(AudienceRegex.SyntaxError) -> RegexNode {
    let node = try alternation()
    if i < s.count { throw fail("unopened group: this ')' closes nothing; escape it as \\)") }
    return node
  }

  private func fail(_ message: String, at offset: Int? = nil) -> AudienceRegex.SyntaxError {
    AudienceRegex.SyntaxError(offset: offset ?? i, message: message)
  }

  private var atEnd: Bool { i >= s.count }

  private mutating func skipVerbose() {
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

  private mutating func alternation() throws(AudienceRegex.SyntaxError) -> RegexNode {
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

  private mutating func concatenation() throws(AudienceRegex.SyntaxError) -> RegexNode {
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
  private mutating func quantifier() throws(AudienceRegex.SyntaxError) -> (Int, Int?)? {
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

  private mutating func number() -> Int? {
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

  private mutating func atom() throws(AudienceRegex.SyntaxError) -> RegexNode? {
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

  private func literal(_ c: Unicode.Scalar) -> RegexNode {
    .scalars(flags.i ? CaseFolding.orbit(of: c, unicode: flags.u) : [c])
  }

  private func invalidUTF8(_ at: Int) -> AudienceRegex.SyntaxError {
    fail("with the u flag off this can match invalid UTF-8, which Rust's regex refuses for a string; keep it ASCII or turn u back on", at: at)
  }

  private mutating func group() throws(AudienceRegex.SyntaxError) -> RegexNode? {
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

  private mutating func closeGroup(open: Int) throws(AudienceRegex.SyntaxError) -> RegexNode {
    let inner = try alternation()
    guard i < s.count, s[i] == ")" else { throw fail("unclosed group: add ')'", at: open) }
    i += 1
    return inner
  }

  private mutating func escape() throws(AudienceRegex.SyntaxError) -> RegexNode {
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

  private enum ClassItem { case scalar(Unicode.Scalar), set(ScalarSet) }

  /// An escape that stands for a scalar or a class, inside or outside brackets; `i` is at the `\`.
  private mutating func classEscape() throws(AudienceRegex.SyntaxError) -> ClassItem {
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
  private mutating func namedSet(_ key: String, negated: Bool, _ ranges: () -> [ClosedRange<UInt32>]) -> ScalarSet {
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

  private static let categoryGroups: [String: [Unicode.GeneralCategory]] = {
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
  private mutating func bracket(open: Int) throws(AudienceRegex.SyntaxError) -> ScalarSet {
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
  private mutating func posix(into set: inout [ClosedRange<UInt32>]) throws(AudienceRegex.SyntaxError) {
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
