// What an app developer's unit test does, with no terminal: register a gated placement, buy on
// the paywall it presents, and see the feature run. Only PaywallModel is imported.
//   swift run headless-register-example [PATH]      (PATH defaults to the bundled paywalls/)
import Foundation
import PaywallModel

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("headless-register-example: \(message)\n".utf8))
  exit(1)
}

let path = CommandLine.arguments.dropFirst().first ?? "paywalls"
let loaded = ProjectLoader.load(path: path)
guard let project = loaded.project else { fail(loaded.diagnostics.map(\.description).joined(separator: "\n")) }

// The simulated store in memory (no directory): a purchase goes into its ledger and it sets the
// status, as an app's own controller would.
let status = SubscriptionStatusStore(.inactive)
let store = SimulatedStore(catalog: project.catalog, status: status, clock: LiveTimeSource(), directory: nil)
let app = HeadlessPresenter(project: project, store: store, status: status, userID: "unit-test")

let placement = "export_pdf"
await app.register(placement)
guard let paywall = await app.state.session else { fail("\(placement) presented no paywall") }
guard paywall.paywall.definition.featureGating == .gated else { fail("\(paywall.id) is not gated") }
print("\(placement) presented \(paywall.id) (gated); the feature waits")
if await app.featureRan(placement) { fail("the feature ran before the purchase") }

await app.perform(.purchase(slot: nil))
for event in await app.events { print(event.description) }
guard await app.featureRan(placement) else { fail("the feature did not run after the purchase") }
guard status.status.isActive else { fail("the status is \(status.status) after the purchase") }
print("feature ran: \(placement) · status: \(status.status)")
