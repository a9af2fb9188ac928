/// What the survey pass needs to know about the user: the survey key saved, and the id the draw
/// and the shuffle are seeded with.
public struct SurveyContext: Sendable, Hashable {
  /// The last survey assignment key saved for the user (`AssignmentBook.surveyAssignmentKey`).
  public var savedKey: String?
  /// The user's id.
  public var userID: String

  /// A user who has seen no survey, by default the anonymous one.
  public init(savedKey: String? = nil, userID: String = "anonymous") {
    self.savedKey = savedKey
    self.userID = userID
  }
}

/// The survey a paywall may show as it closes, as the SDK's `PaywallViewController.dismiss(result:closeReason:)`
/// runs `SurveyManager.presentSurveyIfAvailable` before anything else of a dismissal
/// (`Paywall/View Controller/Survey/SurveyManager.swift`, the same from 3.9.1 to 4.16.3): the
/// survey's answer comes first, then `paywall_decline`, `onWillDismiss`, `paywall_close`.
extension PaywallFlow {
  /// A dismissal with `result`: the survey pass, then (unless a survey now shows) the close.
  /// `SurveyManager`: the first survey whose condition holds decides (`selectSurvey`); if its key
  /// is the saved one, nothing shows (`Survey.hasSeenSurvey`); else the key is saved, shown or held
  /// out, and the draw decides (`Survey.shouldAssignHoldout`).
  static func beginDismiss(_ session: inout PaywallSession, result: PaywallResult, manualClose: Bool,
                           context: SurveyContext) -> [FlowEffect] {
    guard let survey = Survey.first(in: session.paywall.definition.surveys, result: result, manualClose: manualClose),
          survey.assignmentKey != context.savedKey else {
      return finishDismiss(&session, result: result, manualClose: manualClose)
    }
    let save = FlowEffect.saveSurveyKey(survey.assignmentKey)
    guard survey.shows(to: context.userID) else {
      session.surveyPresentation = .holdout
      return [save] + finishDismiss(&session, result: result, manualClose: manualClose)
    }
    session.survey = SurveyPrompt(survey: survey, order: survey.shuffledOptions(userID: context.userID), pendingResult: result,
                                  manualClose: manualClose)
    return [save]
  }

  /// The close after the survey pass: `paywall_decline` for the user's own close only
  /// (`PaywallViewController.dismissView`), then `paywall_close` and the result.
  static func finishDismiss(_ session: inout PaywallSession, result: PaywallResult, manualClose: Bool) -> [FlowEffect] {
    let decline: [FlowEffect] = manualClose && result == .declined ? [.emit(event(.paywallDecline, session))] : []
    return decline + dismiss(&session, with: result)
  }

  /// The dismissal a survey answer left waiting, when no campaign on `survey_response` takes the
  /// paywall's place: the close, with `survey_presentation=show`.
  public static func resumeAfterSurvey(in session: inout PaywallSession) -> [FlowEffect] {
    guard let prompt = session.answeredSurvey else { return [] }
    session.answeredSurvey = nil
    session.surveyPresentation = .show
    return finishDismiss(&session, result: prompt.pendingResult, manualClose: prompt.manualClose)
  }

  /// An action while the survey is on screen: only the survey's own count (the sheet is modal,
  /// `isModalInPresentation`). An option or "Other" tracks `survey_response` and leaves the
  /// dismissal to the presenter (`SurveyManager.selectedOption`: a campaign on it closes the
  /// paywall for its own); "Close" tracks `survey_close` and closes.
  static func answerSurvey(_ action: PaywallAction, in session: inout PaywallSession) -> [FlowEffect] {
    guard var prompt = session.survey else { return [] }
    let survey = prompt.survey
    switch action {
    case .surveyAnswer(let id):
      guard let option = survey.options.first(where: { $0.id == id }) else { return [] }
      return answered(option, custom: nil, &session)
    case .surveyEditOther(let text):
      guard survey.includeOtherOption else { return [] }
      prompt.typingOther = text
      session.survey = prompt
      return []
    case .surveyOther(let text):
      // The Submit button is enabled only once the trimmed text is not empty; the text is sent
      // as typed.
      guard survey.includeOtherOption, !text.trimmingSpaces().isEmpty else { return [] }
      return answered(Survey.otherOption, custom: text, &session)
    case .surveyClose:
      guard survey.includeCloseOption else { return [] }
      session.survey = nil
      session.surveyPresentation = .show
      return [.emit(PaywallEvent(.surveyClose, []))]
        + finishDismiss(&session, result: prompt.pendingResult, manualClose: prompt.manualClose)
    default:
      return []
    }
  }

  private static func answered(_ option: Survey.Option, custom: String?, _ session: inout PaywallSession) -> [FlowEffect] {
    guard let prompt = session.survey else { return [] }
    session.survey = nil
    session.answeredSurvey = prompt
    var extra: [(String, JSONOutput)] = [
      ("survey_id", .string(prompt.survey.id)), ("survey_assignment_key", .string(prompt.survey.assignmentKey)),
      ("survey_selected_option_id", .string(option.id)), ("survey_selected_option_title", .string(option.title)),
    ]
    if let custom { extra.append(("survey_custom_response", .string(custom))) }
    return [.emit(event(.surveyResponse, session, extra: extra))]
  }
}
