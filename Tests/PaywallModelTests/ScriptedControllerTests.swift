import Foundation
import Testing
import PaywallModel

typealias ScriptedOutcomes = ScriptedPurchaseController.Outcomes

@Suite struct ScriptedOutcomeParsingTests {
  struct GoodCase: Sendable, CustomTestStringConvertible {
    var text: String
    var expected: ScriptedOutcomes
    var testDescription: String { "\"\(text)\"" }
  }

  @Test(arguments: [
    GoodCase(text: "purchase=pending,restore=failed", expected: ScriptedOutcomes(purchase: .pending, restore: .failed(nil))),
    GoodCase(text: "purchase=failed:Card declined", expected: ScriptedOutcomes(purchase: .failed("Card declined"))),
    GoodCase(text: "latency=2s", expected: ScriptedOutcomes(latency: 2)),
    GoodCase(text: "latency=500ms", expected: ScriptedOutcomes(latency: 0.5)),
    GoodCase(text: "", expected: ScriptedOutcomes()),
    GoodCase(text: "purchase=purchased", expected: ScriptedOutcomes(purchase: .purchased)),
    GoodCase(text: "purchase=cancelled", expected: ScriptedOutcomes(purchase: .cancelled)),
    GoodCase(text: "purchase=restored", expected: ScriptedOutcomes(purchase: .restored)),
    GoodCase(text: "purchase=failed", expected: ScriptedOutcomes(purchase: .failed("The purchase failed"))),
    GoodCase(text: "restore=restored", expected: ScriptedOutcomes(restore: .restored)),
    GoodCase(text: "restore=failed:No receipt", expected: ScriptedOutcomes(restore: .failed("No receipt"))),
    GoodCase(text: " purchase=cancelled , latency=1m ", expected: ScriptedOutcomes(purchase: .cancelled, latency: 60)),
    GoodCase(text: "purchase=failed:Error: code 7", expected: ScriptedOutcomes(purchase: .failed("Error: code 7"))),
    // A StoreKit error by its exact name is that typed error; any other text is a message.
    GoodCase(text: "purchase=failed:userCancelled", expected: ScriptedOutcomes(purchase: .failedWith(.userCancelled))),
    GoodCase(text: "purchase=failed:overlayTimeout", expected: ScriptedOutcomes(purchase: .failedWith(.overlayTimeout))),
    GoodCase(text: "purchase=failed:user cancelled", expected: ScriptedOutcomes(purchase: .failed("user cancelled"))),
    GoodCase(text: "restore=failed:networkError", expected: ScriptedOutcomes(restore: .failedWith(.networkError))),
    GoodCase(text: "purchase=pending,restore=failed:No receipt,latency=2s",
             expected: ScriptedOutcomes(purchase: .pending, restore: .failed("No receipt"), latency: 2)),
  ])
  func parses(_ c: GoodCase) throws {
    #expect(try ScriptedOutcomes(parsing: c.text) == c.expected)
  }

  struct BadCase: Sendable, CustomTestStringConvertible {
    var text: String
    var mentions: [String]
    var testDescription: String { "\"\(text)\"" }
  }

  @Test(arguments: [
    BadCase(text: "purchase=pendng", mentions: ["'pendng' is not a purchase result", "did you mean 'pending'?",
                                                "purchased, cancelled, pending, failed, restored"]),
    BadCase(text: "restore=maybe", mentions: ["'maybe' is not a restore result", "(restored or failed)"]),
    BadCase(text: "restore=restord", mentions: ["'restord' is not a restore result", "did you mean 'restored'?"]),
    BadCase(text: "colour=red", mentions: ["key 'colour' is unknown", "(purchase, restore or latency)"]),
    BadCase(text: "purchse=pending", mentions: ["key 'purchse' is unknown", "did you mean 'purchase'?"]),
    BadCase(text: "latncy=2s", mentions: ["did you mean 'latency'?"]),
    BadCase(text: "purchase", mentions: ["'purchase' must be KEY=VALUE", "purchase=pending"]),
    BadCase(text: "purchase=", mentions: ["must be KEY=VALUE"]),
    BadCase(text: "latency=soon", mentions: ["latency='soon' must be a duration"]),
    BadCase(text: "latency=-1s", mentions: ["must be a duration"]),
    BadCase(text: "purchase=pending,restore=nope", mentions: ["'nope' is not a restore result"]),
  ])
  func rejects(_ c: BadCase) {
    do throws(PurchaseError) {
      let parsed = try ScriptedOutcomes(parsing: c.text)
      Issue.record("'\(c.text)' parsed as \(parsed)")
    } catch {
      for text in c.mentions {
        #expect(error.message.contains(text), "\(error.message)")
      }
      #expect(error.message.hasPrefix("--outcome"), "\(error.message)")
    }
  }

