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

/// Whether the app is in front, and when it last went to the background: what the SDK's
/// `AppSessionManager` keeps to decide a new session (`Analytics/App Session/AppSessionManager.swift`).
public struct AppSessionState: Sendable, Hashable {
  /// The app has resigned active (the home screen, another app) and not come back.
  public var inBackground = false
  /// When it last resigned active in this process (`lastAppClose`); nil since the launch.
  public var lastAppClose: Date?

  /// In front, never closed since the launch.
  public init() {}
}

/// The app going to the background and coming back, as the SDK tracks it
/// (`Analytics/App Session/AppSessionManager.swift`):
///
/// - `applicationWillResignActive` tracks `app_close` and notes the time (`lastAppClose`);
/// - `applicationDidBecomeActive` tracks `app_open`, then `detectNewSession`: a new session when
///   the app was away for more than the config's `appSessionTimeoutMs` (strictly more:
///   `AppSessionLogic.didStartNewSession`, `Analytics/App Session/AppSessionLogic.swift`; the
///   timeout is `Config/Models/Config.swift`'s `app_session_timeout_ms`, 1 hour before a config
///   arrives). A new session tracks `session_start`, an implicit trigger: its campaign presents, or
///   with a paywall on screen is refused and only logged. `app_launch` is once a process
///   (`trackAppLaunch`), never on a return.
///
/// Nothing on screen changes: a paywall stays through it. Whether a paywall was presented in the
/// process (`hasPresentedPaywall`) is kept: a new session does not reset it.
extension Presenter {
  static func background(_ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    guard !state.appSession.inBackground else { return [] }
    state.appSession.inBackground = true
    state.appSession.lastAppClose = now
    return [.emit(PaywallEvent(.appClose, []))]
  }

  static func foreground(_ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    guard state.appSession.inBackground else { return [] }
    state.appSession.inBackground = false
    var effects: [PresentationEffect] = [.emit(PaywallEvent(.appOpen, []))]
    guard startsNewSession(state, now: now) else { return effects }
    effects.append(.emit(PaywallEvent(.sessionStart, [])))
    effects.append(.emit(userAttributesEvent(state)))
    effects += implicitTrigger(EventName.sessionStart.rawValue, &state, now: now)
    return effects
  }

  /// `user_attributes` as a new session (`AppSessionManager.detectNewSession`) and every merge
  /// (`IdentityManager.mergeUserAttributes`) track it: the install date, then the user's
  /// attributes as `IdentityLogic.mergeAttributes` keeps them: typed; `$application_installed_at`
  /// skipped; a key that starts with `$` loses its `$`s and takes the value the plain key has (none:
  /// removed), as the SDK looks it up; `null` removed; `applicationInstalledAt` set last, over the
  /// user's own. The SDK's own `aliasId` and `seed` are left out: users and their buckets here are
  /// the emulator's own. A user attribute named like the event's own `application_installed_at`
  /// is left out of the event, which has one key of each name.
  package static func userAttributesEvent(_ state: PresentationState) -> PaywallEvent {
    let installed = JSONOutput.string(state.assignments.installedAt.map(StoreDates.sdkISOString) ?? "")
    let attributes = state.userAttributes
    var merged: [String: JSONOutput] = [:]
    // Sorted, so the same attributes always give the same event.
    for key in attributes.keys.sorted() where key != "$is_standard_event" && key != "$application_installed_at" {
      let name = key.hasPrefix("$") ? key.replacingOccurrences(of: "$", with: "") : key
      merged[name] = attributes[name].flatMap(typed)
    }
    merged["applicationInstalledAt"] = nil
    merged["application_installed_at"] = nil
    // Superwall-Android sends the identity's attributes (`enrichedAttributes`): `appUserId` too,
    // once the user is identified.
    if state.options.sdk.platform == .android, let id = identifiedUserID(state) { merged["appUserId"] = .string(id) }
    var params: [(String, JSONOutput)] = [("application_installed_at", installed)]
    params += merged.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    params.append(("applicationInstalledAt", installed))
    return PaywallEvent(.userAttributes, params)
  }

  /// The user's id once identified (`--user-id`, a user of the state directory's), nil for an anonymous one.
  static func identifiedUserID(_ state: PresentationState) -> String? {
    let id = state.assignments.userID
    return id.hasPrefix("$anon:") || id == "anonymous" ? nil : id
  }

  /// What Android's `paywall_open` and `transaction_complete` carry as `user_attributes`: the
  /// identity's attributes (`IdentityManagerActor.kt` `enrichedAttributes`), the user's as
  /// `user_attributes` types them, `appUserId` once identified (`--user-id`), `applicationInstalledAt`.
  /// The SDK's `aliasId` and `seed` are left out, as from the `user_attributes` event.
  static func userAttributesValue(_ state: PresentationState) -> JSONOutput {
    .object(userAttributesEvent(state).params.filter { $0.0 != "application_installed_at" })
  }

  /// A user attribute's text as the SDK holds it: `true`/`false`, a number, else text (the
  /// `user` step's typing, `FilterValue(parsing:)`); nil for `null`, which the SDK removes.
  private static func typed(_ text: String) -> JSONOutput? {
    switch FilterValue(parsing: text) {
    case .bool(let value): .bool(value)
    case .number(let value): .number("\(value)")
    case .null: nil
    default: .string(text)
    }
  }

  /// `AppSessionLogic.didStartNewSession`: never closed in this process, or away for more than
  /// the timeout, in whole milliseconds as the SDK counts them.
  static func startsNewSession(_ state: PresentationState, now: Date) -> Bool {
    guard let closed = state.appSession.lastAppClose else { return true }
    let awayMs = Int64((now.timeIntervalSince(closed) * 1000).rounded(.down))
    return awayMs > Int64(state.project.appSessionTimeoutMs)
  }
}

extension Presenter {
  /// The app deleted and installed again on the same Apple ID or Google account (the recipe
  /// "restore on a fresh install" in one run). What the app kept goes: the user and its audience
  /// assignments, the install date (`app_install` and `first_seen` come again), the pending
  /// reminders (the system drops a deleted app's notifications), the notification permission
  /// (asked again). The status: with the app's own purchase controller the app knows none until
  /// it sets one (a restore); the SDK buying from the store itself reads the store's current
  /// entitlements, which the account keeps. The app's code (overrides, attributes it sets) runs again.
  static func reinstall(userID: String, _ state: inout PresentationState, now: Date) -> [PresentationEffect] {
    var effects = killed(&state)
    var book = AssignmentBook(userID: userID)
    book.installedAt = StoreDates.wholeMilliseconds(state.storeNow ?? now)
    state.assignments = book
    effects.append(.saveAssignments(book))
    for dropped in state.pendingNotifications { state.droppedReminderTimers[dropped.id, default: 0] += 1 }
    state.pendingNotifications = []
    state.reminderChanges += 1
    state.notificationPermission = .notDetermined
    state.purchasedProducts = []
    state.hasPresentedPaywall = false
    if state.hasPurchaseController {
      state.status = .unknown
      effects.append(.saveStatus(.unknown))
    }
    return effects + launch(firstInstall: true, &state, now: now)
  }
}
