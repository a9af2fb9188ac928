import Foundation
import PaywallModel
import Testing

/// The purchase, restore and close flow as pure transitions: each row of SPEC 3.5.
@Suite("Paywall flow")
struct PaywallFlowTests {
  static let catalog = Catalog(products: [
    StoreProduct(id: "annual", displayName: "Annual", price: Decimal(string: "59.99")!, kind: .autoRenewable,
                 subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .year),
                 introductoryOffer: IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 7, unit: .day)),
                 entitlements: ["pro"]),
    StoreProduct(id: "monthly", displayName: "Monthly", price: Decimal(string: "9.99")!, kind: .autoRenewable,
                 subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .month), entitlements: ["pro"]),
    StoreProduct(id: "lifetime", displayName: "Lifetime", price: Decimal(string: "149.99")!, kind: .nonConsumable,
                 entitlements: ["pro", "lifetime"]),
  ])

  static let definition = PaywallDefinition(
    id: "onboarding", name: "Onboarding",
    slots: [ProductSlot(name: "primary", productID: "annual"), ProductSlot(name: "secondary", productID: "monthly"),
            ProductSlot(name: "tertiary", productID: "lifetime")],
    selectedSlot: "primary",
    components: [.title(TextContent(text: "Hi")), .products(ProductPicker()),
                 .button(PaywallButton(label: TextContent(text: "Buy"), action: .purchase(slot: nil)))])

  static func open(trialEligible: Bool = true) -> PaywallSession {
    let resolved = ResolvedPaywall(definition, catalog: catalog, eligibility: trialEligible ? .unknownHistory : .everyGroupUsed(in: catalog))
    return PaywallFlow.open(resolved).0
  }

  static func names(_ effects: [FlowEffect]) -> [String] {
    effects.compactMap { if case .emit(let e) = $0 { e.name.rawValue } else { nil } }
  }

  @Test func openingEmitsPaywallOpenAndSelectsTheDefaultSlot() {
    let resolved = ResolvedPaywall(Self.definition, catalog: Self.catalog)
    let (session, effects) = PaywallFlow.open(resolved)
    #expect(Self.names(effects) == ["paywall_open"])
    #expect(session.selectedSlot == "primary")
    #expect(session.activity == .idle)
  }

  /// A non-renewing subscription has no StoreKit subscription period (`Product.subscription` is for
  /// auto-renewables), so the SDK counts its purchase as `nonRecurringProduct_purchase`
  /// (`TransactionManager.swift`: `product.subscriptionPeriod == nil`; `SK2StoreProduct.swift`).
  @Test func aNonRenewingPurchaseIsNonRecurring() {
    let pass = StoreProduct(id: "pass", displayName: "Season pass", price: Decimal(string: "19.99")!, kind: .nonRenewing,
                            subscriptionPeriod: SubscriptionPeriod(value: 3, unit: .month), entitlements: ["pro"])
    let definition = PaywallDefinition(id: "p", name: "P", slots: [ProductSlot(name: "primary", productID: "pass")], selectedSlot: "primary",
                                       components: [.button(PaywallButton(label: TextContent(text: "Buy"), action: .purchase(slot: nil)))])
    var session = PaywallFlow.open(ResolvedPaywall(definition, catalog: Catalog(products: [pass]))).0
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &session, options: PaywallOptions())
    let done = PaywallFlow.purchaseFinished(.purchased, in: &session, options: PaywallOptions())
    #expect(Self.names(done) == ["transaction_complete", "nonRecurringProduct_purchase", "paywall_close"])
  }

  /// Any introductory offer the user may take makes the purchase a `freeTrial_start`
  /// (`StoreKit/Transactions/TransactionManager.swift`, `trackTransactionDidSucceed`: the
  /// transaction started an offer), a paid one too; without eligibility, `subscription_start`.
  @Test(arguments: [(IntroductoryOffer.PaymentMode.payAsYouGo, true, "freeTrial_start"), (.payUpFront, true, "freeTrial_start"),
                    (.payAsYouGo, false, "subscription_start")])
  func aPaidIntroPurchaseIsAFreeTrialStart(mode: IntroductoryOffer.PaymentMode, eligible: Bool, kind: String) {
    let intro = StoreProduct(id: "intro", displayName: "Intro", price: Decimal(string: "9.99")!, kind: .autoRenewable,
                             subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .month),
                             introductoryOffer: IntroductoryOffer(paymentMode: mode, period: SubscriptionPeriod(value: 1, unit: .month),
                                                                  periodCount: 3, price: Decimal(string: "0.99")!),
                             entitlements: ["pro"])
    let definition = PaywallDefinition(id: "p", name: "P", slots: [ProductSlot(name: "primary", productID: "intro")], selectedSlot: "primary",
                                       components: [.button(PaywallButton(label: TextContent(text: "Buy"), action: .purchase(slot: nil)))])
    let catalog = Catalog(products: [intro])
    var session = PaywallFlow.open(ResolvedPaywall(definition, catalog: catalog, eligibility: eligible ? .unknownHistory : .everyGroupUsed(in: catalog))).0
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &session, options: PaywallOptions())
    let done = PaywallFlow.purchaseFinished(.purchased, in: &session, options: PaywallOptions())
    #expect(Self.names(done) == ["transaction_complete", kind, "paywall_close"])
  }

  @Test(arguments: [
    ("primary", true, "freeTrial_start"),
    ("primary", false, "subscription_start"),
    ("secondary", true, "subscription_start"),
    ("tertiary", true, "nonRecurringProduct_purchase"),
  ])
  func purchasedEmitsTheSDKSequenceAndDismisses(slot: String, eligible: Bool, kind: String) {
    var session = Self.open(trialEligible: eligible)
    let start = PaywallFlow.handle(.purchase(slot: slot), in: &session, options: PaywallOptions())
    #expect(Self.names(start) == ["transaction_start"])
    #expect(start.contains { if case .purchase(let p, let s) = $0 { p.id == Self.definition.productID(forSlot: slot) && s == slot } else { false } })
    let done = PaywallFlow.purchaseFinished(.purchased, in: &session, options: PaywallOptions())
    #expect(Self.names(done) == ["transaction_complete", kind, "paywall_close"])
    let productID = Self.definition.productID(forSlot: slot)!
    #expect(done.contains(.dismissed(.purchased(productID: productID))))
    #expect(session.result == .purchased(productID: productID))
    // The completion event names the transaction type; every purchase event names product, slot, paywall.
    guard case .emit(let complete) = done[0] else { Issue.record("no event"); return }
    // `TransactionType.swift`: the SDK's raw value, not the event's name.
    let raw = ["freeTrial_start": "FREE_TRIAL_START", "subscription_start": "SUBSCRIPTION_START",
               "nonRecurringProduct_purchase": "NON_RECURRING_PRODUCT_PURCHASE"][kind]
    #expect(complete["transaction_type"] == raw.map(JSONOutput.string))
    #expect(complete["product_id"] == .string(productID) && complete["slot"] == .string(slot) && complete["paywall_id"] == "onboarding")
  }

  @Test func purchasedWithoutAutomaticDismissKeepsThePaywall() {
    var session = Self.open()
    let options = PaywallOptions(automaticallyDismiss: false)
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &session, options: options)
    let done = PaywallFlow.purchaseFinished(.purchased, in: &session, options: options)
    #expect(Self.names(done) == ["transaction_complete", "freeTrial_start"])
    #expect(session.result == nil && session.activity == .idle)
  }

  @Test func cancelledAbandonsAndStays() {
    var session = Self.open()
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &session, options: PaywallOptions())
    let done = PaywallFlow.purchaseFinished(.cancelled, in: &session, options: PaywallOptions())
    #expect(Self.names(done) == ["transaction_abandon"])
    #expect(session.result == nil && session.alert == nil && session.activity == .idle)
  }

  /// A controller that returns `.failed` with StoreKit's user-cancel error has cancelled: the SDK's
  /// `TransactionErrorLogic.handle` answers `.cancelled` for it (`transaction_abandon`, no alert).
  @Test func failedWithTheUserCancelErrorIsCancelled() {
    var session = Self.open()
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &session, options: PaywallOptions())
    let done = PaywallFlow.purchaseFinished(.failed(StoreError.userCancelled), in: &session, options: PaywallOptions())
    #expect(Self.names(done) == ["transaction_abandon"])
    #expect(session.alert == nil && session.result == nil && session.activity == .idle)
  }

  /// The failure and pending alerts close with the SDK's `alert_action_done`, "Done"
  /// (`Resources/Localizations/en.lproj/Localizable.strings`).
  @Test func theFailureAndPendingAlertsCloseWithDone() {
    var failed = Self.open()
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &failed, options: PaywallOptions())
    _ = PaywallFlow.purchaseFinished(.failed(PurchaseError("Card declined")), in: &failed, options: PaywallOptions())
    #expect(failed.alert?.button == "Done")
    var pending = Self.open()
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &pending, options: PaywallOptions())
    _ = PaywallFlow.purchaseFinished(.pending, in: &pending, options: PaywallOptions())
    #expect(pending.alert?.button == "Done")
  }

  @Test func pendingFailsAndShowsWaitingForApproval() {
    var session = Self.open()
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &session, options: PaywallOptions())
    let done = PaywallFlow.purchaseFinished(.pending, in: &session, options: PaywallOptions())
    #expect(Self.names(done) == ["transaction_fail"])
    #expect(session.alert?.title == "Waiting for Approval")
    #expect(session.alert?.message == "Thank you! This purchase is pending approval from your parent. Please try again once it is approved.")
    #expect(session.result == nil)
  }

  @Test func failedShowsTheErrorUnlessTheAlertIsOff() {
    var session = Self.open()
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &session, options: PaywallOptions())
    let done = PaywallFlow.purchaseFinished(.failed(PurchaseError("Card declined")), in: &session, options: PaywallOptions())
    #expect(Self.names(done) == ["transaction_fail"])
    #expect(session.alert?.title == "An error occurred" && session.alert?.message == "Card declined")
    guard case .emit(let fail) = done[0] else {
      Issue.record("the first effect is \(done[0]), not the transaction_fail event")
      return
    }
    #expect(fail["message"] == "Card declined")

    var quiet = Self.open()
    let options = PaywallOptions(shouldShowPurchaseFailureAlert: false)
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &quiet, options: options)
    #expect(Self.names(PaywallFlow.purchaseFinished(.failed(PurchaseError("x")), in: &quiet, options: options)) == ["transaction_fail"])
    #expect(quiet.alert == nil)
  }

  /// A campaign on `transaction_fail` silences the failure alert whatever its audience
  /// (`StoreKit/Transactions/TransactionErrorLogic.swift` reads only the trigger names).
  @Test func aTransactionFailCampaignSilencesTheFailureAlert() {
    var session = Self.open()
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &session, options: PaywallOptions())
    let done = PaywallFlow.purchaseFinished(.failed(PurchaseError("Card declined")), in: &session, options: PaywallOptions(),
                                            triggers: ["transaction_fail", "onboarding"])
    #expect(Self.names(done) == ["transaction_fail"])
    #expect(session.alert == nil)
    var other = Self.open()
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &other, options: PaywallOptions())
    _ = PaywallFlow.purchaseFinished(.failed(PurchaseError("Card declined")), in: &other, options: PaywallOptions(),
                                     triggers: ["transaction_abandon"])
    #expect(other.alert?.title == "An error occurred", "only a transaction_fail campaign silences it")
  }

  /// SDK 3's `PurchaseResult.restored` takes the restore path; SDK 4 has no such result, so a
  /// controller that returns it fails the purchase, saying why.
  @Test func restoredPurchaseTakesTheRestorePathOnSDK3Only() {
    var session = Self.open()
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &session, options: PaywallOptions(sdk: .v3))
    let done = PaywallFlow.purchaseFinished(.restored, in: &session, options: PaywallOptions(sdk: .v3))
    #expect(Self.names(done) == ["transaction_restore", "paywall_close"])
    #expect(session.result == .restored)
    var v4 = Self.open()
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &v4, options: PaywallOptions())
    #expect(Self.names(PaywallFlow.purchaseFinished(.restored, in: &v4, options: PaywallOptions())) == ["transaction_fail"])
    #expect(v4.alert?.message.contains("SDK 4") == true && v4.alert?.message.contains("--sdk 3") == true, "\(v4.alert?.message ?? "")")
    #expect(v4.result == nil)
  }

  @Test func aSecondPurchaseWhileOneIsInFlightDoesNothing() {
    var session = Self.open()
    let first = PaywallFlow.handle(.purchase(slot: nil), in: &session, options: PaywallOptions())
    #expect(first.count == 2)
    for action in [PaywallAction.purchase(slot: nil), .purchase(slot: "secondary"), .restore, .close, .select(slot: "tertiary")] {
      #expect(PaywallFlow.handle(action, in: &session, options: PaywallOptions()).isEmpty)
    }
    #expect(session.selectedSlot == "primary")
    #expect(session.activity == .purchasing(slot: "primary", productID: "annual"))
  }

  @Test func restoreSucceedsOnlyWithAnActiveEntitlement() {
    var session = Self.open()
    #expect(Self.names(PaywallFlow.handle(.restore, in: &session, options: PaywallOptions())) == ["restore_start"])
    let done = PaywallFlow.restoreFinished(.restored, status: .active(["pro"]), in: &session, options: PaywallOptions())
    #expect(Self.names(done) == ["restore_complete", "transaction_restore", "paywall_close"])
    #expect(session.result == .restored)
  }

  @Test(arguments: [
    (RestorationResult.restored, SubscriptionStatus.inactive),
    (.restored, .active([])),
    (.restored, .unknown),
    (.failed(PurchaseError("No receipt")), .active(["pro"])),
    (.failed(nil), .inactive),
  ])
  func restoreFailsOtherwiseWithTheRestoreFailedAlert(result: RestorationResult, status: SubscriptionStatus) {
    var session = Self.open()
    let texts = RestoreFailedText(title: "Nothing here", message: "Try another account.", closeButtonTitle: "Fine")
    let options = PaywallOptions(restoreFailed: texts)
    _ = PaywallFlow.handle(.restore, in: &session, options: options)
    let done = PaywallFlow.restoreFinished(result, status: status, in: &session, options: options)
    #expect(Self.names(done) == ["restore_fail"])
    #expect(session.alert == PaywallAlert(kind: .restoreFailed, title: "Nothing here", message: "Try another account.", button: "Fine"))
    #expect(session.result == nil)
  }

  @Test func restoreFailedUsesTheSDKDefaultTexts() {
    var session = Self.open()
    _ = PaywallFlow.handle(.restore, in: &session, options: PaywallOptions())
    _ = PaywallFlow.restoreFinished(.restored, status: .inactive, in: &session, options: PaywallOptions())
    #expect(session.alert?.title == "No Subscription Found")
    #expect(session.alert?.message == "We couldn't find an active subscription for your account.")
    #expect(session.alert?.button == "Okay")
  }

  @Test func closeDeclinesThenCloses() {
    var session = Self.open()
    let effects = PaywallFlow.handle(.close, in: &session, options: PaywallOptions())
    #expect(Self.names(effects) == ["paywall_decline", "paywall_close"])
    #expect(effects.last == .dismissed(.declined))
    #expect(PaywallFlow.handle(.purchase(slot: nil), in: &session, options: PaywallOptions()).isEmpty, "nothing after dismissal")
  }

  @Test func anAlertIsModalUntilDismissed() {
    var session = Self.open()
    _ = PaywallFlow.handle(.purchase(slot: nil), in: &session, options: PaywallOptions())
    _ = PaywallFlow.purchaseFinished(.pending, in: &session, options: PaywallOptions())
    #expect(PaywallFlow.handle(.close, in: &session, options: PaywallOptions()).isEmpty)
    #expect(PaywallFlow.handle(.purchase(slot: nil), in: &session, options: PaywallOptions()).isEmpty)
    _ = PaywallFlow.handle(.dismissAlert, in: &session, options: PaywallOptions())
    #expect(session.alert == nil)
    #expect(Self.names(PaywallFlow.handle(.purchase(slot: nil), in: &session, options: PaywallOptions())) == ["transaction_start"])
  }

  @Test func lateResultsAreIgnored() {
    var session = Self.open()
    #expect(PaywallFlow.purchaseFinished(.purchased, in: &session, options: PaywallOptions()).isEmpty)
    #expect(PaywallFlow.restoreFinished(.restored, status: .active(["pro"]), in: &session, options: PaywallOptions()).isEmpty)
    #expect(session.result == nil)
  }

  @Test func eventsEncodeAsStableJSONLines() {
    let event = PaywallEvent(.transactionFail, [("paywall_id", "a\"b"), ("message", "line\nbreak\u{1B}")])
    #expect(event.jsonLine == #"{"event":"transaction_fail","params":{"paywall_id":"a\"b","message":"line\nbreak\u001b"}}"#)
  }
}