  /// A key given twice used to be accepted, the last one silently winning.
  @Test func aKeyGivenTwiceIsRefusedNamingBoth() throws {
    do throws(PurchaseError) {
      _ = try ScriptedOutcomes(parsing: "purchase=pending,latency=1s,purchase=failed:Card declined")
      Issue.record("parsed")
    } catch {
      #expect(error.message == "--outcome gives 'purchase' twice ('purchase=pending', then 'purchase=failed:Card declined'); give each of purchase, restore and latency once")
    }
  }

  @Test func restoreMaybeHasNoSuggestion() throws {
    do throws(PurchaseError) {
      _ = try ScriptedOutcomes(parsing: "restore=maybe")
      Issue.record("parsed")
    } catch {
      #expect(!error.message.contains("did you mean"), "\(error.message)")
    }
  }
}

@Suite struct DurationParsingTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var text: String
    var seconds: Double?
    var testDescription: String { "\"\(text)\"" }
  }

  @Test(arguments: [
    Case(text: "500ms", seconds: 0.5),
    Case(text: "0ms", seconds: 0),
    Case(text: "30s", seconds: 30),
    Case(text: "1.5s", seconds: 1.5),
    Case(text: "2m", seconds: 120),
    Case(text: "2h", seconds: 7200),
    Case(text: "1d", seconds: 86_400),
    Case(text: "1w", seconds: 604_800),
    Case(text: "1M", seconds: 86_400 * 365 / 12),
    Case(text: "1y", seconds: 86_400 * 365),
    Case(text: " 2s ", seconds: 2),
    Case(text: "abc", seconds: nil),
    Case(text: "-1s", seconds: nil),
    Case(text: "", seconds: nil),
    Case(text: "s", seconds: nil),
    Case(text: "ms", seconds: nil),
    Case(text: "10", seconds: nil),
    Case(text: "2x", seconds: nil),
    Case(text: "infs", seconds: nil),
    Case(text: "nans", seconds: nil),
  ])
  func parses(_ c: Case) {
    let parsed = Duration.seconds(parsing: c.text)
    if let expected = c.seconds {
      let value = parsed ?? .nan
      #expect(abs(value - expected) < 1e-9, "\(c.text) → \(String(describing: parsed)), expected \(expected)")
    } else {
      #expect(parsed == nil)
    }
  }
}

@Suite struct ScriptedControllerTests {
  static func make(_ outcomes: ScriptedOutcomes, status: SubscriptionStatusStore = SubscriptionStatusStore(.inactive),
                   clock: SimulatedTimeSource = SimulatedTimeSource()) -> ScriptedPurchaseController {
    ScriptedPurchaseController(outcomes: outcomes, status: status, clock: clock)
  }

  @Test func purchasedActivatesTheProductsEntitlements() async {
    let status = SubscriptionStatusStore(.inactive)
    let controller = Self.make(ScriptedOutcomes(), status: status)
    let result = await controller.purchase(product: TestCatalog.monthly)
    #expect(result.name == "purchased")
    #expect(status.status == .active(["pro"]))
  }

  @Test func purchasedAddsToTheExistingEntitlements() async {
    let status = SubscriptionStatusStore(.active(["family"]))
    let controller = Self.make(ScriptedOutcomes(), status: status)
    _ = await controller.purchase(product: TestCatalog.lifetime)
    #expect(status.status == .active(["family", "pro", "lifetime"]))
    _ = await controller.purchase(product: TestCatalog.monthly)
    #expect(status.status == .active(["family", "pro", "lifetime"]))
  }

  @Test func failedCarriesTheMessage() async throws {
    let status = SubscriptionStatusStore(.inactive)
    let controller = Self.make(try ScriptedOutcomes(parsing: "purchase=failed:Card declined"), status: status)
    let result = await controller.purchase(product: TestCatalog.annual)
    guard case .failed(let error) = result else {
      Issue.record("expected failed, got \(result.name)")
      return
    }
    #expect(error.displayMessage == "Card declined")
    #expect(status.status == .inactive, "a failed purchase grants nothing")
  }

