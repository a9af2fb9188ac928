import Foundation
import Testing
@testable import PaywallModel

/// The regular expressions of `matches()`: Rust's syntax, linear time, and one budget for a
/// whole registration's audiences.
struct AudienceRegexTests {
  static func check(_ pattern: String, _ text: String) throws -> Bool? {
    var budget = EvaluationBudget(interrupt: nil)
    return try AudienceRegex(pattern).matches(text, budget: &budget)
  }

  /// Typed apart: as an untyped literal in `@Test(arguments:)` the table took seconds to type-check.
  static let cases: [(String, String, Bool)] = [
    (#"^[a-z]+@acme\.com$"#, "bob@acme.com", true),
    (#"^[a-z]+@acme\.com$"#, "bob@acme.co", false),
    ("acme", "x@acme.org", true),
    ("^acme", "x@acme", false),
    ("(?i)PRO", "pro plan", true),
    ("PRO", "pro plan", false),
    (#"\d{3}-\d{4}"#, "call 555-1234", true),
    (#"\d{3}-\d{4}"#, "55-1234", false),
    ("^a{,3}b$", "aaab", true),
    ("^a{,3}b$", "aaaab", false),
    ("^a{2}$", "aa", true),
    ("^a{2,}$", "a", false),
    (#"\bword\b"#, "a word here", true),
    (#"\bword\b"#, "swordfish", false),
    ("x|y|z", "abcz", true),
    ("[^a-c]", "abc", false),
    ("[[:alpha:]]+$", "123abc", true),
    (#"\p{Lu}"#, "abc", false),
    (#"\p{Lu}"#, "aBc", true),
    (#"\PL"#, "abc", false),
    ("(?s:a.b)", "a\nb", true),
    ("a.b", "a\nb", false),
    ("(?m)^b$", "a\nb\nc", true),
    ("^b$", "a\nb\nc", false),
    ("é", "café", true),
    (#"^\w+$"#, "naïve_1", true),
    (#"\s"#, "nospace", false),
    (#"\x41\u{E9}"#, "Aé", true),
    (#"[\-\]]"#, "]", true),
    ("(?x) a b # a comment", "ab", true),
    ("(?P<year>\\d{4})-(?:0[1-9]|1[0-2])", "2026-11", true),
    ("", "anything", true),
    // The u flag: on by default; off, the Perl classes, word boundaries and case folding are ASCII.
    (#"(?u)^\w$"#, "δ", true),
    (#"^(?-u:\w)+$"#, "aδ", false),
    (#"^(?-u:\w)+"#, "aδ", true),
    (#"(?-u)\d"#, "२", false),
    (#"\d"#, "२", true),
    (#"(?-u)\s"#, "\u{1680}", false),
    ("(?i-u)k", "\u{212A}", false),
    ("(?i)k", "\u{212A}", true),
    ("(?i-u)[a-z]+$", "AaZ", true),
    (#"(?-u:\b)x(?-u:\b)"#, "áxβ", true),
    (#"\bx\b"#, "áxβ", false),
    // Rust 1.10's special word boundaries.
    (#"\b{start}cat"#, "concat", false),
    (#"\b{start}cat"#, "a cat", true),
    (#"cat\b{end}"#, "cats", false),
    (#"cat\b{end}"#, "cat!", true),
    (#"-\b{start}$"#, "a-", false),
    (#"-\b{start-half}$"#, "a-", true),
    (#"\b{start-half}x"#, "ax", false),
    (#"^\b{end}-"#, "-", false),
    (#"^\b{end-half}-"#, "-", true),
    (#"x\b{end-half}"#, "xy", false),
    (#"a\b{2}"#, "a", true),
    (#"a\b{2}b"#, "ab", false),
    // An empty group may be repeated.
    ("^()*a$", "a", true),
    ("^(?:)+a$", "a", true),
    ("^(|b)*a$", "bba", true),
  ]

  @Test(arguments: cases)
  func rustSyntaxMatchesAsRust(pattern: String, text: String, expected: Bool) throws {
    #expect(try Self.check(pattern, text) == expected)
  }

  /// `(a+)+$` over 5,000 a's and a '!' backtracks for ever in a backtracking engine; here the
  /// work grows with the text, not exponentially.
  @Test func catastrophicPatternsRunInLinearTime() throws {
    let regex = try AudienceRegex("(a+)+$")
    var steps: [Int] = []
    for length in [1_000, 4_000] {
      var budget = EvaluationBudget(interrupt: nil)
      #expect(regex.matches(String(repeating: "a", count: length) + "!", budget: &budget) == false)
      steps.append(EvaluationBudget.registrationSteps - budget.remaining)
    }
    #expect(steps[1] < steps[0] * 5, "\(steps)")
  }

  /// One pattern whose program is too large is refused before anything is built.
  @Test func aHugeRepetitionIsRefusedBeforeItIsBuilt() {
    #expect(throws: AudienceRegex.SyntaxError.self) { try AudienceRegex("(a{32767}){32767}") }
    #expect(throws: AudienceRegex.SyntaxError.self) { try AudienceRegex("a{99999999999999999999999}") }
    #expect(throws: Never.self) { try AudienceRegex("a{1000}") }
  }

  static func heavyProject(audiences: Int) throws -> Project {
    var project = try PresenterTests.demoProject()
    let filter = try AudienceFilter(parsing: #"user.name.matches("(.{0,100}){100}x")"#)
    project.campaigns.append(Campaign(placement: "heavy", audiences: Array(repeating: Audience(filter: filter, outcome: .paywalls([.init(paywallID: "onboarding", percent: 100)], holdout: 0)), count: audiences)))
    return project
  }

  static let heavyName = String(repeating: "a", count: 200)

  /// 2,000 heavy audiences took 16.8 s a registration; now the registration stops at its budget
  /// and fails, its handler told why, nothing assigned.
  @Test func aRegistrationOverItsBudgetFailsWithItsReason() throws {
    var state = PresentationState(project: try Self.heavyProject(audiences: 2_000), status: .inactive,
                                  assignments: AssignmentBook(userID: "tester"))
    _ = PresenterTests.send(.setUserAttributes(["name": Self.heavyName]), &state)
    let clock = ContinuousClock()
    let start = clock.now
    let effects = PresenterTests.send(.register(placement: "heavy", params: [:]), &state)
    #expect(clock.now - start < .seconds(30))
    #expect(PresenterTests.events(effects) == ["handler.onError"])
    guard case .failed(let code, let message)? = state.outcome?.kind else {
      Issue.record("\(String(describing: state.outcome))")
      return
    }
    #expect(code == "audienceEvaluationBudgetExceeded")
    #expect(message.hasPrefix("the audiences of placement 'heavy' did more work than a registration may (2 million steps, over its budget at audience "))
    #expect(state.assignments.entries.isEmpty)
  }

  @Test func explainSaysWhereTheBudgetRanOut() throws {
    let project = try Self.heavyProject(audiences: 50)
    var book = AssignmentBook(userID: "tester")
    let evaluation = PlacementRules.evaluate("heavy", project: project,
                                             context: FilterContext(status: .inactive, user: ["name": .string(Self.heavyName)]), book: &book)
    #expect(evaluation.abandoned?.reason == .budgetExceeded)
    #expect(evaluation.lines.last?.hasPrefix("→ stopped: the audiences of placement 'heavy' did more work") == true)
  }

  /// A raised interrupt (the app has a `q` waiting) stops the evaluation within a few thousand steps.
  @Test func aRaisedInterruptStopsTheEvaluation() throws {
    let project = try Self.heavyProject(audiences: 2_000)
    var book = AssignmentBook(userID: "tester")
    var context = FilterContext(status: .inactive, user: ["name": .string(Self.heavyName)])
    let interrupt = EvaluationInterrupt()
    interrupt.raise()
    context.interrupt = interrupt
    let evaluation = PlacementRules.evaluate("heavy", project: project, context: context, book: &book)
    #expect(evaluation.abandoned == AbandonedEvaluation(reason: .interrupted, audienceIndex: 0, placement: "heavy"))
    interrupt.lower()
    #expect(!interrupt.isRaised)
  }

  /// A pattern read from the user's attributes is compiled when the filter runs: one Rust
  /// refuses is an evaluation error (the filter does not match), never a C-library regex.
  @Test func aPatternFromTheContextIsCheckedWhenItRuns() throws {
    let filter = try AudienceFilter(parsing: "user.name.matches(user.pattern)")
    func matches(_ pattern: String) -> Bool {
      filter.evaluate(FilterContext(status: .inactive, user: ["name": .string("aa"), "pattern": .string(pattern)]))
    }
    #expect(matches("^a+$"))
    #expect(!matches(#"(a)\1"#))
    #expect(!matches("(a{32767}){32767}"))
  }

  /// Groups and classes share Rust's nest limit of 250: a class nested deeper is refused at the
  /// bracket that passes it, before the parser's recursion can exhaust the stack.
  @Test func bracketsNestedPastTheLimitAreRefusedAtTheirColumn() {
    func nested(_ depth: Int) -> String {
      String(repeating: "[", count: depth) + "a" + String(repeating: "]", count: depth)
    }
    #expect(throws: Never.self) { try AudienceRegex(nested(249)) }
    #expect(throws: Never.self) { try AudienceRegex("(" + nested(248) + ")") }
    for pattern in [nested(251), nested(5_000), "(" + nested(250) + ")", "(?:" + nested(300) + ")"] {
      do {
        _ = try AudienceRegex(pattern)
        Issue.record("\(pattern.prefix(20))… parsed")
      } catch {
        #expect(error.message.contains("nests deeper than 250 levels"), "\(error.message)")
        // At the '[' that passes the limit (the whole pattern is the first level).
        #expect(error.offset == (pattern.hasPrefix("(?:") ? 251 : 249), "\(error.offset)")
      }
    }
  }
}
