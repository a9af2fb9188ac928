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

/// Every event the emulator emits, with when and every parameter it may carry: the one source
/// the event reference of docs/reference/events.md (`paywall-tui help events`) is printed from, and what every
/// `PaywallEvent` is checked against when it is made (in debug builds, so every test and scenario
/// checks it), so the reference cannot drift from the code.
public enum EventReference {
  /// One event: its name, when it is emitted, and its parameters in the order they are written.
  public struct Entry: Sendable {
    /// The raw name.
    public var name: EventName
    /// When the event is emitted, in one sentence.
    public var when: String
    /// Every parameter it may carry.
    public var params: [Param]
  }

  /// One parameter. A key ending in `*` stands for every key with that prefix; a key of `*` alone
  /// for any key (a registration's own params).
  public struct Param: Sendable {
    /// The key, or a prefix pattern ending in `*`.
    public var key: String
    /// What it holds.
    public var meaning: String

    init(_ key: String, _ meaning: String) {
      self.key = key
      self.meaning = meaning
    }

    func allows(_ name: String) -> Bool {
      key.hasSuffix("*") ? name.hasPrefix(key.dropLast()) : name == key
    }
  }

  private static let paywall: [Param] = [
    Param("paywall_id", "the paywall's id"),
    Param("paywall_name", "the paywall's name"),
  ]
  private static let product: [Param] = [
    Param("product_id", "the product's id (a paywall's slot's product, or the one `call purchase` named)"),
    Param("slot", "the paywall's slot the product was bought from (ours; not on `call purchase`)"),
  ]
  private static let transactionNote = "On a paywall, or from `call purchase` with `--controller simulated` (then without the paywall's parameters)"
  private static let store = Param("store", "`PLAY_STORE` (Android only: from 2.6.0 on start, abandon and complete, from 2.6.5 on fail and restore)")
  private static let source = Param("source", "`SUPERWALL` (a paywall's button) or `APP` (`call purchase`) (Android only, from 2.6.0)")
  private static let userAttributes = Param("user_attributes", "the user's attributes (typed as the `user_attributes` event types them), `appUserId` once identified, `applicationInstalledAt` (Android from 2.5.3 only)")

