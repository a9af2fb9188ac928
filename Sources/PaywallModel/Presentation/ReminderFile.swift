#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// The trial reminders the device holds for the app between runs. The system keeps an app's
/// pending notifications while the app is closed (iOS's notification center; on Android,
/// WorkManager's enqueued work, which `NotificationScheduler.kt` uses) and drops them when the app
/// is deleted: so a reminder outlives the session that scheduled it, the next session delivers it
/// when its time comes, and a reinstall starts with none. `fireAt` is on the store's clock, which
/// carries on from session to session (the ledger keeps it); `nextNumber` numbers the next
/// reminder where the SDK names each after a UUID (iOS before 4.11), so ids never repeat.
public struct PendingReminders: Sendable, Hashable {
  /// The reminders not delivered yet, soonest first.
  public var reminders: [ScheduledNotification]
  /// The number the next reminder named by number takes.
  public var nextNumber: Int

  /// No reminder pending.
  public static let none = PendingReminders(reminders: [], nextNumber: 1)

  /// `reminders` (ordered soonest first, by id on a tie) and the next number.
  public init(reminders: [ScheduledNotification], nextNumber: Int) {
    self.reminders = reminders.sorted { ($0.fireAt, $0.id) < ($1.fireAt, $1.id) }
    self.nextNumber = max(1, nextNumber)
  }
}

/// `notifications.json` in the state directory: the device's pending reminders (`PendingReminders`),
/// written atomically with a last good copy, as every state file.
public struct ReminderFile: Sendable {
  /// The file's name in the state directory.
  public static let fileName = "notifications.json"
  static let format = "paywall-tui.notifications"
  static let version = 1
  /// The most reminders read back, the file's first. More than a device keeps (iOS keeps an app's
  /// 64 soonest), so only a file made by hand meets it; a bound all the same on what a session
  /// starts timers for and writes back at each delivery.
  static let limit = 1_000
  /// The longest delay a paywall may give (ten years, as its reader allows), in milliseconds.
  static let longestDelayMs = 3.2e11

  /// The file's full path.
  public var path: String

  /// The reminder file of the project whose state lives in `directory`.
  public init(directory: StateDirectory) {
    self.path = directory.file(Self.fileName)
  }

  /// Whether the file is there (a fresh start with none needs no write).
  public var exists: Bool { FileSystem.entryExists(path) }

  /// The saved reminders (none when there is no file); a damaged file is replaced by its last
  /// good copy, or ignored, with a warning that says which.
  public func load(repair: Bool) -> (PendingReminders, warning: String?) {
    switch StateFile.load(path, repair: repair, decode: Self.decodeCounting) {
    case .missing: return (.none, nil)
    case .loaded(let (pending, left)): return (pending, left.map(leftOut))
    case .recovered(let (pending, left), let warning): return (pending, ([warning] + [left.map(leftOut)].compactMap { $0 }).joined(separator: "; "))
    case .unusable(let why, let kept):
      return (.none, "\(path): ignoring the pending trial reminders (\(why))\(kept.map { ", kept as \($0)" } ?? ""); none is delivered")
    }
  }

  private func leftOut(_ count: Int) -> String {
    "\(path) holds \(Self.limit + count) pending reminders; the first \(Self.limit) are kept and the other \(count) dropped (no device keeps that many)"
  }

  /// The reminders, and how many past `limit` were left out (nil: none).
  static func decodeCounting(_ root: JSONNode) throws(StateFile.Problem) -> (PendingReminders, Int?) {
    let pending = try decode(root)
    let total = root["pending"]?.elements?.count ?? 0
    return (pending, total > limit ? total - limit : nil)
  }

  static func decode(_ root: JSONNode) throws(StateFile.Problem) -> PendingReminders {
    guard root["format"]?.stringValue == Self.format, case .number(let v)? = root["version"]?.value, Int(v) == Self.version else {
      throw StateFile.Problem("not a paywall-tui notifications file of version \(Self.version)")
    }
    var next = 1
    if case .number(let text)? = root["nextNumber"]?.value, let number = Int(text), number > 0, number < Int(Int32.max) { next = number }
    guard case .array(let items)? = root["pending"]?.value else { throw StateFile.Problem("no 'pending' list") }
    var reminders: [ScheduledNotification] = []
    for (index, item) in items.prefix(Self.limit).enumerated() {
      guard let id = item["id"]?.stringValue, !id.isEmpty, let paywall = item["paywallId"]?.stringValue,
            let title = item["title"]?.stringValue, let body = item["body"]?.stringValue,
            case .number(let delayText)? = item["delayMs"]?.value, let delay = Double(delayText),
            case .number(let fireText)? = item["fireAt"]?.value, let seconds = Double(fireText), LedgerFile.dateRange.contains(seconds) else {
        throw StateFile.Problem("pending[\(index)] lacks id, paywallId, title, body, delayMs or fireAt")
      }
      guard (0...Self.longestDelayMs).contains(delay) else {
        throw StateFile.Problem("pending[\(index)].delayMs \(delayText) is not from 0 to \(Int(Self.longestDelayMs)) (10 years, the longest a paywall may give)")
      }
      // To the millisecond, as they are written: what is read saves and reads back the same.
      let text = LocalNotification(title: title, subtitle: item["subtitle"]?.stringValue, body: body, delayMs: (delay * 1000).rounded() / 1000)
      reminders.append(ScheduledNotification(id: id, paywallID: paywall, notification: text,
                                             fireAt: StoreDates.wholeMilliseconds(Date(timeIntervalSince1970: seconds))))
    }
    return PendingReminders(reminders: reminders, nextNumber: next)
  }

  /// Saves `pending` atomically, keeping the previous file as the last good copy.
  public func save(_ pending: PendingReminders) throws(AtomicFile.WriteError) {
    let items = pending.reminders.map { reminder in
      var members: [(String, JSONOutput)] = [
        ("id", .string(reminder.id)), ("paywallId", .string(reminder.paywallID)), ("title", .string(reminder.notification.title)),
      ]
      if let subtitle = reminder.notification.subtitle { members.append(("subtitle", .string(subtitle))) }
      members += [
        ("body", .string(reminder.notification.body)), ("delayMs", .number(fixedPoint(reminder.notification.delayMs, places: 3))),
        ("fireAt", LedgerFile.date(reminder.fireAt)),
      ]
      return JSONOutput.object(members)
    }
    let json = JSONOutput.object([
      ("format", .string(Self.format)), ("version", .number("\(Self.version)")), ("nextNumber", .number("\(pending.nextNumber)")),
      ("pending", .array(items)),
    ]).text + "\n"
    try AtomicFile.write(json, to: path, keepingPrevious: true)
  }
}
