@testable import PaywallModel
import Testing

/// The SDK's own event names (`register` ignores each) are found by a lookup instead of a Set
/// built at start: the same names, and only those.
@Suite("built-in names")
struct BuiltInNameTests {
  @Test func theListIsSortedForItsBinarySearch() {
    let names = PlacementNames.otherBuiltIns
    #expect(names == names.sorted())
    #expect(Set(names).count == names.count)
  }

  @Test func everyNameOfTheSDKIsBuiltInAndNoOtherIs() {
    var wrong: [String] = []
    for event in EventName.allCases where !event.isOwn && !PlacementNames.isBuiltIn(event.rawValue) {
      wrong.append(event.rawValue)
    }
    for name in PlacementNames.otherBuiltIns where !PlacementNames.isBuiltIn(name) { wrong.append(name) }
    #expect(wrong.isEmpty, "not found: \(wrong)")
    // Names between, before and after the listed ones, and our own events' names, are placements.
    let listed = Set(PlacementNames.otherBuiltIns)
    var near: [String] = ["", "a", "zzz", "App_open", "app_open ", " app_open", "paywall_open_", "campaign_trigger"]
    near += PlacementNames.otherBuiltIns.flatMap { [$0 + "x", String($0.dropLast()), $0.uppercased()] }
    near += EventName.allCases.filter(\.isOwn).map(\.rawValue)
    let builtIn = near.filter { name in
      !listed.contains(name) && !EventName.allCases.contains { !$0.isOwn && $0.rawValue == name } && PlacementNames.isBuiltIn(name)
    }
    #expect(builtIn.isEmpty, "built in by mistake: \(builtIn)")
  }

  /// The names are the 80 of `SuperwallEventObjc` (4.16.3), held here by count and by a few from
  /// each source (`EventName`'s and the list's), so a name dropped from either fails.
  @Test func theEightyNamesOfTheSDKAreBuiltIn() {
    let candidates = Set(EventName.allCases.map(\.rawValue) + PlacementNames.otherBuiltIns)
    #expect(candidates.filter(PlacementNames.isBuiltIn).count == 80)
    for name in ["paywall_open", "app_launch", "deepLink_open", "survey_response", "subscriptionStatus_didChange",
                 "reset", "paywall_page_view", "testModeModal_close", "adServicesTokenRequest_start", "transaction_timeout"] {
      #expect(PlacementNames.isBuiltIn(name), "\(name)")
    }
  }

  @Test func aBuiltInNameTheSDKFiresAsATriggerStillPresents() {
    #expect(PlacementNames.isBuiltIn("app_launch") && !PlacementNames.neverPresents("app_launch"))
    #expect(PlacementNames.neverPresents("paywall_open"))
    #expect(!PlacementNames.neverPresents("campaign_trigger"))
  }

  /// The binary search both lookups share: each element at its index, nothing else, at the edges too.
  @Test func aSortedSearchFindsEachElementAndNothingElse() {
    #expect([String]().sortedIndex(of: "a") == nil)
    #expect(["b"].sortedIndex(of: "b") == 0 && ["b"].sortedIndex(of: "a") == nil && ["b"].sortedIndex(of: "c") == nil)
    let words = ["apple", "banana", "cherry", "date", "fig", "grape", "kiwi"]
    for (index, word) in words.enumerated() {
      #expect(words.sortedIndex(of: word) == index)
      #expect(words.sortedIndex(of: word + "s") == nil)
    }
    #expect(words.sortedIndex(of: "") == nil && words.sortedIndex(of: "zucchini") == nil)
  }
}
