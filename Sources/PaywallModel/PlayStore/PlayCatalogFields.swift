#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

extension PlayCatalogReader.Reader {
  var errorCount: Int { diagnostics.diagnostics.filter { $0.severity == .error }.count }

  func list(_ node: JSONNode, _ key: String, path: JSONPath, what: String) -> [JSONNode] {
    guard let value = node[key], !isNull(value) else { return [] }
    guard let elements = value.elements else {
      diagnostics.error("\(quoting: key) must be an array of \(what), found \(value.value.typeName); wrap it in [ ]",
                        at: value.location, path: path.appending(key))
      return []
    }
    return elements
  }

  func object(_ node: JSONNode, path: JSONPath, what: String) -> Bool {
    if node.members != nil { return true }
    diagnostics.error("\(what) must be an object, found \(node.value.typeName); write it as { … }", at: node.location, path: path)
    return false
  }

  mutating func productID(_ node: JSONNode, path: JSONPath) -> String? {
    guard let id = requiredString(node, "productId", path: path, example: "\"premium_monthly\"") else { return nil }
    if let first = productIDs[id] {
      diagnostics.error("duplicate productId \(quoting: id) (first at line \(first.line)); a product id is unique within an app, subscriptions and one-time products alike",
                        at: node["productId"]!.location, path: path.appending("productId"))
      return nil
    }
    productIDs[id] = node.location
    // A product id with a colon could never be told apart from `product:basePlan:offer`.
    if id.contains(":") {
      diagnostics.error("productId \(quoting: id) has a ':'; Play product ids are lower-case letters, digits, '_' and '.', and the SDK reads ':' as the base plan separator",
                        at: node["productId"]!.location, path: path.appending("productId"))
      return nil
    }
    return id
  }

  func listings(_ node: JSONNode, path: JSONPath) -> [PlayListing] {
    list(node, "listings", path: path, what: "listing objects").enumerated().compactMap { i, listing in
      let listingPath = path.appending("listings").appending(i)
      guard object(listing, path: listingPath, what: "a listing") else { return nil }
      let benefits = list(listing, "benefits", path: listingPath, what: "strings").compactMap(\.stringValue)
      return PlayListing(languageCode: optionalString(listing, "languageCode", path: listingPath) ?? "",
                         title: optionalString(listing, "title", path: listingPath) ?? "",
                         description: optionalString(listing, "description", path: listingPath) ?? "", benefits: benefits)
    }
  }

  func tags(_ node: JSONNode, path: JSONPath) -> [String] {
    list(node, "offerTags", path: path, what: "OfferTag objects ({\"tag\": \"…\"})").enumerated().compactMap { i, tagNode in
      guard let tag = tagNode["tag"]?.stringValue else {
        diagnostics.error("an offer tag must be an object {\"tag\": \"…\"}, found \(describe(tagNode))",
                          at: tagNode.location, path: path.appending("offerTags").appending(i))
        return nil
      }
      return tag
    }
  }

  func requiredString(_ node: JSONNode, _ key: String, path: JSONPath, example: String) -> String? {
    guard let value = node[key] else {
      diagnostics.error("missing \(quoting: key); add \"\(key)\": \(example)", at: node.location, path: path)
      return nil
    }
    guard let text = value.stringValue, !text.isEmpty else {
      diagnostics.error("\(quoting: key) must be a non-empty string such as \(example), found \(describe(value))",
                        at: value.location, path: path.appending(key))
      return nil
    }
    return text
  }

  func optionalString(_ node: JSONNode, _ key: String, path: JSONPath) -> String? {
    guard let value = node[key], !isNull(value) else { return nil }
    guard let text = value.stringValue else {
      diagnostics.error("\(quoting: key) must be a string, found \(describe(value)); quote it", at: value.location, path: path.appending(key))
      return nil
    }
    return text
  }

  func bool(_ node: JSONNode, _ key: String, path: JSONPath) -> Bool? {
    guard let value = node[key], !isNull(value) else { return nil }
    guard case .bool(let flag) = value.value else {
      diagnostics.error("\(quoting: key) must be true or false, found \(describe(value))", at: value.location, path: path.appending(key))
      return nil
    }
    return flag
  }

  func regionCode(_ node: JSONNode, path: JSONPath) -> String? {
    guard let region = requiredString(node, "regionCode", path: path, example: "\"US\"") else { return nil }
    guard PlayCatalogReader.isRegionCode(region) else {
      diagnostics.error("'regionCode' must be a two-letter ISO 3166 region such as \"US\", found \(quoting: region)",
                        at: node["regionCode"]!.location, path: path.appending("regionCode"))
      return nil
    }
    return region
  }

