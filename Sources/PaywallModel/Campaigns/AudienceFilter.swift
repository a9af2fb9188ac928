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

/// A value an audience filter works with: what `user.*`, `params.*` and `device.*` hold, and
/// the literals a filter writes.
public enum FilterValue: Sendable, Hashable, CustomStringConvertible {
  case null
  case bool(Bool)
  case number(Decimal)
  case string(String)
  case list([FilterValue])
  /// A map (`{"a": 1}`, or a nested user attribute); keys are strings.
  case map([String: FilterValue])

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
    case .map(let members):
      "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
    }
  }

  /// As Superscript normalizes every value before CEL sees it (superwall/superscript
  /// `interpretation-flow.md`, "Variable Normalization"): "true"/"false" become booleans and
  /// numeric strings numbers, inside lists and maps too.
  var normalized: FilterValue {
    switch self {
    case .string(let text):
      switch text {
      case "true": return .bool(true)
      case "false": return .bool(false)
      default: return DecimalParsing.parse(text).map { .number($0) } ?? self
      }
    case .list(let items): return .list(items.map(\.normalized))
    case .map(let members): return .map(members.mapValues(\.normalized))
    default: return self
    }
  }

  var isTruthy: Bool {
    switch self {
    case .null: false
    case .bool(let b): b
    case .number(let n): n != 0
    case .string(let s): !s.isEmpty
    case .list(let items): !items.isEmpty
    case .map(let members): !members.isEmpty
    }
  }
}

/// What a filter can read when it is evaluated.
public struct FilterContext: Sendable {
  /// The subscription status (`device.subscriptionStatus`, `device.activeEntitlements`).
  public var status: SubscriptionStatus
  /// Product ids with an active entitlement now.
  public var activeProducts: [String]
  /// The user's attributes (`user.*`); a missing key is missing, as in CEL (see `AudienceFilter.evaluate`).
  public var user: [String: FilterValue]
  /// The registration's parameters (`params.*`); a missing key is missing, as in CEL.
  public var params: [String: FilterValue]
  /// When the registration happens: occurrence limits with an interval count back from it.
  public var now: Date = Date(timeIntervalSince1970: 0)
  /// What the tester decided for rules the emulator cannot evaluate: `PLACEMENT#N` → matches.
  public var assumedRules: [String: Bool] = [:]
  /// Raised when the evaluation should give up (the app has a `q` or a signal waiting); nil: never.
  public var interrupt: EvaluationInterrupt?

  /// The context of one registration.
  public init(status: SubscriptionStatus, activeProducts: [String] = [], user: [String: FilterValue] = [:],
              params: [String: FilterValue] = [:]) {
    self.status = status
    self.activeProducts = activeProducts
    self.user = user
    self.params = params
  }

  /// What `name` holds here; nil when the key is missing (which CEL tells apart from null).
  func value(of name: FilterName) -> FilterValue? {
    switch name {
    case .subscriptionStatus: .string(status.rawName)
    case .activeEntitlements: .list(status.entitlements.sorted().map { .string($0.id) })
    case .activeProducts: .list(activeProducts.sorted().map { .string($0) })
    case .device(let key): FilterName.emulatedDevice[key]
    case .user(let key): user[key]
    case .params(let key): params[key]
    }
  }
}
/// A name a filter reads: a key of `user`, `params` or `device`. Anything else at the top of a
/// filter is a validation error with its column.
public enum FilterName: Sendable, Hashable, CustomStringConvertible {
  case subscriptionStatus, activeEntitlements, activeProducts
  /// Another key of the SDK's `device` map (`Network/Device Helper/DeviceHelper.swift`
  /// `getTemplateDevice`): `platform` and `isMac` are given, the rest read as missing.
  case device(String)
  case user(String)
  case params(String)

  static let deviceNames = ["device.subscriptionStatus", "device.activeEntitlements", "device.activeProducts"]

  /// The `device` keys the emulator gives besides the status ones, with their values on an iPhone.
  static let emulatedDevice: [String: FilterValue] = ["platform": .string("iOS"), "isMac": .bool(false)]

