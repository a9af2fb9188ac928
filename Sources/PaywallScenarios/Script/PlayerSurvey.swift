import PaywallModel
import PaywallUI

/// A script's `survey` step: what it asks of the survey on screen, and why it cannot.
extension Player {
  /// Why `answer` cannot be given now, as the line's failure; nil when it can.
  func surveyProblem(_ answer: PlayScript.SurveyStep) -> String? {
    guard let prompt = runtime.state.presentation.session?.survey else {
      return "no survey is showing (a paywall shows one as it closes, when its 'surveys' say so)"
    }
    let survey = prompt.survey
    switch answer {
    case .answer(let option):
      guard Self.option(option, in: survey) != nil else {
        let list = survey.options.map { "\($0.id) (\"\($0.title)\")" }.joined(separator: ", ")
        return "survey \(quoting: survey.id) has no option \(quoting: option)\(Suggestions.hint(for: option, in: survey.options.map(\.id))) (options: \(list.isEmpty ? "none" : list))"
      }
    case .other:
      guard survey.includeOtherOption else { return "survey \(quoting: survey.id) has no \"Other\" option (includeOtherOption is false)" }
    case .close:
      guard survey.includeCloseOption else { return "this survey has no Close option (includeCloseOption is false)" }
    }
    return nil
  }

  /// The option named by its id, else by its title.
  static func option(_ name: String, in survey: Survey) -> Survey.Option? {
    survey.options.first { $0.id == name } ?? survey.options.first { $0.title == name }
  }

  /// The paywall action for `answer` (checked by `surveyProblem` first).
  static func action(for answer: PlayScript.SurveyStep, _ prompt: SurveyPrompt?) -> PaywallAction {
    switch answer {
    case .answer(let name): .surveyAnswer(optionID: prompt.flatMap { option(name, in: $0.survey) }?.id ?? name)
    case .other(let text): .surveyOther(text)
    case .close: .surveyClose
    }
  }
}
