#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// Whether the device lets the app post notifications, as a trial's reminders meet it: granted
/// before (`allow`, the default: the reminders are scheduled at once), refused before (`deny`), or
/// never asked (`ask`: the system's prompt shows at the first trial that has reminders, and its
/// answer holds for the rest of the session). `--notifications` and the script step
/// `notifications` set it.
public enum NotificationPermission: String, Sendable, Hashable, CaseIterable {
  case authorized = "allow"
  case denied = "deny"
  case notDetermined = "ask"

  /// The name the event `notification.permission` gives it (UNAuthorizationStatus's words).
  public var statusName: String {
    switch self {
    case .authorized: "authorized"
    case .denied: "denied"
    case .notDetermined: "notDetermined"
    }
  }
}

/// `PaywallOptions.notificationPermissionsDenied` (Superwall-iOS `Config/Options/PaywallOptions.swift`):
/// the alert shown over the paywall when a trial's reminders cannot be scheduled because the user
/// refused notifications. Nil in the options (the SDK's default): no alert. Its texts default to
/// the SDK's.
public struct NotificationDeniedAlert: Sendable, Hashable {
  /// The alert's title.
  public var title = "Notification Permissions Denied"
  /// The text under the title.
  public var message = "Please enable notification permissions from the Settings app so we can notify you when your free trial ends."
  /// The button that opens the Settings app.
  public var actionButtonTitle = "Open Settings"
  /// The button that closes the alert.
  public var closeButtonTitle = "Not now"

  /// The SDK's texts.
  public init() {}
}

/// A question about notifications on screen: the system's permission prompt, or the SDK's alert
/// for a refusal. Both wait for the user; on iOS the paywall's dismissal waits for them too.
public struct PermissionPrompt: Sendable, Hashable {
  /// Which of the two questions.
  public enum Stage: Sendable, Hashable {
    /// The system asks (`requestAuthorization`): Allow or Don't Allow.
    case systemPrompt(appName: String, platform: SDKPlatform)
    /// The SDK's `notificationPermissionsDenied` alert: Open Settings or Not now.
    case deniedAlert(NotificationDeniedAlert)
  }

  /// Which question is on screen.
  public var stage: Stage
  /// The paywall whose reminders wait.
  public var paywallID: String
  /// The reminders that wait for the answer.
  public var notifications: [LocalNotification]

  /// The question (the system's) or the alert's title.
  public var title: String {
    switch stage {
    case .systemPrompt(let name, .ios): "\u{201C}\(name)\u{201D} Would Like to Send You Notifications"
    case .systemPrompt(let name, .android): "Allow \(name) to send you notifications?"
    case .deniedAlert(let alert): alert.title
    }
  }

  /// What the box around the question says it is.
  public var boxTitle: String {
    switch stage {
    case .systemPrompt(_, .ios): "iOS"
    case .systemPrompt(_, .android): "Android"
    case .deniedAlert: "Alert"
    }
  }

  /// The text under the question; empty for Android's prompt, which has none.
  public var message: String {
    switch stage {
    case .systemPrompt(_, .ios): "Notifications may include alerts, sounds, and icon badges. These can be configured in Settings."
    case .systemPrompt(_, .android): ""
    case .deniedAlert(let alert): alert.message
    }
  }

  /// The buttons: the one that refuses (esc), then the one that accepts (enter).
  public var buttons: (refuse: String, accept: String) {
    switch stage {
    case .systemPrompt(_, .ios): ("Don\u{2019}t Allow", "Allow")
    case .systemPrompt(_, .android): ("Don\u{2019}t allow", "Allow")
    case .deniedAlert(let alert): (alert.closeButtonTitle, alert.actionButtonTitle)
    }
  }
}

