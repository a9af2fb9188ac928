import Foundation
import PaywallModel
import Testing
@testable import PaywallTUI

@Suite("Rendering")
struct RenderTests {
  @Test func cardsSitSideBySideWhenWideAndStackWhenNarrow() throws {
    let screen = try Fixtures.screen(Fixtures.demoProject(), paywall: "onboarding")
    let wide = PaywallRenderer.render(screen, size: Size(width: 80, height: 24))
    let cardRow = try #require(wide.lines.first { $0.contains("Annual") })
    #expect(cardRow.contains("Monthly") && cardRow.contains("Lifetime"), "cards side by side: \(cardRow)")
    let narrow = PaywallRenderer.render(screen, size: Size(width: 40, height: 24))
    let rows = narrow.lines.filter { $0.contains("Annual") || $0.contains("Monthly") || $0.contains("Lifetime") }
    #expect(rows.count == 3, "one row per product when narrow: \(rows)")
    #expect(!narrow.text.contains("╭"))
  }

  @Test func selectedCardIsMarked() throws {
    let project = try Fixtures.demoProject()
    let text = PaywallRenderer.render(try Fixtures.screen(project, paywall: "onboarding", select: "secondary"),
                                      size: Size(width: 80, height: 24)).text
    #expect(text.contains("● Monthly"))
    #expect(text.contains("○ Annual"))
    // The selected card's name is highlighted; the borders stay the same for every card.
    let frame = PaywallRenderer.render(try Fixtures.screen(project, paywall: "onboarding", select: "secondary"),
                                       size: Size(width: 80, height: 24))
    let row = try #require(frame.lines.firstIndex { $0.contains("● Monthly") })
    #expect(frame.lines[row].contains("│ ● Monthly"))
    #expect(frame.styleRuns(row: row).contains { $0.style == .selected && $0.length == "● Monthly".count })
  }

  @Test func templatesFollowTheSelection() throws {
    let project = try Fixtures.demoProject()
    let text = PaywallRenderer.render(try Fixtures.screen(project, paywall: "plans", select: "primary"),
                                      size: Size(width: 80, height: 24)).text
    #expect(text.contains("Subscribe for $4.99/week"))
  }

  @Test func focusStartsOnTheFirstPurchaseButton() throws {
    let screen = try Fixtures.screen(Fixtures.demoProject(), paywall: "onboarding")
    #expect(screen.focus == .button(4))
    let frame = PaywallRenderer.render(screen, size: Size(width: 80, height: 24))
    let row = try #require(frame.lines.firstIndex { $0.contains("Start my free trial") })
    #expect(frame.lines[row].contains("▸ Start my free trial ◂"))
    #expect(frame.styleRuns(row: row).contains { $0.style == .focusedButton })
  }

  @Test func badgeShowsSavingsFromUnitPrices() throws {
    let text = PaywallRenderer.render(try Fixtures.screen(Fixtures.demoProject(), paywall: "onboarding"),
                                      size: Size(width: 80, height: 24)).text
    // $59.99/year is $4.99/month against $9.99/month: 50% saved.
    #expect(text.contains("Save 50%"))
  }

  @Test func namedBadgeReplacesTheComputedOne() throws {
    let text = PaywallRenderer.render(try Fixtures.screen(Fixtures.demoProject(), paywall: "winback"),
                                      size: Size(width: 80, height: 24)).text
    #expect(text.contains("50% off"))
    #expect(!text.contains("Save "))
  }

  @Test func tooSmallTerminalSaysHowBigItMustBe() {
    var frame = Frame(width: 20, height: 6)
    PaywallRenderer.drawTooSmall(into: &frame)
    #expect(frame.text.contains("30x10"))
    #expect(frame.text.contains("enlarge"))
  }

  @Test func tinyTerminalStillRendersTheMessage() throws {
    let screen = try Fixtures.screen(Fixtures.demoProject(), paywall: "onboarding")
    let frame = PaywallRenderer.render(screen, size: Size(width: 20, height: 6))
    #expect(frame.text.contains("too small"))
    #expect(frame.width == 20 && frame.height == 6)
  }

  @Test func scrollsToKeepTheFocusedButtonVisible() throws {
    let screen = try Fixtures.screen(Fixtures.demoProject(), paywall: "onboarding")
    let frame = PaywallRenderer.render(screen, size: Size(width: 30, height: 10))
    #expect(frame.text.contains("▸ Start my free trial ◂"))
    #expect(frame.text.contains("status"))
  }

  @Test func hitRegionsCoverCardsAndButtons() throws {
    let screen = try Fixtures.screen(Fixtures.demoProject(), paywall: "onboarding")
    let rendered = PaywallRenderer.layout(screen, size: Size(width: 80, height: 24))
    let targets = Set(rendered.regions.map(\.target))
    #expect(targets == [.slot("primary"), .slot("secondary"), .slot("tertiary"), .button(4), .button(5), .button(6)])
    let monthly = try #require(rendered.regions.first { $0.target == .slot("secondary") })
    #expect(rendered.frame.lines[monthly.y + 1].contains("Monthly"))
  }

