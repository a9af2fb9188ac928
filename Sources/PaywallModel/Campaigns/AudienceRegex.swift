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
