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

/// The evaluation of a filter, as Superscript runs CEL: a value, a key that is not there, or an
/// error (a type mismatch, an ordering with null…), which makes the whole filter not match.
struct FilterEvaluator {
  enum Result {
    case value(FilterValue)
    case missing
    case failure
  }

  let context: FilterContext
  var variables: [String: FilterValue] = [:]
  /// Comprehension steps left: a filter's work is bounded whatever lists it walks.
  var budget = 100_000
  /// What the whole registration may still do (`EvaluationBudget`), with this filter's share spent.
  var registration: EvaluationBudget

  init(context: FilterContext, budget: EvaluationBudget) {
    self.context = context
    registration = budget
  }

  mutating func evaluate(_ node: AudienceFilter.Node) -> Result {
    budget -= 1
    guard budget > 0, registration.spend() else { return .failure }
    switch node {
    case .literal(let value): return .value(value)
    case .name(let name): return context.value(of: name).map { .value($0.normalized) } ?? .missing
    case .variable(let name): return variables[name].map { .value($0) } ?? .failure
    case .unavailable: return .missing
    case .member(let inner, let key):
      switch evaluate(inner) {
      case .value(.map(let members)): return members[key].map { .value($0) } ?? .missing
      case .value: return .failure
      case .missing: return .missing
      case .failure: return .failure
      }
    case .index(let inner, let indexNode):
      let container = evaluate(inner)
      guard case .value(let index) = value(of: evaluate(indexNode)) else { return .failure }
      switch (container, index) {
      case (.value(.map(let members)), .string(let key)): return members[key].map { .value($0) } ?? .missing
      case (.value(.list(let items)), .number(let n)):
        guard let i = Int(n.description), items.indices.contains(i) else { return .failure }
        return .value(items[i])
      case (.missing, _): return .missing
      default: return .failure
      }
    case .list(let items):
      var values: [FilterValue] = []
      for item in items {
        guard case .value(let v) = value(of: evaluate(item)) else { return .failure }
        values.append(v)
      }
      return .value(.list(values))
    case .map(let keys, let values):
      var members: [String: FilterValue] = [:]
      for (k, v) in zip(keys, values) {
        guard case .value(let key) = value(of: evaluate(k)), case .value(let value) = value(of: evaluate(v)) else { return .failure }
        guard let name = Self.keyText(key) else { return .failure }
        members[name] = value
      }
      return .value(.map(members))
    case .not(let inner):
      guard case .value(let v) = value(of: evaluate(inner)) else { return .failure }
      return .value(.bool(!v.isTruthy))
    case .binary(.and, let l, let r):
      guard case .value(let left) = value(of: evaluate(l)) else { return .failure }
      if !left.isTruthy { return .value(.bool(false)) }
      guard case .value(let right) = value(of: evaluate(r)) else { return .failure }
      return .value(.bool(right.isTruthy))
    case .binary(.or, let l, let r):
      guard case .value(let left) = value(of: evaluate(l)) else { return .failure }
      if left.isTruthy { return .value(.bool(true)) }
      guard case .value(let right) = value(of: evaluate(r)) else { return .failure }
      return .value(.bool(right.isTruthy))
    case .binary(let op, let l, let r):
      return relation(op, l, r)
    case .conditional(let condition, let yes, let no):
      guard case .value(let c) = value(of: evaluate(condition)) else { return .failure }
      return evaluate(c.isTruthy ? yes : no)
    case .has(let inner):
      switch evaluate(inner) {
      case .value: return .value(.bool(true))
      case .missing: return .value(.bool(false))
      case .failure: return .failure
      }
    case .matches(let subject, let regex):
      guard case .value(.string(let text)) = value(of: evaluate(subject)) else { return .failure }
      return registration.match(regex, in: text).map { .value(.bool($0)) } ?? .failure
    case .call(let function, let target, let args):
      var values: [FilterValue] = []
      for node in (target.map { [$0] } ?? []) + args {
        guard case .value(let v) = value(of: evaluate(node)) else { return .failure }
        values.append(v)
      }
      if function == .matches {
        // A pattern read from the context: compiled here, its length spent first. One Rust's
        // regex refuses is an error, so the filter does not match (as on a device).
        guard values.count == 2, case .string(let text) = values[0], case .string(let pattern) = values[1],
              registration.spend(pattern.unicodeScalars.count), let regex = try? AudienceRegex(pattern) else { return .failure }
        return registration.match(regex, in: text).map { .value(.bool($0)) } ?? .failure
      }
      return Self.call(function, values)
    case .comprehension(let kind, let listNode, let variable, let predicate):
      guard case .value(let container) = value(of: evaluate(listNode)) else { return .failure }
      let items: [FilterValue]
      switch container {
      case .list(let list): items = list
      case .map(let members): items = members.keys.sorted().map { .string($0) }
      default: return .failure
      }
      let saved = variables[variable]
      defer { variables[variable] = saved }
      var count = 0
      for item in items {
        variables[variable] = item
        guard case .value(let result) = value(of: evaluate(predicate)) else { return .failure }
        let holds = result == .bool(true)
        if holds { count += 1 }
        if kind == .all && !holds { return .value(.bool(false)) }
        if kind == .exists && holds { return .value(.bool(true)) }
      }
      switch kind {
      case .all: return .value(.bool(true))
      case .exists: return .value(.bool(false))
      case .exists_one: return .value(.bool(count == 1))
      }
    }
  }

