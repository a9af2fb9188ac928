#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// Formats prices for a currency and locale as Foundation's NumberFormatter did ("$4.99",
/// "4,99 €", "¥600"), and trial end dates as its DateFormatter did ("Jan 8, 2026"), from tables
/// read from ICU ahead of time (CurrencyFormats.swift, DateFormats.swift): the shipped binary
/// links neither Foundation's internationalization nor ICU. LocaleFormatsTests holds
/// the output to what ICU printed. A locale the tables lack formats as its language ("de" for
/// "de_LU") or else as en_US; a currency without an entry for the locale prints its ISO code
/// where the locale puts a symbol.
package final class PriceFormatter: Sendable {
  package static let shared = PriceFormatter()

  /// "Jan 8, 2026" in `locale`, in UTC.
  package func mediumDate(_ date: Date, locale: String) -> String {
    let format = DateFormat.find(locale: Self.locale(locale)) ?? DateFormat.table["en_US"]!
    return format.format(date)
  }

  package func format(_ price: Decimal, currencyCode: String, locale: String) -> String {
    CurrencyFormat.resolve(currencyCode: currencyCode, locale: Self.locale(locale)).format(price)
  }

  package func symbol(currencyCode: String, locale: String) -> String {
    CurrencyFormat.resolve(currencyCode: currencyCode, locale: Self.locale(locale)).symbol
  }

  /// A locale identifier as the tables key it: "en-US" is en_US; an identifier that starts with
  /// a non-ASCII character (found by fuzzing a catalog's `locale`) is no locale, and formats as en_US.
  static func locale(_ identifier: String) -> String {
    guard identifier.unicodeScalars.allSatisfy(\.isASCII) else { return "en_US" }
    return identifier.contains("-") ? identifier.replacingOccurrences(of: "-", with: "_") : identifier
  }
}

/// A locale's medium date pattern as ICU's DateFormatter had it ("MMM d, y"), its month names,
/// and for a calendar that counts years from another era (th_TH: Buddhist), the offset and era.
/// Read ahead of time by scripts/date-formats.swift into DateFormats.swift.
struct DateFormat: Sendable {
  var pattern: String
  var months: [String]
  var yearOffset: Int
  var era: String

  static func find(locale: String) -> DateFormat? {
    if let format = table[locale] { return format }
    let language = String(locale.prefix { $0 != "_" })
    return table[language]
  }

  /// `date` (in UTC) in the pattern: `y` years, `M`/`L` months (numbers, or names from
  /// `months`), `d` days, `G` the era; text in quotes and anything not a letter as it is.
  func format(_ date: Date) -> String {
    let day = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    let (year, month, dayOfMonth) = CivilDate.from(days: day)
    var out = ""
    let chars = Array(pattern)
    var i = 0
    func padded(_ n: Int, _ width: Int) -> String {
      let digits = String(n)
      return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
    while i < chars.count {
      let c = chars[i]
      if c == "'" {
        // '' is a quote; otherwise text up to the closing quote.
        if i + 1 < chars.count && chars[i + 1] == "'" { out.append("'"); i += 2; continue }
        i += 1
        while i < chars.count {
          if chars[i] == "'" {
            if i + 1 < chars.count && chars[i + 1] == "'" { out.append("'"); i += 2; continue }
            break
          }
          out.append(chars[i])
          i += 1
        }
        i += 1
        continue
      }
      guard c.isASCII && c.isLetter else { out.append(c); i += 1; continue }
      var count = 1
      while i + count < chars.count && chars[i + count] == c { count += 1 }
      i += count
      switch c {
      case "y":
        let y = year + yearOffset
        out += count == 2 ? padded(y % 100, 2) : padded(y, count)
      case "M", "L":
        out += count >= 3 && months.count == 12 ? months[month - 1] : padded(month, count)
      case "d": out += padded(dayOfMonth, count)
      case "G": out += era
      default: out += String(repeating: c, count: count)
      }
    }
    return out
  }
}

/// How ICU formats prices in one locale and currency, read ahead of time by
/// scripts/currency-formats.swift (the table is in CurrencyFormats.swift, and a test checks every
/// entry against NumberFormatter).
struct CurrencyFormat: Sendable {
  var prefix: String
  var suffix: String
  var decimal: String
  var group: String
  /// Digits in the group nearest the decimal separator, and in the groups before it.
  var primaryGroup: Int
  var secondaryGroup: Int
  /// Digits needed before the first separator for one to appear (2: "1234,56 €" but "12.345,67 €").
  var minimumGrouping: Int
  var fractionDigits: Int
  var symbol: String
  /// What comes before and after the digits of a negative amount ("-$", "").
  var negativePrefix: String
  var negativeSuffix: String
  /// The scalar of the locale's zero digit (U+0660 in ar_SA); the rest follow it.
  var zero: UInt32 = 0x30

  static func find(currencyCode: String, locale: String) -> CurrencyFormat? {
    keys.sortedIndex(of: "\(locale)|\(currencyCode)").map(entry(at:))
  }

