import Foundation
import Synchronization
import Testing

@testable import PaywallModel

/// `play`'s clock: timers due at one instant wake one at a time, in the order they were set.
@Suite struct SimulatedClockTests {
  final class Woken: Sendable {
    let names = Mutex<[String]>([])
    func append(_ name: String) { names.withLock { $0.append(name) } }
    var all: [String] { names.withLock { $0 } }
  }

  /// Waits (5 s at most) until `count` sleepers are parked.
  static func waitUntilParked(_ clock: SimulatedTimeSource, _ count: Int) async throws {
    let deadline = ContinuousClock.now + .seconds(5)
    while clock.parkedCount < count {
      guard ContinuousClock.now < deadline else { throw CancellationError() }
      try await Task.sleep(for: .milliseconds(1))
    }
  }

  /// Two sleepers with one deadline (two trial reminders scheduled in the same second): `move`
  /// wakes nobody, `wakeNextDue` the first to sleep, then the second, then none. Waking both at
  /// once let the order they ran in decide which notification was delivered first.
  @Test func sleepersDueAtOneInstantWakeInTheOrderTheySlept() async throws {
    let clock = SimulatedTimeSource()
    let woken = Woken()
    let first = Task { try await clock.sleep(seconds: 60); woken.append("first") }
    try await Self.waitUntilParked(clock, 1)
    let second = Task { try await clock.sleep(seconds: 60); woken.append("second") }
    try await Self.waitUntilParked(clock, 2)
    #expect(clock.parkedCount == 2)
    clock.move(by: 60)
    #expect(clock.parkedCount == 2, "moving the clock wakes nobody")
    #expect(clock.wakeNextDue())
    try await first.value
    #expect(woken.all == ["first"])
    #expect(clock.wakeNextDue())
    try await second.value
    #expect(woken.all == ["first", "second"])
    #expect(!clock.wakeNextDue())
  }

  /// A sleeper whose deadline has not come stays parked.
  @Test func aSleeperNotYetDueStaysParked() async throws {
    let clock = SimulatedTimeSource()
    let sleeper = Task { try await clock.sleep(seconds: 60) }
    try await Self.waitUntilParked(clock, 1)
    clock.move(by: 59)
    #expect(!clock.wakeNextDue())
    #expect(clock.parkedCount == 1)
    sleeper.cancel()
    _ = try? await sleeper.value
  }
}