/// How a free trial's reminders meet the device's permission, as the SDKs ask for it.
///
/// Superwall-iOS (`StoreKit/Transactions/Notifications/NotificationScheduler.swift`,
/// `scheduleNotifications`; awaited by `TransactionManager.trackTransactionDidSucceed` before the
/// paywall is dismissed): reminders already pending are left out first (4.11 on), and with none
/// left nothing is asked. Then `askForPermissionsIfNecessary`: granted goes on; never asked shows
/// the system's prompt (`requestAuthorization`); refused, before or at the prompt, schedules
/// nothing and, when `PaywallOptions.notificationPermissionsDenied` is set, shows its alert over
/// the paywall and waits for it ("Open Settings" opens the Settings app). The paywall closes after.
///
/// Superwall-Android 2.7 (`paywall/view/SuperwallPaywallActivity.kt`
/// `attemptToScheduleNotifications`, launched on a background scope by
/// `dependencies/DependencyContainer.kt`, so the paywall's dismissal does not wait): granted
/// schedules; never asked shows the system's `POST_NOTIFICATIONS` prompt; refused schedules
/// nothing, with no alert (Android has no such option).
enum NotificationPermissions {
  /// A trial started on `paywallID` with `notifications` to schedule.
  static func request(_ notifications: [LocalNotification], paywallID: String, _ state: inout PresentationState,
                      now: Date) -> [PresentationEffect] {
    guard TrialReminders.wouldSchedule(notifications, paywallID: paywallID, state) else { return [] }
    switch state.notificationPermission {
    case .authorized:
      return TrialReminders.schedule(notifications, paywallID: paywallID, &state, now: now)
    case .notDetermined:
      let stage = PermissionPrompt.Stage.systemPrompt(appName: state.project.name, platform: state.options.sdk.platform)
      state.permissionPrompt = PermissionPrompt(stage: stage, paywallID: paywallID, notifications: notifications)
      return []
    case .denied:
      return refused(notifications, paywallID: paywallID, asked: false, &state)
    }
  }

  /// The user's answer to the prompt on screen: `accept` is Allow (the system's prompt) or Open
  /// Settings (the denied alert, which then opens the Settings app: `opensSettings`).
  static func answer(accept: Bool, _ state: inout PresentationState,
                     now: Date) -> (effects: [PresentationEffect], opensSettings: Bool) {
    guard let prompt = state.permissionPrompt else { return ([], false) }
    state.permissionPrompt = nil
    switch prompt.stage {
    case .systemPrompt:
      state.notificationPermission = accept ? .authorized : .denied
      guard accept else { return (refused(prompt.notifications, paywallID: prompt.paywallID, asked: true, &state), false) }
      return ([permissionEvent(.authorized, asked: true, paywallID: prompt.paywallID)]
        + TrialReminders.schedule(prompt.notifications, paywallID: prompt.paywallID, &state, now: now), false)
    case .deniedAlert:
      return ([], accept)
    }
  }

  private static func refused(_ notifications: [LocalNotification], paywallID: String, asked: Bool,
                              _ state: inout PresentationState) -> [PresentationEffect] {
    if state.options.sdk.platform == .ios, let alert = state.options.notificationPermissionsDenied {
      state.permissionPrompt = PermissionPrompt(stage: .deniedAlert(alert), paywallID: paywallID, notifications: notifications)
    }
    return [permissionEvent(.denied, asked: asked, paywallID: paywallID)]
  }

  private static func permissionEvent(_ permission: NotificationPermission, asked: Bool, paywallID: String) -> PresentationEffect {
    .emit(PaywallEvent(.notificationPermission, [("status", .string(permission.statusName)), ("asked", .bool(asked)),
                                                 ("paywall_id", .string(paywallID))]))
  }

  /// Whether the paywall's dismissal waits for a prompt on screen: where the SDK awaits the
  /// scheduling before it dismisses (iOS, Android before 2.6.6).
  static func holdsDismissal(_ state: PresentationState) -> Bool {
    state.permissionPrompt != nil && !state.options.sdk.schedulesRemindersForAnySubscription
  }
}
