// Generated from paywalls/ by scripts/embed-demo.py; DemoProjectTests checks they are the same.
// Edit the files in paywalls/, then run the script.

extension DemoFiles {
  /// paywalls/plans.json.
  static let demoPlansJson = #"""
{
  "$schema": "paywall.schema.json",
  "id": "plans",
  "name": "Plan picker",
  "products": { "primary": "com.acme.pro.weekly", "secondary": "com.acme.pro.monthly.intro",
                "tertiary": "com.acme.pro.annual" },
  "selected": "tertiary",
  "featureGating": "gated",
  "components": [
    { "type": "title", "text": "Choose your plan" },
    { "type": "text", "text": "Every plan includes all of Acme Pro. Cancel any time.",
      "freeTrialText": "Every plan includes all of Acme Pro. Annual starts with a {{ tertiary.trialPeriodText }} free trial." },
    { "type": "features", "title": "Acme Pro", "items": ["Unlimited notes and folders", "End-to-end encrypted sync", "Priority support"] },
    { "type": "spacer" },
    { "type": "products", "badges": { "secondary": "Intro price" } },
    { "type": "button", "label": "Subscribe for {{ products.selected.price }}/{{ products.selected.period }}", "action": "purchase" },
    { "type": "button", "label": "Restore purchases", "action": "restore" },
    { "type": "button", "label": "Maybe later", "action": "close" }
  ]
}

"""#
}
