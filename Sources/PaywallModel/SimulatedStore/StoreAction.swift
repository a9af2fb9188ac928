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

/// What QA can do to the simulated store from outside the app: the play script commands and the
/// debug panel keys are both these. A nil product means "the one that fits": the newest live
/// subscription (and, for an upgrade or downgrade, the next level up or down in its group).
public enum StoreAction: Sendable, Hashable {
  /// A purchase made outside the paywall (another device, the App Store), with the same rules.
  case buy(productID: String)
  /// The oldest pending Ask to Buy purchase: granted now, or dropped.
  case approve, decline
  /// Auto-renewal off: it ends at the end of the current period.
  case cancel(productID: String?)
  case refund(productID: String?)
  case revoke(productID: String?)
  case upgrade(productID: String?)
  case downgrade(productID: String?)
  case crossgrade(productID: String?)
  /// The payment method fails from now: the next renewal enters billing retry (with a grace
  /// period when `grace`, else as the store's setting says).
  case billingIssue(productID: String?, grace: Bool?)
  case resolveBilling(productID: String?)
  /// A family organizer's purchase shared with this user, and the end of that sharing.
  case familyShare(productID: String?)
  case familyRevoke(productID: String?)
  /// The next renewal needs consent to `price` (default: 20% more).
  case priceIncrease(productID: String?, price: Decimal?)
  case acceptPrice(productID: String?)
  case declinePrice(productID: String?)
  /// The next purchase is interrupted (the buyer must act first); `resolveInterrupted` completes it.
  case interruptNextPurchase
  case resolveInterrupted
  /// The user redeems an offer code in the App Store's sheet (`AppStore.presentOfferCodeRedeemSheet`,
  /// Xcode's "redeem offer codes"): the catalog's code offer called `code` grants its period at
  /// its price, to a customer its eligibility allows.
  case redeem(code: String)
  /// Google Play: later purchases pay with this license-test card.
  case testCard(PlayTestCard)
  /// Google Play: the app acknowledges purchases as they complete (true), or forgets to (false).
  case acknowledging(Bool)
  /// Google Play: the app acknowledges the newest unacknowledged purchase (of a product) now.
  case acknowledge(productID: String?)
  /// Google Play: the subscriber pauses an auto-renewing subscription from the end of its period.
  case pause(productID: String?, PlayPauseDuration)
  /// Google Play: the replacement mode the app asks for on later plan changes (nil: each target
  /// plan's default).
  case replacementMode(PlayReplacementMode?)
  /// Google Play: the subscriber moves to the base plan `productID` of the same subscription, by
  /// `mode` (nil: the mode in force).
  case replace(productID: String, mode: PlayReplacementMode?)
  /// Google Play: the subscriber resumes a paused subscription now (or drops a pause not begun).
  case resume(productID: String?)

  /// The script command that performs it.
  public var name: String {
    switch self {
    case .buy: "buy"
    case .approve: "approve"
    case .decline: "decline"
    case .cancel: "cancel"
    case .refund: "refund"
    case .revoke: "revoke"
    case .upgrade: "upgrade"
    case .downgrade: "downgrade"
    case .crossgrade: "crossgrade"
    case .billingIssue: "billing-issue"
    case .resolveBilling: "resolve-billing"
    case .familyShare: "family-share"
    case .familyRevoke: "family-revoke"
    case .priceIncrease: "price-increase"
    case .acceptPrice: "accept-price"
    case .declinePrice: "decline-price"
    case .interruptNextPurchase: "interrupt"
    case .resolveInterrupted: "resolve-interrupted"
    case .redeem: "redeem"
    case .testCard: "test-card"
    case .acknowledging, .acknowledge: "acknowledge"
    case .pause: "pause"
    case .replacementMode: "replacement-mode"
    case .replace: "replace"
    case .resume: "resume"
    }
  }
}

/// Why a store action did nothing: one line saying what was missing.
public struct StoreActionError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was missing, in one line.
  public var message: String

  package init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}

/// `--start ENTITLEMENT=STATE`: a history put in the ledger so a tester begins where the bug is.
public struct StartState: Sendable, Hashable, CustomStringConvertible {
  /// The starting states a tester can pick.
  public enum State: String, Sendable, Hashable, CaseIterable {
    /// A paid subscription that has just started.
    case subscribed
    /// A free trial that has just started.
    case trial
    /// A renewal has just failed and the billing grace period has begun (still active).
    case gracePeriod
    /// A renewal failed and the grace period, if any, is over: billing retry (inactive).
    case billingRetry
    /// The subscription was cancelled and has just expired.
    case expired
    /// The purchase was revoked (refunded by Apple) just now.
    case revoked
  }

  /// The entitlement to put in `state`.
  public var entitlement: Entitlement
  /// The state it starts in.
  public var state: State

  /// `entitlement` starting in `state`.
  public init(entitlement: Entitlement, state: State) {
    self.entitlement = entitlement
    self.state = state
  }

  package static let usage = "ENTITLEMENT=STATE with STATE one of \(State.allCases.map(\.rawValue).joined(separator: ", ")) (e.g. pro=gracePeriod)"

  /// Parses `pro=trial`; the error says what is wrong and what would be right.
  package init(parsing text: String) throws(StoreActionError) {
    let parts = text.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces() }
    guard parts.count == 2, !parts[0].isEmpty else {
      throw StoreActionError("\(quoting: text) must be \(Self.usage)")
    }
    guard let state = State(rawValue: parts[1]) ?? State.allCases.first(where: { $0.rawValue.lowercased() == parts[1].lowercased() }) else {
      let names = State.allCases.map(\.rawValue)
      throw StoreActionError("\(quoting: parts[1]) is not a starting state\(Suggestions.hint(for: parts[1], in: names)); use one of \(names.joined(separator: ", "))")
    }
    self.init(entitlement: Entitlement(parts[0]), state: state)
  }

  /// `ENTITLEMENT=STATE`, as `--start` takes it.
  public var description: String { "\(entitlement.id)=\(state.rawValue)" }
}
