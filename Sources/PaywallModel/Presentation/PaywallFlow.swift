/// How a presented paywall ended, as the SDK's `PaywallResult` reports it.
public enum PaywallResult: Sendable, Hashable, CustomStringConvertible {
  case purchased(productID: String)
  case declined
  case restored

  /// The result as events and the handler's `onDismiss` name it: `purchased`, `declined`,
  /// `restored`.
  public var name: String {
    switch self {
    case .purchased: "purchased"
    case .declined: "declined"
    case .restored: "restored"
    }
  }

  /// `name`, with the product for a purchase: `purchased(com.acme.pro.annual)`.
  public var description: String {
    if case .purchased(let id) = self { return "purchased(\(id))" }
    return name
  }
}

/// A modal alert over the paywall.
public struct PaywallAlert: Sendable, Hashable {
  /// Which of the SDK's alerts it is: a purchase waiting for approval (Ask to Buy), a purchase that
  /// failed, a restore that found nothing.
  public enum Kind: Sendable, Hashable {
    case pendingApproval, purchaseFailed, restoreFailed
  }

  /// Which alert.
  public var kind: Kind
  /// The alert's title.
  public var title: String
  /// The alert's text under the title.
  public var message: String
  /// The one button's title; it closes the alert (`PaywallAction.dismissAlert`).
  public var button: String

  /// An alert of `kind` with these texts.
  public init(kind: Kind, title: String, message: String, button: String) {
    self.kind = kind
    self.title = title
    self.message = message
    self.button = button
  }

  /// The SDK's title for a purchase waiting for approval.
  public static let pendingTitle = "Waiting for Approval"
  /// The SDK's text for a purchase waiting for approval.
  public static let pendingMessage = "Thank you! This purchase is pending approval from your parent. Please try again once it is approved."
  /// The SDK's title for a failed purchase; the error's message is the text.
  public static let failureTitle = "An error occurred"
  /// The failure and pending alerts' one button: the SDK's `alert_action_done`
  /// (`Resources/Localizations/en.lproj/Localizable.strings`), which `TransactionManager`'s
  /// `presentAlert` uses when no title is given.
  public static let doneButton = "Done"
}

/// What the controller is doing for the paywall right now.
public enum PaywallActivity: Sendable, Hashable {
  case idle
  case purchasing(slot: String, productID: String)
  case restoring
}

/// One presented paywall: what is selected, what is in flight, the alert, and how it ended.
public struct PaywallSession: Sendable, Hashable {
  /// The paywall presented, with its products.
  public var paywall: ResolvedPaywall
  /// The slot a purchase with no slot named buys; nil when the paywall has no products.
  public var selectedSlot: String?
  /// The purchase or restore in flight, if any.
  public var activity: PaywallActivity = .idle
  /// The alert over the paywall, if any: until it is dismissed, nothing else is done.
  public var alert: PaywallAlert?
  /// Set once the paywall is dismissed.
  public var result: PaywallResult?
  /// The survey on screen over the paywall, if any: until it is answered, nothing else is done.
  public var survey: SurveyPrompt?
  /// A survey just answered, whose dismissal waits for the presenter: closed for a campaign on
  /// `survey_response`, or finished (`PaywallFlow.resumeAfterSurvey`).
  public var answeredSurvey: SurveyPrompt?
  /// A purchase's dismissal waiting for its trial's reminders to be scheduled or refused (the
  /// SDK awaits the notification permission first): `PaywallFlow.resumeHeldDismissal`.
  public var heldDismissal: PaywallResult?
  /// What the survey pass of this paywall's dismissal came to (`paywall_close`'s
  /// `survey_presentation`).
  public var surveyPresentation: SurveyPresentation = .noShow

  /// A purchase or restore is in flight: every action is ignored until it finishes.
  public var isBusy: Bool { activity != .idle }
  /// The paywall has closed (`result` is set).
  public var isDismissed: Bool { result != nil }
  /// The paywall's id, as events name it (`paywall_id`).
  public var id: String { paywall.definition.id }
}

/// What the user (or a script) does on a paywall.
public enum PaywallAction: Sendable, Hashable {
  case select(slot: String)
  /// Buy the named slot, or the selected one.
  case purchase(slot: String?)
  case restore
  case close
  case dismissAlert
  /// Answer the survey on screen with the option of this id.
  case surveyAnswer(optionID: String)
  /// Pick the survey's "Other" (the text box opens, empty), or edit its text.
  case surveyEditOther(String)
  /// Answer the survey's "Other" with this text (ignored while it is blank).
  case surveyOther(String)
  /// The survey's "Close" (only when it has one).
  case surveyClose
}