  /// Every key of the SDK 4.16.3 `device` map (`DeviceTemplate.swift`, plus the storefront and
  /// `appTransactionId` keys `getTemplateDevice` adds): a filter may read any, with a warning
  /// for those the emulator cannot give.
  static let sdkDeviceKeys: [String] = [
    "publicApiKey", "platform", "appUserId", "aliases", "vendorId", "appVersion", "appVersionPadded", "osVersion",
    "deviceModel", "deviceLocale", "preferredLocale", "deviceLanguageCode", "preferredLanguageCode", "regionCode",
    "preferredRegionCode", "deviceCurrencyCode", "deviceCurrencySymbol", "interfaceType", "timezoneOffset", "radioType",
    "interfaceStyle", "fontSize", "fontScale", "preferredContentSizeCategory", "isLowPowerModeEnabled",
    "isApplePayAvailable", "bundleId", "appInstallDate", "isMac", "daysSinceInstall", "minutesSinceInstall",
    "daysSinceLastPaywallView", "minutesSinceLastPaywallView", "totalPaywallViews", "totalReviewRequests", "utcDate",
    "localDate", "utcTime", "localTime", "utcDateTime", "localDateTime", "isSandbox", "activeEntitlements",
    "activeEntitlementObjects", "customerInfo", "activeProducts", "subscriptionStatus", "isFirstAppOpen", "sdkVersion",
    "sdkVersionPadded", "appBuildString", "appBuildStringNumber", "interfaceStyleMode", "capabilities",
    "capabilitiesConfig", "platformWrapper", "platformWrapperVersion", "swiftVersion", "compilerVersion",
    "localResourceIds", "deviceId", "storeFrontCountryCode", "storeFrontId", "storeFrontCurrency", "appTransactionId",
  ]

  /// The name as a filter writes it (`device.subscriptionStatus`, `user.age`).
  public var description: String {
    switch self {
    case .subscriptionStatus: "device.subscriptionStatus"
    case .activeEntitlements: "device.activeEntitlements"
    case .activeProducts: "device.activeProducts"
    case .device(let key): "device.\(key)"
    case .user(let key): "user.\(key)"
    case .params(let key): "params.\(key)"
    }
  }
}

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

  /// Comparisons that can never hold for this project (`validate` warns): `device.subscriptionStatus`
  /// against anything but `ACTIVE`, `INACTIVE`, `UNKNOWN`; an entitlement or product id in
  /// `device.activeEntitlements` / `device.activeProducts` that the catalog does not have. Each
  /// with a did-you-mean, at the literal's first place in the text.
  public func impossibleComparisons(entitlements: Set<String>, products: Set<String>) -> [Warning] {
    var found: [Warning] = []
    func check(_ value: FilterValue, against name: FilterName) {
      guard case .string(let literal) = value else { return }
      let (allowed, what): ([String], String)
      switch name {
      case .subscriptionStatus: (allowed, what) = (["ACTIVE", "INACTIVE", "UNKNOWN"], "a subscription status")
      case .activeEntitlements: (allowed, what) = (entitlements.sorted(), "an entitlement of the catalog")
      case .activeProducts: (allowed, what) = (products.sorted(), "a product of the catalog")
      default: return
      }
      guard !allowed.contains(literal) else { return }
      let offset = text.range(of: "\"\(literal)\"").map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? 0
      let never = if case .subscriptionStatus = name { "\(name) is never \(quoting: literal)" } else { "\(quoting: literal) is never in \(name)" }
      found.append(Warning(offset: offset, message: "\(never): it is not \(what)\(Suggestions.hint(for: literal, in: allowed))"
        + " (as written, the comparison gives every user the same answer)"))
    }
    func walk(_ node: Node) {
      switch node {
      case .binary(let op, let left, let right):
        switch (op, left, right) {
        case (.equal, .name(let name), .literal(let value)), (.notEqual, .name(let name), .literal(let value)),
             (.equal, .literal(let value), .name(let name)), (.notEqual, .literal(let value), .name(let name)):
          if case .subscriptionStatus = name { check(value, against: name) }
        case (.isIn, .literal(let value), .name(let name)):
          check(value, against: name)
        default: break
        }
        walk(left)
        walk(right)
      case .not(let inner), .has(let inner), .member(let inner, _), .matches(let inner, _): walk(inner)
      case .index(let a, let b): walk(a); walk(b)
      case .list(let items): items.forEach(walk)
      case .map(let keys, let values): (keys + values).forEach(walk)
      case .conditional(let a, let b, let c): walk(a); walk(b); walk(c)
      case .call(let function, let target, let arguments):
        // `device.activeEntitlements.contains("x")` asks the same as `"x" in …`.
        if function == .contains, case .name(let name)? = target, arguments.count == 1, case .literal(let value) = arguments[0] {
          check(value, against: name)
        }
        if let target { walk(target) }
        arguments.forEach(walk)
      case .comprehension(_, let a, _, let b): walk(a); walk(b)
      case .literal, .name, .variable, .unavailable: break
      }
    }
    walk(root)
    return found
  }

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

/// Recursive descent over the filter's characters: `?:` < `||` < `&&` < relation < unary <
/// member access and calls < primary.
struct FilterParser {
  private let chars: [Character]
  private var index = 0
  /// Comprehension variables in scope.
  private var scope: [String] = []
  /// How deep the parser is: a filter nested deeper is refused, not a stack overflow.
  private var depth = 0
  private(set) var warnings: [AudienceFilter.Warning] = []
  /// Where each argument of the last call read begins.
  private var argumentOffsets: [Int] = []

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

