import Synchronization
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

/// The Superwall SDK's raw event names, plus the handler callbacks and feature runs that `play`
/// and `--events` record.
public enum EventName: String, Sendable, CaseIterable {
  case paywallOpen = "paywall_open"
  case paywallClose = "paywall_close"
  case paywallDecline = "paywall_decline"
  case transactionStart = "transaction_start"
  case transactionComplete = "transaction_complete"
  case transactionAbandon = "transaction_abandon"
  case transactionFail = "transaction_fail"
  case transactionRestore = "transaction_restore"
  case subscriptionStart = "subscription_start"
  case freeTrialStart = "freeTrial_start"
  case nonRecurringProductPurchase = "nonRecurringProduct_purchase"
  case restoreStart = "restore_start"
  case restoreComplete = "restore_complete"
  case restoreFail = "restore_fail"
  case subscriptionStatusDidChange = "subscriptionStatus_didChange"
  case triggerFire = "trigger_fire"
  case paywallPresentationRequest = "paywallPresentationRequest"
  /// A paywall's `placement` button was pressed: the SDK's `customPlacement`, tracked under the
  /// button's placement name (`Superwall.swift` `eventDidOccur(.customPlacement)`).
  case customPlacement = "custom_placement"
  case handlerOnPresent = "handler.onPresent"
  /// The handler's `onWillDismiss`, just before `onDismiss` (`PaywallPresentationHandler`).
  case handlerOnWillDismiss = "handler.onWillDismiss"
  case handlerOnDismiss = "handler.onDismiss"
  case handlerOnSkip = "handler.onSkip"
  case handlerOnError = "handler.onError"
  case featureRun = "feature.run"
  /// Not the SDK's: what `Superwall.shared.purchase(product)`, called outside a paywall, returned
  /// (`product_id`, `result`: the `PurchaseResult`).
  case callPurchase = "call.purchase"
  /// Not the SDK's: what `Superwall.shared.restorePurchases()` returned (`result`: the
  /// `RestorationResult`).
  case callRestorePurchases = "call.restorePurchases"
  /// A launch, as the SDK tracks it: `app_install` the first time on a device (`Storage.swift`
  /// `recordAppInstall`), then, as the app becomes active, `app_open`, `session_start`,
  /// `app_launch` and, the first time, `first_seen` (`AppSessionManager.swift`
  /// `sessionCouldRefresh`). `app_install`, `session_start` and `app_launch` can each present a
  /// campaign's paywall (`SuperwallEvent.canImplicitlyTriggerPaywall`).
  case appInstall = "app_install"
  case appOpen = "app_open"
  case sessionStart = "session_start"
  case appLaunch = "app_launch"
  case firstSeen = "first_seen"
  /// A new session's user attributes, and every `setUserAttributes` (`UserAttributes` in
  /// `TrackableSuperwallEvent.swift`): the app's install date and the user's attributes.
  case userAttributes = "user_attributes"
  /// The app resigned active (`AppSessionManager.swift` `applicationWillResignActive`): here, at a
  /// relaunch, before the app is killed.
  case appClose = "app_close"

  /// Ours, not the SDK's (the handler's callbacks, the feature, the controller's problems, what a
  /// script's `call` returned): the SDK tracks no such event, so it does not refuse a placement
  /// named like one.
  public var isOwn: Bool {
    switch self {
    case .handlerOnPresent, .handlerOnWillDismiss, .handlerOnDismiss, .handlerOnSkip, .handlerOnError, .featureRun,
         .controllerError, .callPurchase, .callRestorePurchases, .notificationSchedule, .notificationDeliver, .notificationPermission, .callGetPresentationResult,
         .callHandleDeepLink: true
    default: false
    }
  }
  /// Not the SDK's: a problem with the purchase controller (a malformed line, a crash, a timeout).
  case controllerError = "controller_error"
  /// The user answered a paywall's survey (an option, or "Other" with text): the SDK's
  /// `SurveyResponse` (`TrackableSuperwallEvent.swift`); a campaign on it presents its paywall.
  case surveyResponse = "survey_response"
  /// The user closed a paywall's survey with its "Close" option: the SDK's `SurveyClose`, no params.
  case surveyClose = "survey_close"
  /// Ours: a free trial's start scheduled a paywall's local notification (the SDK tracks none).
  case notificationSchedule = "notification.schedule"
  /// Ours: the device's answer on notifications when a trial's reminders were to be scheduled.
  case notificationPermission = "notification.permission"
  /// Ours: a scheduled notification fired and the device showed it.
  case notificationDeliver = "notification.deliver"
  /// `Superwall.handleDeepLink(url)` was called (`TrackableSuperwallEvent.swift` `DeepLink`): the
  /// URL and its parts. An implicit trigger: it closes the paywall on screen, and a campaign on it
  /// presents.
  case deepLinkOpen = "deepLink_open"
  /// Not the SDK's: what `Superwall.shared.getPresentationResult(forPlacement:params:)` returned.
  case callGetPresentationResult = "call.getPresentationResult"
  /// Not the SDK's: what `Superwall.handleDeepLink(url)` returned (`handled`).
  case callHandleDeepLink = "call.handleDeepLink"
}

/// One event: its raw name and parameters in a fixed order, so JSON lines are stable.
public struct PaywallEvent: Sendable, Hashable, CustomStringConvertible {
  /// The raw event name.
  public var name: EventName
  /// The parameters, in the order the SDK lists them; keys are the SDK's (`paywall_id`, `product_id`).
  public var params: [(String, JSONOutput)]
  /// When it happened, on the app's clock (`play`'s simulated one, else the store's), stamped
  /// where it is recorded; written as `"at"` in ISO 8601 (UTC). Nil: not stamped (not written).
  public var at: Date?

