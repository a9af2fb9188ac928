import Foundation
import Testing
import PaywallModel

@Suite("Audience filters")
struct AudienceFilterTests {
  static func check(_ text: String, _ context: FilterContext) throws -> Bool {
    try AudienceFilter(parsing: text).evaluate(context)
  }

  static let inactive = FilterContext(status: .inactive)

  @Test func theSDKsAudienceOnUserAttributes() throws {
    let filter = try AudienceFilter(parsing: "user.should_display == true && user.some_value > 12")
    let at13 = FilterContext(status: .inactive, user: ["should_display": .bool(true), "some_value": .number(13)])
    let at12 = FilterContext(status: .inactive, user: ["should_display": .bool(true), "some_value": .number(12)])
    let hidden = FilterContext(status: .inactive, user: ["should_display": .bool(false), "some_value": .number(13)])
    #expect(filter.evaluate(at13))
    #expect(!filter.evaluate(at12))
    #expect(!filter.evaluate(hidden))
    #expect(!filter.evaluate(Self.inactive), "missing attributes are null: no match")
    #expect(filter.explain(at12) == ["user.should_display is true", "user.some_value is 12"])
  }

  @Test func deviceNamesReadTheStatus() throws {
    let pro = FilterContext(status: .active([Entitlement("pro")]), activeProducts: ["com.acme.pro.annual"])
    #expect(try Self.check(#"device.subscriptionStatus == "ACTIVE""#, pro))
    #expect(try Self.check(#"device.subscriptionStatus == "INACTIVE""#, Self.inactive))
    #expect(try Self.check(#"device.subscriptionStatus == "UNKNOWN""#, FilterContext(status: .unknown)))
    #expect(try Self.check(#""pro" in device.activeEntitlements"#, pro))
    #expect(try !Self.check(#""pro" in device.activeEntitlements"#, Self.inactive))
    #expect(try Self.check(#"!("pro" in device.activeEntitlements)"#, Self.inactive))
    #expect(try Self.check(#""com.acme.pro.annual" in device.activeProducts"#, pro))
  }

  @Test func operatorsAndPrecedence() throws {
    let c = FilterContext(status: .inactive, user: ["age": .number(30), "name": .string("ana"), "plan": .string("13")],
                          params: ["source": .string("banner")])
    #expect(try Self.check("user.age >= 30 && user.age <= 30 && user.age < 31 && user.age > 29", c))
    #expect(try Self.check("user.age != 31", c))
    #expect(try Self.check("false || true && true", c), "&& binds tighter than ||")
    #expect(try !Self.check("(false || true) && false", c))
    #expect(try Self.check("!false && !(user.age == 1)", c))
    #expect(try Self.check(#"params.source in ["banner", "settings"]"#, c))
    #expect(try !Self.check(#"params.source in []"#, c))
    #expect(try Self.check(#"user.name < "bob""#, c), "strings order as strings")
    #expect(try Self.check("user.plan == 13 && user.plan > 12", c), "a number typed as text compares as a number")
    // Superscript's null-safety: comparing with null asks whether a key is there; any other
    // relation on a missing key is false, `!=` too.
    #expect(try Self.check("user.missing == null", c))
    #expect(try !Self.check("user.missing != 1", c), "a missing key never matches a relation")
    #expect(try !Self.check("user.missing > 1", c))
    #expect(try Self.check("user.age == 30.0", c))
    #expect(try Self.check("-1 < 0", c))
  }

