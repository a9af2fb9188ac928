import PaywallModel
import Testing

/// Google Play Billing's response codes, and what Superwall-Android's own purchasing makes of a
/// failed one (`store/AutomaticPurchaseController.kt`, 2.6.5 against 2.6.6).
@Suite struct PlayBillingResponseTests {
  /// `BillingClient.BillingResponseCode` as Google documents it (OK left out: no failure).
  static let documented: [(String, Int)] = [
    ("SERVICE_TIMEOUT", -3), ("FEATURE_NOT_SUPPORTED", -2), ("SERVICE_DISCONNECTED", -1), ("USER_CANCELED", 1),
    ("SERVICE_UNAVAILABLE", 2), ("BILLING_UNAVAILABLE", 3), ("ITEM_UNAVAILABLE", 4), ("DEVELOPER_ERROR", 5),
    ("ERROR", 6), ("ITEM_ALREADY_OWNED", 7), ("ITEM_NOT_OWNED", 8), ("NETWORK_ERROR", 12),
  ]

  @Test func everyResponseHasGooglesNameAndCode() {
    #expect(PlayBillingResponse.allCases.count == Self.documented.count)
    for (name, code) in Self.documented {
      let response = PlayBillingResponse(name: name)
      #expect(response?.rawValue == code, "\(name)")
      #expect(response?.name == name)
    }
    #expect(PlayBillingResponse(name: "OK") == nil)
    #expect(PlayBillingResponse(name: "error") == nil, "names are Google's, in capitals")
  }

  /// 2.6.5 gives the bare code; 2.6.6 (here 2.7, and the latest) a text naming the response.
  @Test func theSDKsMessageIsTheBareCodeBefore266() throws {
    let old = try SDKVersion.parse("2.6", platform: .android).get()
    let new = try SDKVersion.parse("2.7", platform: .android).get()
    let latest = SDKVersion.latest(for: .android)
    for response in PlayBillingResponse.allCases {
      #expect(response.sdkMessage(old) == String(response.rawValue))
      #expect(response.sdkMessage(new).hasSuffix("(\(response.name))"), "\(response.sdkMessage(new))")
      #expect(response.sdkMessage(latest) == response.sdkMessage(new))
    }
  }

  @Test func aFailureSaysTheResponseAndWhy() {
    let failure = PlayBillingFailure(.itemAlreadyOwned, reason: "pass is still running")
    #expect(failure.description == "This item is already owned (ITEM_ALREADY_OWNED): pass is still running")
    #expect(PlayBillingFailure(.error).description == "Google Play had an internal error; try again later (ERROR)")
  }
}
