// Writes Sources/PaywallModel/Catalog/CurrencyFormats.swift: how ICU (through Foundation's
// NumberFormatter) formats prices in common locales and currencies, so paywall-tui formats them
// the same way without starting ICU (a good part of the time to first paint).
//   swift scripts/currency-formats.swift > Sources/PaywallModel/Catalog/CurrencyFormats.swift
// CurrencyFormatTests checks every entry against NumberFormatter; when a toolchain's ICU changes,
// that test fails and this script brings the table up to date.
import Foundation

let currencyOfRegion: [String: String] = [
  "US": "USD", "GB": "GBP", "CA": "CAD", "AU": "AUD", "NZ": "NZD", "IE": "EUR", "IN": "INR", "SG": "SGD",
  "ZA": "ZAR", "DE": "EUR", "AT": "EUR", "CH": "CHF", "FR": "EUR", "BE": "EUR", "IT": "EUR", "ES": "EUR",
  "MX": "MXN", "AR": "ARS", "CO": "COP", "CL": "CLP", "BR": "BRL", "PT": "EUR", "NL": "EUR", "SE": "SEK",
  "DK": "DKK", "NO": "NOK", "FI": "EUR", "PL": "PLN", "CZ": "CZK", "HU": "HUF", "RO": "RON", "GR": "EUR",
  "TR": "TRY", "RU": "RUB", "UA": "UAH", "JP": "JPY", "KR": "KRW", "CN": "CNY", "TW": "TWD", "HK": "HKD",
  "TH": "THB", "VN": "VND", "ID": "IDR", "MY": "MYR", "IL": "ILS", "SA": "SAR",
]
let locales = [
  "en_US", "en_GB", "en_CA", "en_AU", "en_NZ", "en_IE", "en_IN", "en_SG", "en_ZA", "de_DE", "de_AT", "de_CH",
  "fr_FR", "fr_CA", "fr_BE", "fr_CH", "it_IT", "es_ES", "es_MX", "es_AR", "es_CO", "es_CL", "pt_BR", "pt_PT",
  "nl_NL", "nl_BE", "sv_SE", "da_DK", "nb_NO", "fi_FI", "pl_PL", "cs_CZ", "hu_HU", "ro_RO", "el_GR", "tr_TR",
  "ru_RU", "uk_UA", "ja_JP", "ko_KR", "zh_CN", "zh_TW", "zh_HK", "th_TH", "vi_VN", "id_ID", "ms_MY", "hi_IN",
  "he_IL", "ar_SA", "en", "de", "fr", "es", "it", "ja", "ko", "pt", "nl", "sv", "zh",
]
let everywhere = ["USD", "EUR", "GBP", "JPY"]

func formatter(_ locale: String, _ currency: String) -> NumberFormatter {
  let f = NumberFormatter()
  f.numberStyle = .currency
  f.locale = Locale(identifier: locale)
  f.currencyCode = currency
  return f
}

/// The locale's digits as ASCII ("٤٫٩٩" → "4٫99"), and the scalar of its zero.
var zeroOfLocale: [String: UInt32] = [:]
func format(_ f: NumberFormatter, _ value: Double) -> String {
  var zero: UInt32 = 0x30
  let text = String(String.UnicodeScalarView(f.string(from: NSNumber(value: value))!.unicodeScalars.map { scalar in
    guard scalar.properties.numericType == .decimal, let digit = scalar.properties.numericValue, !scalar.isASCII else { return scalar }
    zero = scalar.value - UInt32(digit)
    return Unicode.Scalar(0x30 + UInt32(digit))!
  }))
  if zero != 0x30 { zeroOfLocale[f.locale.identifier] = zero }
  return text
}

func literal(_ s: String) -> String {
  "\"" + s.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined() + "\""
}

