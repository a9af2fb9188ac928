// Generated from paywalls/ by scripts/embed-demo.py; DemoProjectTests checks they are the same.
// Edit the files in paywalls/, then run the script.

extension DemoFiles {
  /// paywalls/acme.entitlements.json.
  static let demoAcmeEntitlementsJson = #"""
{
  "$comment": "Entitlements for acme.storekit: the group grants pro, the lifetime unlock grants pro and lifetime.",
  "groups": {
    "Acme Pro": [
      "pro"
    ]
  },
  "products": {
    "com.acme.pro.lifetime": [
      "pro",
      "lifetime"
    ]
  }
}
"""#
}
