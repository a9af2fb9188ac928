import Foundation

/// A value an audience filter works with: what `user.*`, `params.*` and `device.*` hold, and
/// the literals a filter writes.
public enum FilterValue: Sendable, Hashable, CustomStringConvertible {
  case null
  case bool(Bool)
  case number(Decimal)
  case string(String)
  case list([FilterValue])

  /// A value typed on the command line or in a script (`--user age=13`): `true`/`false`, a
  /// number, `null`, or else the text itself.
  public init(parsing text: String) {
    switch text {
    case "true": self = .bool(true)
    case "false": self = .bool(false)
    case "null": self = .null
    default:
      if let number = DecimalParsing.parse(text) { self = .number(number) } else { self = .string(text) }
    }
  }

  /// The value as a filter writes it: strings quoted, lists in brackets.
  public var description: String {
    switch self {
    case .null: "null"
    case .bool(let b): b ? "true" : "false"
    case .number(let n): "\(n)"
    case .string(let s): "\"\(s)\""
    case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
    }
  }

  var isTruthy: Bool {
    switch self {
    case .null: false
    case .bool(let b): b
    case .number(let n): n != 0
    case .string(let s): !s.isEmpty
    case .list(let items): !items.isEmpty
    }
  }
}

/// What a filter can read when it is evaluated.
public struct FilterContext: Sendable {
  /// The subscription status (`device.subscriptionStatus`, `device.activeEntitlements`).
  public var status: SubscriptionStatus
  /// Product ids with an active entitlement now.
  public var activeProducts: [String]
  /// The user's attributes (`user.*`); a missing key reads as `null`.
  public var user: [String: FilterValue]
  /// The registration's parameters (`params.*`); a missing key reads as `null`.
  public var params: [String: FilterValue]
  /// When the registration happens: occurrence limits with an interval count back from it.
  public var now: Date = Date(timeIntervalSince1970: 0)
  /// What the tester decided for rules the emulator cannot evaluate: `PLACEMENT#N` → matches.
  public var assumedRules: [String: Bool] = [:]

  /// The context of one registration.
  public init(status: SubscriptionStatus, activeProducts: [String] = [], user: [String: FilterValue] = [:],
              params: [String: FilterValue] = [:]) {
    self.status = status
    self.activeProducts = activeProducts
    self.user = user
    self.params = params
  }

  func value(of name: FilterName) -> FilterValue {
    switch name {
    case .subscriptionStatus: .string(status.rawName)
    case .activeEntitlements: .list(status.entitlements.sorted().map { .string($0.id) })
    case .activeProducts: .list(activeProducts.sorted().map { .string($0) })
    case .user(let key): user[key] ?? .null
    case .params(let key): params[key] ?? .null
    }
  }
}

/// A name a filter may read. Anything else is a validation error with its column.
public enum FilterName: Sendable, Hashable, CustomStringConvertible {
  case subscriptionStatus, activeEntitlements, activeProducts
  case user(String)
  case params(String)

  static let deviceNames = ["device.subscriptionStatus", "device.activeEntitlements", "device.activeProducts"]

  /// The name as a filter writes it (`device.subscriptionStatus`, `user.age`).
  public var description: String {
    switch self {
    case .subscriptionStatus: "device.subscriptionStatus"
    case .activeEntitlements: "device.activeEntitlements"
    case .activeProducts: "device.activeProducts"
    case .user(let key): "user.\(key)"
    case .params(let key): "params.\(key)"
    }
  }
}

/// An audience filter such as `user.should_display == true && user.some_value > 12`: literals
/// (strings, numbers, `true`, `false`, `null`, lists `[…]`), the names above, `==` `!=` `<` `<=`
/// `>` `>=` `&&` `||` `!` `in`, and parentheses. Parsed once when the project loads, so every
/// mistake is reported with its column before anything runs.
public struct AudienceFilter: Sendable, Hashable, CustomStringConvertible {
  indirect enum Node: Sendable, Hashable {
    case literal(FilterValue)
    case name(FilterName)
    case list([Node])
    case not(Node)
    case binary(BinaryOperator, Node, Node)
  }

  enum BinaryOperator: String, Sendable, Hashable {
    case and = "&&", or = "||", equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case isIn = "in"
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
  /// What `validate` should warn about (device keys the emulator cannot give).
  public var warnings: [Warning] = []

  /// The filter as written.
  public var description: String { text }

  /// Parses and checks `text`; throws the first syntax error or unknown name, with its offset.
  public init(parsing text: String) throws(ParseError) {
    var parser = FilterParser(text)
    root = try parser.parseAll()
    self.text = text
  }

