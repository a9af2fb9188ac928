#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// A local notification a paywall schedules when a free trial starts from it, as the SDK's
/// `LocalNotification` (`Models/Paywall/LocalNotification.swift`): its one type is `trialStarted`
/// (`"TRIAL_STARTED"` in a config), its text is shown as written (no variable is substituted:
/// `NotificationScheduler.swift`), and it fires `delay` milliseconds after the purchase.
public struct LocalNotification: Sendable, Hashable {
  /// The notification's title.
  public var title: String
  /// The line under the title; nil for none.
  public var subtitle: String?
  /// The notification's text.
  public var body: String
  /// Milliseconds from the trial's start to the notification (the SDK's `delay`).
  public var delayMs: Double

  /// A `trialStarted` notification with these texts, `delayMs` after the purchase.
  public init(title: String, subtitle: String? = nil, body: String, delayMs: Double) {
    self.title = title
    self.subtitle = subtitle
    self.body = body
    self.delayMs = delayMs
  }

  /// The type as the SDK's config and `notification.schedule` name it.
  public static let trialStartedType = "TRIAL_STARTED"
}

/// A notification the device holds: scheduled at a trial's start, delivered at `fireAt`.
public struct ScheduledNotification: Sendable, Hashable {
  /// The request's identifier: `com.superwall.ios-PAYWALL-TRIAL_STARTED` from SDK 4.11.0 (so
  /// one pending per paywall), `com.superwall.ios-N` before (`NotificationScheduler.swift`).
  public var id: String
  /// The paywall that scheduled it.
  public var paywallID: String
  /// What it says.
  public var notification: LocalNotification
  /// When it fires, on the store's clock (`PresentationState.storeNow`), else the app's.
  public var fireAt: Date

  /// A notification `id` from paywall `paywallID`, due at `fireAt`.
  public init(id: String, paywallID: String, notification: LocalNotification, fireAt: Date) {
    self.id = id
    self.paywallID = paywallID
    self.notification = notification
    self.fireAt = fireAt
  }
}

/// Reads a paywall's `localNotifications` array (our form; `import superwall` writes it too).
enum LocalNotificationReader {
  static func read(_ reader: ObjectReader) -> [LocalNotification] {
    guard let nodes = reader.array("localNotifications") else { return [] }
    let path = reader.path.appending("localNotifications")
    return nodes.enumerated().compactMap { i, node in readOne(node, path: path.appending(i), diagnostics: reader.diagnostics) }
  }

  private static func readOne(_ node: JSONNode, path: JSONPath, diagnostics: DiagnosticCollector) -> LocalNotification? {
    guard let reader = ObjectReader(node, path: path, diagnostics: diagnostics, what: "a local notification") else { return nil }
    defer { reader.finish() }
    _ = reader.choice("type", ["trialStarted"], required: true)
    let title = reader.string("title", required: true)
    let subtitle = reader.string("subtitle", nonEmpty: false)
    let body = reader.string("body", required: true)
    var delay: Double?
    if let node = reader.value("delay", required: true) {
      let usage = "a number of milliseconds, as the SDK's 'delay', or a duration such as \"30m\", \"2h\", \"5d\" or \"1w\""
      switch node.value {
      case .number(let text):
        delay = Double(text)
      case .string(let text):
        if case .success(let seconds) = Duration.parseSeconds(text) { delay = seconds * 1000 }
      default:
        break
      }
      if delay == nil {
        diagnostics.error("'delay' must be \(usage), found \(node.value.typeName == "string" ? "\"\(excerpt: node.stringValue ?? "")\"" : node.value.typeName)",
                          at: node.location, path: path.appending("delay"))
      } else if let d = delay, !(d > 0) || d > 3.2e11 {
        // The SDK schedules nothing for a delay of 0 or less (it only logs); ten years is plenty.
        diagnostics.error("'delay' must be more than 0 and at most 10 years (the SDK schedules nothing for 0 or less); use \(usage)",
                          at: node.location, path: path.appending("delay"))
        delay = nil
      }
    }
    guard let title, let body, let delay else { return nil }
    return LocalNotification(title: title, subtitle: subtitle?.isEmpty == true ? nil : subtitle, body: body, delayMs: delay)
  }
}