/// Work the flow asks the runtime to do; results come back through `purchaseFinished` and
/// `restoreFinished`.
public enum FlowEffect: Sendable, Hashable {
  case purchase(StoreProduct, slot: String)
  case restore
  case emit(PaywallEvent)
  case dismissed(PaywallResult)
  /// Save this survey assignment key for the user (`AssignmentBook.surveyAssignmentKey`).
  case saveSurveyKey(String)
  /// A free trial started from the paywall: schedule its `trialStarted` notifications.
  case scheduleNotifications(paywallID: String, [LocalNotification])
}

/// The purchase, restore and close flow of a presented paywall, as the Superwall SDK runs it,
/// written as pure functions of the session and one input. Events come out in the SDK's order:
///
/// - purchase: `transaction_start`, then for `purchased` `transaction_complete` and one of
///   `freeTrial_start` / `subscription_start` / `nonRecurringProduct_purchase` (and dismiss when
///   `automaticallyDismiss`); `cancelled`, or `failed` with one of StoreKit's cancel errors
///   (`StoreError.isCancellation`, whichever controller returned it), `transaction_abandon`; `pending` `transaction_fail` and "Waiting for Approval"; `failed`
///   `transaction_fail` and "An error occurred" (when `shouldShowPurchaseFailureAlert` and no
///   campaign is on `transaction_fail`); `restored` (v3) the restore success path, on v4 a failure
///   that says the result does not exist there.
/// - restore: `restore_start`, then `restore_complete` + `transaction_restore` + dismiss only when
///   the controller restored **and** the status has an active entitlement; else `restore_fail` and
///   the restore-failed alert.
/// - close: `paywall_decline`, `paywall_close`, result `declined` (the presenter puts the handler's
///   `onWillDismiss` just before `paywall_close`, its `onDismiss` just after).
/// - every dismissal first runs the survey pass (`SurveyFlow.swift`): a survey shown holds the
///   dismissal until it is answered.
///
/// While a purchase or restore is in flight every action is ignored: never two purchases.
public enum PaywallFlow {
  /// Presents `paywall`: a session with `selected` selected (else the paywall's default slot, else
  /// its first), and the `paywall_open` event.
  public static func open(_ paywall: ResolvedPaywall, selected: String? = nil) -> (PaywallSession, [FlowEffect]) {
    let slots = paywall.slots.map(\.slot)
    let wanted = selected ?? paywall.definition.selectedSlot
    let session = PaywallSession(paywall: paywall, selectedSlot: wanted.flatMap { slots.contains($0) ? $0 : nil } ?? slots.first)
    return (session, [.emit(event(.paywallOpen, session))])
  }

  /// What the user does on the session: select a slot, purchase, restore, close, dismiss the alert.
  /// Ignored once the paywall is dismissed or while a purchase or restore is in flight; with an
  /// alert up, only `dismissAlert` counts.
  public static func handle(_ action: PaywallAction, in session: inout PaywallSession, options: PaywallOptions,
                            survey context: SurveyContext = SurveyContext()) -> [FlowEffect] {
    guard !session.isDismissed, session.answeredSurvey == nil, session.heldDismissal == nil else { return [] }
    if session.survey != nil { return answerSurvey(action, in: &session) }
    if session.alert != nil {
      guard action == .dismissAlert else { return [] }
      session.alert = nil
      return []
    }
    guard !session.isBusy else { return [] }
    switch action {
    case .dismissAlert, .surveyAnswer, .surveyEditOther, .surveyOther, .surveyClose:
      return []
    case .select(let slot):
      guard session.paywall.slot(named: slot) != nil else { return [] }
      session.selectedSlot = slot
      return []
    case .purchase(let slotName):
      guard let name = slotName ?? session.selectedSlot, let slot = session.paywall.slot(named: name) else { return [] }
      session.activity = .purchasing(slot: name, productID: slot.product.id)
      return [.emit(event(.transactionStart, session, slot: slot)), .purchase(slot.product, slot: name)]
    case .restore:
      session.activity = .restoring
      return [.emit(event(.restoreStart, session)), .restore]
    case .close:
      return beginDismiss(&session, result: .declined, manualClose: true, context: context)
    }
  }

