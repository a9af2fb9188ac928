import Foundation
import Testing

/// The examples a library user copies from, run as they are: they must keep building and working.
@Suite("Examples")
struct ExamplesTests {
  /// Registers a gated placement, buys on its paywall and sees the feature run, with no terminal
  /// (its stdin and stdout are pipes here).
  @Test func theHeadlessExampleRunsTheFeatureAfterThePurchase() throws {
    let binary = CommandLineTests.binary.deletingLastPathComponent().appendingPathComponent("headless-register-example")
    let result = try CommandLineTests.spawn(binary, [Fixtures.demoDirectory])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("export_pdf presented plans (gated); the feature waits"))
    #expect(result.stdout.contains("handler.onDismiss placement=export_pdf paywall_id=plans result=purchased"))
    #expect(result.stdout.hasSuffix("feature ran: export_pdf · status: active:pro\n"), "\(result.stdout)")
  }
}
