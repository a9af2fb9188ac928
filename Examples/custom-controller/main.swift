// A user's own PurchaseController driving the interactive paywall emulator.
//   swift run custom-controller-example [PATH]      (PATH defaults to the bundled paywalls/)
import Foundation
import PaywallModel
import PaywallTUI

/// Approves every purchase after a short pause and grants the product's entitlements, the way an
/// app's controller talks to its store and then sets the subscription status.
final class ApproveEverything: PurchaseController {
  let status: SubscriptionStatusStore
  init(status: SubscriptionStatusStore) { self.status = status }

  func purchase(product: StoreProduct) async -> PurchaseResult {
    try? await Task.sleep(nanoseconds: 400_000_000)
    status.set(.active(status.status.entitlements.union(product.entitlements)))
    return .purchased
  }

  func restorePurchases() async -> RestorationResult { .restored }
}

let path = CommandLine.arguments.dropFirst().first ?? "paywalls"
do {
  let project = try PaywallApp.loadProject(path)
  let status = SubscriptionStatusStore(.inactive)
  let code = try await PaywallApp(project: project, controller: ApproveEverything(status: status), status: status).run()
  exit(code)
} catch let failure as ValidationFailure {
  FileHandle.standardError.write(Data((failure.description + "\n").utf8))
  exit(1)
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(3)
}
