#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import PaywallModel

/// Keeps the device's pending trial reminders in the state directory (`ReminderFile`) as the
/// presenter schedules and delivers them, so the next session finds them: the presenter's list
/// is the truth (its times on the store's clock, which carries over), written off the loop, and
/// looked at only when it changed.
package final class ReminderKeeper {
  private let writer: StateWriter<PendingReminders>
  /// The presenter's change count last written.
  private var synced: Int?

  /// `stale`: the file holds what this session does not (a reinstall's old reminders), so the
  /// first `sync` writes even when nothing changed.
  package init(file: ReminderFile, stale: Bool, restored state: PresentationState) {
    writer = StateWriter("reminder-writer") { pending throws(AtomicFile.WriteError) in try file.save(pending) }
    synced = stale ? nil : state.reminderChanges
  }

  var onFailure: (@Sendable (AtomicFile.WriteError, _ earlierFailures: Int) -> Void)? {
    get { writer.onFailure }
    set { writer.onFailure = newValue }
  }

  /// Writes the presenter's pending reminders when they changed since the last write.
  func sync(_ state: PresentationState) {
    guard synced != state.reminderChanges else { return }
    synced = state.reminderChanges
    writer.save(PendingReminders(reminders: state.pendingNotifications, nextNumber: state.nextNotificationNumber))
  }

  func flush() { writer.flush() }
}