var entries: [(key: String, value: String)] = []
var skipped: [String] = []
for locale in locales {
  var currencies = everywhere
  if let region = locale.split(separator: "_").last.map(String.init), region.count == 2, let own = currencyOfRegion[region],
     !currencies.contains(own) {
    currencies.append(own)
  }
  // "*": how a currency without a symbol of its own in the locale prints (its ISO code, here
  // ICU's test currency XTS, which the formatter replaces with the code it is given).
  for currency in currencies + ["*"] {
    let f = formatter(locale, currency == "*" ? "XTS" : currency)
    // maximumFractionDigits says 2 for every currency; zero shows how many ("¥0", "$0.00").
    let digits = format(f, 0).filter { $0.isASCII && $0.isNumber }.count - 1
    let probe = format(f, digits > 0 ? 1234567.5 : 1234567)
    let isDigit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
    guard let first = probe.firstIndex(where: isDigit), let last = probe.lastIndex(where: isDigit) else {
      skipped.append("\(locale)|\(currency)")
      continue
    }
    let prefix = String(probe[..<first])
    let suffix = String(probe[probe.index(after: last)...])
    let number = probe[first...last]
    // The integer part's separators, and the decimal separator before the last `digits` digits.
    var integer = number
    var decimal = ""
    if digits > 0 {
      let fraction = number.suffix(digits)
      let beforeFraction = number.dropLast(digits)
      let decimalStart = beforeFraction.lastIndex(where: isDigit).map { beforeFraction.index(after: $0) }!
      decimal = String(beforeFraction[decimalStart...])
      integer = beforeFraction[..<decimalStart]
      guard fraction.allSatisfy(isDigit) else { skipped.append("\(locale)|\(currency)"); continue }
    }
    let groups = integer.split(whereSeparator: { !isDigit($0) })
    let separators = integer.split(whereSeparator: isDigit)
    guard groups.joined() == "1234567", Set(separators).count <= 1 else {
      skipped.append("\(locale)|\(currency)")
      continue
    }
    let group = separators.first.map(String.init) ?? ""
    let sizes = groups.map(\.count).reversed()
    let primary = sizes.count > 1 ? sizes.first! : 0
    let secondary = sizes.count > 2 ? Array(sizes)[1] : primary
    // Whether 4-digit amounts are grouped (most locales) or only from 5 digits (es, pl, pt_PT…).
    // (Only between the digits: the space before a symbol may be the same character.)
    let four = format(f, 1234)
    let fourDigits = four[four.firstIndex(where: isDigit)!...four.lastIndex(where: isDigit)!]
    let minimumGrouping = group.isEmpty || fourDigits.contains(group) ? 1 : 2
    // A negative amount: what comes before and after the digits.
    let negative = format(f, digits > 0 ? -1234567.5 : -1234567)
    let negativePrefix = String(negative[..<negative.firstIndex(where: isDigit)!])
    let negativeSuffix = String(negative[negative.index(after: negative.lastIndex(where: isDigit)!)...])
    var extra = ", negativePrefix: \(literal(negativePrefix)), negativeSuffix: \(literal(negativeSuffix))"
    if let zero = zeroOfLocale[f.locale.identifier] { extra += ", zero: \(zero)" }
    entries.append(("\(locale)|\(currency)", "CurrencyFormat(prefix: \(literal(prefix)), suffix: \(literal(suffix)), decimal: \(literal(decimal)), group: \(literal(group)), primaryGroup: \(primary), secondaryGroup: \(secondary), minimumGrouping: \(minimumGrouping), fractionDigits: \(digits), symbol: \(literal(f.currencySymbol))\(extra))"))
  }
}

// Sorted as Swift compares strings (the keys are ASCII: byte order), for `find`'s binary search.
entries.sort { $0.key < $1.key }
print("""
// Generated by scripts/currency-formats.swift from the toolchain's ICU (through NumberFormatter); do not edit.
// \(entries.count) locale and currency pairs; \(skipped.isEmpty ? "none" : skipped.joined(separator: ", ")) not in the table (ICU's output did not fit it).

extension CurrencyFormat {
  /// The table's keys, a locale and a currency ("en_US|USD"; "*" for a currency without a symbol
  /// of its own), sorted: `find` searches them and builds only the entry it needs. Built whole as
  /// a Dictionary before the first price was written, the table cost the first paint 173,000
  /// instructions and 170 KB of fresh memory.
  static let keys: [String] = [
\(stride(from: 0, to: entries.count, by: 10).map { start in
  "    " + entries[start..<min(start + 10, entries.count)].map { literal($0.key) + "," }.joined(separator: " ")
}.joined(separator: "\n"))
  ]

  /// The entry of `keys[index]`.
  static func entry(at index: Int) -> CurrencyFormat {
    switch index {
\(entries.enumerated().map { "    case \($0.offset): return \($0.element.value)" }.joined(separator: "\n"))
    default: preconditionFailure("CurrencyFormat.entry(at: \\(index)): the table has \\(keys.count) entries")
    }
  }
}
""")
