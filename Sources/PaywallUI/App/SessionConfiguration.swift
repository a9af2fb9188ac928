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

package enum ControllerKind: String, CaseIterable {
  case simulated, scripted, ask, command
}

/// How a session is set up: which controller, the status, state, store and audience inputs, the
/// SDK version. `run` and `play` fill it from their options; a library user from `PaywallApp.Options`.
package struct SessionConfiguration {
  package var controller: ControllerKind = .simulated
  /// `--outcome`, parsed: the scripted controller's answers.
  package var outcome: ScriptedPurchaseController.Outcomes?
  package var controllerCommand: String?
  /// `--controller-timeout`, in seconds of wall time.
  package var controllerTimeout: Double = 10
  package var status: String?
  package var stateDir: String?
  package var fresh = false
  /// The app as freshly installed on the same Apple ID: its own state (the status cache, the
  /// user and assignments) starts over, the store's ledger stays, as a reinstall leaves the
  /// App Store's purchases where they are.
  package var reinstall = false
  package var events: String?
  package var paywall: String?
  package var placement: String?
  /// `--time-rate`, parsed; nil: the catalog's, else real time.
  package var timeRate: TimeRate?
  package var askToBuy = false
  /// `--start`, each checked.
  package var start: [StartState] = []
  package var gracePeriod = false
  package var renewalBillingIssues = false
  /// `--notifications`: the device's notification permission at launch.
  package var notifications: NotificationPermission = .authorized
  package var userID: String?
  package var userAttributes: [String: String] = [:]
  /// `--assume-rule PLACEMENT#N=match|nomatch`, checked against the project when the session is made.
  package var assumeRules: [String] = []
  package var home = false
  /// `--sdk`: wins over the project's `options.sdk`.
  package var sdk: SDKVersion?
  /// `--platform`: wins over the project's `options.platform`.
  package var platform: SDKPlatform?

  /// The SDK the session follows for a project that follows `project`: `--platform` and `--sdk`
  /// over it (`SDKVersion.resolve`); the error is a usage error's message.
  package func resolvedSDK(_ project: SDKVersion) -> Result<SDKVersion, SDKVersionError> {
    SDKVersion.resolve(project: project, platform: platform, given: sdk)
  }

  /// `--platform` and `--sdk`, for loading the project the session follows.
  package var sdkChoice: SDKChoice { SDKChoice(platform: platform, given: sdk) }
  /// `--locale` / `--storefront`: the catalog sells there (`Catalog.localized`).
  package var locale: String?
  package var storefront: String?

  package init() {}

  /// The simulated store's settings: the catalog's, then what the command line changes. The time
  /// rate comes back too, for the store's clock.
  package func storeSettings(for catalog: Catalog, warnings: inout [String]) -> (SimulatedStore.Settings, TimeRate) {
    var settings = SimulatedStore.Settings(catalog: catalog.settings)
    var rate = TimeRate.realTime
    if let value = catalog.settings.timeRate {
      if let known = TimeRate(storeKitValue: value) {
        rate = known
      } else {
        warnings.append("\(catalog.file): _timeRate \(value) is not a StoreKit time rate; the store runs in real time (or give --time-rate)")
      }
    }
    if let timeRate { rate = timeRate }
    settings.rules.renewalInterval = rate.renewalInterval
    if askToBuy { settings.askToBuy = true }
    if gracePeriod { settings.rules.gracePeriodEnabled = true }
    if renewalBillingIssues { settings.rules.renewalBillingIssues = true }
    return (settings, rate)
  }

  /// Why `--status TEXT` is refused, or nil. Only its form is checked here: which entitlements a
  /// plain `active` grants is the project's catalog's, read when the session is made.
  package static func statusRefusal(_ text: String) -> String? {
    guard SubscriptionStatus(parsing: text) == nil else { return nil }
    return "--status \(quoting: text) must be unknown, inactive, active or active:ENTITLEMENT,… (e.g. active:pro)"
  }

  /// The options only the simulated store understands, given with another controller.
  package var storeOnlyOptions: [String] {
    var given: [String] = []
    if timeRate != nil { given.append("--time-rate") }
    if askToBuy { given.append("--ask-to-buy") }
    if !start.isEmpty { given.append("--start") }
    if gracePeriod { given.append("--grace-period") }
    if renewalBillingIssues { given.append("--renewal-billing-issues") }
    return given
  }

  /// `project` with its catalog in `--storefront`'s currency and `--locale`'s formats: at start
  /// and at every reload of `run --watch`.
  package func localized(_ project: Project) -> Project {
    var project = project
    project.catalog = project.catalog.localized(storefront: storefront, locale: locale)
    return project
  }

}
