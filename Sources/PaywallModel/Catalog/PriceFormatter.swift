import Foundation

/// Formats prices for a currency and locale with Foundation's rules ("$4.99", "4,99 €", "¥600"),
/// and trial end dates. Common locales and currencies format from a table read from ICU ahead of
/// time (`CurrencyFormat`): starting ICU costs about 2 ms, most of a first paint. Anything else
/// goes to Foundation's formatters; they are costly to create, so one per locale and currency is kept.
package final class PriceFormatter: @unchecked Sendable {
  package static let shared = PriceFormatter()

  private let lock = NSLock()
  private var formatters: [String: NumberFormatter] = [:]
  private var dateFormatters: [String: DateFormatter] = [:]

  /// "Jan 8, 2026" in `locale`, in UTC.
  package func mediumDate(_ date: Date, locale: String) -> String {
    lock.lock()
    defer { lock.unlock() }
    if let cached = dateFormatters[locale] { return cached.string(from: date) }
    let formatter = DateFormatter()
    formatter.dateStyle = .medium
    formatter.timeStyle = .none
    formatter.locale = Self.locale(locale)
    formatter.timeZone = TimeZone(identifier: "UTC")
    dateFormatters[locale] = formatter
    return formatter.string(from: date)
  }

  package func format(_ price: Decimal, currencyCode: String, locale: String) -> String {
    if let text = CurrencyFormat.find(currencyCode: currencyCode, locale: locale)?.format(price) { return text }
    lock.lock()
    defer { lock.unlock() }
    let formatter = formatter(currencyCode: currencyCode, locale: locale)
    return formatter.string(from: price as NSDecimalNumber) ?? "\(currencyCode) \(price)"
  }

  package func symbol(currencyCode: String, locale: String) -> String {
    if let format = CurrencyFormat.find(currencyCode: currencyCode, locale: locale) { return format.symbol }
    lock.lock()
    defer { lock.unlock() }
    return formatter(currencyCode: currencyCode, locale: locale).currencySymbol ?? currencyCode
  }

  /// Starts ICU on another thread when `project` needs it: a price in a locale and currency the
  /// table lacks, or a trial end date in a template. Formatting in the first frame then costs a
  /// fraction of a millisecond; without either, ICU never starts.
  package func prepare(for project: Project) {
    var missing: [(currency: String, locale: String)] = []
    for product in project.catalog.products where CurrencyFormat.find(currencyCode: product.currencyCode, locale: product.locale) == nil {
      if !missing.contains(where: { $0 == (product.currencyCode, product.locale) }) { missing.append((product.currencyCode, product.locale)) }
    }
    let dateLocales = Set(project.catalog.products.map(\.locale))
    let needsDates = project.paywalls.contains { $0.templateAttributes.contains(.trialPeriodEndDate) }
    guard !missing.isEmpty || needsDates else { return }
    let pairs = missing
    DetachedThread.start("price-warm-up") {
      for pair in pairs { _ = self.format(9.99, currencyCode: pair.currency, locale: pair.locale) }
      if needsDates {
        for locale in dateLocales { _ = self.mediumDate(Date(timeIntervalSince1970: 0), locale: locale) }
      }
    }
  }

  /// Foundation on Linux traps formatting for a locale identifier that starts with a non-ASCII
  /// character (found by fuzzing a catalog's `locale`); such an identifier is no locale anyway,
  /// so it formats as en_US.
  static func locale(_ identifier: String) -> Locale {
    Locale(identifier: identifier.unicodeScalars.allSatisfy(\.isASCII) ? identifier : "en_US")
  }

  /// Call with the lock held.
  private func formatter(currencyCode: String, locale: String) -> NumberFormatter {
    let key = "\(locale)|\(currencyCode)"
    if let cached = formatters[key] { return cached }
    let formatter = NumberFormatter()
    formatter.numberStyle = .currency
    formatter.locale = Self.locale(locale)
    formatter.currencyCode = currencyCode
    formatters[key] = formatter
    return formatter
  }
}

/// How ICU formats prices in one locale and currency, read ahead of time by
/// Scripts/currency-formats.swift (the table is in CurrencyFormats.swift, and a test checks every
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

  static func find(currencyCode: String, locale: String) -> CurrencyFormat? {
    table["\(locale)|\(currencyCode)"]
  }

  /// The price as ICU prints it, or nil when ICU has to: a negative amount, one that needs
  /// rounding (ICU rounds the nearest double, which a decimal cannot always mirror), or one too
  /// large for a double to hold exactly.
  func format(_ amount: Decimal) -> String? {
    let text = amount.description
    guard !text.hasPrefix("-") else { return nil }
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let integer = parts[0]
    let fraction = parts.count > 1 ? parts[1] : ""
    guard !integer.isEmpty, integer.count <= 13, fraction.count <= fractionDigits,
          integer.allSatisfy(\.isASCII), fraction.allSatisfy(\.isASCII) else { return nil }
    // append(contentsOf:) with a Substring is String's own; `+=` took the generic path.
    var out = prefix
    out += grouped(integer)
    if fractionDigits > 0 {
      out += decimal
      out.append(contentsOf: fraction)
      out += String(repeating: "0", count: fractionDigits - fraction.count)
    }
    out += suffix
    return out
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
