#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// What reloading the project (`run --watch`) did to the paywall on screen.
package enum ProjectReloadOutcome: Sendable, Hashable {
  /// No paywall was open.
  case nothingOpen
  /// The paywall is drawn from its new definition, with the same selection where the slot remains.
  case kept(paywallID: String)
  /// The project has no paywall of that id any more: the screen goes home.
  case closed(paywallID: String)
}

extension Presenter {
  /// Puts `project` (edited on disk and loaded again) in place of the one presented from, keeping
  /// the session: the status, the user, the assignments, the registration, the purchase in flight
  /// and its alert, and the selected slot while the new paywall still has it. The open paywall is
  /// resolved again from its new definition; gone from the project, it closes with no event (no
  /// app sees an edit of its paywall) and the screen goes home.
  package static func reload(_ project: Project, _ state: inout PresentationState, now: Date) -> ProjectReloadOutcome {
    state.project = project
    state.options = project.options
    if let last = state.lastPaywallID, project.paywall(id: last) == nil { state.lastPaywallID = nil }
    guard let session = state.session, !session.isDismissed else { return .nothingOpen }
    let params = state.registration?.params ?? [:]
    guard let resolved = resolve(session.id, params: params, state, now: now) else {
      state.session = nil
      state.registration = nil
      state.presentedBy = nil
      state.inheritedGating = nil
      return .closed(paywallID: session.id)
    }
    var next = PaywallFlow.open(resolved, selected: session.selectedSlot).0
    next.activity = session.activity
    next.alert = session.alert
    state.session = next
    return .kept(paywallID: session.id)
  }
}
