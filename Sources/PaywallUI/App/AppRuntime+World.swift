#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import PaywallModel

extension AppRuntime {
  /// Carries out a change of the world; what it did, or nil when there is nothing to say (a
  /// status) or the answer comes later (an advance on `play`'s clock).
  func perform(_ action: DebugAction, announce: Bool) -> WorldReport? {
    let controller = world.controller
    switch action {
    case .setStatus(let status):
      // The change itself reaches the app through the status subscription; nothing more to say.
      world.statusStore.set(status)
      return nil
    case .advanceClock(let distance):
      let end = distance.end(from: world.storeNow)
      guard end <= LedgerFile.latestDate else {
        return WorldReport("the clock cannot go past \(StoreDates.format(LedgerFile.latestDate)), the last date a ledger holds (it is \(StoreDates.format(world.storeNow)) now)", failed: true)
      }
      return advance(by: end.timeIntervalSince(world.storeNow), report: "clock advanced \(distance.spelledOut)", announce: announce)
    case .advanceToNextEvent:
      guard let store = world.store else { return WorldReport("the clock jumps to renewals of the simulated store (--controller simulated)", failed: true) }
      guard let next = store.nextEvent else { return WorldReport("nothing is due: no renewal or expiry ahead", failed: true) }
      return advance(by: max(0, next.timeIntervalSince(store.clock.now)), report: "clock advanced to \(StoreDates.format(next)) UTC", announce: announce)
    case .store(let action):
      guard let store = world.store else { return WorldReport("\(action.name) needs the simulated store (--controller simulated)", failed: true) }
      switch store.perform(action) {
      case .success(let message): return WorldReport(message)
      case .failure(let error): return WorldReport(error.message, failed: true)
      }
    case .failNextPurchase(let message):
      controller.failNextPurchase(message)
      return WorldReport("the next purchase fails: \(message)")
    case .failNextPurchaseWith(let error):
      controller.failNextPurchase(with: error)
      return WorldReport("the next purchase fails: \(error.rawValue)")
    case .failNextPurchaseWithPlay(let response):
      controller.failNextPurchase(with: response)
      return WorldReport("the next purchase fails: \(response.name)")
    case .failNextRestore(let error):
      controller.failNextRestore(with: error)
      return WorldReport("the next restore fails: \(error.rawValue)")
    case .setLatency(let seconds):
      controller.setLatency(seconds: seconds)
      return WorldReport(seconds > 0 ? "every request now takes \(TimeRate.spell(seconds)) longer" : "latency off")
    case .answerNext(let answer):
      switch answer.request {
      case .purchase: controller.answerNextPurchase(answer.purchaseResult, after: answer.seconds)
      case .restore: controller.answerNextRestore(answer.restorationResult, after: answer.seconds)
      }
      return WorldReport("the next \(answer.request.rawValue) answers \(answer.result)")
    case .dropNextResponse:
      controller.dropNextResponse()
      return WorldReport("the next response is dropped: the app gives up after \(TimeRate.spell(controller.responseTimeout))")
    }
  }

  /// Moves the clocks. On `play`'s clock the move waits for the app to be idle and goes deadline
  /// by deadline (`settle`); otherwise every clock jumps at once and the store catches up with
  /// the renewals and expiries that fell due.
  private func advance(by seconds: Double, report: String, announce: Bool) -> WorldReport? {
    if world.simulatedClock != nil {
      pendingAdvances.append((seconds, report, announce))
      return nil
    }
    for clock in world.adjustableClocks { clock.advance(by: seconds) }
    world.store?.refreshStatus()
    return WorldReport(report)
  }
}
