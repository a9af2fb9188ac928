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
import PaywallModel
import PaywallScenarios
import PaywallUI

/// Options shared by `run` and `play` (and so `demo`): which controller, the status, state and
/// events. Each is declared here once, with how its words become its value; `SessionConfiguration(arguments)`
/// reads them into one checked configuration, refusing any option or pair of options that cannot
/// work before anything is loaded. What needs the project (a plain `--status active`'s
/// entitlements, `--assume-rule`'s placements, the SDK a `--platform` falls back to) is checked
/// when the session is made from it.
package enum SessionFlags {
  package static let controller = Flag.choice("controller", "kind", "Purchase controller: simulated (a local store, default), scripted, ask or command.",
                                              default: ControllerKind.simulated)
  package static let outcome = Flag.parsed("outcome", "outcomes", "Scripted results, e.g. purchase=pending,restore=failed or purchase=failed:Card declined,latency=2s.") {
    (text: String) throws(CLIFailure) -> ScriptedPurchaseController.Outcomes in
    do throws(PurchaseError) {
      return try ScriptedPurchaseController.Outcomes(parsing: text)
    } catch {
      throw .usage(error.message)
    }
  }
  package static let controllerCommand = Flag.text("controller-command", "cmd", "A shell command line (run as sh -c CMD) of a JSON-lines controller (with --controller command).")
  package static let controllerTimeout = Flag.parsed("controller-timeout", "duration", "How long the command controller may take to answer (wall time; default 10s).",
                                                     default: "10s") { (text: String) throws(CLIFailure) -> Double in
    try CLIFailure.reporting { () throws(SessionError) in try DurationOption.seconds("controller-timeout", text, DurationOption.controllerTimeout) }
  }
  package static let status = Flag.text("status", "status", "Start with this status: unknown, inactive, active or active:ENT,… (default: the cached one).",
                                        completion: .words(["unknown", "inactive", "active"]))
  package static let stateDir = Flag.text("state-dir", "dir", "Where the status cache and the store's ledger live and go on from run to run (run's default: $XDG_STATE_HOME/paywall-tui/PROJECT; play's: none, a fresh state in memory).")
  package static let fresh = Flag.bool("fresh", "Ignore the state saved in the state directory: start unknown with an empty ledger and a new user (play without --state-dir always starts fresh).")
  package static let reinstall = Flag.bool("reinstall", "Start as the app freshly installed on the same Apple ID: the app's saved state (status cache, user, assignments, pending reminders) is ignored and notifications are never asked (unless --notifications), the store's ledger is kept, so a restore finds the purchases.")
  package static let events = Flag.text("events", "file", "Also append every event as a JSON line to this file.")
  package static let paywall = Flag.text("paywall", "id", "Which paywall of a project to open first.")
  package static let placement = Flag.text("placement", "name", "Register this placement at start (one a campaign of the project has).",
                                           completion: .placements)
  package static let timeRate = Flag.parsed("time-rate", "rate", "Simulated store clock: realtime, UNIT=DURATION (month=30s, day=1s) or renewal=DURATION (default: the .storekit _timeRate).") {
    (text: String) throws(CLIFailure) -> TimeRate in
    guard let rate = TimeRate(parsing: text) else { throw .usage("--time-rate \(quoting: text): \(TimeRate.usage)") }
    return rate
  }
  package static let askToBuy = Flag.bool("ask-to-buy", "Simulated store: purchases wait for approval (Ask to Buy).")
  package static let start = Flag<[StartState], CLIFailure>(
    name: "start", placeholder: "ent=state", help: "Simulated store: begin with ENTITLEMENT in subscribed, trial, gracePeriod, billingRetry, expired or revoked (a new ledger).",
    repeatable: true) { (given: [String]) throws(CLIFailure) -> [StartState] in
    var states: [StartState] = []
    for text in given {
      do throws(StoreActionError) {
        states.append(try StartState(parsing: text))
      } catch {
        throw .usage("--start \(error.message)")
      }
    }
    return states
  }
  package static let gracePeriod = Flag.bool("grace-period", "Simulated store: billing failures start with a grace period (the .storekit _billingGracePeriodEnabled).")
  package static let renewalBillingIssues = Flag.bool("renewal-billing-issues", "Simulated store: every renewal fails with a billing issue (the .storekit _renewalBillingIssuesEnabled).")
  package static let notifications = Flag.choice("notifications", "answer", "The device's notification permission when a free trial schedules the paywall's reminders: allow (granted before, the default), deny (refused before) or ask (never asked: the system's prompt shows).",
                                                 default: NotificationPermission.authorized)
  package static let home = Flag.bool("home", "Start on the home screen (the project's placements) instead of the first paywall.")
  package static let userID = Flag.text("user-id", "id", "The user audiences are assigned by (default: one kept in the state directory; play without --state-dir: anonymous).")
  package static let user = Flag.pairs("user", "key=value", "A user attribute for audience filters, e.g. --user age=13.")
  package static let assumeRule = Flag.list("assume-rule", "placement#n=match|nomatch", "What an audience rule the emulator cannot evaluate (expression, expression_js) decides, e.g. --assume-rule export_pdf#0=match (validate lists them).",
                                            completion: .text)
  package static let platform: Flag<SDKPlatform?, CLIFailure> = Flag.choice("platform", "os",
    "Follow this platform's Superwall SDK: ios (Superwall-iOS) or android (Superwall-Android; docs/android.md); default: the project's options.platform, else ios. A cross-platform project's store (its catalog and products).")
  package static let sdk = Flag.sdk("Follow this Superwall SDK release: iOS 3 (skips subscribers), 4 (the latest 4.x) or 4.N; Android 2 (the latest 2.x) or 2.N (default: the project's options.sdk, else the latest).")
  package static let locale = Flag.text("locale", "locale", "Format prices for this locale, e.g. de_DE (as Xcode's StoreKit editor switches it).",
                                        completion: .words(Catalog.formatLocales))
  package static let storefront = Flag.text("storefront", "code", "Sell in this App Store storefront (its currency), e.g. DEU.",
                                            completion: .words(Catalog.storefrontCodes))

  /// In the order help lists them.
  package static let all: [OptionInfo] = [
    controller.option, outcome.option, controllerCommand.option, controllerTimeout.option, status.option, stateDir.option,
    fresh.option, reinstall.option, events.option, paywall.option, placement.option, timeRate.option, askToBuy.option,
    start.option, gracePeriod.option, renewalBillingIssues.option, notifications.option, home.option, userID.option, user.option,
    assumeRule.option, platform.option, sdk.option, locale.option, storefront.option,
  ]
}