  /// Superscript's property null-safety (`has(x) ? x : null`): a key that is not there reads as null.
  private func value(of result: Result) -> Result {
    if case .missing = result { return .value(.null) }
    return result
  }

  /// A relation as Superscript rewrites it (`interpretation-flow.md`, "Missing Values in
  /// Relations"): a missing property on the left makes the relation false whatever the operator,
  /// unless it is compared with the literal `null`, which asks whether it is there.
  private mutating func relation(_ op: AudienceFilter.BinaryOperator, _ l: AudienceFilter.Node,
                                 _ r: AudienceFilter.Node) -> Result {
    let comparesWithNull = r == .literal(.null) || l == .literal(.null)
    var left = evaluate(l)
    if case .missing = left {
      if !comparesWithNull && l.isAccess { return .value(.bool(false)) }
      left = .value(.null)
    }
    guard case .value(let a) = left, case .value(let b) = value(of: evaluate(r)) else { return .failure }
    switch op {
    case .equal: return .value(.bool(AudienceFilter.equal(a, b)))
    case .notEqual: return .value(.bool(!AudienceFilter.equal(a, b)))
    case .isIn:
      switch b {
      case .list(let items): return .value(.bool(items.contains { AudienceFilter.equal(a, $0) }))
      case .map(let members):
        guard let key = Self.keyText(a) else { return .failure }
        return .value(.bool(members[key] != nil))
      case .string(let haystack):
        guard case .string(let needle) = a else { return .failure }
        return .value(.bool(haystack.contains(needle)))
      default: return .failure
      }
    default:
      let order: ComparisonResult
      switch (a, b) {
      case (.number(let x), .number(let y)): order = x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
      case (.string(let x), .string(let y)): order = x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
      case (.bool(let x), .bool(let y)): order = x == y ? .orderedSame : (!x ? .orderedAscending : .orderedDescending)
      // Null and mixed types cannot be ordered: CEL's "no such overload", an error.
      default: return .failure
      }
      switch op {
      case .less: return .value(.bool(order == .orderedAscending))
      case .lessOrEqual: return .value(.bool(order != .orderedDescending))
      case .greater: return .value(.bool(order == .orderedDescending))
      default: return .value(.bool(order != .orderedAscending))
      }
    }
  }

  /// A map key: strings, and numbers and booleans as CEL keys them.
  private static func keyText(_ value: FilterValue) -> String? {
    switch value {
    case .string(let s): s
    case .number(let n): "\(n)"
    case .bool(let b): b ? "true" : "false"
    default: nil
    }
  }

  /// CEL's functions and Superscript's conversions (`toString`, `toInt`, `toFloat`, `toBool`)
  /// over evaluated arguments (the receiver first); a wrong type is an error.
  static func call(_ function: AudienceFilter.Function, _ args: [FilterValue]) -> Result {
    switch (function, args.count) {
    case (.size, 1):
      switch args[0] {
      case .string(let s): return .value(.number(Decimal(s.unicodeScalars.count)))
      case .list(let items): return .value(.number(Decimal(items.count)))
      case .map(let members): return .value(.number(Decimal(members.count)))
      default: return .failure
      }
    case (.contains, 2):
      switch (args[0], args[1]) {
      case (.string(let s), .string(let t)): return .value(.bool(s.contains(t)))
      case (.list(let items), let item): return .value(.bool(items.contains { AudienceFilter.equal($0, item) }))
      case (.map(let members), .string(let key)): return .value(.bool(members[key] != nil))
      default: return .failure
      }
    case (.startsWith, 2), (.endsWith, 2):
      guard case .string(let s) = args[0], case .string(let t) = args[1] else { return .failure }
      if function == .startsWith { return .value(.bool(s.hasPrefix(t))) }
      return .value(.bool(s.hasSuffix(t)))
    case (.string, 1), (.toString, 1):
      switch args[0] {
      case .string: return .value(args[0])
      case .number(let n): return .value(.string("\(n)"))
      case .bool(let b): return .value(.string(b ? "true" : "false"))
      default: return .failure
      }
    case (.int, 1), (.uint, 1), (.toInt, 1):
      guard case .number(let n) = args[0].normalized else { return .failure }
      let truncated = n.rounded(0, n < 0 ? .up : .down)
      if function == .uint && truncated < 0 { return .failure }
      return .value(.number(truncated))
    case (.double, 1), (.toFloat, 1):
      guard case .number = args[0].normalized else { return .failure }
      return .value(args[0].normalized)
    case (.bool, 1), (.toBool, 1):
      guard case .bool = args[0].normalized else { return .failure }
      return .value(args[0].normalized)
    default:
      return .failure
    }
  }
}
