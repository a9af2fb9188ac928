// Generated from paywalls/ by scripts/embed-demo.py; DemoProjectTests checks they are the same.
// Edit the files in paywalls/, then run the script.

extension DemoFiles {
  /// paywalls/winback.json.
  static let demoWinbackJson = #"""
{
  "$schema": "paywall.schema.json",
  "id": "winback",
  "name": "Win-back offer",
  "products": {
    "primary": { "product": "com.acme.pro.annual", "offer": "annual.winback" },
    "secondary": "com.acme.pro.monthly"
  },
  "selected": "primary",
  "featureGating": "gated",
  "presentationCondition": "always",
  "components": [
    { "type": "art", "lines": ["   .-\"\"\"-.   ", "  /  50%  \\  ", "  \\  OFF  /  ", "   '-...-'   "] },
    { "type": "title", "text": "We miss you. Come back for half price" },
    { "type": "text", "style": "muted",
      "text": "Your notes are still here. Get a full year of Acme Pro for {{ primary.trialPeriodPrice }}, then {{ primary.price }}/{{ primary.period }}." },
    { "type": "divider" },
    { "type": "products", "badges": { "primary": "50% off" }, "savings": false },
    { "type": "button", "label": "Claim {{ primary.trialPeriodPrice }} offer", "action": "purchase", "slot": "primary" },
    { "type": "button", "label": "Restore purchases", "action": "restore" },
    { "type": "button", "label": "No thanks", "action": "close" }
  ]
}

"""#
}
