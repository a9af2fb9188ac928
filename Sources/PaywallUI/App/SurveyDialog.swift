#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import PaywallModel
import TerminalCore

/// The keys of a paywall's survey sheet in `run`, as the SDK's action sheet offers them
/// (`SurveyManager.presentSurveyIfAvailable`): the options by number, then "Other" and "Close";
/// no swipe-away (`isModalInPresentation`), so with no "Close" only an answer ends it. "Other"
/// opens a text box whose Submit works only once the text is not blank, with no cancel.
package enum SurveyDialog {
  /// One line of the sheet: an option, "Other" or "Close".
  package enum Entry: Sendable, Hashable {
    case option(Survey.Option)
    case other
    case close
  }

  /// The sheet's lines in order: the shuffled options, then "Other", then "Close" when offered.
  package static func entries(_ prompt: SurveyPrompt) -> [Entry] {
    prompt.order.map(Entry.option) + (prompt.survey.includeOtherOption ? [.other] : [])
      + (prompt.survey.includeCloseOption ? [.close] : [])
  }

  /// A key while the survey is up (`prompt.typingOther` nil: the sheet; else the text box).
  package static func handle(_ key: Key, _ prompt: SurveyPrompt, _ state: inout AppState, now: Date) -> [AppEffect] {
    if let text = prompt.typingOther {
      switch key {
      case .enter:
        return AppModel.present(.paywall(.surveyOther(text)), &state, now: now)
      case .backspace:
        return AppModel.present(.paywall(.surveyEditOther(String(text.dropLast()))), &state, now: now)
      case .space:
        return AppModel.present(.paywall(.surveyEditOther(text + " ")), &state, now: now)
      case .character(let c) where !c.isNewline && text.count < maxOtherLength:
        return AppModel.present(.paywall(.surveyEditOther(text + String(c))), &state, now: now)
      default:
        return []
      }
    }
    switch KeyMap.survey.action(for: key) {
    case .pick?:
      let list = entries(prompt)
      guard case .character(let c) = key, let n = c.wholeNumberValue, n >= 1, n <= list.count else { return [] }
      switch list[n - 1] {
      case .option(let option): return AppModel.present(.paywall(.surveyAnswer(optionID: option.id)), &state, now: now)
      case .other: return AppModel.present(.paywall(.surveyEditOther("")), &state, now: now)
      case .close: return AppModel.present(.paywall(.surveyClose), &state, now: now)
      }
    case .close?:
      guard prompt.survey.includeCloseOption else { return [] }
      return AppModel.present(.paywall(.surveyClose), &state, now: now)
    case nil:
      return []
    }
  }

  /// The longest "Other" reply the text box takes.
  package static let maxOtherLength = 500
}
