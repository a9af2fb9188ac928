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

  /// A moment between two whole seconds is written as the earlier one, before 1970 too: half a
  /// second before 1970 is 23:59:59 the day before.
  @Test func aFractionOfASecondIsFloored() {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    var generator = SystemRandomNumberGenerator()
    var moments: [Double] = [-Double.leastNonzeroMagnitude, -0.5, -0.001, 0.999, -86_400.25, 86_399.999, -1e-6]
    for _ in 0..<2_000 { moments.append(Double.random(in: -3e9...3e9, using: &generator)) }
    for moment in moments {
      // The moment as a Date holds it (from 2001: a hair from 1970 is lost).
      let date = Date(timeIntervalSince1970: moment)
      let floored = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
      #expect(StoreDates.format(date) == formatter.string(from: floored), "\(moment)")
    }
    #expect(StoreDates.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31 23:59:59")
    // Far moments (where a day times 86,400 in floating point passed the moment) and NaN are
    // written with a time of day, not a negative second and not a crash.
    for moment in [4e18, -4e18, 1e30, -1e30, .nan] {
      let time = StoreDates.format(Date(timeIntervalSince1970: moment)).suffix(8)
      #expect(time.allSatisfy { $0.isNumber || $0 == ":" } && time.count == 8 && time < "24", "\(moment): \(time)")
      let iso = StoreDates.iso8601(Date(timeIntervalSince1970: moment))
      #expect(iso.wholeMatch(of: /-?[0-9]+-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{3})?Z/) != nil, "\(moment): \(iso)")
    }
    #expect(StoreDates.iso8601(Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59.750Z")
  }

  /// Years outside four digits are written as they are, unpadded.
  @Test func yearsOfOtherLengthsAreUnpadded() {
    #expect(StoreDates.format(Date(timeIntervalSince1970: -62_135_596_800)) == "1-01-01 00:00:00")
    #expect(StoreDates.iso8601(Date(timeIntervalSince1970: 253_402_300_800.25)) == "10000-01-01T00:00:00.250Z")
  }
}