  /// Whether the filter matches `context` (a non-boolean result counts when truthy: non-zero, non-empty, not null).
  public func evaluate(_ context: FilterContext) -> Bool {
    Self.evaluate(root, context).isTruthy
  }

  /// The names the filter reads with their values in `context`: the "because" of `explain`.
  public func explain(_ context: FilterContext) -> [String] {
    var seen: [FilterName] = []
    Self.collectNames(root, into: &seen)
    return seen.map { "\($0) is \(context.value(of: $0))" }
  }

  private static func collectNames(_ node: Node, into names: inout [FilterName]) {
    switch node {
    case .literal: break
    case .name(let name): if !names.contains(name) { names.append(name) }
    case .list(let items): for item in items { collectNames(item, into: &names) }
    case .not(let inner): collectNames(inner, into: &names)
    case .binary(_, let l, let r):
      collectNames(l, into: &names)
      collectNames(r, into: &names)
    }
  }

  private static func evaluate(_ node: Node, _ context: FilterContext) -> FilterValue {
    switch node {
    case .literal(let value): return value
    case .name(let name): return context.value(of: name)
    case .list(let items): return .list(items.map { evaluate($0, context) })
    case .not(let inner): return .bool(!evaluate(inner, context).isTruthy)
    case .binary(.and, let l, let r): return .bool(evaluate(l, context).isTruthy && evaluate(r, context).isTruthy)
    case .binary(.or, let l, let r): return .bool(evaluate(l, context).isTruthy || evaluate(r, context).isTruthy)
    case .binary(let op, let l, let r): return .bool(compare(op, evaluate(l, context), evaluate(r, context)))
    }
  }

  /// Equality is by value, with numbers also equal to the same number written as a string (an
  /// attribute typed `--user age=13` matches `"13"`); order compares numbers with numbers and
  /// strings with strings, anything else is false, as is every comparison with null but `==`/`!=`.
  static func compare(_ op: BinaryOperator, _ l: FilterValue, _ r: FilterValue) -> Bool {
    switch op {
    case .equal: return equal(l, r)
    case .notEqual: return !equal(l, r)
    case .isIn:
      if case .list(let items) = r { return items.contains { equal(l, $0) } }
      if case .string(let haystack) = r, case .string(let needle) = l { return haystack.contains(needle) }
      return false
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      let ordered: ComparisonResult?
      switch (number(l), number(r)) {
      case (let a?, let b?): ordered = a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
      default:
        if case .string(let a) = l, case .string(let b) = r {
          ordered = a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        } else {
          ordered = nil
        }
      }
      guard let ordered else { return false }
      switch op {
      case .less: return ordered == .orderedAscending
      case .lessOrEqual: return ordered != .orderedDescending
      case .greater: return ordered == .orderedDescending
      default: return ordered != .orderedAscending
      }
    case .and, .or:
      return false
    }
  }

  private static func number(_ value: FilterValue) -> Decimal? {
    switch value {
    case .number(let n): n
    case .string(let s): DecimalParsing.parse(s)
    default: nil
    }
  }

  private static func equal(_ l: FilterValue, _ r: FilterValue) -> Bool {
    if l == r { return true }
    switch (l, r) {
    case (.number, .string), (.string, .number):
      if let a = number(l), let b = number(r) { return a == b }
      return false
    default:
      return false
    }
  }
}

/// Recursive descent over the filter's characters: `or` < `and` < comparison < unary < primary.
struct FilterParser {
  private let chars: [Character]
  private var index = 0

  init(_ text: String) {
    chars = Array(text)
  }

  mutating func parseAll() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    skipSpace()
    guard index < chars.count else { throw fail("the filter is empty; write an expression such as device.subscriptionStatus == \"INACTIVE\"") }
    let node = try parseOr()
    skipSpace()
    if index < chars.count {
      throw fail("unexpected '\(chars[index])'; expected an operator (== != < <= > >= && || in) or the end")
    }
    return node
  }

  private func fail(_ message: String, at offset: Int? = nil) -> AudienceFilter.ParseError {
    AudienceFilter.ParseError(offset: offset ?? index, message: message)
  }

  private mutating func skipSpace() {
    while index < chars.count, chars[index].isWhitespace { index += 1 }
  }

  private mutating func take(_ token: String) -> Bool {
    skipSpace()
    let t = Array(token)
    guard index + t.count <= chars.count, Array(chars[index..<index + t.count]) == t else { return false }
    // A word operator must not run into a name: `in` is not the start of `index`.
    if token.first!.isLetter, index + t.count < chars.count, isNameCharacter(chars[index + t.count]) { return false }
    index += t.count
    return true
  }

