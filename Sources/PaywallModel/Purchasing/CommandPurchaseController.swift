#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// What waiting for a controller's launch-time status came to.
public enum LaunchStatus: Sendable, Equatable {
  /// A status was known already (`--status`, the cache): nothing waited.
  case known
  /// The controller sent `setSubscriptionStatus`.
  case sent
  /// The controller's output ended first (it exited, or closed stdout).
  case ended
  /// `timeout` passed with no status.
  case timedOut
}

/// A purchase controller written in any language: an external process that reads one JSON
/// request a line on stdin and answers on stdout.
///
///     → {"id":1,"method":"purchase","product":{"id":"com.acme.pro.annual","price":"59.99",…}}
///     ← {"id":1,"result":"purchased"}
///     → {"id":2,"method":"restorePurchases"}
///     ← {"id":2,"result":"failed","error":"No receipt"}
///     ← {"id":3,"result":"failed","error":{"code":"userCancelled"}}   (StoreKit's error, typed)
///     ← {"method":"setSubscriptionStatus","status":"active","entitlements":["pro"]}   (any time)
///
/// An `error` that is a string is a message: the purchase fails with it, whatever it says. An
/// object `{"code": NAME}` is StoreKit's error (`StoreError`'s names), which the SDK reads as a
/// cancel for `userCancelled`, `paymentCancelled`, `overlayCancelled` and `overlayTimeout`. On SDK
/// 4 a purchase cannot answer `restored` (4.x `PurchaseResult` has none): that answer fails it.
///
/// `command` is a shell command line, run as `/bin/sh -c COMMAND` (so `FOO=1 python3 ctl.py`
/// works) in a process group of its own: `stop()`, and any way the app ends, ends the group.
///
/// A malformed line, the process exiting, or no answer within `timeout` seconds (wall time: a
/// real process cannot run on a simulated clock) fails the waiting request with a message that
/// says which, and how the process ended with the last lines of its stderr, reported through
/// `onProblem`; the app never hangs. What it writes to stderr is its log: read off the app's loop
/// and handed to `onLog` (to `onProblem` when there is none) a few lines a second at most,
/// however fast it comes. A log line is not a problem: a controller that logs each request
/// does nothing wrong.
public final class CommandPurchaseController: PurchaseController {
  /// The shell command line the controller runs.
  public let command: String
  /// Seconds (wall time) a request may wait for its answer before it fails.
  public let timeout: Double
  /// The SDK the session follows, which decides the purchase results a controller may answer.
  public let sdk: SDKVersion
  private let status: SubscriptionStatusStore
  private let onProblem: @Sendable (String) -> Void
  private let onLog: (@Sendable (String) -> Void)?
  private let exchange = Mutex<ControllerExchange?>(nil)

  /// A controller for `command`, not started yet (`start()`): status changes it sends go to
  /// `status`, problems to `onProblem`, the lines of its stderr to `onLog` (without it, to
  /// `onProblem` as `controller stderr: LINE`).
  public init(command: String, status: SubscriptionStatusStore, timeout: Double = 10, sdk: SDKVersion = .latest,
              onLog: (@Sendable (String) -> Void)? = nil, onProblem: @escaping @Sendable (String) -> Void) {
    self.command = command
    self.status = status
    self.timeout = timeout
    self.sdk = sdk
    self.onLog = onLog
    self.onProblem = onProblem
  }

  /// Starts the process. Throws when it cannot be started at all.
  public func start() throws(PurchaseError) {
    try begin(ControllerProcess.spawn(command))
  }

  /// Starts talking to `endpoints` (a process, or in-memory pipes in the fuzz target).
  func begin(_ endpoints: ControllerEndpoints) throws(PurchaseError) {
    let started = ControllerExchange(endpoints: endpoints, status: status, timeout: timeout, sdk: sdk, onLog: onLog, onProblem: onProblem)
    exchange.withLock { $0 = started }
    guard started.startThreads() else {
      let reason = String(cString: strerror(errno))
      started.stop()
      throw PurchaseError("cannot start a thread to talk to the controller command \(quoting: command): \(reason)")
    }
  }

