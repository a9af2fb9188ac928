import Foundation
import Testing
import PaywallModel

/// The store's own timer: renewals and expiries happen on time while nobody calls the store.
@Suite struct StoreTimerTests {
  @Test func onTheSimulatedClockTheTimerWaitsInTheBackgroundAndFiresOnTime() async throws {
    let clock = SimulatedTimeSource()
    let status = SubscriptionStatusStore()
    let store = SimulatedStore(catalog: TestCatalog.catalog, status: status, clock: clock, directory: nil)
    store.purchaseNow(TestCatalog.weekly)
    store.perform(.cancel(productID: nil))
    let end = SimulatedTimeSource.defaultStart.addingTimeInterval(days(7))
    #expect(await eventually(within: 120) { clock.nextDeadline == end }, "the store parks a timer for the expiry")
    #expect(clock.parkedCount == 0, "a background timer is not work in progress")
    clock.advance(by: days(6))
    #expect(status.status == .active(["pro"]))
    clock.advance(by: days(1))  // nothing calls the store: its timer does
    #expect(await eventually(within: 120) { status.status == .inactive })
    #expect(store.entries.last?.kind == .expiry)
  }

  @Test func onAnAcceleratedClockTheStatusChangesInWallTime() async throws {
    // A week of store time every 0.4 s of wall time.
    let clock = LiveTimeSource(rate: days(7) / 0.4, start: SimulatedTimeSource.defaultStart)
    let status = SubscriptionStatusStore()
    let store = SimulatedStore(catalog: TestCatalog.catalog, status: status, clock: clock, directory: nil)
    let started = ContinuousClock.now
    store.purchaseNow(TestCatalog.weekly)
    // Counted as renewals, not lines: a long run of them is one line (`LedgerCompactor`).
    #expect(await eventually(within: 120) { store.entries.filter { $0.kind == .renewal }.reduce(0) { $0 + $1.occurrences } >= 2 },
            "it renews by itself, week after week")
    #expect(status.status == .active(["pro"]))
    store.perform(.cancel(productID: nil))
    #expect(await eventually(within: 120) { status.status == .inactive }, "and expires by itself once cancelled")
    #expect(ContinuousClock.now - started >= .milliseconds(700), "on the clock's time, not at once")
    let expiry = try #require(store.entries.last)
    #expect(expiry.kind == .expiry)
    #expect(expiry.date == store.entries.dropLast().last { $0.kind == .renewal }?.lastExpirationDate,
            "recorded at the end of the period, whenever the timer woke")
  }

  @Test func advancingPastSeveralRenewalsCatchesUpInOrder() async throws {
    let clock = LiveTimeSource(rate: 1, start: SimulatedTimeSource.defaultStart)
    let status = SubscriptionStatusStore()
    let store = SimulatedStore(catalog: TestCatalog.catalog, status: status, clock: clock, directory: nil)
    store.purchaseNow(TestCatalog.weekly)
    clock.advance(by: days(30))  // the debug panel's jump: the timer notices within 250 ms
    #expect(await eventually(within: 120) { store.entries.count == 5 })
    #expect(store.entries.map(\.kind) == [.purchase, .renewal, .renewal, .renewal, .renewal])
  }
}
