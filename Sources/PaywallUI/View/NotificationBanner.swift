import PaywallModel

extension AppView {
  /// The banner a delivered notification shows in the notice row:
  /// `Notification · TITLE · SUBTITLE — BODY`.
  package static func banner(for event: PaywallEvent) -> String {
    let parts = ["title", "subtitle"].compactMap { event[$0]?.stringValue }.filter { !$0.isEmpty }
    let body = event["body"]?.stringValue ?? ""
    return (["Notification"] + parts).joined(separator: " · ") + (body.isEmpty ? "" : " — \(body)")
  }
}
