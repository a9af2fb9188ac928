import Testing

@testable import PaywallModel

/// The host functions an audience filter may call differ between the SDKs: Superwall-Android's
/// `rule_logic/cel/SuperscriptExposedFunction.kt` `Names` (placement counts from 2.3.2, review-request
/// counts from 2.5.3, no `yearsSince`) and iOS 4.16.3's `ComputedPropertyRequest.swift` (no
/// review-request counts). Every one parses and reads as missing here; `validate` warns where the
/// project's SDK does not have it.
@Suite("Audience host functions")
struct AudienceHostFunctionTests {
  static func sdk(_ platform: SDKPlatform, _ major: Int, _ minor: Int?) -> SDKVersion {
    SDKVersion(platform: platform, major: major, minor: minor)
  }

  /// Refused as an unknown function before: an Android project's filter failed to load.
  @Test(arguments: ["reviewRequestsInHour", "reviewRequestsInDay", "reviewRequestsInWeek", "reviewRequestsInMonth",
                    "reviewRequestsInYear", "reviewRequestsSinceInstall", "requestReview"])
  func androidsReviewRequestCountsParse(_ function: String) throws {
    let filter = try AudienceFilter(parsing: "device.\(function)(\"x\") > 1 || user.plan == \"pro\"")
    #expect(filter.functionsMissing(in: Self.sdk(.android, 2, nil)).isEmpty)
    #expect(filter.evaluate(FilterContext(status: .inactive, user: ["plan": .string("pro")])), "reads as missing; the rest decides")
  }

  @Test func eachSDKIsWarnedOfWhatItLacks() throws {
    let filter = try AudienceFilter(parsing: #"device.yearsSince("a") > 1 || computed.placementsInDay("b") > 2 || device.reviewRequestsInDay("c") > 0"#)
    func names(_ sdk: SDKVersion) -> [String] {
      filter.functionsMissing(in: sdk).map { String($0.message.prefix { $0 != "(" }) }
    }
    #expect(names(Self.sdk(.ios, 4, nil)) == ["device.reviewRequestsInDay"])
    #expect(names(Self.sdk(.ios, 3, nil)) == ["device.reviewRequestsInDay"])
    #expect(names(Self.sdk(.android, 2, nil)) == ["device.yearsSince"])
    #expect(names(Self.sdk(.android, 2, 6)) == ["device.yearsSince"])
    #expect(names(Self.sdk(.android, 2, 5)) == ["device.yearsSince", "device.reviewRequestsInDay"])
    #expect(names(Self.sdk(.android, 2, 3)) == ["device.yearsSince", "computed.placementsInDay", "device.reviewRequestsInDay"])
    let warning = try #require(filter.functionsMissing(in: Self.sdk(.android, 2, 3)).dropFirst().first)
    #expect(warning.message == "computed.placementsInDay() arrived in Superwall-Android 2.3.2, so under SDK \(Self.sdk(.android, 2, 3).named) that this project follows the filter does not evaluate as written on a device")
    #expect(warning.offset == 30, "where computed.placementsInDay starts")
  }

  @Test func aFilterWithTheSDKsOwnFunctionsIsNotWarned() throws {
    let filter = try AudienceFilter(parsing: #"device.daysSince("a") > 1 && computed.placementsSinceInstall("b") < 3"#)
    for sdk in [Self.sdk(.ios, 4, nil), Self.sdk(.ios, 3, nil), Self.sdk(.android, 2, nil), Self.sdk(.android, 2, 4)] {
      #expect(filter.functionsMissing(in: sdk).isEmpty, "\(sdk.named)")
    }
    #expect(filter.functionsMissing(in: Self.sdk(.android, 2, 3)).count == 1)
  }
}
