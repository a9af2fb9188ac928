import Foundation
import Testing

@testable import PaywallModel

/// The store's dates as text: what a date formatter of the same pattern prints, in UTC.
@Suite("store dates")
struct StoreDatesTests {
  /// `format` and `iso8601` against `DateFormatter`, for dates from 1600 to 9999 (the Gregorian
  /// calendar throughout, four-digit years), with and without milliseconds.
  @Test func datesAreWhatADateFormatterPrints() {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.calendar = Calendar(identifier: .gregorian)
    var generator = SystemRandomNumberGenerator()
    var seconds: [Int] = [0, 59, 86_399, 86_400, 951_782_400, 1_767_225_599, 4_107_542_400, -11_676_096_000, 253_402_300_799]
    for _ in 0..<2_000 { seconds.append(Int.random(in: -11_676_096_000...253_402_300_799, using: &generator)) }
    for whole in seconds {
      let date = Date(timeIntervalSince1970: Double(whole))
      formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
      #expect(StoreDates.format(date) == formatter.string(from: date))
      formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
      #expect(StoreDates.iso8601(date) == formatter.string(from: date))
      // Half a millisecond past, so the millisecond read back is the one meant.
      let millisecond = Int.random(in: 1...999, using: &generator)
      let precise = Date(timeIntervalSince1970: Double(whole) + (Double(millisecond) + 0.5) / 1000)
      formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
      #expect(StoreDates.iso8601(precise) == formatter.string(from: date) + String(format: ".%03dZ", millisecond))
    }
  }

  /// Years outside four digits are written as they are, unpadded.
  @Test func yearsOfOtherLengthsAreUnpadded() {
    #expect(StoreDates.format(Date(timeIntervalSince1970: -62_135_596_800)) == "1-01-01 00:00:00")
    #expect(StoreDates.iso8601(Date(timeIntervalSince1970: 253_402_300_800.25)) == "10000-01-01T00:00:00.250Z")
  }
}
