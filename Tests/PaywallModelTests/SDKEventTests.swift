import Foundation
import Testing
import PaywallModel

/// Issue 16, item 6: the events whose names and parameters the SDK builds itself, parameter by
/// parameter, for v4 (4.16.3 `TrackableSuperwallEvent.swift`), 4.0–4.13 and v3 (3.9.1).
@Suite("SDK events")
struct SDKEventTests {
  static func params(_ event: PaywallEvent?) -> [String] {
    (event?.params ?? []).map { key, value in "\(key)=\(value.stringValue ?? value.text)" }
  }

  static func first(_ name: String, _ effects: [PresentationEffect]) -> PaywallEvent? {
    PresenterTests.emitted(effects).first { $0.name.rawValue == name }
  }

  static func state(_ sdk: String = "4", status: SubscriptionStatus = .inactive,
                    campaigns extra: [Campaign] = []) throws -> PresentationState {
    var project = try PresenterTests.demoProject()
    project.campaigns += extra
    project.options.sdk = try SDKVersion.parse(sdk).get()
    return PresentationState(project: project, status: status, assignments: AssignmentBook(userID: "tester"))
  }

  @Test func triggerFireAndTheRequestWhenAPaywallPresents() throws {
    var state = try Self.state()
    let effects = PresenterTests.send(.register(placement: "onboarding", params: ["from": "home"]), &state)
    #expect(Self.params(Self.first("trigger_fire", effects)) == [
      "trigger_name=onboarding", "variant_id=onboarding", "experiment_id=onboarding#0",
      "paywall_identifier=onboarding", "result=present",
    ])
    #expect(Self.params(Self.first("paywallPresentationRequest", effects)) == [
      "source_event_name=onboarding", "pipeline_type=presentation", "status=presentation", "status_reason=",
    ])
  }

  @Test func holdoutNoMatchAndUnknownPlacement() throws {
    var state = try Self.state(status: .active([Entitlement("pro")]))
    let holdout = PresenterTests.send(.register(placement: "beta_sync", params: [:]), &state)
    #expect(Self.params(Self.first("trigger_fire", holdout)) == [
      "trigger_name=beta_sync", "variant_id=holdout", "experiment_id=beta_sync#0", "result=holdout",
    ])
    #expect(Self.first("paywallPresentationRequest", holdout)?["status_reason"] == "holdout")

    let noMatch = PresenterTests.send(.register(placement: "onboarding", params: [:]), &state)
    #expect(Self.params(Self.first("trigger_fire", noMatch)) == [
      "trigger_name=onboarding", "result=no_rule_match", "unmatched_audience_onboarding#0=EXPRESSION",
    ])
    #expect(Self.params(Self.first("paywallPresentationRequest", noMatch)) == [
      "source_event_name=onboarding", "pipeline_type=presentation", "status=no_presentation", "status_reason=no_rule_match",
    ])

    let unknown = PresenterTests.send(.register(placement: "nope", params: [:]), &state)
    #expect(Self.first("trigger_fire", unknown) == nil, "GetPresenter.swift tracks no trigger_fire for placementNotFound")
    #expect(Self.first("paywallPresentationRequest", unknown)?["status_reason"] == "event_not_found")
  }

  @Test func anOccurrenceLimitIsTheUnmatchedAudiencesSource() throws {
    let once = Campaign(placement: "once", audiences: [
      Audience(filter: nil, outcome: .paywalls([.init(paywallID: "onboarding", percent: 100)], holdout: 0), maxOccurrences: 1),
    ])
    var state = try Self.state(campaigns: [once])
    PresenterTests.send(.register(placement: "once", params: [:]), &state)
    PresenterTests.send(.paywall(.close), &state)
    let second = PresenterTests.send(.register(placement: "once", params: [:]), &state)
    #expect(Self.first("trigger_fire", second)?["unmatched_audience_once#0"] == "OCCURRENCE")
  }

  @Test func refusalsAndTheStatusTimeoutAreRequestsToo() throws {
    var state = try Self.state()
    PresenterTests.send(.open(paywallID: "onboarding", selected: nil), &state)
    let refused = PresenterTests.send(.register(placement: "export_pdf", params: [:]), &state)
    #expect(Self.params(Self.first("paywallPresentationRequest", refused)) == [
      "source_event_name=export_pdf", "pipeline_type=presentation", "status=no_presentation",
      "status_reason=paywall_already_presented",
    ])
    for (sdk, reason) in [("4", "subscriptionStatus_timeout"), ("3", "subscription_status_timeout")] {
      var waiting = try Self.state(sdk, status: .unknown)
      let wait = PresenterTests.send(.register(placement: "onboarding", params: [:]), &waiting)
      guard case .scheduleStatusTimeout(let id, _)? = wait.first else {
        Issue.record("no timeout scheduled")
        return
      }
      let timedOut = PresenterTests.send(.statusTimedOut(registrationID: id), &waiting)
      let request = Self.first("paywallPresentationRequest", timedOut)
      #expect(request?["status"] == "timeout" && request?["status_reason"] == .string(reason), "sdk \(sdk)")
    }
  }

  @Test(arguments: [
    ("4", ["status=ACTIVE", "active_entitlement_ids=lifetime,pro"]),
    ("4.14", ["status=ACTIVE", "active_entitlement_ids=lifetime,pro"]),
    ("4.13", ["status=ACTIVE", "active_entitlement_ids=lifetimepro"]),
    ("3", ["subscription_status=ACTIVE"]),
  ])
  func theStatusChange(sdk: String, expected: [String]) throws {
    var state = try Self.state(sdk)
    let active = PresenterTests.send(.statusChanged(.active([Entitlement("pro"), Entitlement("lifetime")])), &state)
    #expect(Self.params(Self.first("subscriptionStatus_didChange", active)) == expected)
    let inactive = PresenterTests.send(.statusChanged(.inactive), &state)
    #expect(Self.params(Self.first("subscriptionStatus_didChange", inactive)) == [sdk == "3" ? "subscription_status=INACTIVE" : "status=INACTIVE"])
  }

  @Test func v3TriggerFireHasItsSessionIDAndRuleNames() throws {
    var state = try Self.state("3", status: .inactive)
    PresenterTests.send(.setUserAttributes(["should_display": "false"]), &state)
    let noMatch = PresenterTests.send(.register(placement: "power_user_offer", params: [:]), &state)
    #expect(Self.params(Self.first("trigger_fire", noMatch)) == [
      "trigger_name=power_user_offer", "trigger_session_id=", "result=no_rule_match", "unmatched_rule_power_user_offer#0=EXPRESSION",
    ])
  }

  // MARK: - paywall transactions

  static func flowEvent(_ name: String, _ effects: [FlowEffect]) -> PaywallEvent? {
    effects.compactMap { if case .emit(let e) = $0, e.name.rawValue == name { e } else { nil } }.first
  }

  @Test func transactionTypeIsTheRawValueAndV3HasNone() throws {
    for (sdk, expected) in [("4", JSONOutput?.some("FREE_TRIAL_START")), ("4.0", "FREE_TRIAL_START"), ("3", nil)] {
      var session = PaywallFlowTests.open(trialEligible: true)
      let options = PaywallOptions(sdk: try SDKVersion.parse(sdk).get())
      _ = PaywallFlow.handle(.purchase(slot: "primary"), in: &session, options: options)
      let done = PaywallFlow.purchaseFinished(.purchased, in: &session, options: options)
      #expect(Self.flowEvent("transaction_complete", done)?["transaction_type"] == expected, "sdk \(sdk)")
    }
  }

  @Test func thePendingFailureNamesNoProduct() {
    var session = PaywallFlowTests.open()
    _ = PaywallFlow.handle(.purchase(slot: "primary"), in: &session, options: PaywallOptions())
    let pending = PaywallFlow.purchaseFinished(.pending, in: &session, options: PaywallOptions())
    let fail = Self.flowEvent("transaction_fail", pending)
    #expect(fail?["message"] == "Needs parental approval")
    #expect(fail?["product_id"] == nil && fail?["slot"] == nil, "handlePendingTransaction tracks product: nil")
  }

  @Test func restoresSayHowTheyCameAndWhyTheyFailed() {
    var session = PaywallFlowTests.open()
    _ = PaywallFlow.handle(.purchase(slot: "primary"), in: &session, options: PaywallOptions(sdk: .v3))
    let viaPurchase = PaywallFlow.purchaseFinished(.restored, in: &session, options: PaywallOptions(sdk: .v3))
    #expect(Self.flowEvent("transaction_restore", viaPurchase)?["restore_via_purchase_attempt"] == .bool(true))

    var restoring = PaywallFlowTests.open()
    _ = PaywallFlow.handle(.restore, in: &restoring, options: PaywallOptions())
    let restored = PaywallFlow.restoreFinished(.restored, status: .active([Entitlement("pro")]), in: &restoring, options: PaywallOptions())
    #expect(Self.flowEvent("transaction_restore", restored)?["restore_via_purchase_attempt"] == .bool(false))

    var empty = PaywallFlowTests.open()
    _ = PaywallFlow.handle(.restore, in: &empty, options: PaywallOptions())
    let failed = PaywallFlow.restoreFinished(.restored, status: .inactive, in: &empty, options: PaywallOptions())
    let fail = Self.flowEvent("restore_fail", failed)
    #expect(fail?["message"] == nil)
    #expect(fail?["error_message"] == .string("Transactions Failed to Restore. The restoration result is \"restored\" but there "
      + "are no active entitlements. Ensure the active entitlements are set before confirming successful restoration."))
  }
}

