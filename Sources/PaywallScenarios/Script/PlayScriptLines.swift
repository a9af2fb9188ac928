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
import TerminalCore
import PaywallUI

extension PlayScript {
  package static func command(_ line: String) throws(LineError) -> Command {
    let words = words(line)
    let name = words[0]
    let args = Array(words.dropFirst())
    let starts = wordStarts(line)
    func column(ofArgument i: Int) -> Int { i + 1 < starts.count ? starts[i + 1] : line.count }
    func need(_ count: Int, _ usage: String) throws(LineError) {
      guard args.count == count else { throw LineError(message: "\(quoting: name) takes \(usage)", column: 0) }
    }
    switch name {
    case "press":
      guard !args.isEmpty else { throw LineError(message: "'press' needs at least one key", column: 0) }
      var keys: [Key] = []
      for (i, word) in args.enumerated() {
        guard let key = Key(name: word) else {
          throw LineError(message: "unknown key \(quoting: word)\(Suggestions.hint(for: word, in: Key.names)) (keys: \(Key.names.joined(separator: " ")), or one character)",
                          column: column(ofArgument: i))
        }
        keys.append(key)
      }
      return .press(keys)
    case "advance":
      try need(1, "one duration, e.g. 'advance 30s' or 'advance 1M'")
      return .advance(try distance(args[0], column: column(ofArgument: 0),
                                   usage: "use e.g. 500ms, 30s, 5m, 2h, 3d, 1w, 1M (a calendar month) or 1y"))
    case "status":
      try need(1, "one status: unknown, inactive, active or active:ENTITLEMENT,…")
      // `active` alone means every entitlement of the catalog, as `--status active` does; the
      // catalog is known when the step runs.
      if args[0] == "active" { return .status(.active([]), everyEntitlement: true) }
      guard let status = SubscriptionStatus(parsing: args[0]) else {
        throw LineError(message: "\(quoting: args[0]) is not a status; use unknown, inactive, active or active:ENTITLEMENT,… (e.g. active:pro)",
                        column: column(ofArgument: 0))
      }
      return .status(status, everyEntitlement: false)
    case "placement":
      guard let placement = args.first else { throw LineError(message: "'placement' needs a name", column: 0) }
      // `placement unknown NAME [key=value…]`: NAME is meant to have no campaign.
      if placement == "unknown", args.count >= 2, !args[1].contains("=") {
        return .placement(args[1], params: try pairs(Array(args.dropFirst(2)), offset: 2, column: column), unknown: true)
      }
      return .placement(placement, params: try pairs(Array(args.dropFirst()), offset: 1, column: column))
    case "user":
      guard !args.isEmpty else { throw LineError(message: "'user' needs key=value pairs", column: 0) }
      return .user(try pairs(args, offset: 0, column: column))
    case "override":
      guard !args.isEmpty else {
        throw LineError(message: "'override' needs SLOT=PRODUCT_ID pairs (e.g. override primary=com.acme.pro.monthly), or 'none'", column: 0)
      }
      if args == ["none"] { return .override([]) }
      var overrides: [SlotOverride] = []
      for (i, word) in args.enumerated() {
        guard let o = SlotOverride(argument: word) else {
          throw LineError(message: "\(quoting: word) must be SLOT=PRODUCT_ID, e.g. primary=com.acme.pro.monthly", column: column(ofArgument: i))
        }
        overrides.append(o)
      }
      return .override(overrides)
    case "survey":
      let usage = "'survey' takes 'answer OPTION' (an option's id, or its title in double quotes), 'other TEXT…' or 'close'"
      let rest = args.count > 1 ? String(line.dropFirst(column(ofArgument: 1))).trimmingSpaces() : ""
      switch args.first {
      case "answer" where !rest.isEmpty:
        let unquoted = rest.count >= 2 && rest.hasPrefix("\"") && rest.hasSuffix("\"") ? String(rest.dropFirst().dropLast()) : rest
        return .survey(.answer(unquoted))
      case "other" where !rest.isEmpty:
        return .survey(.other(rest))
      case "close" where args.count == 1:
        return .survey(.close)
      default:
        throw LineError(message: usage, column: args.isEmpty ? 0 : column(ofArgument: 0))
      }
    case "relaunch":
      try need(0, "nothing (the app is killed and launched again)")
      return .relaunch
    case "reinstall":
      try need(0, "nothing (the app is deleted and installed again; the store's purchases stay)")
      return .reinstall
    case "notifications":
      guard args.count == 1, let permission = NotificationPermission(rawValue: args[0]) else {
        throw LineError(message: "'notifications' takes allow, deny or ask: the device's notification permission (allowed, refused, or never asked)",
                        column: args.isEmpty ? 0 : column(ofArgument: 0))
      }
      return .notifications(permission)
    case "background":
      guard args.count <= 1 else {
        throw LineError(message: "'background' takes nothing, or how long the app stays there, e.g. 'background 2h' (then it comes back)", column: 0)
      }
      guard let away = args.first else { return .background(nil) }
      return .background(try distance(away, column: column(ofArgument: 0),
                                      usage: "use e.g. 30s, 5m, 2h, 3d or 1w"))
    case "foreground":
      try need(0, "nothing (the app becomes active again)")
      return .foreground
    case "deeplink":
      try need(1, "one URL, e.g. 'deeplink myapp://promo?discount=20'")
      guard let url = URL(string: args[0]), let scheme = url.scheme, !scheme.isEmpty else {
        throw LineError(message: "\(quoting: args[0]) is not a URL; write one with its scheme, e.g. myapp://promo?discount=20",
                        column: column(ofArgument: 0))
      }
      return .deepLink(args[0])
    case "open":
      try need(1, "one paywall id")
      return .open(args[0])
    case "call":
      let usage = "'call' takes 'purchase PRODUCT_ID', 'restore' or 'getPresentationResult PLACEMENT [key=value…]' (Superwall.shared.purchase / restorePurchases / getPresentationResult)"
      let verbs = ["purchase", "restore", "getPresentationResult"]
      switch args.first {
      case "getPresentationResult":
        guard args.count >= 2, !args[1].contains("=") else { throw LineError(message: usage, column: 0) }
        // `call getPresentationResult unknown NAME [key=value…]`: NAME is meant to have no campaign.
        if args[1] == "unknown", args.count >= 3, !args[2].contains("=") {
          return .call(.presentationResult(placement: args[2], params: try pairs(Array(args.dropFirst(3)), offset: 3, column: column),
                                           unknown: true))
        }
        return .call(.presentationResult(placement: args[1], params: try pairs(Array(args.dropFirst(2)), offset: 2, column: column),
                                         unknown: false))
      case "purchase":
        guard args.count == 2 else { throw LineError(message: usage, column: 0) }
        return .call(.purchase(productID: args[1]))
      case "restore":
        guard args.count == 1 else { throw LineError(message: usage, column: 0) }
        return .call(.restore)
      case let other?:
        throw LineError(message: "\(quoting: other): \(usage)\(Suggestions.hint(for: other, in: verbs))",
                        column: column(ofArgument: 0))
      case nil:
        throw LineError(message: usage, column: 0)
      }
    case "fail":
      guard args.count == 2 else {
        throw LineError(message: "'fail' takes purchase or restore and a store error, e.g. 'fail purchase networkError'", column: 0)
      }
      guard let target = FaultTarget(rawValue: args[0]) else {
        throw LineError(message: "\(quoting: args[0]): fail purchase or restore\(Suggestions.hint(for: args[0], in: ["purchase", "restore"]))",
                        column: column(ofArgument: 0))
      }
      if let response = PlayBillingResponse(name: args[1]) {
        guard target == .purchase else {
          throw LineError(message: "\(quoting: args[1]) is Google Play's answer to a purchase; 'fail restore' takes the errors \(StoreError.names.joined(separator: ", "))",
                          column: column(ofArgument: 1))
        }
        return .failPlay(response)
      }
      guard let error = StoreError(rawValue: args[1]) else {
        let names = StoreError.names + (target == .purchase ? PlayBillingResponse.names : [])
        let hint = Suggestions.hint(for: args[1], in: names)
        let looksLikePlays = args[1].allSatisfy { $0 == "_" || ($0.isASCII && $0.isUppercase) }
          || PlayBillingResponse.names.contains { hint.contains("'\($0)'") }
        throw LineError(message: "unknown store error \(quoting: args[1])\(hint) (errors: \(StoreError.names.joined(separator: ", "))\(target == .purchase && looksLikePlays ? "; on Android also Google Play's responses, e.g. ERROR, NETWORK_ERROR" : ""))",
                        column: column(ofArgument: 1))
      }
      return .fail(target, error)
    case "latency":
      try need(1, "one duration, e.g. 'latency 2s' (0s turns it off)")
      return .latency(seconds: try duration(args[0], column: column(ofArgument: 0), usage: "use e.g. 500ms, 2s or 0s"))
    case "drop":
      try need(0, "no arguments (it drops the next response)")
      return .drop
    case "screenshot":
      let file = unquoted(starts.count > 1 ? String(line.dropFirst(starts[1])) : "")
      guard !file.isEmpty else { throw LineError(message: "'screenshot' needs a file, e.g. 'screenshot shots/paywall.svg'", column: 0) }
      guard PictureFormat(extensionOf: file) != nil else {
        throw LineError(message: "\(quoting: file): a screenshot is written as .svg, .html or .txt; end the file name with one of them",
                        column: column(ofArgument: 0))
      }
      return .screenshot(file)
    case "resize":
      try need(1, "one size WIDTHxHEIGHT, e.g. 'resize 100x30'")
      guard let size = Size(args[0]) else {
        throw LineError(message: "\(quoting: args[0]) is not a size; use WIDTHxHEIGHT, each 1 to 1000, e.g. 100x30", column: column(ofArgument: 0))
      }
      return .resize(size)
    case "answer":
      let usage = "'answer' takes purchase or restore, a result and a duration, then an optional message: 'answer purchase failed 1200ms Card declined'"
      guard args.count >= 3, let request = RecordedAnswer.Request(rawValue: args[0]) else { throw LineError(message: usage, column: 0) }
      let results = request == .purchase ? RecordedAnswer.purchaseResults : RecordedAnswer.restoreResults
      if args[1].hasPrefix("failed:"), RecordedAnswer.storeError(in: args[1]) == nil {
        let name = String(args[1].dropFirst("failed:".count))
        throw LineError(message: "unknown store error \(quoting: name)\(Suggestions.hint(for: name, in: StoreError.names)) (errors: \(StoreError.names.joined(separator: ", ")))",
                        column: column(ofArgument: 1) + "failed:".count)
      }
      guard results.contains(args[1]) || RecordedAnswer.storeError(in: args[1]) != nil else {
        throw LineError(message: "\(quoting: args[1]) is not a \(request.rawValue) result\(Suggestions.hint(for: args[1], in: results)) (\(results.joined(separator: ", ")), or failed:ERROR for a StoreKit error)",
                        column: column(ofArgument: 1))
      }
      let seconds = try duration(args[2], column: column(ofArgument: 2), usage: "use e.g. 0ms, 800ms or 2s")
      let message = starts.count > 4 ? RecordedAnswer.message(reading: String(line.dropFirst(starts[4]))) : ""
      return .answer(RecordedAnswer(request: request, result: args[1], message: message, seconds: seconds))
    case _ where storeCommands.contains(name):
      return .store(try storeAction(name, args, column: column))
    case "expect":
      guard let what = args.first else { throw LineError(message: "'expect' needs event, screen, status or subscription", column: 0) }
      let rest = starts.count > 2 ? String(line.dropFirst(starts[2])) : ""
      switch what {
      case "no" where args.count > 1 && args[1] == "screen":
        let text = starts.count > 3 ? String(line.dropFirst(starts[3])) : ""
        guard !text.isEmpty else { throw LineError(message: "'expect no screen' needs the text that must not show", column: 0) }
        return .expectNoScreen(unquoted(text))
      case "event", "no":
        let negated = what == "no"
        let first = negated ? 2 : 1
        if negated && args.count > 1 && args[1] != "event" {
          throw LineError(message: "'expect no' is followed by 'event NAME' or 'screen TEXT'", column: column(ofArgument: 1))
        }
        guard args.count > first else {
          throw LineError(message: "'expect \(negated ? "no event" : "event")' takes an event name, then optional key=value parameters", column: 0)
        }
        guard let event = EventName(rawValue: args[first]) else {
          let names = EventName.allCases.map(\.rawValue)
          throw LineError(message: "unknown event \(quoting: args[first])\(Suggestions.hint(for: args[first], in: names))", column: column(ofArgument: first))
        }
        let params = try pairs(Array(args.dropFirst(first + 1)), offset: first + 1, column: column)
        return negated ? .expectNoEvent(event, params: params) : .expectEvent(event, params: params)
      case "screen":
        guard !rest.isEmpty else { throw LineError(message: "'expect screen' needs the text to find", column: 0) }
        return .expectScreen(unquoted(rest))
      case "subscription" where args.count >= 3 && args[2] == "offer":
        let types = ["none"] + LedgerEntry.OfferType.allCases.map(\.rawValue)
        guard args.count == 4 || args.count == 5, types.contains(args[3]) else {
          throw LineError(message: "'expect subscription PRODUCT offer' takes one of \(types.joined(separator: ", ")) and optionally the offer id, e.g. 'expect subscription com.acme.pro.annual offer winBack annual.back'",
                          column: args.count > 3 ? column(ofArgument: 3) : 0)
        }
        if args[3] == "none" && args.count == 5 {
          throw LineError(message: "'offer none' takes no offer id", column: column(ofArgument: 4))
        }
        return .expectSubscriptionOffer(productID: args[1], type: LedgerEntry.OfferType(rawValue: args[3]),
                                        id: args.count == 5 ? args[4] : nil)
      case "subscription":
        guard args.count == 3 else {
          throw LineError(message: "'expect subscription' takes a product id and a state, e.g. 'expect subscription com.acme.pro.annual trial'", column: 0)
        }
        let names = SubscriptionExpectation.allCases.map(\.rawValue)
        guard let expectation = SubscriptionExpectation(rawValue: args[2]) else {
          throw LineError(message: "unknown subscription state \(quoting: args[2])\(Suggestions.hint(for: args[2], in: names)) (states: \(names.joined(separator: ", ")))",
                          column: column(ofArgument: 2))
        }
        return .expectSubscription(productID: args[1], expectation)
      case "status":
        guard args.count == 2 else { throw LineError(message: "'expect status' takes one status", column: 0) }
        if args[1] == "active" { return .expectStatus(.active([]), anyActive: true) }
        guard let status = SubscriptionStatus(parsing: args[1]) else {
          throw LineError(message: "\(quoting: args[1]) is not a status; use unknown, inactive, active or active:ENTITLEMENT,…",
                          column: column(ofArgument: 1))
        }
        return .expectStatus(status, anyActive: false)
      default:
        throw LineError(message: "\(quoting: "expect " + what): expect event, screen, status or subscription\(Suggestions.hint(for: what, in: ["event", "screen", "status", "subscription"]))",
                        column: column(ofArgument: 0))
      }
    default:
      // The did-you-mean when there is one, else where every command is listed (33 of them made the line long).
      let hint = Suggestions.hint(for: name, in: commands)
      throw LineError(message: "unknown command \(quoting: name)\(hint.isEmpty ? "; every command: 'paywall-tui help script'" : hint)",
                      column: 0)
    }
  }

