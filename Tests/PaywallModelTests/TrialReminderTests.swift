import Foundation
import PaywallModel
import Testing

/// A paywall's `localNotifications`: read from our JSON and a Superwall config, scheduled by a
/// free-trial start as the SDK's `NotificationScheduler` does, deduplicated from 4.11.0.
@Suite("Trial reminders")
struct TrialReminderTests {
  static func paywall(_ notifications: String) -> String {
    """
    {"id": "p", "name": "P", "products": {"primary": "com.acme.pro.annual"},
     "components": [{"type": "title", "text": "Hi"}, {"type": "button", "label": "Buy", "action": "purchase"}],
     "localNotifications": [\(notifications)]}
    """
  }

  @Test func aDelayIsMillisecondsOrADuration() throws {
    let (paywall, diagnostics) = try PaywallReaderTests.read(Self.paywall("""
      {"type": "trialStarted", "title": "T", "subtitle": "S", "body": "B", "delay": "5d"},
      {"type": "trialStarted", "title": "T2", "body": "B2", "delay": 90000}
      """))
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
    #expect(paywall?.localNotifications == [LocalNotification(title: "T", subtitle: "S", body: "B", delayMs: 5 * 86_400_000),
                                            LocalNotification(title: "T2", body: "B2", delayMs: 90_000)])
  }

  @Test(arguments: [
    (#"{"type": "trialStarted", "title": "T", "body": "B", "delay": 0}"#, "'delay' must be more than 0"),
    (#"{"type": "trialStarted", "title": "T", "body": "B", "delay": "soon"}"#, "'delay' must be a number of milliseconds"),
    (#"{"type": "trialEnding", "title": "T", "body": "B", "delay": 1}"#, "unknown type 'trialEnding'"),
  ])
  func aBadNotificationIsAnErrorAtItsPath(json: String, message: String) throws {
    let (paywall, diagnostics) = try PaywallReaderTests.read(Self.paywall(json))
    #expect(paywall == nil)
    #expect(diagnostics.contains { $0.message.contains(message) && ($0.path?.description ?? "").contains("localNotifications[0]") },
            "\(diagnostics.map(\.description))")
  }

  static func state(sdk: SDKVersion) throws -> PresentationState {
    var definition = PaywallFlowTests.definition
    definition.localNotifications = [LocalNotification(title: "Ends soon", body: "B", delayMs: 3_600_000)]
    let project = Project(name: "t", catalog: PaywallFlowTests.catalog, paywalls: [definition], campaigns: [])
    var options = project.options
    options.sdk = sdk
    return PresentationState(project: project, options: options, status: .inactive)
  }

  static func names(_ effects: [PresentationEffect]) -> [String] {
    effects.compactMap { if case .emit(let e) = $0 { e.name.rawValue } else { nil } }
  }

  /// The trial's start schedules before the paywall closes; a paid start schedules nothing.
  @Test func aTrialStartSchedulesBeforeTheCloseAndA411DeviceKeepsOnePending() throws {
    var state = try Self.state(sdk: .latest)
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    for round in 1...2 {
      _ = Presenter.update(&state, .open(paywallID: "onboarding", selected: "primary"), now: now)
      _ = Presenter.update(&state, .paywall(.purchase(slot: nil)), now: now)
      let effects = Presenter.update(&state, .purchaseFinished(.purchased), now: now)
      let names = Self.names(effects)
      if round == 1 {
        #expect(names.firstIndex(of: "notification.schedule")! < names.firstIndex(of: "paywall_close")!, "\(names)")
        #expect(effects.contains(.scheduleNotification(id: "com.superwall.ios-onboarding-TRIAL_STARTED", seconds: 3600)))
      } else {
        #expect(!names.contains("notification.schedule"), "\(names)")
      }
    }
    #expect(state.pendingNotifications.count == 1)
    let delivered = Presenter.update(&state, .notificationDue(id: "com.superwall.ios-onboarding-TRIAL_STARTED"), now: now)
    #expect(Self.names(delivered) == ["notification.deliver"])
    #expect(state.pendingNotifications.isEmpty)
  }

  /// In `run` the store's clock runs at its time rate, apart from the app's: a reminder's time is
  /// on the store's (what events are stamped with, and what carries over to the next session).
  /// `fire_at` was the app's clock plus the delay, days away from the delivery's own time.
  @Test func aRemindersTimeIsOnTheStoresClock() throws {
    var state = try Self.state(sdk: .latest)
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let storeNow = now.addingTimeInterval(3 * 86_400)
    state.storeNow = storeNow
    _ = Presenter.update(&state, .open(paywallID: "onboarding", selected: "primary"), now: now)
    _ = Presenter.update(&state, .paywall(.purchase(slot: nil)), now: now)
    let effects = Presenter.update(&state, .purchaseFinished(.purchased), now: now)
    #expect(state.pendingNotifications.first?.fireAt == storeNow.addingTimeInterval(3600))
    let schedule = effects.compactMap { if case .emit(let e) = $0, e.name == .notificationSchedule { e } else { nil } }.first
    #expect(schedule?["fire_at"] == .string(StoreDates.format(storeNow.addingTimeInterval(3600))))
    // Due at launch only once the store's clock has passed it, whatever the app's says.
    state.storeNow = storeNow.addingTimeInterval(3599)
    #expect(!Self.names(Presenter.update(&state, .launch(firstInstall: false), now: now.addingTimeInterval(7200))).contains("notification.deliver"))
    state.storeNow = storeNow.addingTimeInterval(3600)
    #expect(Self.names(Presenter.update(&state, .launch(firstInstall: false), now: now)).first == "notification.deliver")
  }

  @Test func before411EachTrialSchedulesItsOwn() throws {
    var state = try Self.state(sdk: try SDKVersion.parse("4.10").get())
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var ids: [String] = []
    for _ in 1...2 {
      _ = Presenter.update(&state, .open(paywallID: "onboarding", selected: "primary"), now: now)
      _ = Presenter.update(&state, .paywall(.purchase(slot: nil)), now: now)
      for case .scheduleNotification(let id, _) in Presenter.update(&state, .purchaseFinished(.purchased), now: now) { ids.append(id) }
    }
    #expect(ids == ["com.superwall.ios-1", "com.superwall.ios-2"])
  }

  @Test func aPaidStartSchedulesNothing() throws {
    var state = try Self.state(sdk: .latest)
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    _ = Presenter.update(&state, .open(paywallID: "onboarding", selected: "secondary"), now: now)
    _ = Presenter.update(&state, .paywall(.purchase(slot: nil)), now: now)
    let effects = Presenter.update(&state, .purchaseFinished(.purchased), now: now)
    #expect(Self.names(effects).contains("subscription_start"))
    #expect(!Self.names(effects).contains("notification.schedule"))
  }

  /// `local_notifications`: `type` `TRIAL_STARTED` only; one that fails is dropped with a warning.
  @Test func anImportedConfigKeepsTheNotificationsTheSDKDecodes() throws {
    let notifications = #"""
      "local_notifications": [
        {"type": "TRIAL_STARTED", "title": "Ends soon", "body": "Cancel anytime", "delay": 259200000},
        {"type": "TRIAL_ENDED", "title": "X", "body": "Y", "delay": 1}
      ],
      "background_color_hex"
      """#
    let config = SuperwallImportTests.sdkExcerpt.replacingOccurrences(of: "\"background_color_hex\"", with: notifications)
    let result = try SuperwallImportTests.load(config)
    let paywall = try #require(result.project?.paywall(id: "example-paywall-4de1-2022-03-15"), "\(result.diagnostics.map(\.description))")
    #expect(paywall.localNotifications == [LocalNotification(title: "Ends soon", body: "Cancel anytime", delayMs: 259_200_000)])
    #expect(result.warnings.contains { $0.message.contains("local notification skipped") && $0.message.contains("TRIAL_ENDED") },
            "\(result.warnings.map(\.description))")
  }
}
