import Foundation
@testable import PaywallModel
import Testing

/// Prices in common locales and currencies format from a table instead of ICU (which costs about
/// 2 ms to start). Every entry must print exactly what NumberFormatter prints; when a toolchain's
/// ICU changes, this fails: run `swift scripts/currency-formats.swift > Sources/PaywallModel/Catalog/CurrencyFormats.swift`.
@Suite("currency formats")
struct CurrencyFormatTests {
  static let amounts: [Decimal] = [
    "0", "0.01", "0.49", "0.5", "0.99", "1", "4.99", "9.99", "12.5", "59.99", "99.99", "100", "149.99", "999.99",
    "1000", "1234.56", "9999.99", "10000", "12345.67", "99999", "123456.78", "1234567.89", "12345678.9",
    "999999999.99", "4.90", "600", "1200",
  ].map { Decimal(string: $0)! }

  private func icu(_ amount: Decimal, _ currency: String, _ locale: String) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .currency
    formatter.locale = Locale(identifier: locale)
    formatter.currencyCode = currency
    return formatter.string(from: amount as NSDecimalNumber)!
  }

  /// Every entry, for every amount (those that need rounding too), against NumberFormatter. The
  /// "*" entries stand for a currency without a symbol of its own: ICU's test currency XTS.
  @Test func everyEntryPrintsWhatICUPrints() {
    #expect(CurrencyFormat.keys.count > 300)
    var differences: [String] = []
    for (index, key) in CurrencyFormat.keys.enumerated() {
      let format = CurrencyFormat.entry(at: index)
      let parts = key.split(separator: "|").map(String.init)
      let (locale, currency) = (parts[0], parts[1] == "*" ? "XTS" : parts[1])
      let formatter = NumberFormatter()
      formatter.numberStyle = .currency
      formatter.locale = Locale(identifier: locale)
      formatter.currencyCode = currency
      if format.symbol != formatter.currencySymbol { differences.append("\(key) symbol \(format.symbol) vs \(formatter.currencySymbol!)") }
      for amount in Self.amounts + Self.needingRounding {
        let ours = format.format(amount)
        let theirs = formatter.string(from: amount as NSDecimalNumber)!
        if ours != theirs { differences.append("\(key) \(amount): \(ours) vs \(theirs)") }
      }
    }
    #expect(differences.isEmpty, "\(differences.prefix(20))")
  }

  static let needingRounding: [Decimal] = ["2.675", "4.995", "0.005", "0.015", "83.33", "83.5", "84.5", "-4.99", "-0.5",
                                           "12345678901234.5", "1.005", "19.999", "0.125"].map { Decimal(string: $0)! }

  @Test func commonPricesFormatWithoutICU() {
    let usd = try! #require(CurrencyFormat.find(currencyCode: "USD", locale: "en_US"))
    #expect(usd.format(Decimal(string: "59.99")!) == "$59.99")
    #expect(usd.format(Decimal(string: "1234.5")!) == "$1,234.50")
    let euro = try! #require(CurrencyFormat.find(currencyCode: "EUR", locale: "de_DE"))
    #expect(euro.format(Decimal(string: "4.99")!) == "4,99\u{A0}€")
    let yen = try! #require(CurrencyFormat.find(currencyCode: "JPY", locale: "ja_JP"))
    #expect(yen.format(600) == "¥600")
  }

  /// Rounding (ICU rounds the nearest double half to even), negative amounts, amounts past a
  /// double's exact digits, and currencies the locale has no entry for print what ICU prints.
  @Test func roundingNegativesAndOtherCurrenciesPrintWhatICUPrints() {
    let cases = [("2.675", "USD", "en_US"), ("-4.99", "EUR", "de_DE"), ("83.33", "JPY", "ja_JP"), ("4.99", "CHF", "de_DE"),
                 ("12345678901234.5", "USD", "en_US"), ("4.99", "XTS", "fr_FR"), ("1234.5", "KWD", "en_US"),
                 ("99.99", "SEK", "en_US"), ("4.99", "USD", "de_LU"), ("7.5", "CHF", "ar_SA"), ("1234.5", "ISK", "de_DE")]
    for (amount, currency, locale) in cases {
      let value = Decimal(string: amount)!
      #expect(PriceFormatter.shared.format(value, currencyCode: currency, locale: locale) == icu(value, currency, locale), "\(amount) \(currency) \(locale)")
    }
    #expect(CurrencyFormat.find(currencyCode: "XTS", locale: "en_US") == nil)
  }

  /// A price in whole minor units is told fine from its exponent alone; whatever the price, the
  /// verdict is the one rounding gives (which reads the decimal's text).
  @Test func minorUnitsJudgedFromTheExponentAsRoundingJudgesThem() {
    var random = SplitMix64(seed: 4217)
    var flagged = 0
    for _ in 0..<2_000 {
      let mantissa = Int.random(in: -200_000...200_000, using: &random)
      let exponent = Int.random(in: -6...3, using: &random)
      let price = Decimal(string: "\(mantissa)e\(exponent)")!
      for currency in ["JPY", "USD", "BHD"] {
        let scaled = price * pow(10, CurrencyMinorUnits.digits(currency))
        let problem = CurrencyMinorUnits.problem(price, currency: currency, key: "'price'")
        #expect((problem != nil) == (scaled.rounded(0, .plain) != scaled), "\(price) \(currency)")
        if problem != nil { flagged += 1 }
      }
    }
    #expect(flagged > 1_000 && flagged < 5_000, "\(flagged)")
  }

  /// `find` is a binary search over the sorted keys: each key finds its own entry, and a key
  /// between two keys, before the first or after the last finds none.
  @Test func findSearchesTheSortedKeys() {
    let keys = CurrencyFormat.keys
    #expect(keys == keys.sorted() && Set(keys).count == keys.count)
    var misses: [String] = []
    for (index, key) in keys.enumerated() {
      if keys.sortedIndex(of: key) != index { misses.append("index of " + key) }
      let parts = key.split(separator: "|").map(String.init)
      let found = CurrencyFormat.find(currencyCode: parts[1], locale: parts[0])
      let entry = CurrencyFormat.entry(at: index)
      if found?.prefix != entry.prefix || found?.suffix != entry.suffix || found?.symbol != entry.symbol
        || found?.decimal != entry.decimal || found?.negativePrefix != entry.negativePrefix {
        misses.append(key)
      }
      // Just after this key and before the next in the keys' order.
      if CurrencyFormat.find(currencyCode: parts[1] + "A", locale: parts[0]) != nil { misses.append(key + "A") }
    }
    #expect(misses.isEmpty, "\(misses.prefix(10))")
    #expect(CurrencyFormat.find(currencyCode: "USD", locale: "aa") == nil)
    #expect(CurrencyFormat.find(currencyCode: "USD", locale: "zz_ZZ") == nil)
    #expect(CurrencyFormat.find(currencyCode: "", locale: "") == nil)
  }
}
