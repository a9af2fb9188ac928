import Foundation
import PaywallModel
import PaywallUI

extension AppModel {
  /// `update` at the fixtures' fixed moment: the model's tests never depend on the day.
  package static func update(_ state: inout AppState, _ message: AppMessage) -> [AppEffect] {
    update(&state, message, now: Fixtures.now)
  }
}

extension AppRuntime {
  /// A runtime for a test, built from parts as the composition root would: the controller wrapped
  /// in the fault injector, a simulated clock moved only by `advance`.
  package convenience init(state: AppState, controller: any PurchaseController, statusStore: SubscriptionStatusStore, clock: SimulatedTimeSource,
                   statusCache: StatusCache?, store: SimulatedStore? = nil, timeRate: String = "realtime",
                   onEvent: @escaping @Sendable (PaywallEvent) -> Void) {
    let injector = controller as? FaultInjectingController ?? FaultInjectingController(controller, clock: clock)
    let world = AppWorld(controller: injector, statusStore: statusStore, clock: clock, simulatedClock: clock, adjustableClocks: [clock],
                         store: store, timeRate: timeRate)
    self.init(state: state, world: world, statusCache: statusCache, animates: false, onEvent: onEvent)
  }
}