  /// A count of at least 1 (`recurrenceCount`, `committedPaymentsCount`), as a number or, as
  /// the API's int64 fields are written, a string.
  func requiredCount(_ node: JSONNode, _ key: String, path: JSONPath) -> Int? {
    guard let value = node[key] else {
      diagnostics.error("missing \(quoting: key); add \"\(key)\": 1", at: node.location, path: path)
      return nil
    }
    let text: String? = switch value.value {
    case .number(let n): n
    case .string(let s): s
    default: nil
    }
    guard let text, let count = Int(text), count >= 1 else {
      diagnostics.error("\(quoting: key) must be a whole number from 1, found \(describe(value))", at: value.location, path: path.appending(key))
      return nil
    }
    return count
  }

  func requiredDuration(_ node: JSONNode, _ key: String, path: JSONPath, positive: Bool) -> PlayDuration? {
    guard node[key] != nil else {
      diagnostics.error("missing \(quoting: key); add \"\(key)\": \"P1M\" (an ISO 8601 duration)", at: node.location, path: path)
      return nil
    }
    guard let duration = duration(node, key, path: path) else { return nil }
    if positive && duration.isZero {
      diagnostics.error("\(quoting: key) must be longer than zero, found \(quoting: duration.text); give a duration such as \"P1M\"",
                        at: node[key]!.location, path: path.appending(key))
      return nil
    }
    return duration
  }

  /// A renewing base plan's `gracePeriodDuration` and `accountHoldDuration`, held to what the API
  /// accepts (AutoRenewingBasePlanType, androidpublisher v3): both in days; a grace period up to
  /// the lesser of 30 days and the billing period; a hold up to 60 days, and with the grace
  /// period between 30 and 60 days in all. A plan outside them is one Play Console refuses to save.
  func graceAndHold(_ node: JSONNode, period: PlayDuration, path: JSONPath) -> (grace: PlayDuration?, hold: PlayDuration?) {
    func days(_ key: String) -> PlayDuration? {
      guard let value = duration(node, key, path: path) else { return nil }
      guard value.years == 0, value.months == 0, value.weeks == 0 else {
        diagnostics.error("\(quoting: key) must be in days, found \(quoting: value.text); write it as days, such as \"P\(PlayPlanRules.days(value))D\"",
                          at: node[key]!.location, path: path.appending(key))
        return nil
      }
      return value
    }
    let grace = days("gracePeriodDuration")
    let hold = days("accountHoldDuration")
    let limit = min(30, PlayPlanRules.days(period))
    if let grace, grace.days > limit {
      diagnostics.error("'gracePeriodDuration' may be at most \(limit) days (the lesser of 30 days and the billing period \(quoting: period.text)), found \(quoting: grace.text)",
                        at: node["gracePeriodDuration"]!.location, path: path.appending("gracePeriodDuration"))
      return (nil, hold)
    }
    if let hold {
      let graceDays = grace?.days ?? PlayPlanRules.defaultGraceDays(period)
      if hold.days > 60 {
        diagnostics.error("'accountHoldDuration' may be at most 60 days, found \(quoting: hold.text); leave it out for Google's recommended hold (60 days less the grace period)",
                          at: node["accountHoldDuration"]!.location, path: path.appending("accountHoldDuration"))
        return (grace, nil)
      }
      if !(30...60).contains(graceDays + hold.days) {
        diagnostics.error("the grace period (\(graceDays) days) and 'accountHoldDuration' (\(hold.days)) must add up to between 30 and 60 days, found \(graceDays + hold.days); leave the hold out for Google's recommended \(60 - graceDays) days",
                          at: node["accountHoldDuration"]!.location, path: path.appending("accountHoldDuration"))
        return (grace, nil)
      }
    }
    return (grace, hold)
  }

  func duration(_ node: JSONNode, _ key: String, path: JSONPath) -> PlayDuration? {
    guard let value = node[key], !isNull(value) else { return nil }
    guard let text = value.stringValue, let duration = PlayDuration(iso8601: text) else {
      diagnostics.error("\(quoting: key) must be an ISO 8601 duration in days, weeks, months or years such as \"P1M\", \"P1Y\" or \"P7D\", found \(describe(value))",
                        at: value.location, path: path.appending(key))
      return nil
    }
    return duration
  }

