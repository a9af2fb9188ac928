import Foundation
@testable import PaywallModel
import Testing

/// Prices in common locales and currencies format from a table instead of ICU (which costs about
/// 2 ms to start). Every entry must print exactly what NumberFormatter prints; when a toolchain's
/// ICU changes, this fails: run `swift Scripts/currency-formats.swift > Sources/PaywallModel/Catalog/CurrencyFormats.swift`.
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

  @Test func everyEntryPrintsWhatICUPrints() {
    #expect(CurrencyFormat.table.count > 200)
    var differences: [String] = []
    for (key, format) in CurrencyFormat.table.sorted(by: { $0.key < $1.key }) {
      let parts = key.split(separator: "|").map(String.init)
      let (locale, currency) = (parts[0], parts[1])
      let formatter = NumberFormatter()
      formatter.numberStyle = .currency
      formatter.locale = Locale(identifier: locale)
      formatter.currencyCode = currency
      if format.symbol != formatter.currencySymbol { differences.append("\(key) symbol \(format.symbol) vs \(formatter.currencySymbol!)") }
      for amount in Self.amounts {
        let needsRounding = amount != amount.rounded(format.fractionDigits)
        guard let ours = format.format(amount) else {
          if !needsRounding { differences.append("\(key) \(amount): no fast format") }
          continue
        }
        let theirs = formatter.string(from: amount as NSDecimalNumber)!
        if ours != theirs { differences.append("\(key) \(amount): \(ours) vs \(theirs)") }
      }
    }
    #expect(differences.isEmpty, "\(differences.prefix(20))")
  }

  @Test func commonPricesFormatWithoutICU() {
    let usd = try! #require(CurrencyFormat.find(currencyCode: "USD", locale: "en_US"))
    #expect(usd.format(Decimal(string: "59.99")!) == "$59.99")
    #expect(usd.format(Decimal(string: "1234.5")!) == "$1,234.50")
    let euro = try! #require(CurrencyFormat.find(currencyCode: "EUR", locale: "de_DE"))
    #expect(euro.format(Decimal(string: "4.99")!) == "4,99\u{A0}€")
    let yen = try! #require(CurrencyFormat.find(currencyCode: "JPY", locale: "ja_JP"))
    #expect(yen.format(600) == "¥600")
  }

  /// What the table cannot mirror exactly goes to ICU: rounding (ICU rounds the nearest double),
  /// negative amounts, and amounts past a double's exact digits.
  @Test func whatNeedsRoundingOrIsNegativeGoesToICU() {
    let usd = CurrencyFormat.find(currencyCode: "USD", locale: "en_US")!
    #expect(usd.format(Decimal(string: "2.675")!) == nil)
    #expect(usd.format(Decimal(string: "-4.99")!) == nil)
    #expect(usd.format(Decimal(string: "12345678901234.5")!) == nil)
    #expect(CurrencyFormat.find(currencyCode: "JPY", locale: "ja_JP")!.format(Decimal(string: "83.33")!) == nil)
    #expect(CurrencyFormat.find(currencyCode: "XTS", locale: "en_US") == nil)
    // And PriceFormatter then prints exactly what ICU does.
    for (amount, currency, locale) in [("2.675", "USD", "en_US"), ("-4.99", "EUR", "de_DE"), ("83.33", "JPY", "ja_JP"), ("4.99", "CHF", "de_DE")] {
      let value = Decimal(string: amount)!
      #expect(PriceFormatter.shared.format(value, currencyCode: currency, locale: locale) == icu(value, currency, locale))
    }
  }
}

private extension Decimal {
  func rounded(_ scale: Int) -> Decimal {
    var input = self
    var result = Decimal()
    NSDecimalRound(&result, &input, scale, .plain)
    return result
  }
}
