import Foundation

/// Formats prices for a currency and locale with Foundation's rules ("$4.99", "4,99 €", "¥600"),
/// and trial end dates. Formatters are costly to create, so one per locale (and currency) is kept.
public final class PriceFormatter: @unchecked Sendable {
  public static let shared = PriceFormatter()

  private let lock = NSLock()
  private var formatters: [String: NumberFormatter] = [:]
  private var dateFormatters: [String: DateFormatter] = [:]

  /// "Jan 8, 2026" in `locale`, in UTC.
  public func mediumDate(_ date: Date, locale: String) -> String {
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

  public func format(_ price: Decimal, currencyCode: String, locale: String) -> String {
    lock.lock()
    defer { lock.unlock() }
    let formatter = formatter(currencyCode: currencyCode, locale: locale)
    return formatter.string(from: price as NSDecimalNumber) ?? "\(currencyCode) \(price)"
  }

  public func symbol(currencyCode: String, locale: String) -> String {
    lock.lock()
    defer { lock.unlock() }
    return formatter(currencyCode: currencyCode, locale: locale).currencySymbol ?? currencyCode
  }

  /// Loads ICU's number and date data by formatting once in the most common locale, so the first
  /// real price costs a fraction of a millisecond. Safe from any thread; the formatters stay cached.
  public func warmUp() {
    _ = format(9.99, currencyCode: "USD", locale: "en_US")
    _ = mediumDate(Date(timeIntervalSince1970: 0), locale: "en_US")
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