  @Test(arguments: ["cancelled", "pending", "restored"])
  func otherOutcomesLeaveTheStatusAlone(_ word: String) async throws {
    let status = SubscriptionStatusStore(.inactive)
    let controller = Self.make(try ScriptedOutcomes(parsing: "purchase=\(word)"), status: status)
    let result = await controller.purchase(product: TestCatalog.annual)
    #expect(result.name == word)
    #expect(status.status == .inactive)
  }

  @Test func restoreResults() async throws {
    let restored = await Self.make(ScriptedOutcomes()).restorePurchases()
    #expect(restored.name == "restored")

    let plain = await Self.make(try ScriptedOutcomes(parsing: "restore=failed")).restorePurchases()
    guard case .failed(let none) = plain else {
      Issue.record("expected failed, got \(plain.name)")
      return
    }
    #expect(none == nil)

    let withMessage = await Self.make(try ScriptedOutcomes(parsing: "restore=failed:No receipt")).restorePurchases()
    guard case .failed(let error?) = withMessage else {
      Issue.record("expected failed with an error, got \(withMessage)")
      return
    }
    #expect(error.displayMessage == "No receipt")
  }

  /// A typed outcome comes back as StoreKit's error itself, which the presenter reads as a cancel.
  @Test func aStoreErrorOutcomeReturnsTheTypedError() async throws {
    let status = SubscriptionStatusStore(.inactive)
    let controller = ScriptedPurchaseController(outcomes: try ScriptedOutcomes(parsing: "purchase=failed:paymentCancelled,restore=failed:networkError"),
                                                status: status, clock: SimulatedTimeSource())
    guard case .failed(let error as StoreError) = await controller.purchase(product: TestCatalog.annual) else {
      Issue.record("not a typed failure")
      return
    }
    #expect(error == .paymentCancelled && error.isCancellation)
    guard case .failed(let restoreError as StoreError) = await controller.restorePurchases() else {
      Issue.record("not a typed restore failure")
      return
    }
    #expect(restoreError == .networkError)
    #expect(status.status == .inactive)
  }

  @Test func latencyWaitsForTheClock() async throws {
    let clock = SimulatedTimeSource()
    let status = SubscriptionStatusStore(.inactive)
    let controller = Self.make(try ScriptedOutcomes(parsing: "latency=2s"), status: status, clock: clock)
    let finished = Locked(false)
    let task = Task { () -> String in
      let result = await controller.purchase(product: TestCatalog.monthly)
      finished.withLock { $0 = true }
      return result.name
    }
    defer { task.cancel() }

    #expect(await eventually { clock.parkedCount == 1 }, "the purchase sleeps on the simulated clock")
    #expect(!finished.value)
    #expect(status.status == .inactive)

    clock.advance(by: 1.5)
    #expect(clock.parkedCount == 1, "1.5 s is not enough")
    #expect(!finished.value)
    #expect(status.status == .inactive)

    clock.advance(by: 0.5)  // exactly 2 s: the deadline has come
    let name = await within(10, "the purchase after the latency") { await task.value }
    #expect(name == "purchased")
    #expect(finished.value)
    #expect(status.status == .active(["pro"]))
    #expect(clock.parkedCount == 0)
  }

  @Test func restoreLatencyWaitsForTheClockToo() async throws {
    let clock = SimulatedTimeSource()
    let controller = Self.make(try ScriptedOutcomes(parsing: "latency=500ms"), clock: clock)
    let task = Task { await controller.restorePurchases().name }
    defer { task.cancel() }
    #expect(await eventually { clock.parkedCount == 1 })
    clock.advance(by: 0.6)
    #expect(await within(10) { await task.value } == "restored")
  }

  @Test func cancellingDuringTheLatencyInterruptsThePurchase() async throws {
    let clock = SimulatedTimeSource()
    let status = SubscriptionStatusStore(.inactive)
    let controller = Self.make(try ScriptedOutcomes(parsing: "latency=1h"), status: status, clock: clock)
    let task = Task { () -> String in
      let result = await controller.purchase(product: TestCatalog.monthly)
      if case .failed(let error) = result { return "failed: \(error.displayMessage)" }
      return result.name
    }
    #expect(await eventually { clock.parkedCount == 1 })
    task.cancel()
    let outcome = await within(10) { await task.value }
    #expect(outcome == "failed: The purchase was interrupted")
    #expect(status.status == .inactive)
    #expect(clock.parkedCount == 0)
  }
}
