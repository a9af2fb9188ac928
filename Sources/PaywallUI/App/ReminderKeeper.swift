#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import PaywallModel

/// Keeps the device's pending trial reminders in the state directory (`ReminderFile`) as the
/// presenter schedules and delivers them, so the next session finds them. The presenter's list is
/// the truth; this holds each reminder's time on the store's clock (when the timer was started:
/// the store's time plus the delay), which is what carries over, and writes off the loop.
package final class ReminderKeeper {
  private let writer: StateWriter<PendingReminders>?
  /// Each kept reminder's time on the store's clock, by id.
  private var storeTimes: [String: Date] = [:]
  private var saved: PendingReminders
  /// The file holds what the session does not (a reinstall's old reminders): written at the first sync.
  private var stale: Bool

  /// `loaded`: what the file held (none after `--fresh` or `--reinstall`); `stale`: the file holds
  /// something else, so the first `sync` writes even when nothing changes (a reinstall empties it).
  package init(file: ReminderFile?, loaded: PendingReminders, stale: Bool) {
    writer = file.map { file in StateWriter("reminder-writer") { pending throws(AtomicFile.WriteError) in try file.save(pending) } }
    for reminder in loaded.reminders { storeTimes[reminder.id] = reminder.fireAt }
    saved = loaded
    self.stale = stale
  }

  var onFailure: (@Sendable (AtomicFile.WriteError, _ earlierFailures: Int) -> Void)? {
    get { writer?.onFailure }
    set { writer?.onFailure = newValue }
  }

  /// A timer started for `id`, due `seconds` of the store's time from `storeNow`.
  func started(_ id: String, seconds: Double, storeNow: Date) {
    storeTimes[id] = storeNow.addingTimeInterval(seconds)
  }

  /// Writes the presenter's pending reminders when they differ from the file's.
  func sync(_ state: PresentationState) {
    guard let writer else { return }
    let pending = state.pendingNotifications
    if !stale && pending.isEmpty && saved.reminders.isEmpty && saved.nextNumber == state.nextNotificationNumber { return }
    let now = PendingReminders(reminders: pending.map { reminder in
      var kept = reminder
      if let time = storeTimes[reminder.id] { kept.fireAt = time }
      return kept
    }, nextNumber: state.nextNotificationNumber)
    guard now != saved || stale else { return }
    stale = false
    storeTimes = storeTimes.filter { id, _ in pending.contains { $0.id == id } }
    saved = now
    writer.save(now)
  }

  func flush() { writer?.flush() }
}
