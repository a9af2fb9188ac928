#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// How many decimals a currency's prices have (ISO 4217 minor units): 2 for most, none for the yen
/// and the others listed, 3 for the dinars and rials listed.
enum CurrencyMinorUnits {
  static let none: Set<String> = ["BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND",
                                  "VUV", "XAF", "XOF", "XPF"]
  static let three: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]

  /// The decimals of `currency` (an ISO 4217 code).
  static func digits(_ currency: String) -> Int {
    if none.contains(currency) { return 0 }
    if three.contains(currency) { return 3 }
    return 2
  }

  /// A price with more decimals than its currency has (JPY "39.99", EUR "39.999") is a typo
  /// StoreKit would never show: the message for it, with the nearest price the currency can have;
  /// nil when the price is fine. `key` names the field (`'price'`, `'displayPrice'`).
  static func problem(_ price: Decimal, currency: String, key: String) -> String? {
    let digits = digits(currency)
    // A price of m × 10^e is a whole number of minor units when e + digits >= 0: fine, told from
    // the exponent alone. The multiplication below (Foundation's pow and product of decimals) cost
    // each price 9,000 instructions before the first paint.
    if price.isFinite, price.exponent + digits >= 0 { return nil }
    let scaled = price * pow(10, digits)
    // The same of the scaled price, whose exponent the product may have raised (trailing zeros),
    // told without rounding: that goes through the decimal's text, whose generic code in
    // Foundation cost the first paint the runtime's lookup of a conformance.
    if scaled.isFinite, scaled.exponent >= 0 { return nil }
    guard scaled.rounded(0, .plain) != scaled else { return nil }
    let rounded = price.rounded(digits, .plain)
    let has = digits == 0 ? "has no decimals" : "has \(digits) decimal\(digits == 1 ? "" : "s")"
    return "\(quoting: key) \(price) has more decimals than \(currency) \(has); did you mean '\(rounded)'?"
  }
}