  /// The controller's `PurchaseResult` for the purchase in flight: its events, alert and dismissal
  /// as listed above. Nothing when no purchase is in flight. `triggers` are the placements the
  /// project has campaigns on (the SDK's `makeTriggers()`): with one on `transaction_fail` a failure
  /// shows no alert, whether or not its audience matches.
  public static func purchaseFinished(_ answer: PurchaseResult, in session: inout PaywallSession,
                                      options: PaywallOptions, triggers: Set<String> = [],
                                      survey context: SurveyContext = SurveyContext()) -> [FlowEffect] {
    guard case .purchasing(let name, _) = session.activity, let slot = session.paywall.slot(named: name) else { return [] }
    session.activity = .idle
    let result = answer.checked(for: options.sdk)
    switch result {
    case .purchased:
      let product = slot.product
      // The simulated store grants the offer exactly when `trialEligible` is true.
      let kind = SDKEvents.purchaseEvent(for: product, startsOffer: slot.trialEligible)
      var effects: [FlowEffect] = [
        .emit(event(.transactionComplete, session, slot: slot, extra: SDKEvents.transactionType(kind, sdk: options.sdk))),
        .emit(event(kind, session, slot: slot)),
      ]
      // `TransactionManager.trackTransactionDidSucceed`: a free-trial start schedules the
      // paywall's notifications, awaited before the paywall is dismissed.
      // Superwall-Android from 2.6.6 schedules them after any subscription (`notifyOfTransactionComplete`).
      let reminders = session.paywall.definition.localNotifications
      let schedules = options.sdk.schedulesRemindersForAnySubscription ? kind != .nonRecurringProductPurchase : kind == .freeTrialStart
      let scheduling = schedules && !reminders.isEmpty
      if scheduling {
        effects.append(.scheduleNotifications(paywallID: session.id, reminders))
      }
      if options.automaticallyDismiss {
        if scheduling {
          // The presenter goes on once the reminders are scheduled or refused, which may take
          // the user's answer to the notification prompt (`NotificationPermissions`).
          session.heldDismissal = .purchased(productID: product.id)
        } else {
          effects += beginDismiss(&session, result: .purchased(productID: product.id), manualClose: false, context: context)
        }
      }
      return effects
    case .cancelled:
      return [.emit(event(.transactionAbandon, session, slot: slot))]
    // StoreKit's user-cancel error is a cancel, not a failure: the SDK's
    // `StoreKit/Transactions/TransactionErrorLogic.swift` answers `.cancelled` for it.
    case .failed(let error as StoreError) where error.isCancellation:
      return [.emit(event(.transactionAbandon, session, slot: slot))]
    case .pending:
      session.alert = PaywallAlert(kind: .pendingApproval, title: PaywallAlert.pendingTitle,
                                   message: PaywallAlert.pendingMessage, button: PaywallAlert.doneButton)
      // `handlePendingTransaction` tracks the failure with no product.
      return [.emit(event(.transactionFail, session, extra: [("message", "Needs parental approval")]))]
    case .failed(let error):
      let message = error.displayMessage
      // `TransactionErrorLogic.handle`: the alert shows only when the option is on and the project
      // has no campaign on `transaction_fail` (audience not considered).
      if options.shouldShowPurchaseFailureAlert && !triggers.contains(EventName.transactionFail.rawValue) {
        session.alert = PaywallAlert(kind: .purchaseFailed, title: PaywallAlert.failureTitle, message: message,
                                     button: PaywallAlert.doneButton)
      }
      return [.emit(event(.transactionFail, session, slot: slot, extra: [("message", .string(message))]))]
    case .restored:
      // `didRestore`: a purchase that restored is `viaPurchase` with the product's transaction
      // (which the user owns, or the store would not have restored it).
      var effects: [FlowEffect] = [.emit(event(.transactionRestore, session, slot: slot,
                                               extra: [("restore_via_purchase_attempt", true)]))]
      if options.automaticallyDismiss {
        effects += dismiss(&session, with: .restored)
      }
      return effects
    }
  }

  /// The dismissal a purchase held for its trial's reminders (`heldDismissal`), now they are
  /// scheduled or refused.
  public static func resumeHeldDismissal(in session: inout PaywallSession, survey context: SurveyContext = SurveyContext()) -> [FlowEffect] {
    guard let result = session.heldDismissal, !session.isDismissed else { return [] }
    session.heldDismissal = nil
    return beginDismiss(&session, result: result, manualClose: false, context: context)
  }

