#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An audience filter in the subset of CEL the SDK evaluates (`expression_cel`, through
/// Superscript: `Paywall/Presentation/Audience Logic/Expression Evaluator/CELEvaluator.swift`):
/// `user.*`, `params.*`, `device.*` (members, `[…]`), literals (strings, numbers, `true`, `false`,
/// `null`, lists `[…]`, maps `{…}`), `==` `!=` `<` `<=` `>` `>=` `in` `&&` `||` `!` `?:`, `has()`,
/// `size()`, `contains`, `startsWith`, `endsWith`, `matches`, `all`/`exists`/`exists_one`, the
/// conversions. Parsed once when the project loads, so every mistake, an unknown function
/// included, is reported with its column before anything runs.
public struct AudienceFilter: Sendable, Hashable, CustomStringConvertible {
  indirect enum Node: Sendable, Hashable {
    case literal(FilterValue)
    case name(FilterName)
    /// A comprehension's variable (`all(x, …)`).
    case variable(String)
    case member(Node, String)
    case index(Node, Node)
    case list([Node])
    case map([Node], [Node])
    case not(Node)
    case binary(BinaryOperator, Node, Node)
    case conditional(Node, Node, Node)
    case has(Node)
    /// A function or method (`size(x)`, `x.startsWith(y)`); `target` is the receiver.
    case call(Function, target: Node?, [Node])
    /// `list.all(x, predicate)` and its kin.
    case comprehension(Comprehension, Node, variable: String, Node)
    /// A function the emulator knows the SDK has but cannot compute (a placement count, `duration`): it reads as missing.
    case unavailable(String)
    /// `subject.matches("literal")`: the pattern compiled once, when the filter was parsed.
    case matches(Node, AudienceRegex)

    /// Whether CEL reads it as a property (Superscript's null-safety wraps those).
    var isAccess: Bool {
      switch self {
      case .name, .member, .index, .unavailable: true
      default: false
      }
    }
  }

  enum BinaryOperator: String, Sendable, Hashable {
    case and = "&&", or = "||", equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case isIn = "in"
  }

  enum Function: String, Sendable, Hashable, CaseIterable {
    case size, contains, startsWith, endsWith, matches
    case string, int, uint, double, bool
    case toString, toInt, toFloat, toBool
  }

  enum Comprehension: String, Sendable, Hashable, CaseIterable {
    case all, exists, exists_one
  }

  /// A syntax error or unknown name, at a 0-based character offset in the text.
  public struct ParseError: Error, Sendable, Hashable {
    /// Where the problem is: a 0-based character offset in the filter's text.
    public var offset: Int
    /// What is wrong.
    public var message: String
  }

  /// Something a filter reads that the emulator cannot give as a device would, at a 0-based
  /// character offset: `validate` warns, and it evaluates as a missing key does.
  public struct Warning: Sendable, Hashable {
    /// Where: a 0-based character offset in the filter's text.
    public var offset: Int
    /// What the emulator cannot give, and what it reads instead.
    public var message: String
  }

  /// The filter as written.
  public let text: String
  let root: Node
  /// What `validate` should warn about (device keys and host functions the emulator cannot give).
  public let warnings: [Warning]

  /// The filter as written.
  public var description: String { text }

  /// Parses and checks `text`; throws the first syntax error, unknown name or unknown function, with its offset.
  public init(parsing text: String) throws(ParseError) {
    var parser = FilterParser(text)
    root = try parser.parseAll()
    warnings = parser.warnings
    self.text = text
  }

  /// Whether the filter matches `context`: only a result that is `true` matches, and an
  /// evaluation error does not (`CELEvaluator.swift`: `.success(.bool(true))` matches, anything
  /// else, a failure included, is `noMatch`).
  public func evaluate(_ context: FilterContext) -> Bool {
    var budget = EvaluationBudget(interrupt: context.interrupt)
    return evaluate(context, budget: &budget)
  }

  /// `evaluate` within a registration's budget, which it spends; once the budget stops it, the
  /// filter does not match (and `budget.stopped` says why).
  func evaluate(_ context: FilterContext, budget: inout EvaluationBudget) -> Bool {
    var evaluator = FilterEvaluator(context: context, budget: budget)
    defer { budget = evaluator.registration }
    if case .value(.bool(true)) = evaluator.evaluate(root) { return true }
    return false
  }

  /// The filter's boolean result in `context`, or nil when it is an error or not a boolean.
  package func booleanResult(_ context: FilterContext) -> Bool? {
    var evaluator = FilterEvaluator(context: context, budget: EvaluationBudget(interrupt: context.interrupt))
    if case .value(.bool(let b)) = evaluator.evaluate(root) { return b }
    return nil
  }

  /// The `params` keys the filter reads, in the order it first reads them.
  package var paramKeys: [String] {
    var names: [FilterName] = []
    Self.collectNames(root, into: &names)
    return names.compactMap { if case .params(let key) = $0 { key } else { nil } }
  }

  /// Where the filter's text first reads `params.KEY` (or `params["KEY"]`), as a 0-based
  /// character offset; 0 when it is written some other way.
  package func offset(ofParam key: String) -> Int {
    for form in ["params.\(key)", "params[\"\(key)\"]", "params['\(key)']"] {
      if let range = text.range(of: form) { return text.distance(from: text.startIndex, to: range.lowerBound) }
    }
    return 0
  }

  /// The names the filter reads with their values in `context`: the "because" of `explain`.
  public func explain(_ context: FilterContext) -> [String] {
    var seen: [FilterName] = []
    Self.collectNames(root, into: &seen)
    return seen.map { name in context.value(of: name).map { "\(name) is \($0.normalized)" } ?? "\(name) is not set" }
  }

  private static func collectNames(_ node: Node, into names: inout [FilterName]) {
    switch node {
    case .literal, .variable, .unavailable: break
    case .name(let name): if !names.contains(name) { names.append(name) }
    case .member(let inner, _), .not(let inner), .has(let inner), .matches(let inner, _): collectNames(inner, into: &names)
    case .index(let a, let b), .binary(_, let a, let b), .comprehension(_, let a, _, let b):
      collectNames(a, into: &names)
      collectNames(b, into: &names)
    case .list(let items): for item in items { collectNames(item, into: &names) }
    case .map(let keys, let values): for item in keys + values { collectNames(item, into: &names) }
    case .conditional(let a, let b, let c):
      for item in [a, b, c] { collectNames(item, into: &names) }
    case .call(_, let target, let args):
      for item in (target.map { [$0] } ?? []) + args { collectNames(item, into: &names) }
    }
  }

  /// Equality is by value: numbers whatever their form (`1 == 1.0`, as the SDK's
  /// `CELEvaluatorTests.evaluateExpression_passingInDecimal`), lists and maps element by element;
  /// values of different types are not equal.
  static func equal(_ l: FilterValue, _ r: FilterValue) -> Bool {
    switch (l, r) {
    case (.list(let a), .list(let b)): return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
    case (.map(let a), .map(let b)):
      return a.count == b.count && a.allSatisfy { key, value in b[key].map { equal(value, $0) } ?? false }
    default: return l == r
    }
  }
}
