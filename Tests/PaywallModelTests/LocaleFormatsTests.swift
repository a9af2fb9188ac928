import Foundation
@testable import PaywallModel
import Testing

/// Prices, currency symbols, trial end dates and periods for a table of locales, held to what
/// paywall-tui printed while it still formatted with Foundation's NumberFormatter and
/// DateFormatter (ICU). The shipped binary no longer links ICU (a small static binary),
/// so this golden is what keeps its own formatting honest. Regenerate only deliberately:
/// `UPDATE_GOLDENS=1 swift test --filter LocaleFormats` (and say why in the commit).
@Suite("locale formats")
struct LocaleFormatsTests {
  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Goldens/locale-formats.tsv")

  /// Every locale of the price table, plus locales the tests, goldens and fuzz dictionaries use.
  static let locales: [String] = {
    var list = CurrencyFormat.keys.map { String($0.split(separator: "|")[0]) }
    list += ["ar_SA"]
    return Array(Set(list)).sorted()
  }()

  static let amounts = [
    "0", "0.01", "0.99", "1", "4.99", "9.99", "12.5", "59.99", "83.33", "99.99", "600", "1200",
    "1234.56", "12345.67", "1234567.89", "2.675", "4.995", "0.005", "-4.99",
  ]

  /// Civil dates (UTC midnight) for trial end dates: every month, single- and double-digit days,
  /// a leap day, another century.
  static let dates: [(Int, Int, Int)] = (1...12).map { (2026, $0, 15) } + [
    (2026, 1, 8), (2026, 2, 1), (2027, 1, 1), (2028, 2, 29), (1999, 12, 31), (2100, 3, 3),
  ]

  static func currencies(for locale: String) -> [String] {
    var list = ["USD", "EUR", "GBP", "JPY", "CHF", "SAR"]
    for key in CurrencyFormat.keys where key.hasPrefix(locale + "|") && !key.hasSuffix("|*") {
      let currency = String(key.split(separator: "|")[1])
      if !list.contains(currency) { list.append(currency) }
    }
    return list
  }

  static func lines() -> [String] {
    var out: [String] = []
    for locale in locales {
      for currency in currencies(for: locale) {
        out.append("symbol\t\(locale)\t\(currency)\t\t\(PriceFormatter.shared.symbol(currencyCode: currency, locale: locale))")
        for amount in amounts {
          let text = PriceFormatter.shared.format(Decimal(string: amount)!, currencyCode: currency, locale: locale)
          out.append("price\t\(locale)\t\(currency)\t\(amount)\t\(text)")
        }
      }
      if locale == "ar_SA" { continue }  // its calendar is Umm al-Qura; see README's "Locales".
      for (y, m, d) in dates {
        let date = Date(timeIntervalSince1970: Double(CivilDate.days(year: y, month: m, day: d)) * 86_400)
        out.append("date\t\(locale)\t\t\(y)-\(m)-\(d)\t\(PriceFormatter.shared.mediumDate(date, locale: locale))")
      }
    }
    // Periods are Superwall's English words in every locale.
    for iso in ["P3D", "P7D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y", "P2Y"] {
      let period = SubscriptionPeriod(iso8601: iso)!
      out.append("period\t\t\t\(iso)\t\(period.spelledOut)")
    }
    return out
  }

  @Test func formatsAsFoundationDidForEveryLocaleInTheTable() throws {
    let actual = Self.lines()
    if ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" {
      try (actual.joined(separator: "\n") + "\n").write(to: Self.golden, atomically: true, encoding: .utf8)
      return
    }
    let expected = try String(contentsOf: Self.golden, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(expected.count > 5_000)
    let differences = zip(expected, actual).filter { $0 != $1 }.map { "expected \($0.0)\n  actual   \($0.1)" }
    #expect(expected.count == actual.count)
    #expect(differences.isEmpty, "\(differences.count) differ:\n\(differences.prefix(20).joined(separator: "\n"))")
  }
}
