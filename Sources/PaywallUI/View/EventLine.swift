import PaywallModel

/// How the log pane writes an event: its name, then the parameters that say what happened (the
/// result, the product, the status, why, the placement), then the rest in the SDK's order, and
/// last the paywall's and the experiment's ids and names, which the screen itself shows. At 80
/// columns `transaction_start product_id=com.acme.pro.annual …` keeps its product whole. The JSON
/// lines (`--events`, `play`) keep the SDK's order.
package enum EventLine {
  /// In this order, first.
  package static let telling = ["result", "product_id", "transaction_type", "status", "active_entitlement_ids", "status_reason", "reason",
                        "error_message", "message", "trigger_name", "placement", "source_event_name"]
  /// In this order, last.
  package static let context = ["slot", "paywall_id", "paywall_name", "paywall_identifier", "variant_id", "experiment_id"]

  package static func text(_ event: PaywallEvent) -> String {
    func rank(_ key: String) -> Int {
      if let i = telling.firstIndex(of: key) { return i - telling.count }
      if let i = context.firstIndex(of: key) { return 1 + i }
      return 0
    }
    // A stable sort: parameters of equal rank keep the SDK's order. Each key is ranked once, not
    // at each comparison.
    let ordered = event.params.enumerated().map { (rank: rank($0.element.0), offset: $0.offset) }.sorted { ($0.rank, $0.offset) < ($1.rank, $1.offset) }
    // Appended in a loop: `joined(separator:)` is generic code whose first use in the process (an
    // event line is made before the first paint) cost the runtime's lookup of a conformance.
    var line = event.name.rawValue
    for (_, offset) in ordered {
      let (key, value) = event.params[offset]
      line += " \(key)=\(value.stringValue ?? value.text)"
    }
    return line
  }
}
