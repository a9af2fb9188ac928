import Foundation
import Testing
import PaywallModel

/// `getPresentationResult(forPlacement:params:)` through `Presenter.update`: it answers without
/// presenting, saves the assignment, and keeps an occurrence only for a holdout
/// (`InternalGetPresentationResult.swift`, `GetExperiment.swift`, `GetPresenter.swift`).
@Suite("getPresentationResult")
struct PresentationResultTests {
  static func answer(_ effects: [PresentationEffect]) -> PaywallEvent? {
    PresenterTests.emitted(effects).first { $0.name == .callGetPresentationResult }
  }

  /// The demo with `placement` shown once (an occurrence limit of 1) to everyone: a holdout or a paywall.
  static func limited(_ placement: String, holdout: Int) throws -> PresentationState {
    var project = try PresenterTests.demoProject()
    project.campaigns.append(Campaign(placement: placement, audiences: [
      Audience(filter: nil, outcome: .paywalls([.init(paywallID: "plans", percent: 100)], holdout: holdout), maxOccurrences: 1),
    ]))
    return PresentationState(project: project, status: .inactive, assignments: AssignmentBook(userID: "tester"))
  }

  /// A paywall answer: no `trigger_fire`, the assignment saved, no occurrence used (asking again
  /// still answers the paywall, and a register still presents it); nothing presents.
  @Test func aPaywallAnswerKeepsTheOccurrence() throws {
    var state = try Self.limited("once", holdout: 0)
    let effects = PresenterTests.send(.callGetPresentationResult(placement: "once", params: [:]), &state)
    #expect(PresenterTests.events(effects) == ["call.getPresentationResult"], "\(PresenterTests.events(effects))")
    let answer = try #require(Self.answer(effects))
    #expect(answer["result"] == "paywall" && answer["paywall_id"] == "plans" && answer["variant_type"] == "TREATMENT", "\(answer)")
    #expect(state.assignments.occurrences.isEmpty)
    #expect(!state.assignments.entries.isEmpty)
    #expect(effects.contains { if case .saveAssignments = $0 { true } else { false } })
    #expect(state.session == nil)
    #expect(Self.answer(PresenterTests.send(.callGetPresentationResult(placement: "once", params: [:]), &state))?["result"] == "paywall")
    PresenterTests.send(.register(placement: "once", params: [:]), &state)
    #expect(state.session?.id == "plans")
  }

  /// A holdout answer tracks `trigger_fire` and uses up the occurrence.
  @Test func aHoldoutAnswerUsesTheOccurrence() throws {
    var state = try Self.limited("once", holdout: 100)
    let effects = PresenterTests.send(.callGetPresentationResult(placement: "once", params: [:]), &state)
    #expect(PresenterTests.events(effects) == ["trigger_fire", "call.getPresentationResult"])
    #expect(Self.answer(effects)?["variant_type"] == "HOLDOUT")
    #expect(state.assignments.occurrences.values.map(\.count) == [1])
    let again = PresenterTests.send(.callGetPresentationResult(placement: "once", params: [:]), &state)
    #expect(Self.answer(again)?["result"] == "noAudienceMatch", "the one-time audience is used up")
  }

  /// A paywall on screen does not change the answer (`isPaywallPresented: false`), and stays.
  @Test func aPaywallOnScreenDoesNotMatter() throws {
    var state = try PresenterTests.launching("asked", "onboarding")
    PresenterTests.send(.open(paywallID: "plans", selected: nil), &state)
    let effects = PresenterTests.send(.callGetPresentationResult(placement: "asked", params: [:]), &state)
    #expect(PresenterTests.events(effects) == ["call.getPresentationResult"])
    #expect(Self.answer(effects)?["paywall_id"] == "onboarding")
    #expect(state.session?.id == "plans" && state.session?.isDismissed == false)
  }

  /// With the status unknown the call waits for one; a timeout answers `paywallNotAvailable`.
  @Test func anUnknownStatusWaitsThenTimesOut() throws {
    var state = try PresenterTests.launching("asked", "onboarding", status: .unknown)
    let waits = PresenterTests.send(.callGetPresentationResult(placement: "asked", params: [:]), &state)
    guard case .scheduleStatusTimeout(let id, _)? = waits.last else {
      Issue.record("expected a wait for the status, got \(waits)")
      return
    }
    let timedOut = PresenterTests.send(.statusTimedOut(registrationID: id), &state)
    #expect(PresenterTests.events(timedOut) == ["paywallPresentationRequest", "call.getPresentationResult"])
    #expect(Self.answer(timedOut)?["result"] == "paywallNotAvailable")
    // A known status in time answers at once.
    PresenterTests.send(.callGetPresentationResult(placement: "asked", params: [:]), &state)
    let answered = PresenterTests.send(.statusChanged(.inactive), &state)
    #expect(Self.answer(answered)?["result"] == "paywall")
    #expect(state.session == nil)
  }
}
