// Generated from paywalls/ by scripts/embed-demo.py; DemoProjectTests checks they are the same.
// Edit the files in paywalls/, then run the script.

/// The demo project's files (paywalls/ of the source tree, its schemas aside), built into the
/// binary so `demo` and `init --demo` need no source tree.
package enum DemoFiles {
  /// Every file by name, with its text exactly as in paywalls/.
  package static let all: [(name: String, text: String)] = [
    ("acme.entitlements.json", demoAcmeEntitlementsJson),
    ("acme.storekit", demoAcmeStorekit),
    ("app.json", demoAppJson),
    ("catalog.json", demoCatalogJson),
    ("onboarding.json", demoOnboardingJson),
    ("plans.json", demoPlansJson),
    ("winback.json", demoWinbackJson),
  ]
}