  /// `status` is the subscription status once the controller returned: restore only succeeds with
  /// an active entitlement, whatever the controller said.
  public static func restoreFinished(_ result: RestorationResult, status: SubscriptionStatus, in session: inout PaywallSession,
                                     options: PaywallOptions) -> [FlowEffect] {
    guard session.activity == .restoring else { return [] }
    session.activity = .idle
    if case .restored = result, status.isActive {
      var effects: [FlowEffect] = [.emit(event(.restoreComplete, session)),
                                   .emit(event(.transactionRestore, session, extra: [("restore_via_purchase_attempt", false)]))]
      if options.automaticallyDismiss {
        effects += dismiss(&session, with: .restored)
      }
      return effects
    }
    let reason = SDKEvents.restoreFailMessage(result, sdk: options.sdk)
    let texts = options.restoreFailed
    session.alert = PaywallAlert(kind: .restoreFailed, title: texts.title, message: texts.message, button: texts.closeButtonTitle)
    return [.emit(event(.restoreFail, session, extra: [("error_message", .string(reason))]))]
  }

  static func dismiss(_ session: inout PaywallSession, with result: PaywallResult) -> [FlowEffect] {
    session.result = result
    var extra: [(String, JSONOutput)] = [("result", .string(result.name))]
    if case .purchased(let id) = result { extra.append(("product_id", .string(id))) }
    // `PaywallInfo.closeReason` (`Paywall/View Controller/PaywallViewController.swift`): the user's
    // close is `manualClose`, the SDK's own dismissal after a purchase or restore `systemLogic`;
    // `PaywallClose` adds `survey_attached` (the paywall has a survey) and, when the survey pass
    // showed one or held the user out, `survey_presentation`.
    let reason = if case .declined = result { "manualClose" } else { "systemLogic" }
    extra += [("close_reason", .string(reason)), ("survey_attached", .bool(!session.paywall.definition.surveys.isEmpty))]
    if session.surveyPresentation != .noShow { extra.append(("survey_presentation", .string(session.surveyPresentation.rawValue))) }
    return [.emit(event(.paywallClose, session, extra: extra)), .dismissed(result)]
  }

  static func event(_ name: EventName, _ session: PaywallSession, slot: SlotProduct? = nil,
                    extra: [(String, JSONOutput)] = []) -> PaywallEvent {
    var params: [(String, JSONOutput)] = [
      ("paywall_id", .string(session.paywall.definition.id)),
      ("paywall_name", .string(session.paywall.definition.name)),
    ]
    if let slot {
      params.append(("product_id", .string(slot.product.id)))
      params.append(("slot", .string(slot.slot)))
    }
    return PaywallEvent(name, params + extra)
  }
}

extension PurchaseResult {
  /// The result as the chosen SDK can have it: SDK 4's `PurchaseResult` has no `restored`
  /// (`StoreKit/Purchase Controller/PurchaseResult.swift`), so a controller (one written in Swift;
  /// the others refuse it where it is written) that answers it fails the purchase, saying why.
  ///
  /// Superwall-Android's `PurchaseResult.Failed` carries a message, not an error, and its
  /// `TransactionManager.kt` tracks every failure as `transaction_fail`: on Android a StoreKit
  /// error (the ask dialog's, a scripted `failed:userCancelled`, a fault) is the message it names.
  /// A Play Billing response (the simulated Play store's refusal, `fail purchase ERROR`) becomes
  /// what the SDK's own purchasing makes of it: a cancel for `USER_CANCELED`, else the message of
  /// `PlayBillingResponse.sdkMessage` ("6" before 2.6.6).
  func checked(for sdk: SDKVersion) -> PurchaseResult {
    if case .failed(let failure as PlayBillingFailure) = self {
      if failure.response == .userCanceled { return .cancelled }
      // Under the iOS SDK (a Play catalog run with --platform ios) no SDK reads Play's codes: the
      // store's own sentence is the message, as it was before Play's answers were modelled.
      return .failed(PurchaseError(sdk.platform == .android ? failure.response.sdkMessage(sdk) : failure.reason ?? failure.response.explanation))
    }
    if sdk.platform == .android, case .failed(let error as StoreError) = self {
      return .failed(PurchaseError(error.rawValue))
    }
    guard case .restored = self, !sdk.hasRestoredPurchaseResult else { return self }
    let fix = sdk.platform == .ios ? "(SDK 3's has); return purchased, or use --sdk 3" : "(\(sdk.restoredPurchaseFix)); return purchased"
    return .failed(PurchaseError("the purchase controller returned restored, which SDK \(sdk.named)'s PurchaseResult does not have \(fix)"))
  }
}
