import Foundation
import PaywallTesting
import Testing

/// The debug panel's app calls in the real binary, as a tester uses them in tmux: `B` sends the
/// app to the background (the device's home screen over it, the paywall's keys ignored) and
/// brings it back; `G` answers getPresentationResult on the panel's last line.
@Suite("App calls end to end")
struct AppCallsEndToEndTests {
  @Test
  func backgroundAndGetPresentationResultFromThePanel() throws {
    let pane = try TmuxPane(TerminalEndToEndTests.wrapped("paywalls --controller simulated --status inactive"))
    pane.wait(forText: "status: inactive")
    try pane.send("d")
    pane.wait(forText: "handleDeepLink")
    try pane.send("B")
    pane.wait(forText: "the app is in the background; B brings it back")
    // The panel closed, the device's home screen shows; the paywall's Enter does nothing.
    try pane.send("d")
    pane.wait(forText: "The app is in the background")
    try pane.send("Enter")
    pane.wait(forText: "B brings it back · d the debug panel · q quits")
    try pane.send("B")
    pane.wait(forText: "the app is in front again")
    pane.wait(forText: "Start my free trial")
    try pane.send("d")
    pane.wait(forText: "handleDeepLink")
    try pane.send("G")
    pane.wait(forText: "PLACEMENT key=value")
    try pane.send("export_pdf", "Enter")
    pane.wait(forText: "getPresentationResult(export_pdf) →")
  }
}