  /// The entry for the pair; else the locale's (or its language's, or en_US's) entry for a
  /// currency without a symbol of its own, its ISO code in place of ICU's test currency "XTS".
  static func resolve(currencyCode: String, locale: String) -> CurrencyFormat {
    if let format = find(currencyCode: currencyCode, locale: locale) { return format }
    let language = String(locale.prefix { $0 != "_" })
    if let format = find(currencyCode: currencyCode, locale: language) { return format }
    var format = find(currencyCode: "*", locale: locale) ?? find(currencyCode: "*", locale: language) ?? find(currencyCode: "*", locale: "en_US")!
    let code = currencyCode.isEmpty ? "XXX" : currencyCode
    format.prefix = format.prefix.replacingOccurrences(of: "XTS", with: code)
    format.suffix = format.suffix.replacingOccurrences(of: "XTS", with: code)
    format.negativePrefix = format.negativePrefix.replacingOccurrences(of: "XTS", with: code)
    format.negativeSuffix = format.negativeSuffix.replacingOccurrences(of: "XTS", with: code)
    format.symbol = code
    let digits = CurrencyMinorUnits.digits(code)
    if digits != format.fractionDigits {
      if format.decimal.isEmpty { format.decimal = find(currencyCode: "*", locale: "en_US")!.decimal }
      format.fractionDigits = digits
    }
    return format
  }

  /// The price as NumberFormatter printed it. It handed ICU a double made from the decimal's
  /// digits divided by ten once per decimal (so 1.005 became 1.0050000000000001), and ICU rounds
  /// that double's shortest decimal form half to even: an amount with more decimals than the
  /// currency has goes the same way. A negative amount keeps its sign even when it rounds to zero.
  func format(_ amount: Decimal) -> String {
    var text = amount.plainText
    let negative = text.hasPrefix("-")
    if negative { text.removeFirst() }
    var parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    if parts.count == 1 { parts.append("") }
    // Counted in bytes: only ASCII digits and a point are taken as they are.
    if parts[1].utf8.count > fractionDigits || parts[0].utf8.count + parts[1].utf8.count > 15
      || !text.utf8.allSatisfy({ $0.isASCIIDigit || $0 == 0x2E }) {
      var value = Double(parts[0] + parts[1]) ?? 0
      for _ in 0..<parts[1].count { value /= 10 }
      parts = Self.roundedDouble(value, fractionDigits)
    }
    let integer = parts[0].isEmpty ? "0" : parts[0]
    let fraction = parts[1]
    var out = negative ? negativePrefix : prefix
    out += localized(grouped(Substring(integer)))
    if fractionDigits > 0 {
      out += decimal
      out += localized(fraction + String(repeating: "0", count: max(0, fractionDigits - fraction.count)))
    }
    out += negative ? negativeSuffix : suffix
    return out
  }

  /// ASCII digits as the locale's digits.
  private func localized(_ digits: String) -> String {
    guard zero != 0x30 else { return digits }
    return String(String.UnicodeScalarView(digits.unicodeScalars.map { scalar in
      guard let value = scalar.properties.numericValue, scalar.isASCII, scalar.properties.numericType == .decimal else { return scalar }
      return Unicode.Scalar(zero + UInt32(value)) ?? scalar
    }))
  }

  /// `value`'s shortest decimal form rounded half to even to `digits` decimals: integer and
  /// fraction digits.
  static func roundedDouble(_ value: Double, _ digits: Int) -> [String] {
    guard value.isFinite else { return ["0", ""] }
    // Shortest round-trip digits and a decimal exponent: "1.2345e+15" or "0.001".
    let text = "\(abs(value))"
    var mantissa = text
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = String(text[..<e])
      exponent = Int(text[text.index(after: e)...]) ?? 0
    }
    let pieces = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    var allDigits = Array(pieces[0] + (pieces.count > 1 ? pieces[1] : ""))
    var pointAt = pieces[0].count + exponent  // digits before the point
    if pointAt < 0 {
      allDigits = Array(repeating: "0", count: -pointAt) + allDigits
      pointAt = 0
    }
    if allDigits.count < pointAt { allDigits += Array(repeating: "0", count: pointAt - allDigits.count) }
    var kept = Array(allDigits[..<min(allDigits.count, pointAt + digits)])
    let dropped = Array(allDigits.dropFirst(kept.count))
    let first = dropped.first?.wholeNumberValue ?? 0
    let rest = dropped.dropFirst().contains { $0 != "0" }
    let last = kept.last?.wholeNumberValue ?? 0
    if first > 5 || (first == 5 && (rest || last % 2 == 1)) {
      var i = kept.count - 1
      while i >= 0 {
        if kept[i] == "9" { kept[i] = "0"; i -= 1 } else { kept[i] = Character(String(kept[i].wholeNumberValue! + 1)); break }
      }
      if i < 0 { kept.insert("1", at: 0); pointAt += 1 }
    }
    while kept.count < pointAt + digits { kept.append("0") }
    var integer = String(kept[..<pointAt])
    while integer.count > 1 && integer.hasPrefix("0") { integer.removeFirst() }
    return [integer.isEmpty ? "0" : integer, String(kept[pointAt...])]
  }

  private func grouped(_ digits: Substring) -> String {
    guard primaryGroup > 0, !group.isEmpty, digits.count >= primaryGroup + minimumGrouping else { return String(digits) }
    var groups: [Substring] = [digits.suffix(primaryGroup)]
    var rest = digits.dropLast(primaryGroup)
    while !rest.isEmpty {
      groups.append(rest.suffix(secondaryGroup))
      rest = rest.dropLast(secondaryGroup)
    }
    return groups.reversed().joined(separator: group)
  }
}
