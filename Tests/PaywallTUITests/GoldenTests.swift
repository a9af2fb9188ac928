import Foundation
import PaywallModel
import PaywallTesting
import Testing
@testable import TerminalCore
@testable import PaywallUI

/// Every bundled paywall at 80x24 and 40x12, pinned as text goldens (one quoted row per line, then
/// the style runs). Regenerate deliberately with `UPDATE_GOLDENS=1 swift test --filter Golden`
/// and review the diff.
@Suite("Render goldens")
struct GoldenTests {
  static let cases: [(String, String)] = ["onboarding", "winback", "plans"].flatMap { id in
    ["80x24", "40x12"].map { (id, $0) }
  }

  @Test(arguments: cases)
  func bundledPaywall(id: String, size: String) throws {
    let project = try Fixtures.demoProject()
    let frame = PaywallRenderer.render(try Fixtures.screen(project, paywall: id), size: try #require(Size(size)))
    try Self.check(frame, name: "\(id)-\(size)")
  }

  /// The bundled paywalls show every product's real price, period and trial at both sizes.
  @Test(arguments: cases)
  func everyProductIsOnScreen(id: String, size: String) throws {
    let project = try Fixtures.demoProject()
    let screen = try Fixtures.screen(project, paywall: id)
    let text = PaywallRenderer.render(screen, size: try #require(Size(size))).text
    for slot in screen.paywall.slots {
      let product = slot.product
      #expect(text.contains(slot[.price]), "\(product.id) price \(slot[.price]) missing at \(size)")
      if product.subscriptionPeriod != nil {
        #expect(text.contains("\(slot[.price])/\(slot[.period])"), "\(product.id) period missing at \(size)")
      }
      // The card says "free trial" for a free offer only (a paid intro, a trial to the SDK, shows its price).
      if slot.introOffer?.paymentMode == .freeTrial {
        #expect(text.contains("\(slot[.trialPeriodText]) free trial"), "\(product.id) trial missing at \(size)")
      }
    }
  }

  static func serialize(_ frame: Frame) -> String {
    var out = frame.lines.map { "\"\($0)\"" }
    out.append("--- styles (row: start+length style)")
    for row in 0..<frame.height {
      let runs = frame.styleRuns(row: row)
      if runs.count == 1 && runs[0].style == .plain { continue }
      out.append("\(row): " + runs.map { "\($0.start)+\($0.length) \($0.style)" }.joined(separator: ", "))
    }
    return out.joined(separator: "\n") + "\n"
  }

  static func check(_ frame: Frame, name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let url = Fixtures.goldenDirectory.appendingPathComponent("\(name).txt")
    let actual = serialize(frame)
    if ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" {
      try FileManager.default.createDirectory(at: Fixtures.goldenDirectory, withIntermediateDirectories: true)
      try actual.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    if expected != actual {
      let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
      let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
      let first = (0..<min(expectedLines.count, actualLines.count)).first { expectedLines[$0] != actualLines[$0] }
        ?? min(expectedLines.count, actualLines.count)
      let want = first < expectedLines.count ? String(expectedLines[first]) : "<end>"
      let got = first < actualLines.count ? String(actualLines[first]) : "<end>"
      Issue.record("golden \(name) differs at line \(first + 1):\n  expected \(want)\n  actual   \(got)\n(UPDATE_GOLDENS=1 to accept)",
                   sourceLocation: sourceLocation)
    }
  }
}
