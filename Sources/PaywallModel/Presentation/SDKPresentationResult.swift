#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `Superwall.shared.getPresentationResult(forPlacement:params:)`, as the SDK runs it
/// (`Paywall/Presentation/Get Presentation Result/PublicGetPresentationResult.swift` and
/// `InternalGetPresentationResult.swift`): the register's pipeline up to the decision
/// (`GetPaywallComponents.swift`), with a request that says no paywall is presented
/// (`isPaywallPresented: false`), so a paywall on screen does not change the answer. Its params go
/// through `TrackingLogic.processParameters` as a register's do.
///
/// - The status is waited for as a register waits (5 s); a timeout tracks the request's
///   `subscriptionStatus_timeout` and answers `paywallNotAvailable` (`handle`, which maps every
///   presentation error other than no match, a holdout and an unknown placement to it).
/// - A holdout or no match tracks `trigger_fire` (`GetExperiment.swift`; `shouldConfirmAssignments`
///   is true for this request type, `PresentationRequest.swift`), and a holdout saves its audience's
///   occurrence; a paywall tracks no `trigger_fire` (`GetPresenter.swift`) and saves no occurrence
///   (only a paywall that presents does: `PaywallViewController.swift`). The assignment is
///   confirmed either way (`ConfirmHoldoutAssignment.swift`, `ConfirmPaywallAssignment.swift`).
/// - Nothing else: no `paywallPresentationRequest` for a skip, no handler, no paywall, no feature.
///   Our `call.getPresentationResult` says what the call returned.
extension SDKCalls {
  static func presentationResult(_ placement: String, params: [String: String], _ state: inout PresentationState,
                                 now: Date) -> [PresentationEffect] {
    let registration = Registration(id: state.newRegistrationID(), placement: placement, params: params, asksForResult: true)
    guard state.status == .unknown else { return answerPresentationResult(registration, &state, now: now) }
    // One registration waits for the status at a time here (as `Presenter.implicitTrigger`): the
    // call that finds another waiting answers at once, as if it had timed out.
    guard state.waiting == nil else { return [answered(placement, "paywallNotAvailable")] }
    state.waiting = registration
    return [.scheduleStatusTimeout(registrationID: registration.id, seconds: PresentationState.statusTimeout)]
  }

  /// The answer for a registration made by `getPresentationResult`, with a known status.
  static func answerPresentationResult(_ registration: Registration, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    var book = state.assignments
    var evaluation = PlacementRules.evaluate(registration.placement, project: state.project,
                                             context: Presenter.context(for: registration, state, now: now), book: &book)
    evaluation.sdk = state.options.sdk
    if let undecided = evaluation.undecided {
      // A rule the emulator cannot evaluate and the tester has not decided: no answer until it
      // is (`play` fails naming --assume-rule). Nothing is asked again: the call is not a register.
      state.outcome = RegistrationOutcome(registrationID: registration.id, placement: registration.placement, kind: .undecided(undecided))
      state.undecidedRegistration = nil
      return []
    }
    if evaluation.abandoned != nil {
      // Over the evaluation's budget or interrupted: no decision, so no paywall either.
      return [answered(registration.placement, "paywallNotAvailable")]
    }
    // Only a holdout keeps the occurrence it recorded.
    if case .present = evaluation.outcome { book.occurrences = state.assignments.occurrences }
    var effects: [PresentationEffect] = []
    if book != state.assignments {
      state.assignments = book
      effects.append(.saveAssignments(book))
    }
    if case .skip = evaluation.outcome, let fire = SDKEvents.triggerFire(evaluation, sdk: state.options.sdk) {
      effects.append(.emit(fire))
    }
    let name = PresentationResultNames.name(evaluation)
    var extra: [(String, JSONOutput)] = []
    if name == "paywall" || name == "holdout" {
      extra += [("experiment_id", .string(evaluation.experimentID ?? "")),
                ("variant_id", .string(PresentationResultNames.variantID(evaluation))),
                ("variant_type", .string(name == "holdout" ? "HOLDOUT" : "TREATMENT"))]
      if case .present(let paywallID) = evaluation.outcome { extra.append(("paywall_id", .string(paywallID))) }
    }
    return effects + [answered(registration.placement, name, extra)]
  }

  /// `call.getPresentationResult`: what the call returned.
  static func answered(_ placement: String, _ result: String, _ extra: [(String, JSONOutput)] = []) -> PresentationEffect {
    .emit(PaywallEvent(.callGetPresentationResult, [("placement", .string(placement)), ("result", .string(result))] + extra))
  }
}