  /// Waits, at most `timeout` seconds of wall time, for the status the controller sets at launch,
  /// when `status` does not know one yet (nothing given with `--status`, nothing cached).
  ///
  /// An app with a purchase controller sets `Superwall.shared.subscriptionStatus` itself at
  /// launch, and the SDK holds a registration until the status is known
  /// (`Paywall/Presentation/Internal/Operators/WaitForSubsStatusAndConfig.swift`, 4.16.3). A
  /// scripted session runs on a simulated clock and would reach its first step before a real
  /// process has started at all (a Python controller takes a few hundred milliseconds), so `play`
  /// and `test` wait here, in wall time, where the app would simply wait for the process. A known status is the app's until the
  /// controller sets another, as the SDK's cached status is: nothing waits then.
  public func waitForLaunchStatus() -> LaunchStatus {
    guard status.status == .unknown else { return .known }
    guard let current = currentExchange else { return .ended }
    return current.waitForFirstStatus(within: timeout)
  }

  /// The conversation, once started (the fuzz target looks at it).
  var currentExchange: ControllerExchange? { exchange.withLock { $0 } }

  /// Closes its stdin and ends its process group: SIGTERM, then SIGKILL to whatever is left
  /// after a second. Returns once that is done.
  public func stop() {
    exchange.withLock { $0 }?.stop()
  }

  deinit {
    stop()
  }

  /// Sends a `purchase` request and returns the command's answer; a problem fails it.
  public func purchase(product: StoreProduct) async -> PurchaseResult {
    var fields: [(String, JSONOutput)] = [("method", "purchase")]
    if sdk.platform == .android {
      // Superwall-Android buys through Google Play whatever the catalog's file says, and its
      // controller receives the product with its base plan and offer.
      var sold = product
      sold.store = .playStore
      fields += [("platform", "android"), ("product", Self.describe(sold))] + product.androidControllerFields(reading: PlayProductIdentifier.Reading(sdk))
    } else {
      fields.append(("product", Self.describe(product)))
    }
    switch await request(.purchase, fields) {
    case .purchase(let result): return result
    case .restore: return .failed(PurchaseError("controller answered a purchase with a restore result"))
    case .problem(let message): return .failed(PurchaseError(message))
    }
  }

  /// Sends a `restorePurchases` request and returns the command's answer; a problem fails it.
  public func restorePurchases() async -> RestorationResult {
    let platform: [(String, JSONOutput)] = sdk.platform == .android ? [("platform", "android")] : []
    switch await request(.restore, [("method", "restorePurchases")] + platform) {
    case .restore(let result): return result
    case .purchase: return .failed(PurchaseError("controller answered a restore with a purchase result"))
    case .problem(let message): return .failed(PurchaseError(message))
    }
  }

  private func request(_ kind: ControllerExchange.Kind, _ fields: [(String, JSONOutput)]) async -> ControllerExchange.Reply {
    guard let exchange = exchange.withLock({ $0 }) else { return .problem("the controller command was not started") }
    return await exchange.request(kind, fields)
  }

  /// One line from the controller process, decoded without touching any state, so what a
  /// line means can be tested (and fuzzed) apart from the process and the waiting requests.
  enum ReplyLine: Sendable, Equatable {
    /// Only spaces, tabs and carriage returns: ignored.
    case blank
    /// Not a JSON object, or an object with neither a request id nor a method.
    case malformed(String)
    case setStatus(SubscriptionStatus)
    /// `setSubscriptionStatus` with a status other than active, inactive or unknown.
    case badStatus(String)
    /// `{"method":"error","message":…}`: the controller reports a problem of its own (its store
    /// refused a key, a receipt did not validate), to count as one, as its stderr never does.
    case reportedError(String)
    /// An answer to request `id`; `shown` is the line as messages quote it (sanitised, cut short).
    case answer(id: Int, result: String, error: ReplyError?, shown: String)
  }

