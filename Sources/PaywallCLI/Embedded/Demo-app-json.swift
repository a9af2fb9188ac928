// Generated from paywalls/ by scripts/embed-demo.py; DemoProjectTests checks they are the same.
// Edit the files in paywalls/, then run the script.

extension DemoFiles {
  /// paywalls/app.json.
  static let demoAppJson = #"""
{
  "$schema": "app.schema.json",
  "name": "Acme Notes",
  "catalog": "catalog.json",
  "paywalls": ["onboarding.json", "winback.json", "plans.json"],
  "campaigns": [
    {
      "placement": "onboarding",
      "audiences": [
        { "filter": "device.subscriptionStatus == \"INACTIVE\"", "paywall": "onboarding" }
      ]
    },
    {
      "placement": "export_pdf",
      "audiences": [
        { "filter": "!(\"pro\" in device.activeEntitlements)", "paywall": "plans" }
      ]
    },
    {
      "placement": "settings_upgrade",
      "audiences": [
        {
          "filter": "params.source == \"banner\"",
          "variants": [{ "paywall": "onboarding", "percent": 50 }, { "paywall": "plans", "percent": 50 }],
          "holdout": 20
        },
        { "paywall": "plans" }
      ]
    },
    {
      "placement": "power_user_offer",
      "audiences": [
        { "filter": "user.should_display == true && user.some_value > 12", "paywall": "winback" }
      ]
    },
    {
      "placement": "beta_sync",
      "audiences": [{ "holdout": 100 }]
    },
    {
      "placement": "transaction_abandon",
      "audiences": [{ "paywall": "winback" }]
    }
  ]
}

"""#
}