  /// A duration argument, or why it is none: not a duration, or longer than any clock can go.
  package static func duration(_ text: String, column: Int, usage: String) throws(LineError) -> Double {
    try refuse(Duration.parseSeconds(text), text, column: column, usage: usage)
  }

  /// An `advance` argument: as `duration`, with `M` and `y` calendar units (whole numbers).
  package static func distance(_ text: String, column: Int, usage: String) throws(LineError) -> ClockDistance {
    try refuse(Duration.parseDistance(text), text, column: column, usage: usage)
  }

  static func refuse<T>(_ result: Result<T, Duration.ParseError>, _ text: String, column: Int, usage: String) throws(LineError) -> T {
    switch result {
    case .success(let value): return value
    case .failure(.fractionalCalendarUnit):
      throw LineError(message: "\(quoting: text): months (M) and years (y) are calendar units and take whole numbers; use days for the rest (e.g. 45d); \(usage)",
                      column: column)
    case .failure(.tooLong):
      throw LineError(message: "\(quoting: text) is longer than \(Duration.longestYears)y, the span of dates a ledger holds (1970 to 9999); \(usage)",
                      column: column)
    case .failure(.notADuration):
      throw LineError(message: "\(quoting: text) is not a duration; \(usage)", column: column)
    }
  }

