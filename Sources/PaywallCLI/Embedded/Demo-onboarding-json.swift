// Generated from paywalls/ by scripts/embed-demo.py; DemoProjectTests checks they are the same.
// Edit the files in paywalls/, then run the script.

extension DemoFiles {
  /// paywalls/onboarding.json.
  static let demoOnboardingJson = #"""
{
  "$schema": "paywall.schema.json",
  "id": "onboarding",
  "name": "Onboarding",
  "products": { "primary": "com.acme.pro.annual", "secondary": "com.acme.pro.monthly",
                "tertiary": "com.acme.pro.lifetime" },
  "selected": "primary",
  "featureGating": "nonGated",
  "components": [
    { "type": "title", "text": "Unlock Acme Pro" },
    { "type": "text", "text": "{{ products.selected.price }} per {{ products.selected.period }}",
      "freeTrialText": "Try {{ products.primary.trialPeriodText }} free, then {{ products.primary.price }}/{{ products.primary.period }}" },
    { "type": "features", "items": ["Unlimited notes", "Sync on every device", "Themes and custom fonts"] },
    { "type": "products" },
    { "type": "button", "label": "Continue", "freeTrialLabel": "Start my free trial", "action": "purchase" },
    { "type": "button", "label": "Restore purchases", "action": "restore" },
    { "type": "button", "label": "Not now", "action": "close" }
  ]
}

"""#
}
