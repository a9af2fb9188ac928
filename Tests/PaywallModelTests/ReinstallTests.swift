import Foundation
import PaywallModel
import Testing

/// The script step `reinstall`: the app deleted and installed again on the same account, within
/// one run. What the app kept goes; what the store keeps stays.
@Suite("Reinstall")
struct ReinstallTests {
  static func names(_ effects: [PresentationEffect]) -> [String] { TrialReminderTests.names(effects) }

  @Test func theAppsStateStartsOverAndAFirstLaunchFollows() throws {
    var state = try TrialReminderTests.state(sdk: .latest)
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    state.assignments = AssignmentBook(userID: "$anon:old", entries: ["p#0": "onboarding"])
    state.assignments.installedAt = Date(timeIntervalSince1970: 1_700_000_000)
    // A trial's reminder pending, the permission answered, a paywall on screen, the status known.
    _ = Presenter.update(&state, .open(paywallID: "onboarding", selected: "primary"), now: now)
    _ = Presenter.update(&state, .paywall(.purchase(slot: nil)), now: now)
    _ = Presenter.update(&state, .purchaseFinished(.purchased), now: now)
    _ = Presenter.update(&state, .open(paywallID: "onboarding", selected: "primary"), now: now)
    #expect(state.pendingNotifications.count == 1)
    state.status = .active(["pro"])

    let later = now.addingTimeInterval(3600)
    let effects = Presenter.update(&state, .reinstall(userID: "$anon:new"), now: later)
    let names = Self.names(effects)
    #expect(names.first == "app_close", "\(names)")
    #expect(names.contains("app_install") && names.contains("first_seen"), "\(names)")
    #expect(!names.contains("paywall_close"), "the screen goes with the process, with no event: \(names)")
    #expect(state.session == nil)
    #expect(state.assignments.userID == "$anon:new" && state.assignments.entries.isEmpty)
    #expect(state.assignments.installedAt == later)
    #expect(effects.contains(.saveAssignments(state.assignments)))
    #expect(state.pendingNotifications.isEmpty)
    #expect(state.notificationPermission == .notDetermined)
    // The app's own purchase controller: the status cache went with the app.
    #expect(state.status == .unknown)
    #expect(effects.contains(.saveStatus(.unknown)))
  }

  /// The SDK buying through the store itself reads the account's entitlements again: the status stays.
  @Test func withTheStoreBuyingTheStatusStays() throws {
    var state = try TrialReminderTests.state(sdk: .latest)
    state.hasPurchaseController = false
    state.status = .active(["pro"])
    let effects = Presenter.update(&state, .reinstall(userID: "anonymous"), now: Date(timeIntervalSince1970: 1_800_000_000))
    #expect(state.status == .active(["pro"]))
    #expect(!effects.contains(.saveStatus(.unknown)))
  }
}
