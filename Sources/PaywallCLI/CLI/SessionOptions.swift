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

/// Options shared by `run` and `play`: which controller, the status, state and events.
extension SessionConfiguration {
  package static let options: [OptionSpec] = [
    .option("controller", "kind", "Purchase controller: simulated (a local store, default), scripted, ask or command.",
            values: .words(ControllerKind.allCases.map(\.rawValue))),
    .option("outcome", "outcomes", "Scripted results, e.g. purchase=pending,restore=failed or purchase=failed:Card declined,latency=2s."),
    .option("controller-command", "cmd", "A shell command line (run as sh -c CMD) of a JSON-lines controller (with --controller command)."),
    .option("controller-timeout", "duration", "How long the command controller may take to answer (wall time; default 10s)."),
    .option("status", "status", "Start with this status: unknown, inactive, active or active:ENT,… (default: the cached one).",
            values: .words(["unknown", "inactive", "active"])),
    .option("state-dir", "dir", "Where the status cache and the store's ledger live and go on from run to run (run's default: $XDG_STATE_HOME/paywall-tui/PROJECT; play's: none, a fresh state in memory)."),
    .flag("fresh", "Ignore the state saved in the state directory: start unknown with an empty ledger and a new user (play without --state-dir always starts fresh)."),
    .flag("reinstall", "Start as the app freshly installed on the same Apple ID: the app's saved state (status cache, user, assignments) is ignored, the store's ledger is kept, so a restore finds the purchases."),
    .option("events", "file", "Also append every event as a JSON line to this file."),
    .option("paywall", "id", "Which paywall of a project to open first."),
    .option("placement", "name", "Register this placement at start (one a campaign of the project has).",
            values: .placements),
    .option("time-rate", "rate", "Simulated store clock: realtime, UNIT=DURATION (month=30s, day=1s) or renewal=DURATION (default: the .storekit _timeRate)."),
    .flag("ask-to-buy", "Simulated store: purchases wait for approval (Ask to Buy)."),
    .option("start", "ent=state", "Simulated store: begin with ENTITLEMENT in subscribed, trial, gracePeriod, billingRetry, expired or revoked (a new ledger).", repeatable: true),
    .flag("grace-period", "Simulated store: billing failures start with a grace period (the .storekit _billingGracePeriodEnabled)."),
    .flag("renewal-billing-issues", "Simulated store: every renewal fails with a billing issue (the .storekit _renewalBillingIssuesEnabled)."),
    .flag("home", "Start on the home screen (the project's placements) instead of the first paywall."),
    .option("user-id", "id", "The user audiences are assigned by (default: one kept in the state directory; play without --state-dir: anonymous)."),
    .option("user", "key=value", "A user attribute for audience filters, e.g. --user age=13.", repeatable: true),
    .option("assume-rule", "placement#n=match|nomatch", "What an audience rule the emulator cannot evaluate (expression, expression_js) decides, e.g. --assume-rule export_pdf#0=match (validate lists them).", repeatable: true, values: .text),
    .option("sdk", "version", "Follow this Superwall SDK's rules: 3 (skips subscribers), 4 (the latest 4.x) or 4.N (default: the project's options.sdk, else 4).",
            values: sdkValues),
    .option("locale", "locale", "Format prices for this locale, e.g. de_DE (as Xcode's StoreKit editor switches it).", values: .words(Catalog.formatLocales)),
    .option("storefront", "code", "Sell in this App Store storefront (its currency), e.g. DEU.", values: .words(Catalog.storefrontCodes)),
  ]

  /// What `--sdk` accepts, for the completions: 3, 4 and every 4.N checked.
  package static let sdkValues = ValueCompletion.words(["3", "4"] + (0...SDKVersion.latestMinor).map { "4.\($0)" })

  package init(_ arguments: Arguments) throws(CLIFailure) {
    self.init()
    controller = try arguments.choice("controller", default: .simulated)
    outcome = arguments.value("outcome")
    controllerCommand = arguments.value("controller-command")
    controllerTimeout = arguments.value("controller-timeout") ?? "10s"
    status = arguments.value("status")
    locale = arguments.value("locale")
    storefront = arguments.value("storefront")
    if let refusal = Catalog.refusal(storefront: storefront, locale: locale) { throw .usage(refusal) }
    stateDir = arguments.value("state-dir")
    fresh = arguments.flag("fresh")
    reinstall = arguments.flag("reinstall")
    if fresh && reinstall {
      throw .usage("--fresh and --reinstall: --fresh also empties the store's ledger, --reinstall keeps it (the Apple ID's purchases); give one")
    }
    events = arguments.value("events")
    paywall = arguments.value("paywall")
    placement = arguments.value("placement")
    userID = arguments.value("user-id")
    home = arguments.flag("home")
    if home && paywall != nil { throw .usage("give --home or --paywall, not both") }
    if let id = userID, id.trimmingSpaces().isEmpty {
      throw .usage("--user-id must not be empty")
    }
    userAttributes = try arguments.pairs("user")
    assumeRules = arguments.values("assume-rule")
    timeRate = arguments.value("time-rate")
    askToBuy = arguments.flag("ask-to-buy")
    start = arguments.values("start")
    gracePeriod = arguments.flag("grace-period")
    renewalBillingIssues = arguments.flag("renewal-billing-issues")
    sdk = try Self.sdk(arguments)
  }

  /// `--sdk VERSION`, checked: `3`, `4` or `4.N`.
  package static func sdk(_ arguments: Arguments) throws(CLIFailure) -> SDKVersion? {
    guard let text = arguments.value("sdk") else { return nil }
    switch SDKVersion.parse(text) {
    case .success(let version): return version
    case .failure(let error): throw CLIFailure.usage("--sdk \(error.message)")
    }
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
