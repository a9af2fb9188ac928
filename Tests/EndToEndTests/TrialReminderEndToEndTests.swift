import Foundation
import PaywallTesting
import Testing

/// A trial's reminder in `run`: on the store's clock at its time rate, shown as a banner.
@Suite("Trial reminder end to end")
struct TrialReminderEndToEndTests {
  @Test func aTrialsReminderShowsAsABannerOnTheStoresClock() throws {
    // 5 days at a day a second: the banner comes about 5 s after the purchase.
    let pane = try TmuxPane(TerminalEndToEndTests.wrapped("scenarios/projects/trial-reminders --paywall trial --controller simulated --status inactive --time-rate day=1s"))
    pane.wait(forText: "Start my free trial")
    try pane.send("Enter")
    pane.wait(forText: "status: active")
    #expect(!pane.screen.contains("Notification ·"))
    pane.wait(for: "the reminder's banner", within: 20) { $0.contains("Notification · Your trial ends soon · Acme Pro") }
  }
}