/// docs/reference/events.md's event reference is `EventReference.markdown`, between its two
/// markers; every event name has an entry. Regenerate with `UPDATE_DOCS=1 swift test --filter EventReferenceTests`.
@Suite("Event reference")
struct EventReferenceTests {
  static let begin = "<!-- events: generated from EventReference.swift; UPDATE_DOCS=1 swift test --filter EventReferenceTests -->"
  static let end = "<!-- end of events -->"

  @Test func everyEventHasAnEntry() {
    for name in EventName.allCases {
      #expect(EventReference.entry(name) != nil, "\(name.rawValue) is not in EventReference.all")
    }
    #expect(EventReference.all.count == EventName.allCases.count, "one entry per event")
  }

  @Test func anUndocumentedParameterIsFound() {
    let entry = EventReference.entry(.restoreFail)
    #expect(entry?.params.contains { $0.key == "error_message" } == true)
    #expect(entry?.params.contains { $0.key == "message" } == false)
  }

  @Test func theReferencePageHasTheReference() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/reference/events.md")
    let doc = try String(contentsOf: url, encoding: .utf8)
    guard let start = doc.range(of: Self.begin), let stop = doc.range(of: Self.end, range: start.upperBound..<doc.endIndex) else {
      Issue.record("docs/reference/events.md has no event reference between \(Self.begin) and \(Self.end)")
      return
    }
    let current = String(doc[start.upperBound..<stop.lowerBound])
    let wanted = "\n\n" + EventReference.markdown + "\n"
    if current != wanted {
      if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
        try (doc.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: wanted)).write(to: url, atomically: true, encoding: .utf8)
      } else {
        Issue.record("docs/reference/events.md's event reference is not EventReference.markdown (UPDATE_DOCS=1 swift test --filter EventReferenceTests)")
      }
    }
  }
}