  /// Whether every `key=value` is among the parameters (a string's text, or any other value's JSON).
  public func matches(_ expected: [String: String]) -> Bool {
    expected.allSatisfy { key, value in
      params.contains { name, actual in
        name == key && (actual.stringValue ?? actual.text) == value
      }
    }
  }

  package init(_ name: EventName, _ params: [(String, JSONOutput)] = []) {
    self.name = name
    self.params = params
    // Every parameter is in the event reference (docs/reference/events.md) (debug builds: every test checks it).
    assert(EventReference.undocumented(in: self).isEmpty,
           "\(name.rawValue) has parameters EventReference does not list: \(EventReference.undocumented(in: self))")
    assert(Set(params.map(\.0)).count == params.count, "\(name.rawValue) names a parameter twice: \(params.map(\.0))")
  }

  /// Two events are equal when they write the same JSON line.
  public static func == (a: PaywallEvent, b: PaywallEvent) -> Bool { a.jsonLine == b.jsonLine }
  /// Hashes the JSON line, consistently with `==`.
  public func hash(into hasher: inout Hasher) { hasher.combine(jsonLine) }

  /// The value of parameter `key`, or nil when the event has none.
  public subscript(key: String) -> JSONOutput? {
    params.first { $0.0 == key }?.1
  }

  /// `{"event":"transaction_start","at":"2026-01-01T00:00:00Z","params":{"paywall_id":"onboarding",…}}`
  /// (`at` when stamped).
  public var jsonLine: String {
    var members: [(String, JSONOutput)] = [("event", .string(name.rawValue))]
    if let at { members.append(("at", .string(StoreDates.iso8601(at)))) }
    members.append(("params", .object(params)))
    return JSONOutput.object(members).text
  }

  /// `transaction_start paywall_id=onboarding product_id=com.acme.pro.annual`, for the log pane.
  public var description: String { summary { $0 } }

  /// `description` with each value cut to what a message quotes (`UntrustedText.excerpt`): how a
  /// failed `expect` names an event (its data is in the JSON lines whole).
  package var brief: String { summary { UntrustedText.excerpt($0) } }

  private func summary(_ shown: (String) -> String) -> String {
    let parts = params.map { key, value in "\(key)=\(shown(value.stringValue ?? value.text))" }
    return ([name.rawValue] + parts).joined(separator: " ")
  }
}

/// Appends events as JSON lines to a file (`--events FILE`), one line per event, written as it
/// happens so a crash loses nothing already reported. A write that fails throws (a full disk, a
/// reader that went away); after one, the file is not written again.
package final class EventFile: Sendable {
  /// Why an event could not be written: the `errno` of the failed write.
  package struct WriteError: Error, Sendable, Equatable {
    package var path: String
    package var code: Int32
  }

  private let descriptor: Int32
  /// The first write that failed: every later one fails with it, so the file never gets a gap.
  private let failed = Mutex<WriteError?>(nil)
  package let path: String

  /// Opens `path` for appending. `confined` (a scenario run by `test`): a symbolic link at `path`
  /// is never followed (`O_NOFOLLOW`) and only a regular file with no other name is written, so a
  /// link committed in the scenario's folder, symbolic or hard, cannot lead out of it.
  package init(path: String, confined: Bool = false) throws {
    self.path = path
    if confined {
      let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o644)
      guard descriptor >= 0 else {
        let code = errno
        if code == ELOOP { throw PurchaseError("the events file \(path) is a symbolic link; a scenario writes no file through a link") }
        throw PurchaseError("cannot open the events file \(path) for writing (\(String(cString: strerror(code))))")
      }
      var info = stat()
      guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
        close(descriptor)
        throw PurchaseError("the events file \(path) is not a regular file; a scenario writes only regular files")
      }
      // A hard link is the file outside under a second name: appending would write there.
      guard info.st_nlink <= 1 else {
        close(descriptor)
        throw PurchaseError("--events \(path) is a hard link (the file has \(info.st_nlink) names, one may be outside the scenario's folder); under 'paywall-tui test' a scenario appends only to a file of its own: delete it or give another path")
      }
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
      self.descriptor = descriptor
      return
    }
    if !FileManager.default.fileExists(atPath: path) {
      guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw PurchaseError("cannot create the events file \(path); check the directory exists and is writable")
      }
    }
    // Non-blocking, so a named pipe nobody reads fails at once (ENXIO) instead of waiting for a
    // reader forever; the writes after block again, as for any file.
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      if errno == ENXIO { throw NoReader(path: path) }
      throw PurchaseError("cannot open the events file \(path) for writing")
    }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    self.descriptor = descriptor
  }

  /// `--events` names a named pipe that no one has open for reading.
  package struct NoReader: Error, Sendable, CustomStringConvertible {
    package var path: String
    package var description: String {
      "--events \(path) is a named pipe with no reader; start the reader first or give a regular file"
    }
  }

  /// Appends `event` as one line; throws when it could not be written whole.
  package func write(_ event: PaywallEvent) throws(WriteError) {
    let failure = failed.withLock { failed -> WriteError? in
      if let failed { return failed }
      guard let code = FileSystem.writeAll(event.jsonLine + "\n", to: descriptor) else { return nil }
      failed = WriteError(path: path, code: code)
      return failed
    }
    if let failure { throw failure }
  }

  deinit {
    close(descriptor)
  }
}
