#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// A trial's reminders on the device, as the SDK's `NotificationScheduler`
/// (`StoreKit/Transactions/Notifications/NotificationScheduler.swift`) schedules them: each
/// `delay` ms after the purchase, text as written; from 4.11.0 one already pending for the
/// paywall is skipped. The device is a production one (no sandbox's day-as-a-minute) whose user
/// allowed notifications; iOS tracks nothing, so both events are ours. Superwall-Android schedules
/// them after any subscription bought on a paywall, trial or not (`TransactionManager.kt` calls
/// `notifyOfTransactionComplete` for every purchase with a subscription period).
enum TrialReminders {
  static func schedule(_ notifications: [LocalNotification], paywallID: String, _ state: inout PresentationState,
                       now: Date) -> [PresentationEffect] {
    var effects: [PresentationEffect] = []
    let dedupes = state.options.sdk.dedupesTrialReminders
    let start = state.storeNow ?? now
    for notification in notifications {
      let id: String
      if let named = paywallNamedID(paywallID, state) {
        if dedupes && state.pendingNotifications.contains(where: { $0.id == named }) { continue }
        id = named
      } else {
        // A UUID on iOS, the config's number on Android (a random one when it has none); a
        // counter here, so a script's events are the same every run.
        let prefix = state.options.sdk.platform == .android ? "" : "com.superwall.ios-"
        id = "\(prefix)\(state.nextNotificationNumber)"
        state.nextNotificationNumber += 1
      }
      let seconds = notification.delayMs / 1000
      let scheduled = ScheduledNotification(id: id, paywallID: paywallID, notification: notification,
                                            fireAt: start.addingTimeInterval(seconds))
      state.pendingNotifications.append(scheduled)
      state.reminderChanges += 1
      effects.append(.emit(PaywallEvent(.notificationSchedule, [
        ("id", .string(id)), ("paywall_id", .string(paywallID)), ("type", .string(LocalNotification.trialStartedType)),
        ("title", .string(notification.title)), ("fire_at", .string(StoreDates.format(scheduled.fireAt))),
      ])))
      effects.append(.scheduleNotification(id: id, seconds: seconds))
    }
    return effects
  }

  /// Whether `schedule` would schedule any of `notifications`: not when every one is already
  /// pending for the paywall (4.11 on), which the SDK checks before it asks for permission.
  static func wouldSchedule(_ notifications: [LocalNotification], paywallID: String, _ state: PresentationState) -> Bool {
    guard !notifications.isEmpty else { return false }
    guard state.options.sdk.dedupesTrialReminders, let named = paywallNamedID(paywallID, state) else { return true }
    return !state.pendingNotifications.contains { $0.id == named }
  }

  /// A reminder's identifier when it is named after its paywall: on Android from 2.6.6
  /// (`DependencyContainer.kt` names each `PAYWALL_TRIAL_STARTED`; `NotificationScheduler.kt` skips
  /// work already enqueued under that name; 2.7 here), from 4.11 on iOS. Nil when each request has
  /// a name of its own (iOS before 4.11, Android before 2.7: the config's id).
  static func paywallNamedID(_ paywallID: String, _ state: PresentationState) -> String? {
    if state.options.sdk.platform == .android {
      return state.options.sdk.schedulesRemindersForAnySubscription ? "\(paywallID)_\(LocalNotification.trialStartedType)" : nil
    }
    return state.options.sdk.dedupesTrialReminders ? "com.superwall.ios-\(paywallID)-\(LocalNotification.trialStartedType)" : nil
  }

  /// A reminder's timer fired. The timer of one a reinstall dropped fires before the new
  /// install's under the same id (scheduled earlier, with the same delay) and delivers nothing.
  static func timerFired(_ id: String, _ state: inout PresentationState) -> [PresentationEffect] {
    if let stale = state.droppedReminderTimers[id] {
      state.droppedReminderTimers[id] = stale > 1 ? stale - 1 : nil
      return []
    }
    return deliver(id, &state)
  }

  static func deliver(_ id: String, _ state: inout PresentationState) -> [PresentationEffect] {
    guard let index = state.pendingNotifications.firstIndex(where: { $0.id == id }) else { return [] }
    let delivered = state.pendingNotifications.remove(at: index)
    state.reminderChanges += 1
    let text = delivered.notification
    var params: [(String, JSONOutput)] = [("id", .string(id)), ("paywall_id", .string(delivered.paywallID)), ("title", .string(text.title))]
    if let subtitle = text.subtitle { params.append(("subtitle", .string(subtitle))) }
    params.append(("body", .string(text.body)))
    params.append(("fire_at", .string(StoreDates.format(delivered.fireAt))))
    return [.emit(PaywallEvent(.notificationDeliver, params))]
  }

  /// At launch: the reminders whose time came while the app was closed, soonest first. The
  /// system showed them then; the session shows them now, each with the `fire_at` it had.
  static func deliverOverdue(_ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    let now = state.storeNow ?? now
    let due = state.pendingNotifications.filter { $0.fireAt <= now }.sorted { ($0.fireAt, $0.id) < ($1.fireAt, $1.id) }
    return due.flatMap { deliver($0.id, &state) }
  }
}

extension PresentationState {
  /// The reminders the device kept from earlier sessions (`ReminderFile`), before launch, on the
  /// store's clock as the file keeps them. Those already due are delivered by `.launch`.
  package mutating func restoreReminders(_ pending: PendingReminders) {
    pendingNotifications = pending.reminders
    nextNotificationNumber = max(nextNotificationNumber, pending.nextNumber)
    reminderChanges += 1
  }
}