  @Test(arguments: [
    ("", 0, "the filter is empty"),
    ("user.age >", 10, "the filter ends where a value was expected"),
    ("user.age > 1 2", 13, "unexpected '2'"),
    ("(user.age > 1", 13, "missing ')' for the '(' at column 1"),
    (#"user.name == "x"#, 13, "unterminated string"),
    ("devic.subscriptionStatus == 1", 0, "unknown name 'devic.subscriptionStatus'; did you mean 'device.subscriptionStatus'?"),
    ("user.plan.startWith(\"a\")", 10, "unknown function 'startWith'; did you mean 'startsWith'?"),
    ("lower(user.plan) == \"a\"", 0, "unknown function 'lower'"),
    ("device.daysSinse(\"x\") > 1", 7, "unknown function 'device.daysSinse'; did you mean 'daysSince'?"),
    ("size(user.a, 1) > 1", 0, "size() takes 1 argument, not 2"),
    ("has(1)", 0, "has() takes one property"),
    ("user.a ? 1", 10, "expected ':'"),
    ("usr.age > 1", 0, "unknown name 'usr.age'"),
    ("user. > 1", 0, "unknown name 'user.'"),
    ("1 < 2 < 3", 6, "comparisons cannot be chained"),
    ("user.age = 1", 9, "unexpected '='"),
    ("[1, 2", 5, "missing ']' for the '[' at column 1"),
  ])
  func mistakesHaveTheirColumn(text: String, offset: Int, message: String) {
    do {
      _ = try AudienceFilter(parsing: text)
      Issue.record("'\(text)' parsed")
    } catch {
      #expect(error.offset == offset, "\(error.message)")
      #expect(error.message.hasPrefix(message), "\(error.message)")
    }
  }

  /// The SDK's own CEL cases (CELEvaluatorTests.swift, 4.16.3): user, params and device maps,
  /// `size()`, `all()` with `contains`, a Decimal 1 equal to 1.0, and a filter that cannot be
  /// evaluated not matching.
  @Test func theSDKsCELEvaluatorCases() throws {
    let user = FilterContext(status: .inactive, user: ["a": .string("b")], params: ["a": .string("b")])
    #expect(try Self.check(#"user.a == "b""#, user))
    #expect(try Self.check(#"params.a == "b""#, user))
    #expect(try Self.check(#"device.platform == "iOS""#, user))
    #expect(try !Self.check(#"device.platform == "Android""#, user))
    #expect(try Self.check("size(device.activeEntitlements) == 0", Self.inactive))
    let bronze = FilterContext(status: .active([Entitlement("bronze")]))
    #expect(try !Self.check("size(device.activeEntitlements) == 0", bronze))
    #expect(try Self.check(#"["bronze"].all(identifier, device.activeEntitlements.contains(identifier))"#, bronze))
    #expect(try !Self.check(#"["bronze", "gold"].all(e, device.activeEntitlements.contains(e))"#, bronze))
    #expect(try Self.check("user.a == 1.0", FilterContext(status: .inactive, user: ["a": .number(1)])))
    // A placement's time the emulator does not keep: a warning, and it reads as missing.
    let daysSince = try AudienceFilter(parsing: #"device.daysSince("app_install") >= 1"#)
    #expect(daysSince.warnings.first?.message.hasPrefix("device.daysSince() reads when a placement last happened, which the emulator does not keep") == true)
    #expect(!daysSince.evaluate(Self.inactive))
  }

  /// The subset the audience editor writes, as Superscript evaluates it (superwall/superscript
  /// interpretation-flow.md): members, has(), string methods, ternary, maps, and errors that make
  /// the whole filter not match (only `true` matches: CELEvaluator.swift).
  @Test func theCELSubset() throws {
    let c = FilterContext(status: .inactive,
                          user: ["email": .string("ana@acme.com"), "tags": .list([.string("beta")]), "count": .string("13"),
                                 "flag": .string("true"), "prefs": .map(["theme": .string("dark")])],
                          params: ["source": .string("banner")])
    #expect(try Self.check(#"user.email.endsWith("@acme.com") && user.email.startsWith("ana")"#, c))
    #expect(try Self.check(#"user.email.contains("@") && user.email.matches("^[a-z]+@")"#, c))
    #expect(try Self.check(#"size(user.email) == 12 && user.tags.size() == 1 && "beta" in user.tags"#, c))
    #expect(try Self.check("has(user.email) && !has(user.phone)", c))
    #expect(try Self.check(#"user.prefs.theme == "dark" && "theme" in user.prefs && user["email"] == "ana@acme.com""#, c))
    #expect(try Self.check(#"params.source == "banner" ? user.count > 12 : false"#, c))
    #expect(try Self.check(#""a" in {"a": 1, "b": 2}"#, c))
    #expect(try Self.check("user.count == 13 && user.flag == true", c), "numeric and boolean strings are normalized")
    #expect(try Self.check(#"user.count > "12.5""#, c), "so are literals")
    #expect(try Self.check(#"int(user.count) == 13 && string(1).startsWith("1") && user.email.contains("1") == false"#, c))
    #expect(try Self.check(#"[1, 2].exists(x, x == 2) && [1, 2].exists_one(x, x > 1)"#, c))
    // Errors: an ordering across types, a method on the wrong type, a non-boolean result.
    #expect(try !Self.check(#"user.email > 1"#, c))
    #expect(try !Self.check(#"!(user.email > 1)"#, c), "an error does not turn into true under !")
    #expect(try !Self.check(#"user.tags.startsWith("b")"#, c))
    #expect(try !Self.check(#"user.email"#, c), "only true matches, not a non-empty string")
    #expect(try !Self.check(#"user.phone.startsWith("+1")"#, c))
    // A pattern that backtracks forever in ICU (`(a+)+$` on "aaa…ab") is answered in linear time,
    // as Superscript's (Rust's) answers: false, and its negation true; nothing hangs. Rust's
    // classes work; an invalid literal pattern is a parse error (`AudienceRegexRefusalTests`), and
    // an invalid pattern read from a value an evaluation error.
    let slow = FilterContext(status: .inactive, user: ["s": .string(String(repeating: "a", count: 60) + "b"), "p": .string("(")])
    #expect(try !Self.check(#"user.s.matches("(a+)+$")"#, slow))
    #expect(try Self.check(#"!user.s.matches("(a+)+$")"#, slow))
    #expect(try Self.check(#"user.s.matches("^a{3}\\w*b$") && user.s.matches("a\\s*b") && !user.s.matches("\\d")"#, slow))
    #expect(try !Self.check(#"user.s.matches(user.p)"#, slow))
    #expect(try !Self.check(#"!user.s.matches(user.p)"#, slow), "an invalid pattern is an error, not false")
  }

  /// A device key the SDK has but the emulator cannot give is a warning naming it, and reads as
  /// missing; an unknown key also warns, with a did-you-mean.
  @Test func deviceKeysTheEmulatorCannotGiveWarn() throws {
    let locale = try AudienceFilter(parsing: #"device.deviceLocale == "en_US""#)
    #expect(locale.warnings.map(\.message).first?.hasPrefix("device.deviceLocale is not emulated") == true)
    // It names every key the emulator gives, the status ones too (they were left out).
    #expect(locale.warnings.map(\.message).first?.hasSuffix("the emulator gives device.activeEntitlements, device.activeProducts, device.isMac, device.platform, device.subscriptionStatus") == true,
            "\(locale.warnings.map(\.message))")
    #expect(!locale.evaluate(Self.inactive))
    #expect(try AudienceFilter(parsing: "device.deviceLocale == null").evaluate(Self.inactive))
    let typo = try AudienceFilter(parsing: #"device.subscriptonStatus == "ACTIVE""#)
    #expect(typo.warnings.map(\.message) == ["device.subscriptonStatus is not a key the SDK puts on device; did you mean 'device.subscriptionStatus'?; it reads as missing (the relation does not match)"])
    #expect(try AudienceFilter(parsing: #"device.platform == "iOS" && !device.isMac"#).warnings.isEmpty)
  }

  @Test func aDeeplyNestedFilterIsRefused() {
    #expect(throws: AudienceFilter.ParseError.self) { try AudienceFilter(parsing: String(repeating: "(", count: 10_000) + "true") }
    #expect(throws: AudienceFilter.ParseError.self) { try AudienceFilter(parsing: String(repeating: "!", count: 10_000) + "true") }
  }

  @Test func valuesTypedOnTheCommandLine() {
    #expect(FilterValue(parsing: "true") == .bool(true))
    #expect(FilterValue(parsing: "13") == .number(13))
    #expect(FilterValue(parsing: "null") == .null)
    #expect(FilterValue(parsing: "ana") == .string("ana"))
  }
}

@Suite("Campaigns")
struct CampaignTests {
  static let catalog = ProjectLoaderTests.catalog

  static func project(_ campaigns: String, options: String = "{}") throws -> ProjectLoadResult {
    var result: ProjectLoadResult?
    try withTemporaryDirectory { dir in
      try dir.write("catalog.json", Self.catalog)
      try dir.write("a.json", ProjectLoaderTests.paywall(id: "a"))
      try dir.write("b.json", ProjectLoaderTests.paywall(id: "b").replacingOccurrences(of: "\"components\"", with: "\"presentationCondition\": \"always\", \"featureGating\": \"gated\", \"components\""))
      let app = "{\n\"catalog\": \"catalog.json\",\n\"paywalls\": [\"a.json\", \"b.json\"],\n\"options\": \(options),\n\"campaigns\": \(campaigns)\n}\n"
      let file = try dir.write("app.json", app)
      result = ProjectLoader.load(path: file)
    }
    return try #require(result)
  }

  static func messages(_ result: ProjectLoadResult) -> [String] {
    result.errors.map { "\($0.location): \($0.message)" }
  }

  /// A campaign on a launch event is valid (the SDK presents it: `canImplicitlyTriggerPaywall`);
  /// one on an SDK event paywall-tui does not fire is a warning that says so; one on an event that
  /// presents nothing is still an error. Before, every built-in name but the three implicit ones
  /// was an error, `app_launch` included.
  @Test func aCampaignOnALaunchEventIsValid() throws {
    let launch = try Self.project(#"[{"placement": "app_launch", "audiences": [{"paywall": "a"}]}, {"placement": "session_start", "audiences": [{"paywall": "b"}]}]"#)
    #expect(launch.errors.isEmpty, "\(Self.messages(launch))")
    #expect(launch.project?.placements == [], "the SDK fires them; no app registers them")
    let touch = try Self.project(#"[{"placement": "touches_began", "audiences": [{"paywall": "a"}]}]"#)
    #expect(touch.errors.isEmpty)
    #expect(touch.warnings.contains { $0.kind == .notFiredHere && $0.message.contains("'touches_began'") }, "\(touch.warnings)")
    // A deep link is fired here (`deeplink URL`, the debug panel's `l`): no warning.
    let deepLink = try Self.project(#"[{"placement": "deepLink_open", "audiences": [{"paywall": "a"}]}]"#)
    #expect(deepLink.errors.isEmpty && deepLink.warnings.isEmpty, "\(deepLink.warnings)")
    let close = try Self.project(#"[{"placement": "app_close", "audiences": [{"paywall": "a"}]}]"#)
    #expect(Self.messages(close).contains { $0.contains("'app_close' is a built-in event name and never fires a campaign") }, "\(Self.messages(close))")
  }

  @Test func campaignsLoadWithTheirAudiences() throws {
    let result = try Self.project(#"""
      [{"placement": "p", "audiences": [
        {"filter": "user.age > 12", "paywall": "a"},
        {"variants": [{"paywall": "a", "percent": 30}, {"paywall": "b", "percent": 70}], "holdout": 10},
        {"holdout": 100}]}]
      """#)
    #expect(result.errors.isEmpty, "\(Self.messages(result))")
    let project = try #require(result.project)
    #expect(project.placements == ["p"])
    #expect(project.campaigns[0].audiences.count == 3)
    #expect(project.campaigns[0].audiences[0].filter?.text == "user.age > 12")
    #expect(project.campaigns[0].audiences[1].outcome == .paywalls([.init(paywallID: "a", percent: 30), .init(paywallID: "b", percent: 70)], holdout: 10))
    #expect(project.campaigns[0].audiences[2].outcome == .paywalls([], holdout: 100))
    #expect(project.gating(of: "p") == "mixed")
  }

  /// A placement's gating, as the home screen shows it: the kinds of the paywalls its audiences
  /// may show, "mixed" when both, nil when it presents none.
  @Test func gatingNamesTheKindsAPlacementCanShow() throws {
    let result = try Self.project(#"""
      [{"placement": "gated", "audiences": [{"paywall": "b"}, {"variants": [{"paywall": "b", "percent": 100}]}]},
       {"placement": "open", "audiences": [{"paywall": "a"}, {"holdout": 100}]},
       {"placement": "both", "audiences": [{"paywall": "a"}, {"paywall": "b"}]},
       {"placement": "none", "audiences": [{"holdout": 100}]}]
      """#)
    #expect(result.errors.isEmpty, "\(Self.messages(result))")
    let project = try #require(result.project)
    #expect(project.gating(of: "gated") == "gated")
    #expect(project.gating(of: "open") == "non-gated")
    #expect(project.gating(of: "both") == "mixed")
    #expect(project.gating(of: "none") == nil)
    #expect(project.gating(of: "unknown") == nil)
  }

  /// app.json lines: 1 "{", 2 catalog, 3 paywalls, 4 options, 5 "campaigns": <first line of the argument>.
  @Test func filterMistakesPointAtTheirColumn() throws {
    let result = try Self.project(#"[{"placement": "p", "audiences": [{"filter": "user.age > 12 && devise.x", "paywall": "a"}]}]"#)
    #expect(Self.messages(result) == ["5:77: filter: unknown name 'devise.x' (a filter reads user.NAME, params.NAME, device.NAME (device.subscriptionStatus, device.activeEntitlements, device.activeProducts, device.isMac, device.platform))"])
    let syntax = try Self.project(#"[{"placement": "p", "audiences": [{"filter": "(user.age > 12", "paywall": "a"}]}]"#)
    #expect(Self.messages(syntax) == ["5:74: filter: missing ')' for the '(' at column 1"])
  }

  @Test func everyShapeMistakeIsReported() throws {
    let result = try Self.project(#"""
      [{"placement": "p", "audiences": [{"paywall": "c"}, {"variants": [{"paywall": "a", "percent": 60}, {"paywall": "b", "percent": 60}]},
        {"filter": "true"}, {"paywall": "a", "variants": []}, {"holdout": 101}]},
       {"placement": "p", "audiences": []},
       {"placement": "paywall_open", "audiences": [{"paywall": "a"}]},
       {"audiences": [{"paywall": "a"}], "placment": "x"}]
      """#)
    let messages = Self.messages(result).joined(separator: "\n")
    #expect(messages.contains("no paywall 'c' in this project; did you mean 'a'? (paywalls: a, b)"))
    #expect(messages.contains("variant percentages add up to 120; make them add up to 100"))
    #expect(messages.contains("an audience needs a 'paywall', 'variants', or \"holdout\": 100"))
    #expect(messages.contains("an audience has 'paywall' or 'variants', not both"))
    #expect(messages.contains("'holdout' must be between 0 and 100, found 101"))
    #expect(messages.contains("placement 'p' already has a campaign"))
    #expect(messages.contains("'audiences' is empty"))
    #expect(messages.contains("'paywall_open' is a built-in event name and never fires a campaign"))
    #expect(messages.contains("missing required key 'placement'"))
    #expect(messages.contains("unknown key 'placment'; did you mean 'placement'?"))
    #expect(result.project == nil)
  }

  @Test func overrideProductsByNameIsCheckedAgainstTheCatalog() throws {
    let good = try Self.project("[]", options: #"{"overrideProductsByName": {"primary": "com.acme.pro.monthly"}}"#)
    #expect(good.project?.productOverrides == [SlotOverride(slot: "primary", productID: "com.acme.pro.monthly")])
    let bad = try Self.project("[]", options: #"{"overrideProductsByName": {"primary": "com.acme.pro.mothly"}}"#)
    #expect(Self.messages(bad) == ["4:51: overrideProductsByName: no product 'com.acme.pro.mothly' in the catalog; did you mean 'com.acme.pro.monthly'?"])
  }

  // MARK: - Evaluation

  static func evaluate(_ project: Project, _ placement: String, status: SubscriptionStatus = .inactive,
                       user: [String: FilterValue] = [:], userID: String = "u1") -> PlacementEvaluation {
    var book = AssignmentBook(userID: userID)
    return PlacementRules.evaluate(placement, project: project, context: FilterContext(status: status, user: user), book: &book)
  }

  @Test func audiencesAreTriedInOrderAndTheFirstMatchDecides() throws {
    let project = try #require(try Self.project(#"""
      [{"placement": "p", "audiences": [{"filter": "user.vip == true", "holdout": 100}, {"filter": "user.age > 12", "paywall": "a"}]},
       {"placement": "always", "audiences": [{"paywall": "b"}]}]
      """#).project)
    #expect(Self.evaluate(project, "p", user: ["age": .number(13)]).outcome == .present(paywallID: "a"))
    #expect(Self.evaluate(project, "p", user: ["age": .number(12)]).outcome == .skip(.noAudienceMatch))
    #expect(Self.evaluate(project, "p", user: ["age": .number(13), "vip": .bool(true)]).outcome == .skip(.holdout))
    #expect(Self.evaluate(project, "nope").outcome == .skip(.placementNotFound))
  }

  /// v3 (3.9.1 CheckUserSubscription.swift, GetPresenter.swift): an active user is skipped
  /// (userIsSubscribed) whatever the campaign says, unless it presents a paywall whose
  /// presentationCondition is always. v4 (every 4.x PaywallSkippedReason.swift) has no such rule.
  @Test(arguments: ["3", "4", "4.0", nil])
  func theSubscriberRuleFollowsTheSDKVersion(sdk: String?) throws {
    let options = sdk.map { #"{"sdk": "\#($0)"}"# } ?? "{}"
    let project = try #require(try Self.project(#"""
      [{"placement": "p", "audiences": [{"filter": "user.vip == true", "holdout": 100}, {"filter": "user.age > 12", "paywall": "a"}]},
       {"placement": "always", "audiences": [{"paywall": "b"}]}]
      """#, options: options).project)
    let v3 = sdk == "3"
    #expect(project.options.sdk.skipsSubscribers == v3)
    let pro = SubscriptionStatus.active([Entitlement("pro")])
    // checkUserSubscription (paywall a) skips a subscriber in v3 only; "always" (paywall b) shows to them in both.
    let shown = Self.evaluate(project, "p", status: pro, user: ["age": .number(13)])
    #expect(shown.outcome == (v3 ? .skip(.userIsSubscribed) : .present(paywallID: "a")))
    #expect(shown.subscriberRuleSkipped == (v3 ? .present(paywallID: "a") : nil))
    #expect(Self.evaluate(project, "always", status: pro).outcome == .present(paywallID: "b"))
    // v3 checks the subscription before the holdout, a failed match and an unknown placement.
    #expect(Self.evaluate(project, "p", status: pro, user: ["vip": .bool(true)]).outcome == (v3 ? .skip(.userIsSubscribed) : .skip(.holdout)))
    #expect(Self.evaluate(project, "p", status: pro).outcome == (v3 ? .skip(.userIsSubscribed) : .skip(.noAudienceMatch)))
    #expect(Self.evaluate(project, "nope", status: pro).outcome == (v3 ? .skip(.userIsSubscribed) : .skip(.placementNotFound)))
    // An inactive user is never skipped for being subscribed.
    #expect(Self.evaluate(project, "p", user: ["age": .number(13)]).outcome == .present(paywallID: "a"))
  }

  /// The SDK's audience occurrence limit (ExpressionLogic.swift tryToMatchOccurrence; saved on a
  /// holdout by GetExperiment.swift and on presentation): after maxCount presentations or
  /// holdouts the audience stops matching and the next one is tried (UI test T76).
  @Test func anOccurrenceLimitHandsOverToTheNextAudience() throws {
    let project = try #require(try Self.project(#"""
      [{"placement": "p", "audiences": [{"holdout": 100, "occurrence": {"maxCount": 2}}, {"paywall": "a"}]}]
      """#).project)
    var book = AssignmentBook(userID: "u1")
    func evaluate(_ status: SubscriptionStatus = .inactive) -> PlacementEvaluation.Outcome {
      PlacementRules.evaluate("p", project: project, context: FilterContext(status: status), book: &book).outcome
    }
    #expect(evaluate() == .skip(.holdout))
    #expect(evaluate() == .skip(.holdout))
    #expect(book.occurrences.mapValues(\.count) == ["p#0": 2])
    #expect(evaluate() == .present(paywallID: "a"))
    #expect(book.occurrences.mapValues(\.count) == ["p#0": 2], "the audience without a limit counts nothing")
    // Saved with the user, read back.
    try withTemporaryDirectory { dir in
      let file = AssignmentFile(directory: StateDirectory(path: dir.path))
      try file.save(book)
      #expect(file.load(userID: nil).0.occurrences == book.occurrences)
    }
    let bad = try Self.project(#"[{"placement": "p", "audiences": [{"paywall": "a", "occurrence": {"maxCount": 0}}]}]"#)
    #expect(bad.project == nil)
  }

  /// The SDK's MINUTES interval (Models/Triggers/TriggerAudienceOccurrence.swift): only the
  /// occurrences at most N minutes old count (`createdAt >= now − N minutes`,
  /// Storage/Core Data/CoreDataManager.swift countAudienceOccurrences), so the boundary counts.
  @Test func anOccurrenceIntervalCountsOnlyTheLastMinutes() throws {
    let project = try #require(try Self.project(#"""
      [{"placement": "p", "audiences": [{"paywall": "a", "occurrence": {"maxCount": 1, "interval": {"minutes": 1440}}}]}]
      """#).project)
    #expect(project.campaigns[0].audiences[0].occurrence == OccurrenceLimit(maxCount: 1, interval: .minutes(1440)))
    var book = AssignmentBook(userID: "u1")
    let start = Date(timeIntervalSince1970: 1_767_225_600)
    func outcome(after seconds: Double) -> PlacementEvaluation.Outcome {
      var context = FilterContext(status: .inactive)
      context.now = start.addingTimeInterval(seconds)
      return PlacementRules.evaluate("p", project: project, context: context, book: &book).outcome
    }
    #expect(outcome(after: 0) == .present(paywallID: "a"))
    #expect(book.occurrences["p#0"] == [start], "saved with its time")
    #expect(outcome(after: 3600) == .skip(.noAudienceMatch))
    #expect(outcome(after: 86_400) == .skip(.noAudienceMatch), "exactly a day old still counts")
    #expect(outcome(after: 86_400.001) == .present(paywallID: "a"))
    #expect(book.occurrences["p#0"]?.count == 2)
    let bad = try Self.project(#"[{"placement": "p", "audiences": [{"paywall": "a", "occurrence": {"maxCount": 1, "interval": {"minutes": 0}}}]}]"#)
    #expect(bad.project == nil)
    let unknown = try Self.project(#"[{"placement": "p", "audiences": [{"paywall": "a", "occurrence": {"maxCount": 1, "interval": "day"}}]}]"#)
    #expect(Self.messages(unknown).first?.contains("'interval' ({\"minutes\": 1440} for a day; leave it out for all time) must be an object") == true)
  }

  /// A user.json written before intervals held a count per audience: it still loads, as that many
  /// occurrences long ago (they count against an all-time limit, never within an interval).
  @Test func aUserFileWithOccurrenceCountsStillLoads() throws {
    try withTemporaryDirectory { dir in
      try dir.write("user.json", #"{"format": "paywall-tui.user", "version": 1, "userId": "ada", "assignments": {"p#0": ""}, "occurrences": {"p#0": 2}}"#)
      let (book, warning, _) = AssignmentFile(directory: StateDirectory(path: dir.path)).load(userID: nil)
      #expect(warning == nil)
      #expect(book.userID == "ada")
      #expect(book.occurrenceCount("p#0", within: .infinity, now: Date()) == 2)
      #expect(book.occurrenceCount("p#0", within: .minutes(525_600), now: Date()) == 0)
    }
  }

  /// A rule in a language the emulator cannot evaluate (the importer's `expression_js`, v3's
  /// `expression`) is never silently true or false: the evaluation stops at it, undecided, until
  /// the tester decides it; then it matches or not as told.
  @Test func anUnsupportedRuleIsUndecidedUntilAssumed() throws {
    let result = try Self.project(#"""
      [{"placement": "p", "audiences": [{"unsupportedRule": {"kind": "expression_js", "text": "user.plan === 'free'"}, "paywall": "a"}, {"paywall": "b"}]}]
      """#)
    let project = try #require(result.project)
    #expect(project.campaigns[0].audiences[0].rule == .unsupported(UnsupportedRule(kind: "expression_js", text: "user.plan === 'free'")))
    #expect(result.warnings.map(\.message) == ["this audience's rule is in expression_js, which the emulator cannot evaluate: play and explain need --assume-rule p#0=match or p#0=nomatch; run asks"])
    var book = AssignmentBook(userID: "u1")
    var context = FilterContext(status: .inactive)
    let undecided = PlacementRules.evaluate("p", project: project, context: context, book: &book)
    #expect(undecided.undecided?.key == "p#0")
    #expect(undecided.lines.last == "→ undecided: the emulator cannot evaluate audience 1's expression_js rule; give --assume-rule p#0=match or p#0=nomatch")
    #expect(book == AssignmentBook(userID: "u1"), "nothing assigned")
    context.assumedRules = ["p#0": true]
    #expect(PlacementRules.evaluate("p", project: project, context: context, book: &book).outcome == .present(paywallID: "a"))
    context.assumedRules = ["p#0": false]
    #expect(PlacementRules.evaluate("p", project: project, context: context, book: &book).outcome == .present(paywallID: "b"))
    // The importer's API builds the same audience.
    let built = Audience.unsupported(kind: "expression_js", text: "user.plan === 'free'", outcome: .paywalls([.init(paywallID: "a", percent: 100)], holdout: 0))
    #expect(built == project.campaigns[0].audiences[0])
    // --assume-rule values are checked against the project.
    #expect(throws: Never.self) { try RuleAssumptions.parse(["p#0=nomatch"], project: project).get() }
    for (text, message) in [("p#1=match", "--assume-rule 'p#1' names no audience with an unsupported rule (rules to decide: p#0; did you mean 'p#0'?)"),
                            ("p#0=yes", "--assume-rule 'p#0=yes': 'yes' must be match or nomatch"),
                            ("p#0", "--assume-rule 'p#0' must be PLACEMENT#N=match or PLACEMENT#N=nomatch")] {
      guard case .failure(let error) = RuleAssumptions.parse([text], project: project) else { Issue.record("\(text) parsed"); continue }
      #expect(error.message == message)
    }
    let both = try Self.project(#"[{"placement": "p", "audiences": [{"filter": "true", "unsupportedRule": {"kind": "expression", "text": "x"}, "paywall": "a"}]}]"#)
    #expect(Self.messages(both).first?.hasSuffix("an audience has 'filter' or 'unsupportedRule', not both") == true)
  }

  @Test func anSDKVersionIsCheckedWithAFix() throws {
    let cases: [(String, String)] = [
      (#""5""#, "4:20: sdk: '5' is not an SDK version; use 3, 4 (the latest 4.x) or 4.N (4.0 to 4.16)"),
      (#""v4""#, "4:20: sdk: 'v4' is not an SDK version (did you mean '4'?); use 3, 4 (the latest 4.x) or 4.N (4.0 to 4.16)"),
      (#""4.17""#, "4:20: sdk: '4.17' is newer than 4.16, the latest release checked; write 4 (the latest) or 4.N up to 4.16"),
      (#""4.2.1""#, "4:20: sdk: '4.2.1': give the minor version only, e.g. 4.2 (patch releases do not differ here)"),
      ("4", #"4:20: 'sdk' must be a string such as "3", "4" or "4.2" (a JSON number would read 4.10 as 4.1)"#),
    ]
    for (value, message) in cases {
      let result = try Self.project("[]", options: #"{"sdk": \#(value)}"#)
      #expect(Self.messages(result) == [message])
      #expect(result.project == nil)
    }
    #expect(try Self.project("[]", options: #"{"sdk": "4.16"}"#).project?.options.sdk.description == "4.16")
  }

  @Test func variantsSplitByUserAndStick() throws {
    let project = try #require(try Self.project(#"""
      [{"placement": "p", "audiences": [{"variants": [{"paywall": "a", "percent": 50}, {"paywall": "b", "percent": 50}], "holdout": 20}]}]
      """#).project)
    var counts: [String: Int] = [:]
    for i in 0..<2_000 {
      let outcome = Self.evaluate(project, "p", userID: "user-\(i)").outcome
      let key = switch outcome {
      case .present(let id): id
      case .skip(let reason): reason.rawValue
      }
      counts[key, default: 0] += 1
    }
    #expect((300...500).contains(counts["holdout"] ?? 0), "\(counts)")
    #expect((650...950).contains(counts["a"] ?? 0), "\(counts)")
    #expect((650...950).contains(counts["b"] ?? 0), "\(counts)")
    // The same user gets the same answer every time, and a saved assignment outlives new percentages.
    let first = Self.evaluate(project, "p", userID: "same").outcome
    #expect((0..<10).allSatisfy { _ in Self.evaluate(project, "p", userID: "same").outcome == first })
    var book = AssignmentBook(userID: "same", entries: ["p#0": "b"])
    let sticky = PlacementRules.evaluate("p", project: project, context: FilterContext(status: .inactive), book: &book)
    #expect(sticky.outcome == .present(paywallID: "b"))
    #expect(Assignment.bucket(userID: "u1", placement: "p", audience: 0) == Assignment.bucket(userID: "u1", placement: "p", audience: 0))
  }

  @Test func assignmentsAndTheUserIdSurviveARestart() throws {
    try withTemporaryDirectory { dir in
      let file = AssignmentFile(directory: StateDirectory(path: dir.path))
      let (fresh, warning, isNew) = file.load(userID: nil)
      #expect(warning == nil)
      #expect(isNew)
      #expect(fresh.userID.hasPrefix("$anon:"))
      var book = fresh
      book.entries["p#0"] = "a"
      try file.save(book)
      #expect(file.load(userID: nil).0 == book)
      #expect(!file.load(userID: nil).isNew)
      #expect(file.load(userID: "someone-else").0 == AssignmentBook(userID: "someone-else"))
      try dir.write("user.json", "{ not json")
      let (recovered, corrupt, _) = file.load(userID: nil)
      #expect(corrupt?.contains("ignoring the saved user") == true)
      #expect(recovered.entries.isEmpty)
    }
  }
}