  /// A simulated-store command: an optional product id first, then what the command takes.
  package static func storeAction(_ name: String, _ args: [String], column: (Int) -> Int) throws(LineError) -> StoreAction {
    if let action = try playStoreAction(name, args, column: column) { return action }
    func product(max extra: Int = 0) throws(LineError) -> String? {
      guard args.count <= 1 + extra else {
        throw LineError(message: "\(quoting: name) takes at most \(1 + extra) argument\(extra == 0 ? "" : "s")", column: column(1 + extra))
      }
      return args.first
    }
    switch name {
    case "buy":
      guard args.count == 1 else { throw LineError(message: "'buy' takes one product id", column: 0) }
      return .buy(productID: args[0])
    case "redeem":
      guard args.count == 1 else {
        throw LineError(message: "'redeem' takes one offer code, e.g. 'redeem ACMEFRIENDS'", column: args.isEmpty ? 0 : column(1))
      }
      return .redeem(code: args[0])
    case "approve", "decline", "interrupt", "resolve-interrupted":
      guard args.isEmpty else { throw LineError(message: "\(quoting: name) takes no arguments", column: column(0)) }
      return switch name {
      case "approve": .approve
      case "decline": .decline
      case "interrupt": .interruptNextPurchase
      default: .resolveInterrupted
      }
    case "billing-issue":
      var rest = args
      var grace: Bool?
      if let last = rest.last, last == "grace" || last == "no-grace" {
        grace = last == "grace"
        rest.removeLast()
      }
      guard rest.count <= 1 else {
        throw LineError(message: "'billing-issue' takes [PRODUCT_ID] [grace|no-grace]", column: column(1))
      }
      return .billingIssue(productID: rest.first, grace: grace)
    case "price-increase":
      var rest = args
      var price: Decimal?
      if let last = rest.last, let parsed = DecimalParsing.parse(last) {
        guard parsed > 0 else { throw LineError(message: "a price must be more than 0", column: column(rest.count - 1)) }
        price = parsed
        rest.removeLast()
      }
      guard rest.count <= 1 else {
        throw LineError(message: "'price-increase' takes [PRODUCT_ID] [PRICE], e.g. 'price-increase com.acme.pro.monthly 12.99'",
                        column: column(1))
      }
      return .priceIncrease(productID: rest.first, price: price)
    default:
      let id = try product()
      switch name {
      case "refund": return .refund(productID: id)
      case "cancel": return .cancel(productID: id)
      case "revoke": return .revoke(productID: id)
      case "upgrade": return .upgrade(productID: id)
      case "downgrade": return .downgrade(productID: id)
      case "crossgrade": return .crossgrade(productID: id)
      case "resolve-billing": return .resolveBilling(productID: id)
      case "family-share": return .familyShare(productID: id)
      case "family-revoke": return .familyRevoke(productID: id)
      case "accept-price": return .acceptPrice(productID: id)
      default: return .declinePrice(productID: id)
      }
    }
  }

  package static func pairs(_ words: [String], offset: Int, column: (Int) -> Int) throws(LineError) -> [String: String] {
    var out: [String: String] = [:]
    for (i, word) in words.enumerated() {
      let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, !parts[0].isEmpty else {
        throw LineError(message: "\(quoting: word) must be key=value", column: column(i + offset))
      }
      out[parts[0]] = parts[1]
    }
    return out
  }
}
