import Foundation
import Testing
import PaywallModel

/// Faults for any controller: named store errors, latency and dropped responses.
@Suite struct FaultInjectionTests {
  func rig() -> (FaultInjectingController, SimulatedStore, SubscriptionStatusStore, SimulatedTimeSource) {
    let clock = SimulatedTimeSource()
    let status = SubscriptionStatusStore()
    let store = SimulatedStore(catalog: TestCatalog.catalog, status: status, clock: clock, directory: nil)
    return (FaultInjectingController(store, clock: clock), store, status, clock)
  }

  @Test(arguments: StoreError.allCases)
  func theNextPurchaseFailsWithANamedError(error: StoreError) async {
    let (controller, store, status, _) = rig()
    controller.failNextPurchase(with: error)
    let result = await controller.purchase(product: TestCatalog.monthly)
    if error == .userCancelled {
      #expect(result.name == "cancelled", "StoreKit reports a cancel as a result")
    } else if case .failed(let failure) = result {
      #expect(failure.displayMessage == error.message)
      #expect(failure.displayMessage.contains(error.rawValue), "the alert names the StoreKit error")
    } else {
      Issue.record("expected failed, got \(result.name)")
    }
    #expect(store.entries.isEmpty, "the store never saw it")
    #expect(status.status == .inactive)
    #expect(await controller.purchase(product: TestCatalog.monthly).name == "purchased", "only the next one")
  }

  @Test func theNextRestoreFails() async {
    let (controller, store, _, _) = rig()
    store.purchaseNow(TestCatalog.lifetime)
    controller.failNextRestore(with: .networkError)
    guard case .failed(let error?) = await controller.restorePurchases() else { Issue.record("expected a failure"); return }
    #expect(error.displayMessage == StoreError.networkError.message)
    #expect(await controller.restorePurchases().name == "restored")
  }

  @Test func latencyWaitsOnTheClock() async {
    let (controller, _, status, clock) = rig()
    controller.setLatency(seconds: 2)
    let result = Locked<PurchaseResult?>(nil)
    let task = Task { let r = await controller.purchase(product: TestCatalog.monthly); result.withLock { $0 = r } }
    #expect(await eventually(within: 120) { clock.parkedCount == 1 }, "the request waits on the clock")
    #expect(status.status == .inactive)
    clock.advance(by: 2)
    #expect(await eventually(within: 120) { result.value?.name == "purchased" })
    #expect(status.status == .active(["pro"]))
    _ = await task.value
    #expect(controller.armed.descriptions == ["latency 2s"])
  }

  @Test func aDroppedResponseTimesOutThoughTheStoreCharged() async {
    let (controller, store, status, clock) = rig()
    controller.dropNextResponse()
    #expect(controller.armed.dropNextResponse)
    let result = Locked<PurchaseResult?>(nil)
    let task = Task { let r = await controller.purchase(product: TestCatalog.monthly); result.withLock { $0 = r } }
    #expect(await eventually(within: 120) { clock.parkedCount == 1 })
    #expect(status.status == .active(["pro"]), "the store granted it")
    #expect(store.entries.count == 1)
    clock.advance(by: 9.9)
    #expect(result.value == nil, "the app is still waiting")
    clock.advance(by: 0.1)
    #expect(await eventually(within: 120) { result.value != nil })
    guard case .failed(let error)? = result.value else { Issue.record("expected a failure"); return }
    #expect(error.displayMessage.hasPrefix("No answer from the store within 10s"))
    _ = await task.value
    #expect(!controller.armed.dropNextResponse)
  }
}