  private func fail(_ message: String, at offset: Int? = nil) -> AudienceFilter.ParseError {
    AudienceFilter.ParseError(offset: offset ?? index, message: message)
  }

  private mutating func skipSpace() {
    while index < chars.count, chars[index].isWhitespace { index += 1 }
  }

  private mutating func peek(_ c: Character) -> Bool {
    skipSpace()
    return index < chars.count && chars[index] == c
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

  private mutating func nested<T>(_ body: (inout FilterParser) throws(AudienceFilter.ParseError) -> T) throws(AudienceFilter.ParseError) -> T {
    depth += 1
    defer { depth -= 1 }
    guard depth <= 64 else { throw fail("the filter nests deeper than 64 levels; simplify it") }
    return try body(&self)
  }

  private mutating func parseConditional() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    try nested { (p: inout FilterParser) throws(AudienceFilter.ParseError) in
      let condition = try p.parseOr()
      guard p.take("?") else { return condition }
      let yes = try p.parseOr()
      guard p.take(":") else { throw p.fail("expected ':' in 'condition ? a : b'") }
      return .conditional(condition, yes, try p.parseConditional())
    }
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
      // Superscript normalizes a relation's literals as it does values (`normalize_ast_variables`):
      // `> "3.0"` compares with the number 3.0, `== "true"` with the boolean.
      return .binary(op, Self.normalizingLiteral(left), Self.normalizingLiteral(right))
    }
    return left
  }

  private static func normalizingLiteral(_ node: AudienceFilter.Node) -> AudienceFilter.Node {
    if case .literal(let value) = node { return .literal(value.normalized) }
    return node
  }

  private mutating func parseUnary() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
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
  private mutating func parsePostfix() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
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

  private mutating func readWord() -> String {
    let start = index
    while index < chars.count, isNameCharacter(chars[index]) { index += 1 }
    return characters(in: start..<index)
  }

  /// The arguments of a call whose name was read, from its `(`.
  private mutating func arguments() throws(AudienceFilter.ParseError) -> [AudienceFilter.Node] {
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

  /// The SDK's host functions on `device` and `computed` (`Config/Models/ComputedPropertyRequest.swift`
  /// `ComputedPropertyRequestType`, answered by `Expression Evaluator/EvaluationContext.swift`).
  static let hostFunctions = ["minutesSince", "hoursSince", "daysSince", "monthsSince", "yearsSince", "placementsInHour",
                              "placementsInDay", "placementsInWeek", "placementsInMonth", "placementsSinceInstall"]

  private mutating func call(_ name: String, target: AudienceFilter.Node?, at start: Int) throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
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

  private mutating func parsePrimary() throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    skipSpace()
    guard index < chars.count else { throw fail("the filter ends where a value was expected") }
    let start = index
    let c = chars[index]
    if c == "(" {
      index += 1
      let inner = try parseConditional()
      skipSpace()
      guard index < chars.count, chars[index] == ")" else { throw fail("missing ')' for the '(' at column \(start + 1)") }
      index += 1
      return inner
    }
    if c == "[" || c == "{" {
      let close: Character = c == "[" ? "]" : "}"
      index += 1
      var keys: [AudienceFilter.Node] = []
      var items: [AudienceFilter.Node] = []
      if take(String(close)) { return c == "[" ? .list(items) : .map([], []) }
      while true {
        if c == "{" {
          keys.append(try parseConditional())
          guard take(":") else { throw fail("expected ':' after the map's key") }
        }
        items.append(try parseConditional())
        skipSpace()
        guard index < chars.count else { throw fail("missing '\(close)' for the '\(c)' at column \(start + 1)") }
        if chars[index] == "," { index += 1; continue }
        if chars[index] == close { index += 1; return c == "[" ? .list(items) : .map(keys, items) }
        throw fail("expected ',' or '\(close)' in the \(c == "[" ? "list" : "map")")
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
      // CEL's unsigned suffix: 1u.
      let text = characters(in: start..<index)
      if index < chars.count, chars[index] == "u" || chars[index] == "U" { index += 1 }
      guard let number = DecimalParsing.parse(text) else { throw fail("\(quoting: text) is not a number", at: start) }
      return .literal(.number(number))
    }
    guard isNameStart(c) else {
      throw fail("unexpected '\(c)'; expected a value (a name such as user.age, a string, a number, true, false, null) or '('")
    }
    let word = readWord()
    switch word {
    case "true": return .literal(.bool(true))
    case "false": return .literal(.bool(false))
    case "null", "nil": return .literal(.null)
    default: break
    }
    if peek("(") { return try call(word, target: nil, at: start) }
    if scope.contains(word) { return .variable(word) }
    let roots = ["user", "params", "device", "computed"]
    let dotted = index + 1 < chars.count && chars[index] == "." && isNameStart(chars[index + 1])
    if roots.contains(word), !dotted {
      if word == "user" || word == "params", peek("[") { return try indexedRoot(word, at: start) }
      throw fail("unknown name \(quoting: characters(in: start..<min(index + 1, chars.count))) (a filter reads \(Self.namesRead))", at: start)
    }
    guard roots.contains(word) else {
      var end = index
      while end < chars.count, isNameCharacter(chars[end]) || chars[end] == "." { end += 1 }
      let full = characters(in: start..<end)
      let hint = Suggestions.closest(to: full, in: FilterName.deviceNames + ["user", "params", "device"])
        .map { "; did you mean \(quoting: $0)?" } ?? ""
      throw fail("unknown name \(quoting: full)\(hint) (a filter reads \(Self.namesRead))", at: start)
    }
    index += 1
    let keyStart = index
    let key = readWord()
    if peek("(") {
      // device.daysSince("event"), computed.placementsInDay("event"): the SDK's host functions.
      guard word != "user", word != "params", Self.hostFunctions.contains(key) else {
        let hint = Suggestions.closest(to: key, in: Self.hostFunctions).map { "; did you mean \(quoting: $0)?" } ?? ""
        throw fail("unknown function \(quoting: "\(word).\(key)")\(hint) (the SDK's host functions: \(Self.hostFunctions.joined(separator: ", ")))", at: keyStart)
      }
      _ = try arguments()
      warnings.append(.init(offset: start, message: "\(word).\(key)() counts placements the emulator does not keep: it reads as a missing value here (the relation does not match)"))
      return .unavailable("\(word).\(key)")
    }
    switch word {
    case "user": return .name(.user(key))
    case "params": return .name(.params(key))
    case "computed":
      warnings.append(.init(offset: start, message: "computed.\(key) is not emulated: it reads as a missing value here (the relation does not match)"))
      return .unavailable("computed.\(key)")
    default:
      switch key {
      case "subscriptionStatus": return .name(.subscriptionStatus)
      case "activeEntitlements": return .name(.activeEntitlements)
      case "activeProducts": return .name(.activeProducts)
      default: break
      }
      if FilterName.emulatedDevice[key] == nil {
        let known = FilterName.sdkDeviceKeys.contains(key)
        let hint = known ? "" : Suggestions.closest(to: key, in: FilterName.sdkDeviceKeys).map { "; did you mean \(quoting: "device.\($0)")?" } ?? ""
        warnings.append(.init(offset: start, message: known
          ? "device.\(key) is not emulated: it reads as missing here (the relation does not match); the emulator gives \(Self.everyEmulatedDeviceName)"
          : "device.\(key) is not a key the SDK puts on device\(hint); it reads as missing (the relation does not match)"))
      }
      return .name(.device(key))
    }
  }

  /// `user["key with spaces"]`: a root read by index with a string literal.
  private mutating func indexedRoot(_ word: String, at start: Int) throws(AudienceFilter.ParseError) -> AudienceFilter.Node {
    guard take("[") else { throw fail("unknown name \(quoting: word) (a filter reads \(Self.namesRead))", at: start) }
    let keyNode = try parseConditional()
    guard take("]") else { throw fail("missing ']' after the index") }
    guard case .literal(let key) = keyNode else { throw fail("\(word)[…] takes a string, such as \(word)[\"plan\"]", at: start) }
    let text: String = switch key {
    case .string(let s): s
    case .number(let n): "\(n)"
    case .bool(let b): b ? "true" : "false"
    default: ""
    }
    return .name(word == "user" ? .user(text) : .params(text))
  }

  static let namesRead = "user.NAME, params.NAME, device.NAME (\(FilterName.deviceNames.joined(separator: ", ")), device.\(emulatedDeviceKeys))"
  static let emulatedDeviceKeys = FilterName.emulatedDevice.keys.sorted().joined(separator: ", device.")
  /// Every `device` key a filter here can read, the status ones too.
  static let everyEmulatedDeviceName = (FilterName.deviceNames + FilterName.emulatedDevice.keys.map { "device." + $0 }).sorted()
    .joined(separator: ", ")

  /// The characters in `range` as a string (String's init from a slice of characters is generic
  /// and unspecialized: runtime type lookups for a few characters).
  private func characters(in range: Range<Int>) -> String {
    var text = ""
    for c in chars[range] { text.append(c) }
    return text
  }

  private func isNameStart(_ c: Character) -> Bool {
    c.isLetter || c == "_" || c == "$"
  }

  private func isNameCharacter(_ c: Character) -> Bool {
    c.isLetter || c.isNumber || c == "_" || c == "$"
  }
}
