import Foundation
import PaywallTesting
import Testing

/// A paywall's survey in `run`, as a person answers it: the sheet over the closing paywall, its
/// numbered answers, "Other"'s text box.
@Suite("Survey end to end")
struct SurveyEndToEndTests {
  @Test func closingShowsTheSurveyAndOtherTakesTypedText() throws {
    let pane = try TmuxPane(TerminalEndToEndTests.wrapped("scenarios/projects/surveys --paywall why --controller scripted --status inactive"))
    pane.wait(forText: "Not now")
    try pane.send("q")
    pane.wait(for: "the survey over the paywall") { screen in
      ["Why not now?", "Help us improve", "Too expensive", "Maybe later", "Other", "Close"].allSatisfy(screen.contains)
    }
    // The sheet is modal: the paywall's keys do nothing while it is up.
    try pane.send("r")
    #expect(pane.screen.contains("Why not now?"))
    try pane.send("3")
    pane.wait(forText: "Your response:")
    // Submit needs text: enter on a blank box does nothing.
    try pane.send("Enter")
    #expect(pane.screen.contains("Your response:"))
    try pane.send("-l", "too pricey")
    pane.wait(forText: "too pricey")
    try pane.send("Enter")
    pane.wait(for: "the paywall closed after the answer") { !$0.contains("Why not now?") && !$0.contains("Your response:") }
    try pane.send("L")
    pane.wait(for: "the survey's answer in the log") { screen in
      screen.contains("survey_response") && screen.contains("too pricey") && screen.contains("paywall_close")
    }
  }
}
