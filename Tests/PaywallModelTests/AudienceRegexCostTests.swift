import Foundation
import Testing
@testable import PaywallModel

/// What a `matches()` pattern costs is what the budget counts: a bracket class weighs its ranges in
/// the size limit and each test of a scalar against it is charged its real work, so neither a
/// class of ten thousand `\pL` nor a `\w{30000}` can make one budget step cost thousands of
/// lookups. The clocks here are generous bounds against hanging, not benchmarks.
struct AudienceRegexCostTests {
  /// Runs `work` on its own thread with an interrupt; past `limit` the test raises it (so an old,
  /// slow engine still ends the test) and records the overrun. Returns the result and how long the
  /// work took.
  static func bounded(_ limit: Duration, _ work: @escaping @Sendable (EvaluationInterrupt) -> Bool?) -> (Bool?, Duration) {
    let interrupt = EvaluationInterrupt()
    let done = DispatchSemaphore(value: 0)
    let result = Locked<Bool??>(nil)
    let start = ContinuousClock.now
    Thread.detachNewThread {
      let value = work(interrupt)
      result.withLock { $0 = .some(value) }
      done.signal()
    }
    let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
    if done.wait(timeout: .now() + seconds) == .timedOut {
      interrupt.raise()
      // The old engine looked at the interrupt every 4,096 steps of unbounded cost: give it time.
      _ = done.wait(timeout: .now() + 600)
    }
    return (result.value ?? nil, ContinuousClock.now - start)
  }

  /// A class of 10,000 `\pL` under `(?i)`, repeated 33,000 times: a size of 99,000, accepted.
  /// As written it matches the empty text at once; with the digits in the class and a `$` every
  /// position's thread lives on, one class test each per position. It is now refused for its
  /// size when the filter is parsed, or, were it accepted, stopped by the budget well within two
  /// seconds.
  @Test(arguments: ["]?){33000}", #"\d]?){33000}$"#])
  func aHugeClassRepeatedIsRefusedOrStoppedQuickly(ending: String) {
    let pattern = "(?i)(?:[" + String(repeating: #"\pL"#, count: 10_000) + ending
    let name = String(repeating: "7", count: 60)
    let parseStart = ContinuousClock.now
    let parsed = Result { () throws(AudienceRegex.SyntaxError) in try AudienceRegex(pattern) }
    #expect(ContinuousClock.now - parseStart < .seconds(5))
    switch parsed {
    case .failure(let error):
      #expect(error.message.contains("instructions"), "\(error.message)")
    case .success(let regex):
      let (_, elapsed) = Self.bounded(.seconds(2)) { interrupt in
        var budget = EvaluationBudget(interrupt: interrupt)
        return regex.matches(name, budget: &budget)
      }
      #expect(elapsed < .seconds(2), "one registration's match took \(elapsed)")
    }
  }

  /// A small program whose class is huge, over a long text: every budget step tests a scalar
  /// against the class. Before, a step cost one lookup per entry (40,000 with `(?i)`), so the
  /// budget's two million steps were minutes of work; now a test costs log2 of the merged ranges
  /// and is charged so.
  @Test func aClassOfThousandsOfEntriesCostsWhatItsRangesCost() throws {
    let regex = try AudienceRegex("(?i)(?:[" + String(repeating: #"\pL"#, count: 10_000) + #"\d])*$"#)
    let text = String(repeating: "7", count: 200_000)
    // The bound catches the old cost (minutes of work), not a speed: a loaded machine running
    // the suite in parallel, unoptimised, takes a few seconds where a quiet one takes a fraction.
    let (result, elapsed) = Self.bounded(.seconds(10)) { interrupt in
      var budget = EvaluationBudget(interrupt: interrupt)
      return regex.matches(text, budget: &budget)
    }
    #expect(elapsed < .seconds(10), "one registration's match took \(elapsed)")
    // 200,000 scalars of a loop is more than two million steps: the budget stops it.
    #expect(result == nil)
  }

  /// A raised interrupt is heard after a bounded amount of work, not a number of steps whatever
  /// they cost: before, 4,096 steps of a 40,000-lookup class went by between two looks.
  @Test func theInterruptIsHeardAfterBoundedWorkNotSteps() throws {
    let regex = try AudienceRegex("(?i)(?:[" + String(repeating: #"\pL"#, count: 10_000) + #"\d])*$"#)
    let text = String(repeating: "7", count: 200_000)
    let (result, elapsed) = Self.bounded(.seconds(60)) { interrupt in
      interrupt.raise()
      var budget = EvaluationBudget(steps: Int.max / 2, interrupt: interrupt)
      let result = regex.matches(text, budget: &budget)
      return budget.stopped == .interrupted ? result : true
    }
    #expect(result == .some(nil), "not stopped by the interrupt")
    #expect(elapsed < .seconds(1), "the raised interrupt was heard after \(elapsed)")
  }

  /// Testing a scalar against a class of many ranges is charged more than testing a literal.
  @Test func aClassTestIsChargedItsCost() throws {
    func spent(_ pattern: String, _ text: String) throws -> Int {
      var budget = EvaluationBudget(interrupt: nil)
      _ = try AudienceRegex(pattern).matches(text, budget: &budget)
      return EvaluationBudget.registrationSteps - budget.remaining
    }
    let text = String(repeating: "7", count: 5_000)
    let literal = try spent("(?:7)*$", text)
    let letters = try spent(#"(?:[\pL\d])*$"#, text)
    #expect(letters > literal + 5_000 * 5, "literal \(literal), class \(letters)")
  }

  /// A class weighs its ranges in the size limit, as a Unicode class weighs in Rust's compiled
  /// program: `\w{30000}` and `\pL{20000}` are refused for their size, `\w{20}` is not.
  @Test(arguments: [#"\w{30000}"#, #"\pL{20000}"#, #"[\w\d]{30000}"#, #"(?i)[a-z\pL]{20000}"#])
  func aLargeUnicodeClassRepeatedIsRefusedForItsSize(pattern: String) {
    #expect(throws: AudienceRegex.SyntaxError.self) { try AudienceRegex(pattern) }
  }

  @Test(arguments: [#"\w{20}"#, #"\pL{2,30}"#, #"\d{4}-\d{2}-\d{2}"#, #"[a-z]{1000}"#, #"(?-u:\w){5000}"#])
  func aModestRepetitionOfAClassIsAccepted(pattern: String) throws {
    _ = try AudienceRegex(pattern)
  }

  /// Merging: the same class written as thousands of entries or once matches the same scalars.
  @Test(arguments: [("a", true), ("Ä", true), ("ǅ", true), ("7", false), ("-", false), ("K", true), ("\u{212A}", true)])
  func aMergedClassMatchesAsItsEntries(text: String, expected: Bool) throws {
    let many = try AudienceRegex("(?i)^[" + String(repeating: #"\pL"#, count: 500) + "]$")
    let once = try AudienceRegex(#"(?i)^\pL$"#)
    var budget = EvaluationBudget(interrupt: nil)
    #expect(many.matches(text, budget: &budget) == expected)
    #expect(once.matches(text, budget: &budget) == expected)
  }
}
