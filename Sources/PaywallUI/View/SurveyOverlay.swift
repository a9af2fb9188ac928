import PaywallModel
import TerminalCore

/// A paywall's survey drawn over it: the title, the message, the answers numbered (the
/// SDK's action sheet), or, once "Other" was picked, its text box ("Your response", Submit).
enum SurveyOverlay {
  static func draw(_ prompt: SurveyPrompt, into frame: inout Frame) {
    let survey = prompt.survey
    var lines: [OverlayBox.Line] = survey.message.isEmpty ? [] : [[(survey.message, .plain)], []]
    let footer: String
    if let text = prompt.typingOther {
      lines.append([("Your response: ", .muted), (text + "▏", .accent)])
      let blank = text.trimmingSpaces().isEmpty
      footer = blank ? "type a response; [ Submit ] needs text" : "[ Submit ]  enter"
    } else {
      for (i, entry) in SurveyDialog.entries(prompt).enumerated() {
        let label = switch entry {
        case .option(let option): option.title
        case .other: "Other"
        case .close: "Close"
        }
        lines.append([("\(i + 1)  ", .accent), (label, entry == .close ? .muted : .plain)])
      }
      footer = survey.includeCloseOption ? "1–\(SurveyDialog.entries(prompt).count) answer  esc close" : "1–\(SurveyDialog.entries(prompt).count) answer"
    }
    OverlayBox.box(title: survey.title, lines: lines, footer: footer, into: &frame)
  }
}