  /// An answer's `error`, as written.
  enum ReplyError: Sendable, Equatable {
    /// A string: a message, shown as is.
    case message(String)
    /// `{"code": NAME}`: StoreKit's error by its name (checked when the answer is read).
    case code(String)
    /// Any other value.
    case unreadable
  }

  static func decode(line bytes: [UInt8]) -> ReplyLine {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .blank }
    let shown = UntrustedText.sanitize(String(decoding: bytes.prefix(120), as: UTF8.self))
    guard let node = try? JSONParser.parse(bytes: bytes), node.members != nil else {
      return .malformed("the controller command sent a line that is not a JSON object: \(shown)")
    }
    if node["method"]?.stringValue == "setSubscriptionStatus" {
      let names = (node["entitlements"]?.elements ?? []).compactMap(\.stringValue)
      switch node["status"]?.stringValue {
      case "active": return .setStatus(.active(Set(names.map { Entitlement($0) })))
      case "inactive": return .setStatus(.inactive)
      case "unknown": return .setStatus(.unknown)
      default: return .badStatus("setSubscriptionStatus needs status active, inactive or unknown: \(shown)")
      }
    }
    if node["method"]?.stringValue == "error" {
      guard let message = node["message"]?.stringValue else {
        return .badStatus("an error from the controller needs a \"message\" string: \(shown)")
      }
      return .reportedError(UntrustedText.excerpt(message.split(whereSeparator: \.isNewline).joined(separator: " "), limit: 300))
    }
    guard case .number(let idText)? = node["id"]?.value, let id = Int(idText) else {
      return .malformed("the controller command sent a line with no request id or method: \(shown)")
    }
    return .answer(id: id, result: node["result"]?.stringValue ?? "", error: node["error"].flatMap(replyError), shown: shown)
  }

  /// A string is a message; an object with a string `code` a typed error; `null` none.
  private static func replyError(_ node: JSONNode) -> ReplyError? {
    if let text = node.stringValue { return .message(text) }
    if node.members != nil, let code = node["code"]?.stringValue { return .code(code) }
    if case .null = node.value { return nil }
    return .unreadable
  }

  static func describe(_ product: StoreProduct) -> JSONOutput {
    var fields: [(String, JSONOutput)] = [
      ("id", .string(product.id)), ("name", .string(product.displayName)), ("price", .string("\(product.price)")),
      ("currency", .string(product.currencyCode)), ("type", .string(product.kind.rawValue)),
      ("store", .string(product.store.rawValue)),
      ("entitlements", .array(product.entitlements.sorted().map { .string($0.id) })),
    ]
    if let period = product.subscriptionPeriod { fields.append(("period", .string(period.iso8601))) }
    if product.introductoryOfferIsFree, let trial = product.introductoryOffer?.totalPeriod { fields.append(("trial", .string(trial.iso8601))) }
    if let group = product.subscriptionGroup { fields.append(("group", .string(group))) }
    // A custom store product reaches the controller with no StoreKit product behind it (the SDK's
    // `StoreProduct` has no `sk1Product`/`sk2Product`, `Models/Product/CustomStoreProduct.swift`):
    // the controller bills `id` through its own store.
    if product.store == .custom { fields.append(("storeKit", .bool(false))) }
    // The offer the paywall's slot sells, for the controller to pass on (StoreKit's
    // `Product.PurchaseOption.winBackOffer`/`promotionalOffer`, RevenueCat's `WinBackOffer`/`PromotionalOffer`).
    if let offer = product.requestedOffer {
      fields.append(("offer", .object([
        ("type", .string(LedgerEntry.OfferType(offer.kind).rawValue)), ("id", .string(offer.id)),
        ("paymentMode", .string(offer.terms.paymentMode.rawValue)), ("price", .string("\(offer.terms.price)")),
        ("period", .string(offer.terms.period.iso8601)), ("periods", .number(String(offer.terms.periodCount))),
      ])))
    }
    return .object(fields)
  }

  static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : cFormat("%.1f s", seconds)
  }
}