/// Found by review: a register's param named like one of ours wrote the key twice in a JSON line.
@Suite("handler.onSkip params")
struct OnSkipParamsTests {
  @Test func aParamNamedLikeOursKeepsBothAndNoKeyTwice() throws {
    var state = try SDKEventTests.state()
    let effects = PresenterTests.send(.register(placement: "beta_sync", params: ["placement": "evil", "reason": "x", "from": "home"]), &state)
    let skip = try #require(SDKEventTests.first("handler.onSkip", effects))
    let keys = skip.params.map(\.0)
    #expect(Set(keys).count == keys.count, "\(keys)")
    #expect(skip["placement"] == "beta_sync" && skip["reason"] == "holdout")
    #expect(skip["params.placement"] == "evil" && skip["params.reason"] == "x" && skip["from"] == "home")
  }
}

/// Found by review: `paywall_close` lacked the SDK's `close_reason` except for a replacement.
@Suite("paywall_close reasons")
struct PaywallCloseReasonTests {
  @Test func everyCloseSaysWhy() throws {
    var declined = PaywallFlowTests.open()
    let close = PaywallFlow.handle(.close, in: &declined, options: PaywallOptions())
    #expect(SDKEventTests.flowEvent("paywall_close", close)?["close_reason"] == "manualClose")
    var bought = PaywallFlowTests.open()
    _ = PaywallFlow.handle(.purchase(slot: "primary"), in: &bought, options: PaywallOptions())
    let done = PaywallFlow.purchaseFinished(.purchased, in: &bought, options: PaywallOptions())
    let closed = SDKEventTests.flowEvent("paywall_close", done)
    #expect(closed?["close_reason"] == "systemLogic" && closed?["survey_attached"] == .bool(false))
  }

  @Test func aReplacedPaywallSaysForNextPaywallOnce() throws {
    var state = try SDKEventTests.state()
    PresenterTests.send(.register(placement: "onboarding", params: [:]), &state)
    PresenterTests.send(.paywall(.purchase(slot: "primary")), &state)
    let abandoned = PresenterTests.send(.purchaseFinished(.cancelled), &state)
    let close = try #require(SDKEventTests.first("paywall_close", abandoned))
    #expect(close["close_reason"] == "forNextPaywall")
    #expect(close.params.filter { $0.0 == "close_reason" }.count == 1)
  }
}