  /// Every event, in the order docs/reference/events.md lists them.
  public static let all: [Entry] = [
    Entry(name: .triggerFire,
          when: "A registered placement's campaign decided: a paywall, a holdout or no matching audience (none for an unknown placement, nor for v3's subscriber skip)",
          params: [Param("trigger_name", "the placement"),
                   Param("trigger_session_id", "always empty (v3 only)"),
                   Param("variant_id", "the paywall's id, or `holdout`"),
                   Param("experiment_id", "the audience: `PLACEMENT#N`, N from 0 (our format has no dashboard ids)"),
                   Param("paywall_identifier", "the paywall presented (`present` only)"),
                   Param("result", "`present`, `holdout` or `no_rule_match`"),
                   Param("unmatched_audience_*", "one per audience that did not match (`no_rule_match`): `EXPRESSION` (its filter) or `OCCURRENCE` (its limit) (iOS v4; Android has none)"),
                   Param("unmatched_rule_*", "the same, as v3 names it")]),
    Entry(name: .paywallPresentationRequest,
          when: "A registration presents, is skipped or refused, or times out waiting for a status",
          params: [Param("source_event_name", "the placement"),
                   Param("pipeline_type", "`presentation`"),
                   Param("status", "`presentation`, `no_presentation` or `timeout`"),
                   Param("status_reason", "empty when presenting; `event_not_found`, `no_rule_match`, `holdout`, `user_is_subscribed` (v3), `paywall_already_presented`, `subscriptionStatus_timeout` (v3 and Android: `subscription_status_timeout`)")]),
    Entry(name: .paywallOpen, when: "A paywall is shown", params: paywall + [userAttributes]),
    Entry(name: .appInstall, when: "The app's first launch on this state (a new user: `play` without `--state-dir`, `--fresh`, `--reinstall`); a campaign on it presents its paywall",
          params: [Param("application_installed_at", "when, on the app's clock (the SDK's ISO 8601 with milliseconds, `2026-01-01T00:00:00.000Z`)"),
                   Param("using_purchase_controller", "whether the app brings its own purchase controller (every controller but `simulated`)")]),
    Entry(name: .appOpen, when: "The app becomes active: at launch, at a relaunch, and back from the background (`foreground`, the debug panel's `B`)", params: []),
    Entry(name: .sessionStart, when: "A new app session: at launch, at a relaunch, and back from the background after more than the project's `appSessionTimeoutMs` (1 hour unless set); a campaign on it presents its paywall", params: []),
    Entry(name: .userAttributes, when: "A new app session (after `session_start`: at launch, at a relaunch, back after the session timeout) and every change of the user's attributes (`user`, the debug panel's `u`); never a trigger",
          params: [Param("application_installed_at", "the app's first launch on this state, kept in the state directory (the SDK's `2026-01-01T00:00:00.000Z`)"),
                   Param("applicationInstalledAt", "the install date again, as the SDK adds it to the attributes"),
                   Param("*", "each user attribute under its own key, typed (`--user`, `user`; a `$` dropped, a `null` removed)")]),
    Entry(name: .appLaunch, when: "A cold launch: at launch and at a relaunch; a campaign on it presents its paywall", params: []),
    Entry(name: .firstSeen, when: "The first launch on this state, after `app_launch`", params: []),
    Entry(name: .appClose, when: "The app resigns active: to the background (`background`, the debug panel's `B`), and before a relaunch from the front (`L`, `relaunch`)", params: []),
    Entry(name: .customPlacement,
          when: "A paywall's `placement` button was pressed; when that placement's campaign would present a paywall, this one closes `forNextPaywall` and the new one answers to the first register",
          params: paywall + [Param("name", "the button's placement")]),
    Entry(name: .paywallDecline, when: "The user closes a paywall", params: paywall),
    Entry(name: .paywallClose, when: "A paywall goes away",
          params: paywall + [Param("result", "ours: `purchased`, `declined` or `restored`"),
                             Param("product_id", "ours: the product bought (`purchased` only)"),
                             Param("close_reason", "`manualClose` (the user closed it), `systemLogic` (the SDK after a purchase or restore), `forNextPaywall` (another paywall replaces it) (iOS only)"),
                             Param("survey_attached", "whether the paywall has a survey"),
                             Param("survey_presentation", "`show` or `holdout` when the survey pass showed one or held the user out (absent otherwise, and when another paywall replaces it)")]),
    Entry(name: .transactionStart, when: "A purchase starts. \(transactionNote)", params: paywall + product + [store, source]),
    Entry(name: .transactionComplete, when: "The purchase succeeded. \(transactionNote)",
          params: paywall + product + [Param("transaction_type", "`FREE_TRIAL_START`, `SUBSCRIPTION_START` or `NON_RECURRING_PRODUCT_PURCHASE` (iOS v4; v3 and Android have none)"), store, source, userAttributes]),
    Entry(name: .freeTrialStart, when: "After `transaction_complete`, when the purchase started an introductory offer, free or paid", params: paywall + product),
    Entry(name: .subscriptionStart, when: "After `transaction_complete`, for an auto-renewable bought without an offer", params: paywall + product),
    Entry(name: .nonRecurringProductPurchase, when: "After `transaction_complete`, for anything but an auto-renewable", params: paywall + product),
    Entry(name: .transactionAbandon, when: "The purchase was cancelled, or failed with a cancel error (StoreKit 2 `userCancelled`; StoreKit 1 `paymentCancelled`, `overlayCancelled`, `overlayTimeout`; iOS only: on Android every failure is `transaction_fail`)", params: paywall + product + [store, source]),
    Entry(name: .transactionFail, when: "The purchase failed, or is pending (then with no product)",
          params: paywall + product + [Param("message", "the error's description, or `Needs parental approval`"), store]),
    Entry(name: .transactionRestore, when: "A restore succeeded, or a purchase came back `restored`",
          params: paywall + product + [Param("restore_via_purchase_attempt", "`true` when a purchase restored, `false` for a restore"), store]),
    Entry(name: .restoreStart, when: "A restore starts", params: paywall),
    Entry(name: .restoreComplete, when: "The restore found an active entitlement", params: paywall),
    Entry(name: .restoreFail, when: "The restore failed, or found no active entitlement",
          params: paywall + [Param("error_message", "the SDK's text: `Transactions Failed to Restore.` and why")]),
    Entry(name: .subscriptionStatusDidChange, when: "The subscription status changed",
          params: [Param("status", "`ACTIVE`, `INACTIVE` or `UNKNOWN` (iOS v4)"),
                   Param("active_entitlement_ids", "the active entitlements, comma-separated (iOS 4.14 on and Android; iOS 4.0–4.13 run together), when active (iOS v4, Android from 2.7.4)"),
                   Param("subscription_status", "`ACTIVE`, `INACTIVE` or `UNKNOWN` (iOS v3); `active`, `inactive` or `unknown` (Android)")]),
    Entry(name: .handlerOnPresent, when: "Ours: the register's handler heard `onPresent`",
          params: [Param("placement", "the register's placement"), Param("paywall_id", "the paywall presented")]),
    Entry(name: .handlerOnWillDismiss, when: "Ours: the handler heard `onWillDismiss` (SDK 4.9 and later), just before `paywall_close`",
          params: dismiss),
    Entry(name: .handlerOnDismiss, when: "Ours: the handler heard `onDismiss`", params: dismiss),
    Entry(name: .handlerOnSkip, when: "Ours: the handler heard `onSkip`",
          params: [Param("placement", "the register's placement"),
                   Param("reason", "`placementNotFound`, `noAudienceMatch`, `holdout` or `userIsSubscribed` (v3)"),
                   Param("*", "the register's params, each under its own key (`params.placement`, `params.reason` for those named like ours)")]),
    Entry(name: .handlerOnError, when: "Ours: the handler heard `onError`; the feature does not run",
          params: [Param("placement", "the register's placement"),
                   Param("code", "`paywallAlreadyPresented` or `subscriptionStatusTimeout`"),
                   Param("message", "why, in words")]),
    Entry(name: .featureRun, when: "Ours: the register's feature ran", params: [Param("placement", "the register's placement")]),
    Entry(name: .callPurchase, when: "Ours: what `Superwall.shared.purchase(product)` returned (`call purchase`)",
          params: [Param("product_id", "the product"), Param("result", "the `PurchaseResult`")]),
    Entry(name: .callRestorePurchases, when: "Ours: what `Superwall.shared.restorePurchases()` returned (`call restore`)",
          params: [Param("result", "the `RestorationResult`")]),
    Entry(name: .controllerError, when: "Ours: the purchase controller misbehaved (a malformed line, a crash, a timeout)",
          params: [Param("message", "what happened")]),
    Entry(name: .surveyResponse,
          when: "The user answered the survey a closing paywall showed (before `paywall_decline` and `paywall_close`); a campaign on it that presents closes the paywall `forNextPaywall`",
          params: paywall + [Param("survey_id", "the survey's id"),
                             Param("survey_assignment_key", "the survey's assignment key"),
                             Param("survey_selected_option_id", "the option's id (`000` for \"Other\")"),
                             Param("survey_selected_option_title", "the option's text (`Other` for \"Other\")"),
                             Param("survey_custom_response", "the text typed for \"Other\" (only then)")]),
    Entry(name: .surveyClose, when: "The user closed the survey with its \"Close\" option; the paywall then closes", params: []),
    Entry(name: .notificationSchedule,
          when: "Ours: a free trial started from a paywall scheduled one of its `localNotifications` (before the paywall closes; Android from 2.6.6: after any subscription, as it closes); iOS 4.11 and Android 2.6.6 on skip one already pending for that paywall",
          params: [Param("id", "the request's identifier: `com.superwall.ios-PAYWALL-TRIAL_STARTED` (4.11 on), `com.superwall.ios-N` before; Android `PAYWALL_TRIAL_STARTED` (2.6.6 on), `N` before"),
                   Param("paywall_id", "the paywall"), Param("type", "`TRIAL_STARTED`"), Param("title", "the notification's title"),
                   Param("fire_at", "when it fires, on the app's clock (ISO 8601)")]),
    Entry(name: .notificationPermission,
          when: "Ours: a free trial's reminders met a device that had not allowed notifications (`--notifications deny` or `ask`): refused before, or answered at the system's prompt; allowed before, nothing is logged",
          params: [Param("status", "`authorized` or `denied`"), Param("asked", "whether the system's prompt was shown"),
                   Param("paywall_id", "the paywall whose reminders wait")]),
    Entry(name: .notificationDeliver,
          when: "Ours: a scheduled notification fired (`run` shows it as a banner); one that came due while the app was closed (kept in the state directory's `notifications.json`) at the next launch, before `app_open`",
          params: [Param("id", "the request's identifier"), Param("paywall_id", "the paywall"), Param("title", "its title"),
                   Param("subtitle", "its subtitle (when it has one)"), Param("body", "its text"),
                   Param("fire_at", "when it was due (ISO 8601): earlier than the event's own time when the app was closed then")]),
    Entry(name: .deepLinkOpen, when: "The app handed the SDK a deep link (`Superwall.handleDeepLink`: `deeplink URL`); a campaign on it presents, after the paywall on screen closes",
          params: [Param("url", "the URL (4.2 on: a `*.superwall.app/app-link/…` link as `SCHEME://…`)"),
                   Param("path", "its path"), Param("pathExtension", "its path's extension"),
                   Param("lastPathComponent", "its path's last component"), Param("host", "its host, or empty"),
                   Param("query", "its query, or empty"), Param("fragment", "its fragment, or empty")]),
    Entry(name: .callGetPresentationResult,
          when: "Ours: what `Superwall.shared.getPresentationResult(forPlacement:params:)` returned (`call getPresentationResult`); nothing presents",
          params: [Param("placement", "the placement asked about"),
                   Param("result", "`paywall`, `holdout`, `noAudienceMatch`, `placementNotFound` or `paywallNotAvailable` (v3: `noRuleMatch`, `eventNotFound`, `userIsSubscribed`)"),
                   Param("experiment_id", "the experiment, for `paywall` and `holdout`"),
                   Param("variant_id", "its variant, for `paywall` and `holdout`"),
                   Param("variant_type", "`TREATMENT` or `HOLDOUT`"), Param("paywall_id", "the paywall, for `paywall`")]),
    Entry(name: .callHandleDeepLink, when: "Ours: what `Superwall.handleDeepLink(url)` returned (`deeplink URL`)",
          params: [Param("url", "the URL as given"), Param("handled", "the Bool it returned"),
                   Param("result", "Android from 2.6: `failure` when it returned a failure instead of a Bool, for a link that is not Superwall's"),
                   Param("error", "that failure's message, `Not a superwall link`")]),
  ]

  private static let dismiss: [Param] = [
    Param("placement", "the register's placement (a replacement paywall's is the first register's)"),
    Param("paywall_id", "the paywall"),
    Param("result", "`purchased`, `declined` or `restored`"),
    Param("close_reason", "`forNextPaywall` when another paywall replaces it"),
  ]

  /// The entry of `name`.
  public static func entry(_ name: EventName) -> Entry? {
    all.first { $0.name == name }
  }

  /// The parameter keys of `event` that its entry does not list (empty when all are documented).
  public static func undocumented(in event: PaywallEvent) -> [String] {
    guard let entry = entry(event.name) else { return event.params.map(\.0) + ["(no entry for \(event.name.rawValue))"] }
    return event.params.map(\.0).filter { key in !entry.params.contains { $0.allows(key) } }
  }

  /// The event reference of docs/reference/events.md: one table, a row per event.
  public static var markdown: String {
    var lines = ["| event | when | parameters |", "| --- | --- | --- |"]
    for entry in all {
      let params = entry.params.map { "`\($0.key)`: \($0.meaning)" }.joined(separator: "; ")
      lines.append("| `\(entry.name.rawValue)` | \(entry.when) | \(params) |")
    }
    return lines.joined(separator: "\n")
  }
}
