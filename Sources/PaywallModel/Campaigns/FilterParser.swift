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

/// Recursive descent over the filter's characters: `?:` < `||` < `&&` < relation < unary <
/// member access and calls < primary.
struct FilterParser {
  let chars: [Character]
  var index = 0
  /// Comprehension variables in scope.
  var scope: [String] = []
  /// How deep the parser is: a filter nested deeper is refused, not a stack overflow.
  var depth = 0
  var warnings: [AudienceFilter.Warning] = []
  /// Where each argument of the last call read begins.
  var argumentOffsets: [Int] = []

  init(_ text: String) {
    chars = Array(text)
  }

  mutating func parseAll() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    skipSpace()
    guard index < chars.count else { throw fail("the filter is empty; write an expression such as device.subscriptionStatus == \"INACTIVE\"") }
    let node = try parseConditional()
    skipSpace()
    if index < chars.count {
      throw fail("unexpected '\(chars[index])'; expected an operator (== != < <= > >= && || in ?) or the end")
    }
    return node
  }

  func fail(_ message: String, at offset: Int? = nil) -> AudienceFilter.ParseError {
    AudienceFilter.ParseError(offset: offset ?? index, message: message)
  }

  mutating func skipSpace() {
    while index < chars.count, Self.isSpace(chars[index]) { index += 1 }
  }

  /// `isWhitespace`, answered for ASCII without Unicode's tables (filters are nearly all ASCII).
  static func isSpace(_ c: Character) -> Bool {
    if let ascii = c.asciiValue { return ascii == 0x20 || (ascii >= 0x09 && ascii <= 0x0D) }
    return c.isWhitespace
  }

  mutating func peek(_ c: Character) -> Bool {
    skipSpace()
    return index < chars.count && chars[index] == c
  }

  mutating func take(_ token: String) -> Bool {
    skipSpace()
    // Tokens are ASCII: compared a byte a character, with nothing allocated.
    let count = token.utf8.count
    guard index + count <= chars.count else { return false }
    var k = index
    for byte in token.utf8 {
      guard chars[k].asciiValue == byte else { return false }
      k += 1
    }
    // A word operator must not run into a name: `in` is not the start of `index`.
    if token.first!.isLetter, index + count < chars.count, isNameCharacter(chars[index + count]) { return false }
    index += count
    return true
  }

  mutating func nested<T>(_ body: (inout FilterParser) throws(AudienceFilter.ParseError) -> T) throws(AudienceFilter.ParseError) -> T {
    depth += 1
    defer { depth -= 1 }
    guard depth <= 64 else { throw fail("the filter nests deeper than 64 levels; simplify it") }
    return try body(&self)
  }

  mutating func parseConditional() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    try nested { (p: inout FilterParser) throws(AudienceFilter.ParseError) in
      let condition = try p.parseOr()
      guard p.take("?") else { return condition }
      let yes = try p.parseOr()
      guard p.take(":") else { throw p.fail("expected ':' in 'condition ? a : b'") }
      return .conditional(condition, yes, try p.parseConditional())
    }
  }

  mutating func parseOr() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    var node = try parseAnd()
    while take("||") || take("or") { node = .binary(.or, node, try parseAnd()) }
    return node
  }

  mutating func parseAnd() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    var node = try parseComparison()
    while take("&&") || take("and") { node = .binary(.and, node, try parseComparison()) }
    return node
  }

  mutating func parseComparison() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    let left = try parseUnary()
    let operators: [AudienceFilter.BinaryOperator] = [.equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater, .isIn]
    for op in operators where take(op.rawValue) {
      let right = try parseUnary()
      skipSpace()
      let save = index
      for other in operators where take(other.rawValue) {
        throw fail("comparisons cannot be chained (\(quoting: op.rawValue) then \(quoting: other.rawValue)); join them with && or ||", at: save)
      }
      // Superscript normalizes a relation's literals as it does values (`normalize_ast_variables`):
      // `> "3.0"` compares with the number 3.0, `== "true"` with the boolean.
      return .binary(op, Self.normalizingLiteral(left), Self.normalizingLiteral(right))
    }
    return left
  }

  static func normalizingLiteral(_ node: AudienceFilter.Node) -> AudienceFilter.Node {
    if case .literal(let value) = node { return .literal(value.normalized) }
    return node
  }

  mutating func parseUnary() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    try nested { (p: inout FilterParser) throws(AudienceFilter.ParseError) in
      p.skipSpace()
      if p.index < p.chars.count, p.chars[p.index] == "!", p.index + 1 >= p.chars.count || p.chars[p.index + 1] != "=" {
        p.index += 1
        return .not(try p.parseUnary())
      }
      if p.take("not") { return .not(try p.parseUnary()) }
      return try p.parsePostfix()
    }
  }

  /// A primary followed by `.member`, `.method(args)` and `[index]`.
  mutating func parsePostfix() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    var node = try parsePrimary()
    while true {
      skipSpace()
      guard index < chars.count else { return node }
      if chars[index] == "[" {
        index += 1
        let key = try parseConditional()
        guard take("]") else { throw fail("missing ']' after the index") }
        node = .index(node, key)
        continue
      }
      guard chars[index] == ".", index + 1 < chars.count, isNameStart(chars[index + 1]) else { return node }
      index += 1
      let start = index
      let word = readWord()
      if peek("(") {
        node = try call(word, target: node, at: start)
      } else {
        node = .member(node, word)
      }
    }
  }

  mutating func readWord() -> String {
    let start = index
    while index < chars.count, isNameCharacter(chars[index]) { index += 1 }
    return characters(in: start..<index)
  }

  /// The arguments of a call whose name was read, from its `(`.
  mutating func arguments() throws(AudienceFilter.ParseError) -> [AudienceFilter.Node] {
    let open = index
    guard take("(") else { throw fail("expected '('") }
    var args: [AudienceFilter.Node] = []
    var offsets: [Int] = []
    defer { argumentOffsets = offsets }
    if take(")") { return args }
    while true {
      skipSpace()
      offsets.append(index)
      args.append(try parseConditional())
      if take(",") { continue }
      if take(")") { return args }
      throw fail(index < chars.count ? "expected ',' or ')' in the call" : "missing ')' for the '(' at column \(open + 1)")
    }
  }

  /// Functions Superscript's CEL has but the emulator does not compute: they read as missing, with a warning.
  static let unavailableFunctions: Set<String> = ["duration", "timestamp", "maybe", "hasFn", "max", "min", "map", "filter",
                                                  "getDate", "getDayOfMonth", "getDayOfWeek", "getDayOfYear", "getFullYear",
                                                  "getHours", "getMinutes", "getMonth", "getSeconds", "getMilliseconds"]

  /// The SDKs' host functions on `device` and `computed`: iOS's (`Config/Models/ComputedPropertyRequest.swift`
  /// `ComputedPropertyRequestType`, answered by `Expression Evaluator/EvaluationContext.swift`) and
  /// Superwall-Android's (`rule_logic/cel/SuperscriptExposedFunction.kt` `Names`), which differ:
  /// `AudienceFilter.functionsMissing(in:)` says which the project's SDK lacks.
  static let hostFunctions = ["minutesSince", "hoursSince", "daysSince", "monthsSince", "yearsSince"] + placementFunctions
    + androidReviewFunctions
  /// Superwall-Android's review-request counts, from 2.5.3; iOS 4.16.3 has none of them.
  static let androidReviewFunctions = ["reviewRequestsInHour", "reviewRequestsInDay", "reviewRequestsInWeek", "reviewRequestsInMonth",
                                       "reviewRequestsInYear", "reviewRequestsSinceInstall", "requestReview"]
  /// The placement counts, which Superwall-Android exposes from 2.3.2 (before it, its evaluator
  /// is given the four `…Since` functions alone: `SuperscriptEvaluator.kt` at 2.3.1).
  static let placementFunctions = ["placementsInHour", "placementsInDay", "placementsInWeek", "placementsInMonth", "placementsSinceInstall"]

  mutating func call(_ name: String, target: AudienceFilter.Node?, at start: Int) throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    if let comprehension = AudienceFilter.Comprehension(rawValue: name), let target {
      guard take("(") else { throw fail("expected '('") }
      skipSpace()
      let variableStart = index
      let variable = readWord()
      guard !variable.isEmpty, take(",") else {
        throw fail("\(name)() takes a variable name and a condition: \(name)(x, x > 1)", at: variableStart)
      }
      scope.append(variable)
      defer { scope.removeLast() }
      let predicate = try parseConditional()
      guard take(")") else { throw fail("missing ')' after \(name)()'s condition") }
      return .comprehension(comprehension, target, variable: variable, predicate)
    }
    if name == "has", target == nil {
      let args = try arguments()
      guard args.count == 1, args[0].isAccess else {
        throw fail("has() takes one property, such as has(user.plan)", at: start)
      }
      return .has(args[0])
    }
    if Self.unavailableFunctions.contains(name) {
      _ = try arguments()
      warnings.append(.init(offset: start, message: "\(name)() is not emulated: it reads as a missing value here (the relation does not match)"))
      return .unavailable(name)
    }
    guard let function = AudienceFilter.Function(rawValue: name) else {
      let known = AudienceFilter.Function.allCases.map(\.rawValue) + AudienceFilter.Comprehension.allCases.map(\.rawValue) + ["has"]
      let hint = Suggestions.closest(to: name, in: known).map { "; did you mean \(quoting: $0)?" } ?? ""
      throw fail("unknown function \(quoting: name)\(hint) (the SDK's CEL has \(known.joined(separator: ", ")))", at: start)
    }
    let args = try arguments()
    // Counted without the receiver: `size(x)` or `x.size()`, `x.contains(y)` or `contains(x, y)`.
    let arity: Int = switch function {
    case .contains, .startsWith, .endsWith, .matches: target == nil ? 2 : 1
    default: target == nil ? 1 : 0
    }
    guard args.count == arity else {
      throw fail("\(name)() takes \(arity) argument\(arity == 1 ? "" : "s")\(target == nil ? "" : " after its receiver"), not \(args.count)", at: start)
    }
    if function == .matches, case .literal(.string(let pattern)) = args[args.count - 1] {
      // Compiled now: what Rust's regex refuses is an error of the filter, at the pattern.
      let at = argumentOffsets.last ?? start
      do {
        return .matches(target ?? args[0], try AudienceRegex(pattern))
      } catch {
        throw fail("matches(): \(error.message)", at: at)
      }
    }
    return .call(function, target: target, args)
  }

}
