import Foundation
import PaywallModel
import Testing

/// A trial's reminders on a device that has not allowed notifications: the system's prompt, the
/// SDK's `notificationPermissionsDenied` alert, and the paywall's dismissal waiting for both on
/// iOS (`NotificationScheduler.scheduleNotifications`, awaited by `TransactionManager`), not on
/// Android (`SuperwallPaywallActivity.attemptToScheduleNotifications`, launched apart).
@Suite("Notification permission")
struct NotificationPermissionTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  static func state(_ permission: NotificationPermission, platform: SDKPlatform = .ios,
                    deniedAlert: NotificationDeniedAlert? = nil) throws -> PresentationState {
    var state = try TrialReminderTests.state(sdk: .latest(for: platform))
    state.notificationPermission = permission
    state.options.notificationPermissionsDenied = deniedAlert
    return state
  }

  /// Opens the paywall and buys its trial; the effects of the purchase's answer.
  static func buyTrial(_ state: inout PresentationState) -> [PresentationEffect] {
    _ = Presenter.update(&state, .open(paywallID: "onboarding", selected: "primary"), now: now)
    _ = Presenter.update(&state, .paywall(.purchase(slot: nil)), now: now)
    return Presenter.update(&state, .purchaseFinished(.purchased), now: now)
  }

  static func names(_ effects: [PresentationEffect]) -> [String] { TrialReminderTests.names(effects) }

  @Test func neverAskedTheSystemPromptHoldsTheDismissalUntilAllowed() throws {
    var state = try Self.state(.notDetermined)
    let bought = Self.buyTrial(&state)
    #expect(Self.names(bought) == ["transaction_complete", "freeTrial_start"], "\(Self.names(bought))")
    let prompt = try #require(state.permissionPrompt)
    #expect(prompt.title == "\u{201C}t\u{201D} Would Like to Send You Notifications")
    #expect(prompt.buttons == ("Don\u{2019}t Allow", "Allow"))
    #expect(state.session?.isDismissed == false, "the paywall waits for the answer")
    // The paywall's own keys wait for the prompt.
    #expect(Presenter.update(&state, .paywall(.close), now: Self.now).isEmpty)

    let answered = Presenter.update(&state, .answerNotificationPrompt(accept: true), now: Self.now)
    let names = Self.names(answered)
    #expect(names.first == "notification.permission", "\(names)")
    #expect(names.firstIndex(of: "notification.schedule")! < names.firstIndex(of: "paywall_close")!, "\(names)")
    #expect(state.permissionPrompt == nil && state.notificationPermission == .authorized)
    #expect(state.closed?.result == .purchased(productID: "annual"))
    // Asked once: the next trial's reminders need no prompt (4.11 leaves out the one pending).
    #expect(state.pendingNotifications.count == 1)
  }

  @Test func dontAllowSchedulesNothingAndWithoutTheOptionClosesAtOnce() throws {
    var state = try Self.state(.notDetermined)
    _ = Self.buyTrial(&state)
    let answered = Presenter.update(&state, .answerNotificationPrompt(accept: false), now: Self.now)
    let names = Self.names(answered)
    #expect(!names.contains("notification.schedule"), "\(names)")
    #expect(names.contains("paywall_close"), "\(names)")
    let permission = try #require(answered.compactMap { if case .emit(let e) = $0, e.name == .notificationPermission { e } else { nil } }.first)
    #expect(permission["status"] == .string("denied") && permission["asked"] == .bool(true))
    #expect(state.notificationPermission == .denied && state.pendingNotifications.isEmpty)
  }

  @Test func refusedBeforeWithTheOptionTheAlertHoldsTheCloseAndOpenSettingsSendsTheAppAway() throws {
    var alert = NotificationDeniedAlert()
    alert.title = "Reminders are off"
    var state = try Self.state(.denied, deniedAlert: alert)
    let bought = Self.buyTrial(&state)
    #expect(Self.names(bought) == ["transaction_complete", "freeTrial_start", "notification.permission"], "\(Self.names(bought))")
    let prompt = try #require(state.permissionPrompt)
    #expect(prompt.title == "Reminders are off")
    #expect(prompt.buttons == ("Not now", "Open Settings"))
    #expect(state.session?.isDismissed == false)

    let answered = Self.names(Presenter.update(&state, .answerNotificationPrompt(accept: true), now: Self.now))
    #expect(answered.firstIndex(of: "paywall_close")! < answered.firstIndex(of: "app_close")!, "\(answered)")
    #expect(state.appSession.inBackground)
    #expect(state.pendingNotifications.isEmpty)
  }

  @Test func refusedBeforeWithoutTheOptionNothingIsShown() throws {
    var state = try Self.state(.denied)
    let names = Self.names(Self.buyTrial(&state))
    #expect(names.contains("notification.permission") && names.contains("paywall_close") && !names.contains("notification.schedule"),
            "\(names)")
    #expect(state.permissionPrompt == nil)
  }

  /// Superwall-Android launches the scheduling apart: the paywall closes with the prompt up, and
  /// a refusal shows no alert (Android has no such option).
  @Test func onAndroidThePaywallClosesWithThePromptUpAndARefusalShowsNoAlert() throws {
    var state = try Self.state(.notDetermined, platform: .android)
    let names = Self.names(Self.buyTrial(&state))
    #expect(names.contains("paywall_close"), "\(names)")
    let prompt = try #require(state.permissionPrompt)
    #expect(prompt.title == "Allow t to send you notifications?" && prompt.message.isEmpty)
    _ = Presenter.update(&state, .answerNotificationPrompt(accept: false), now: Self.now)
    #expect(state.permissionPrompt == nil && state.notificationPermission == .denied)
  }

  /// A paid start schedules nothing, so nothing is asked.
  @Test func aPaidStartAsksNothing() throws {
    var state = try Self.state(.notDetermined)
    _ = Presenter.update(&state, .open(paywallID: "onboarding", selected: "secondary"), now: Self.now)
    _ = Presenter.update(&state, .paywall(.purchase(slot: nil)), now: Self.now)
    _ = Presenter.update(&state, .purchaseFinished(.purchased), now: Self.now)
    #expect(state.permissionPrompt == nil && state.session?.isDismissed != false)
  }
}
