import Foundation
import Testing
import PaywallModel

/// Period arithmetic, time rates and the clocks the simulated store runs on.
@Suite struct StoreClockTests {
  static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()

  /// The integer arithmetic gives the dates Foundation's calendar gives, month ends and leap days
  /// included, before and after 1970.
  @Test func addingPeriodsMatchesTheGregorianCalendar() {
    var rng = SplitMix64(seed: 42)
    let units: [(SubscriptionPeriod.Unit, Calendar.Component)] = [(.day, .day), (.week, .weekOfYear), (.month, .month), (.year, .year)]
    for _ in 0..<4000 {
      // 1900 to 2200, to the millisecond.
      let seconds = Double(Int64(rng.next() % 9_467_280_000_000)) / 1000 - 2_208_988_800
      let date = Date(timeIntervalSince1970: seconds)
      let (unit, component) = units[Int(rng.next() % 4)]
      let value = Int(rng.next() % 30) + 1
      let expected = Self.calendar.date(byAdding: component, value: value, to: date)!
      let actual = SubscriptionPeriod(value: value, unit: unit).added(to: date)
      #expect(abs(actual.timeIntervalSince(expected)) < 0.000_5, "\(date) + \(value) \(unit): \(actual) ≠ \(expected)")
    }
  }

  @Test(arguments: [
    ("2026-01-31", SubscriptionPeriod(value: 1, unit: .month), "2026-02-28"),
    ("2024-01-31", SubscriptionPeriod(value: 1, unit: .month), "2024-02-29"),
    ("2024-02-29", SubscriptionPeriod(value: 1, unit: .year), "2025-02-28"),
    ("2026-03-31", SubscriptionPeriod(value: 6, unit: .month), "2026-09-30"),
    ("2026-11-15", SubscriptionPeriod(value: 3, unit: .month), "2027-02-15"),
    ("2026-03-31", SubscriptionPeriod(value: -1, unit: .month), "2026-02-28"),
  ])
  func monthEndsAndLeapDays(start: String, period: SubscriptionPeriod, end: String) throws {
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd"
    formatter.timeZone = TimeZone(identifier: "UTC")
    let from = try #require(formatter.date(from: start))
    #expect(formatter.string(from: period.added(to: from)) == end)
  }

  static let rates: [(String, TimeRate, Double)] = [
    ("realtime", .realTime, 1),
    ("month=30s", .scaled(unit: .month, every: 30), 86_400.0 * 365 / 12 / 30),
    ("day=1s", .scaled(unit: .day, every: 1), 86_400),
    ("week=2m", .scaled(unit: .week, every: 120), 7 * 86_400.0 / 120),
    ("renewal=10s", .renewalEvery(seconds: 10), 1),
  ]

  @Test func timeRatesParse() {
    for (text, rate, clockRate) in Self.rates {
      #expect(TimeRate(parsing: text) == rate)
      #expect(rate.description == text)
      #expect(abs(rate.clockRate - clockRate) < 1e-9, "\(text)")
    }
  }

  @Test(arguments: ["", "fast", "month", "month=", "month=0s", "month=-3s", "fortnight=1s", "renewal=soon", "30s"])
  func badTimeRatesAreRejected(text: String) {
    #expect(TimeRate(parsing: text) == nil)
  }

  /// The `.storekit` `_timeRate` numbers, as `SKTestSession.TimeRate` defines them.
  @Test func storeKitTimeRateValues() {
    #expect(TimeRate(storeKitValue: 0) == .realTime)
    #expect(TimeRate(storeKitValue: 6) == .scaled(unit: .day, every: 1))
    #expect(TimeRate(storeKitValue: 15) == .scaled(unit: .month, every: 30))
    #expect(TimeRate(storeKitValue: 1004) == .renewalEvery(seconds: 10))
    #expect(TimeRate(storeKitValue: 1005)?.renewalInterval == 2)
    #expect(TimeRate(storeKitValue: 14) == nil)
    #expect(TimeRate(storeKitValue: 99) == nil)
  }

  @Test func fixedRenewalRulesMakeEveryPeriodTheSameLength() {
    let rules = StoreRules(renewalInterval: 10)
    let start = SimulatedTimeSource.defaultStart
    #expect(rules.end(of: SubscriptionPeriod(value: 1, unit: .year), from: start) == start.addingTimeInterval(10))
    #expect(rules.graceDuration(for: nil) == 10)
    #expect(rules.retryDuration(for: nil) == 40)
    let calendar = StoreRules()
    #expect(calendar.graceDuration(for: SubscriptionPeriod(value: 1, unit: .week)) == 6 * 86_400)
    #expect(calendar.graceDuration(for: SubscriptionPeriod(value: 1, unit: .month)) == 16 * 86_400)
    #expect(calendar.retryDuration(for: nil) == 60 * 86_400)
  }

  @Test func anAcceleratedClockRunsAtItsRate() async throws {
    let start = Date(timeIntervalSince1970: 1_000_000)
    let clock = LiveTimeSource(rate: 86_400, start: start)  // a day a second
    let wall = ContinuousClock.now
    try await clock.sleep(seconds: 8_640)  // a tenth of a day: 0.1 s of wall time
    let elapsed = ContinuousClock.now - wall
    // Not earlier than the rate allows; later only when the machine is busy (2 cores, parallel tests).
    #expect(elapsed >= .milliseconds(95) && elapsed < .seconds(120), "\(elapsed)")
    #expect(clock.now.timeIntervalSince(start) >= 8_640)
    clock.advance(by: 86_400 * 30)
    #expect(clock.now.timeIntervalSince(start) >= 86_400 * 30)
  }

  @Test func anAdvanceWakesAnAcceleratedSleeperAtOnce() async throws {
    let clock = LiveTimeSource(rate: 1)
    let woke = Locked(false)
    let sleeper = Task {
      try? await clock.sleep(seconds: 3600)
      woke.withLock { $0 = true }
    }
    try await Task.sleep(for: .milliseconds(20))
    clock.advance(by: 3600)
    #expect(await eventually(within: 120) { woke.value }, "an hour jumped over wakes the sleeper")
    sleeper.cancel()
  }

  /// A background timer wakes with `advance` but is not work in progress: `play` stays idle.
  @Test func backgroundSleepersAreNotCountedAsWork() async throws {
    let clock = SimulatedTimeSource()
    let woke = Locked(false)
    let timer = Task {
      try? await clock.sleepInBackground(seconds: 60)
      woke.withLock { $0 = true }
    }
    #expect(await eventually(within: 120) { clock.nextDeadline != nil })
    #expect(clock.parkedCount == 0)
    #expect(clock.nextDeadline == SimulatedTimeSource.defaultStart.addingTimeInterval(60))
    clock.advance(by: 60)
    #expect(await eventually(within: 120) { woke.value })
    timer.cancel()
  }
}

/// A small seeded generator, so randomised tests replay exactly.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