extension Flag where Value == SDKVersion?, Failure == CLIFailure {
  /// `--sdk VERSION`, checked: iOS `3`, `4` or `4.N`, Android `2` or `2.N` (which platform is in
  /// force is checked against `--platform` and the project's when the session is made); the
  /// completions offer every version checked.
  package static func sdk(_ help: String) -> Flag {
    Flag.parsed("sdk", "version", help, completion: .words(SDKVersion.choices(for: .ios) + SDKVersion.choices(for: .android))) {
      (text: String) throws(CLIFailure) -> SDKVersion in
      switch SDKVersion.parse(text) {
      case .success(let version): return version
      case .failure(let error): throw CLIFailure.usage("--sdk \(error.message)")
      }
    }
  }
}

extension SessionConfiguration {
  package init(_ arguments: Arguments) throws(CLIFailure) {
    self.init()
    controller = try arguments[SessionFlags.controller]
    outcome = try arguments[SessionFlags.outcome]
    if controller != .scripted && outcome != nil { throw .usage("--outcome applies to --controller scripted") }
    controllerCommand = arguments[SessionFlags.controllerCommand]
    if controller == .command && (controllerCommand ?? "").isEmpty {
      throw .usage("--controller command needs --controller-command 'CMD' (a process speaking JSON lines)")
    }
    controllerTimeout = try arguments[SessionFlags.controllerTimeout]
    // Given to another controller, both would be dropped without a word.
    if controller != .command {
      for flag in [SessionFlags.controllerCommand.option, SessionFlags.controllerTimeout.option] where arguments.isGiven(flag) {
        throw .usage("--\(flag.name) applies to --controller command")
      }
    }
    status = arguments[SessionFlags.status]
    if let status, let refusal = SessionConfiguration.statusRefusal(status) { throw .usage(refusal) }
    locale = arguments[SessionFlags.locale]
    storefront = arguments[SessionFlags.storefront]
    if let refusal = Catalog.refusal(storefront: storefront, locale: locale) { throw .usage(refusal) }
    stateDir = arguments[SessionFlags.stateDir]
    fresh = arguments[SessionFlags.fresh]
    reinstall = arguments[SessionFlags.reinstall]
    if fresh && reinstall {
      throw .usage("--fresh and --reinstall: --fresh also empties the store's ledger, --reinstall keeps it (the Apple ID's purchases); give one")
    }
    events = arguments[SessionFlags.events]
    paywall = arguments[SessionFlags.paywall]
    placement = arguments[SessionFlags.placement]
    userID = arguments[SessionFlags.userID]
    home = arguments[SessionFlags.home]
    if home && paywall != nil { throw .usage("give --home or --paywall, not both") }
    if let id = userID, id.trimmingSpaces().isEmpty {
      throw .usage("--user-id must not be empty")
    }
    userAttributes = try arguments[SessionFlags.user]
    assumeRules = arguments[SessionFlags.assumeRule]
    timeRate = try arguments[SessionFlags.timeRate]
    askToBuy = arguments[SessionFlags.askToBuy]
    start = try arguments[SessionFlags.start]
    gracePeriod = arguments[SessionFlags.gracePeriod]
    renewalBillingIssues = arguments[SessionFlags.renewalBillingIssues]
    notifications = try arguments[SessionFlags.notifications]
    // Deleting an app drops its notification permission: a reinstalled app asks again.
    if reinstall && !arguments.isGiven(SessionFlags.notifications) { notifications = .notDetermined }
    sdk = try arguments[SessionFlags.sdk]
    platform = try arguments[SessionFlags.platform]
  }

  /// `confined`: under `test`, a scenario's file is opened without following a link (checked
  /// before, too).
  package func openEventFile(confined: Bool = false) throws -> EventFile? {
    guard let events else { return nil }
    do {
      return try EventFile(path: events, confined: confined)
    } catch let error as EventFile.NoReader {
      throw CLIFailure.usage(error.description)
    } catch {
      throw CLIFailure(message: "error: \(error.displayMessage)", code: ExitStatus.failed.rawValue)
    }
  }
}