  @Test func statusBarShowsTheStatus() throws {
    var screen = try Fixtures.screen(Fixtures.demoProject(), paywall: "onboarding")
    screen.statusText = "active: pro"
    let frame = PaywallRenderer.render(screen, size: Size(width: 80, height: 24))
    #expect(frame.lines[23].contains("status: active: pro"))
    #expect(frame.lines[23].hasPrefix(" Onboarding"))
  }

  /// Escape sequences in paywall copy never reach the frame: ESC, BEL, CSI (U+009B) and the
  /// right-to-left override are removed when the JSON is decoded.
  @Test func controlSequencesInCopyNeverReachTheFrame() throws {
    let paywall = #"""
      {"id": "evil", "name": "Evil\u009b2J", "products": {"primary": "com.acme.pro.annual"},
       "components": [
         {"type": "title", "text": "Pro\u001b]0;pwned\u0007 now\u001b[2J \u202eevil"},
         {"type": "products"},
         {"type": "button", "label": "Buy\u0007", "action": "purchase"}]}
      """#
    let dir = try Fixtures.directory(["catalog.json": acmeCatalogJSON, "evil.json": paywall])
    let result = ProjectLoader.load(path: dir + "/evil.json")
    let project = try #require(result.project, "\(result.diagnostics)")
    let screen = try Fixtures.screen(project, paywall: "evil")
    let frame = PaywallRenderer.render(screen, size: Size(width: 80, height: 24))
    let scalars = Array(frame.text.unicodeScalars).filter { $0 != "\n" }
    #expect(!scalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
    #expect(frame.text.contains("Pro]0;pwned now[2J evil"))
    let ansi = FrameText.ansi(frame)
    #expect(ansi.components(separatedBy: "\u{1B}").dropFirst().allSatisfy { $0.hasPrefix("[0") },
            "every ESC in ANSI output starts one of our own SGR sequences")
  }

  static let storekit = #"""
    {
      "identifier" : "A1B2C3D4",
      "nonRenewingSubscriptions" : [ ],
      "products" : [ ],
      "settings" : { "_locale" : "en_US", "_storefront" : "USA", "_timeRate" : 0 },
      "subscriptionGroups" : [
        {
          "id" : "20000001", "localizations" : [ ], "name" : "Premium",
          "subscriptions" : [
            { "adHocOffers" : [ ], "codeOffers" : [ ], "displayPrice" : "4.99", "familyShareable" : false,
              "groupNumber" : 2, "internalID" : "1", "localizations" : [ { "description" : "", "displayName" : "Monthly", "locale" : "en_US" } ],
              "productID" : "com.example.monthly", "recurringSubscriptionPeriod" : "P1M", "referenceName" : "Monthly",
              "subscriptionGroupID" : "20000001", "type" : "RecurringSubscription" },
            { "adHocOffers" : [ ], "codeOffers" : [ ], "displayPrice" : "29.99", "familyShareable" : false,
              "groupNumber" : 1, "internalID" : "2", "localizations" : [ { "description" : "", "displayName" : "Yearly", "locale" : "en_US" } ],
              "productID" : "com.example.yearly", "recurringSubscriptionPeriod" : "P1Y", "referenceName" : "Yearly",
              "subscriptionGroupID" : "20000001", "type" : "RecurringSubscription" }
          ]
        }
      ],
      "version" : { "major" : 3, "minor" : 0 }
    }
    """#

  static let storekitPaywall = #"""
    {"id": "sk", "name": "StoreKit", "products": {"primary": "com.example.monthly"},
     "components": [{"type": "title", "text": "Go Premium"}, {"type": "products"},
                    {"type": "button", "label": "Buy {{ primary.price }}", "action": "purchase"}]}
    """#

  @Test func storekitPricesRenderAndOverridesReplaceThem() throws {
    let dir = try Fixtures.directory(["Products.storekit": Self.storekit, "paywall.json": Self.storekitPaywall])
    let result = ProjectLoader.load(path: dir + "/paywall.json", catalogPath: dir + "/Products.storekit")
    let project = try #require(result.project, "\(result.diagnostics)")
    let plain = PaywallRenderer.render(try Fixtures.screen(project, paywall: "sk"), size: Size(width: 80, height: 24)).text
    #expect(plain.contains("$4.99/month"))
    #expect(plain.contains("Buy $4.99"))
    #expect(!plain.contains("$29.99"))
    let overridden = try Fixtures.screen(project, paywall: "sk",
                                         overrides: [SlotOverride(slot: "primary", productID: "com.example.yearly")])
    let text = PaywallRenderer.render(overridden, size: Size(width: 80, height: 24)).text
    #expect(text.contains("$29.99/year"))
    #expect(text.contains("Buy $29.99"))
    #expect(!text.contains("$4.99/month"))
  }
}
