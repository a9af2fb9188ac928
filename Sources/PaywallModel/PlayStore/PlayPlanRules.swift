#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// What the simulated store needs of a Play base plan beyond its price and period: how long a
/// failed renewal keeps access (grace period) and then waits without it (account hold).
package struct PlayPlanRules: Sendable, Hashable {
  /// Days of grace after a failed renewal, entitlement kept (0: none).
  package var gracePeriodDays: Int
  /// Days of account hold after the grace period, entitlement lost, before it expires (0: none).
  package var accountHoldDays: Int
  /// How a move to this plan happens when the app names no replacement mode: the plan's
  /// `prorationMode`, `CHARGE_ON_NEXT_BILLING_DATE` (the default) as `DEFERRED`,
  /// `CHARGE_FULL_PRICE_IMMEDIATELY` as `CHARGE_FULL_PRICE`.
  package var replacementMode: PlayReplacementMode = .deferred
  /// A prepaid plan: whether a buyer may top it up before it ends (`TIME_EXTENSION_ACTIVE`, the
  /// default); nil for a plan that renews.
  package var timeExtension: Bool?

  package init(gracePeriodDays: Int, accountHoldDays: Int, replacementMode: PlayReplacementMode = .deferred) {
    self.gracePeriodDays = gracePeriodDays
    self.accountHoldDays = accountHoldDays
    self.replacementMode = replacementMode
  }

  /// The base plan's own durations, Google's defaults where it gives none (AutoRenewingBasePlanType,
  /// androidpublisher v3): `gracePeriodDuration` defaults to "a default value … based on the
  /// recurring period duration", which we take as Play Console's 7 days, and 3 for a weekly plan
  /// (a grace period may not pass the billing period); an empty `accountHoldDuration` is "a
  /// recommended account hold, calculated as 60 days minus grace period".
  /// A prepaid plan never renews, so it has neither.
  package init(_ plan: PlayBasePlan) {
    switch plan.kind {
    case .autoRenewing(let rules):
      self.init(grace: rules.gracePeriod, hold: rules.accountHold, period: rules.billingPeriod)
      replacementMode = rules.prorationMode == .chargeFullPriceImmediately ? .chargeFullPrice : .deferred
    case .installments(let rules):
      self.init(grace: rules.gracePeriod, hold: rules.accountHold, period: rules.billingPeriod)
      replacementMode = rules.prorationMode == .chargeFullPriceImmediately ? .chargeFullPrice : .deferred
    case .prepaid(let rules):
      self.init(gracePeriodDays: 0, accountHoldDays: 0)
      timeExtension = rules.timeExtension
    }
  }

  init(grace: PlayDuration?, hold: PlayDuration?, period: PlayDuration) {
    let graceDays = grace.map(Self.days) ?? Self.defaultGraceDays(period)
    self.init(gracePeriodDays: graceDays, accountHoldDays: hold.map(Self.days) ?? max(0, 60 - graceDays))
  }

  /// The grace period of a plan that names none: 7 days, 3 for a plan of a week or less, never
  /// longer than the billing period (a daily plan's is a day).
  static func defaultGraceDays(_ period: PlayDuration) -> Int {
    min(days(period) <= 7 ? 3 : 7, max(days(period), 0))
  }

  static func days(_ duration: PlayDuration) -> Int {
    duration.years * 365 + duration.months * 30 + duration.weeks * 7 + duration.days
  }

  /// Seconds of grace and of hold on the store's rules: calendar days, or on a `renewal=` rate
  /// (Play's accelerated test timeline) one renewal interval of grace and two of hold, as a
  /// license tester's 5 and 10 minutes against a 5-minute renewal.
  package func durations(_ rules: StoreRules) -> (grace: Double, hold: Double) {
    if let interval = rules.renewalInterval {
      return (gracePeriodDays > 0 ? interval : 0, accountHoldDays > 0 ? 2 * interval : 0)
    }
    return (Double(gracePeriodDays) * 86_400, Double(accountHoldDays) * 86_400)
  }
}