  private mutating func parseOr() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    var node = try parseAnd()
    while take("||") || take("or") { node = .binary(.or, node, try parseAnd()) }
    return node
  }

  private mutating func parseAnd() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    var node = try parseComparison()
    while take("&&") || take("and") { node = .binary(.and, node, try parseComparison()) }
    return node
  }

  private mutating func parseComparison() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    let left = try parseUnary()
    let operators: [AudienceFilter.BinaryOperator] = [.equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater, .isIn]
    for op in operators where take(op.rawValue) {
      let right = try parseUnary()
      skipSpace()
      let save = index
      for other in operators where take(other.rawValue) {
        throw fail("comparisons cannot be chained (\(quoting: op.rawValue) then \(quoting: other.rawValue)); join them with && or ||", at: save)
      }
      return .binary(op, left, right)
    }
    return left
  }

  private mutating func parseUnary() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    skipSpace()
    if index < chars.count, chars[index] == "!", index + 1 >= chars.count || chars[index + 1] != "=" {
      index += 1
      return .not(try parseUnary())
    }
    if take("not") { return .not(try parseUnary()) }
    return try parsePrimary()
  }

  private mutating func parsePrimary() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    skipSpace()
    guard index < chars.count else { throw fail("the filter ends where a value was expected") }
    let start = index
    let c = chars[index]
    if c == "(" {
      index += 1
      let inner = try parseOr()
      skipSpace()
      guard index < chars.count, chars[index] == ")" else { throw fail("missing ')' for the '(' at column \(start + 1)") }
      index += 1
      return inner
    }
    if c == "[" {
      index += 1
      var items: [AudienceFilter.Node] = []
      skipSpace()
      if index < chars.count, chars[index] == "]" {
        index += 1
        return .list(items)
      }
      while true {
        items.append(try parseOr())
        skipSpace()
        guard index < chars.count else { throw fail("missing ']' for the '[' at column \(start + 1)") }
        if chars[index] == "," { index += 1; continue }
        if chars[index] == "]" { index += 1; return .list(items) }
        throw fail("expected ',' or ']' in the list")
      }
    }
    if c == "\"" || c == "'" {
      index += 1
      var text = ""
      while index < chars.count, chars[index] != c {
        if chars[index] == "\\", index + 1 < chars.count { index += 1 }
        text.append(chars[index])
        index += 1
      }
      guard index < chars.count else { throw fail("unterminated string; close it with \(c)", at: start) }
      index += 1
      return .literal(.string(text))
    }
    if c.isNumber || (c == "-" && index + 1 < chars.count && chars[index + 1].isNumber) {
      index += 1
      while index < chars.count, chars[index].isNumber || chars[index] == "." { index += 1 }
      let text = characters(in: start..<index)
      guard let number = DecimalParsing.parse(text) else { throw fail("\(quoting: text) is not a number", at: start) }
      return .literal(.number(number))
    }
    guard isNameCharacter(c) else {
      throw fail("unexpected '\(c)'; expected a value (a name such as user.age, a string, a number, true, false, null) or '('")
    }
    while index < chars.count, isNameCharacter(chars[index]) || chars[index] == "." { index += 1 }
    let word = characters(in: start..<index)
    switch word {
    case "true": return .literal(.bool(true))
    case "false": return .literal(.bool(false))
    case "null", "nil": return .literal(.null)
    default: return .name(try name(word, at: start))
    }
  }

  private func name(_ word: String, at offset: Int) throws(AudienceFilter.ParseError) -> FilterName {
    switch word {
    case "device.subscriptionStatus": return .subscriptionStatus
    case "device.activeEntitlements": return .activeEntitlements
    case "device.activeProducts": return .activeProducts
    default: break
    }
    let parts = word.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    if parts.count == 2, !parts[1].isEmpty, !parts[1].hasSuffix(".") {
      if parts[0] == "user" { return .user(String(parts[1])) }
      if parts[0] == "params" { return .params(String(parts[1])) }
    }
    let known = FilterName.deviceNames + ["user.NAME", "params.NAME"]
    let hint = Suggestions.closest(to: word, in: FilterName.deviceNames + ["user", "params"])
      .map { "; did you mean \(quoting: $0)?" } ?? ""
    throw fail("unknown name \(quoting: word)\(hint) (a filter reads \(known.joined(separator: ", ")))", at: offset)
  }

  /// The characters in `range` as a string (String's init from a slice of characters is generic
  /// and unspecialized: runtime type lookups for a few characters).
  private func characters(in range: Range<Int>) -> String {
    var text = ""
    for c in chars[range] { text.append(c) }
    return text
  }

  private func isNameCharacter(_ c: Character) -> Bool {
    c.isLetter || c.isNumber || c == "_" || c == "$"
  }
}