  /// `Money`: `currencyCode`, `units` (int64, written as a string by the API; a number is read
  /// too) and `nanos`, both of one sign; a price here is never negative.
  func money(_ node: JSONNode, _ key: String, path: JSONPath) -> PlayMoney? {
    guard let value = node[key], !isNull(value) else { return nil }
    let moneyPath = path.appending(key)
    guard value.members != nil else {
      diagnostics.error("\(quoting: key) must be a Money object {\"currencyCode\": \"USD\", \"units\": \"4\", \"nanos\": 990000000}, found \(describe(value))",
                        at: value.location, path: moneyPath)
      return nil
    }
    guard let currency = value["currencyCode"]?.stringValue, currency.count == 3,
          currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
      diagnostics.error("\(quoting: key) needs a 'currencyCode', three capital letters such as \"USD\"",
                        at: value["currencyCode"]?.location ?? value.location, path: moneyPath.appending("currencyCode"))
      return nil
    }
    var units = 0
    if let unitsNode = value["units"], !isNull(unitsNode) {
      let text: String? = switch unitsNode.value {
      case .string(let s): s
      case .number(let n): n
      default: nil
      }
      guard let text, let parsed = Int(text), parsed >= 0 else {
        diagnostics.error("'units' must be the whole units of a price as a string of digits, such as \"4\" for 4.99, found \(describe(unitsNode))",
                          at: unitsNode.location, path: moneyPath.appending("units"))
        return nil
      }
      // Play Billing carries a price in micros as a 64-bit number: a larger price cannot be sold
      // (and would read as 0 here).
      guard parsed < Int(Int64.max / 1_000_000) else {
        diagnostics.error("'units' \(parsed) is beyond what Play Billing carries (a price in micros must fit 64 bits: at most \(Int64.max / 1_000_000 - 1)); check the price",
                          at: unitsNode.location, path: moneyPath.appending("units"))
        return nil
      }
      units = parsed
    }
    var nanos = 0
    if let nanosNode = value["nanos"], !isNull(nanosNode) {
      guard case .number(let text) = nanosNode.value, let parsed = Int(text), (0...999_999_999).contains(parsed) else {
        diagnostics.error("'nanos' must be a whole number from 0 to 999999999 (990000000 is .99), found \(describe(nanosNode))",
                          at: nanosNode.location, path: moneyPath.appending("nanos"))
        return nil
      }
      nanos = parsed
    }
    let amount = Decimal(units) + Decimal(nanos) / Decimal(1_000_000_000)
    if let problem = CurrencyMinorUnits.problem(amount, currency: currency, key: key) {
      diagnostics.warning(.currencyDecimals, problem, at: value.location, path: moneyPath)
    }
    return PlayMoney(currencyCode: currency, amount: amount)
  }

  func state(_ node: JSONNode, path: JSONPath, allowed: [PlayState]) -> PlayState {
    guard let raw = enumeration(node, "state", path: path, allowed.map(\.rawValue)) else { return .unspecified }
    return PlayState(rawValue: raw) ?? .unspecified
  }

  func resubscribe(_ node: JSONNode, path: JSONPath) -> Bool {
    enumeration(node, "resubscribeState", path: path,
                ["RESUBSCRIBE_STATE_UNSPECIFIED", "RESUBSCRIBE_STATE_ACTIVE", "RESUBSCRIBE_STATE_INACTIVE"]) != "RESUBSCRIBE_STATE_INACTIVE"
  }

  func prorationMode(_ node: JSONNode, path: JSONPath) -> PlayProrationMode {
    let raw = enumeration(node, "prorationMode", path: path,
                          ["SUBSCRIPTION_PRORATION_MODE_UNSPECIFIED", PlayProrationMode.chargeOnNextBillingDate.rawValue,
                           PlayProrationMode.chargeFullPriceImmediately.rawValue])
    return raw.flatMap(PlayProrationMode.init(rawValue:)) ?? .chargeOnNextBillingDate
  }

  /// One of an API enum's values, with a did-you-mean; nil (after reporting) for any other.
  func enumeration(_ node: JSONNode, _ key: String, path: JSONPath, _ values: [String]) -> String? {
    guard let value = node[key], !isNull(value) else { return nil }
    guard let text = value.stringValue, values.contains(text) else {
      let found = value.stringValue.map { "\(quoting: $0)\(Suggestions.hint(for: $0, in: values))" } ?? value.value.typeName
      diagnostics.error("\(quoting: key) must be one of \(values.map { "\"\($0)\"" }.joined(separator: ", ")), found \(found)",
                        at: value.location, path: path.appending(key))
      return nil
    }
    return text
  }
}
