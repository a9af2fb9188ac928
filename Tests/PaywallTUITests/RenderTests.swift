import Foundation
import PaywallModel
import PaywallTesting
import Testing
@testable import TerminalCore
@testable import PaywallUI

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

/// Issue 17 item 6: help, the debug panel and the log in small terminals. Overlays scroll with a
/// "↓ N more" / "↑ N more" marker on their border; the log scrolls and opens full screen.
@Suite("Overlays and the log in small terminals")
struct OverlayScrollTests {
  static func press(_ keys: [Key], _ state: inout AppState) {
    for key in keys { _ = AppModel.update(&state, .key(key)) }
  }

  static func key(_ name: String) throws -> Key { try #require(Key(name: name), "no key named \(name)") }

  /// Whether a row carries a "↓ 12 more" (or "↑") marker.
  static func marked(_ frame: Frame, _ arrow: String) -> Bool {
    frame.lines.contains { $0.range(of: "\(arrow) [0-9]+ more", options: .regularExpression) != nil }
  }

  @Test(arguments: [Size(width: 40, height: 12), Size(width: 50, height: 16)])
  func helpScrollsWithAMarker(size: Size) throws {
    var state = try AppModelTests.opened()
    _ = AppModel.update(&state, .resized(size))
    Self.press([.character("?")], &state)
    let first = AppView.render(state, size: size)
    let last = try #require(KeyMap.helpLines.last).1
    #expect(!first.text.contains(String(last.prefix(12))), "the last help line is below the box at \(size)")
    #expect(Self.marked(first, "↓"), "a marker says there is more:\n\(first.text)")
    Self.press([.down], &state)
    #expect(state.overlay?.helpScroll != nil, "↓ scrolls the help, it does not close it")
    #expect(AppView.render(state, size: size).lines.contains { $0.contains("↑ 1 more") })
    Self.press(Array(repeating: .down, count: 200), &state)
    let end = AppView.render(state, size: size)
    #expect(end.text.contains(String(last.prefix(12))), "scrolled to the end, the last line shows:\n\(end.text)")
    #expect(!Self.marked(end, "↓"), "no marker below at the end:\n\(end.text)")
    #expect(Self.marked(end, "↑"))
    Self.press([try Self.key("home")], &state)
    #expect(AppView.render(state, size: size).text == first.text, "home goes back to the top")
    Self.press([try Self.key("pgdn")], &state)
    #expect(AppView.render(state, size: size).text != first.text, "pgdn scrolls a page")
    Self.press([.escape], &state)
    #expect(state.overlay?.helpScroll == nil)
  }

  @Test func theHelpListsTheScrollAndLogKeys() throws {
    let labels = KeyMap.helpLines.map(\.0).joined(separator: " ")
    #expect(labels.contains("pgup") && labels.contains("L"), "\(labels)")
  }

  /// The notification prompt's keys were only in its own footer; the help lists them too.
  @Test func theHelpListsTheNotificationPromptsKeys() throws {
    #expect(KeyMap.helpLines.contains { $0.0 == "enter  esc" && $0.1.hasPrefix("notification prompt: Allow or Don't Allow") },
            "\(KeyMap.helpLines)")
  }

  @Test(arguments: [Size(width: 40, height: 12), Size(width: 50, height: 16)])
  func theDebugPanelScrollsWithAMarker(size: Size) throws {
    var state = try AppModelTests.opened()
    _ = AppModel.update(&state, .resized(size))
    Self.press([.character("d")], &state)
    let first = AppView.render(state, size: size)
    #expect(!first.text.contains("restorePurchases()"), "the last topic is below the box at \(size)")
    #expect(Self.marked(first, "↓"), "\(first.text)")
    Self.press([try Self.key("end")], &state)
    let end = AppView.render(state, size: size)
    #expect(end.text.contains("restorePurchases()"), "\(end.text)")
    #expect(Self.marked(end, "↑"))
    #expect(state.overlay?.debug != nil)
  }

  /// The log pane puts the telling parameters first: at 80 columns the product id is whole.
  @Test func theLogLinePutsTheProductFirst() throws {
    var state = try AppModelTests.opened()
    Self.press([.enter], &state)
    let line = try #require(state.log.last { $0.hasPrefix("transaction_start") })
    let product = try #require(line.range(of: "product_id="))
    let paywall = try #require(line.range(of: "paywall_id="))
    #expect(product.lowerBound < paywall.lowerBound, "\(line)")
    _ = AppModel.update(&state, .presentation(.purchaseFinished(.purchased)))
    Self.press([.character("l")], &state)
    let text = AppView.render(state, size: Size(width: 80, height: 24)).text
    #expect(text.contains("transaction_start product_id=com.acme.pro.annual"), "\(text)")
  }

  /// The whole order of a log line: the telling parameters in their order, then the rest in the
  /// SDK's order (equal ranks keep it), then the context in its order.
  @Test func theLogLineOrdersEveryParameter() {
    let event = PaywallEvent(.transactionRestore, [("paywall_id", "p"), ("restore_via_purchase_attempt", false), ("product_id", "a"),
                                                   ("slot", "primary"), ("store", "PLAY_STORE"), ("paywall_name", "n")])
    #expect(EventLine.text(event) == "transaction_restore product_id=a restore_via_purchase_attempt=false store=PLAY_STORE slot=primary paywall_id=p paywall_name=n")
    let failed = PaywallEvent(.transactionFail, [("slot", "primary"), ("message", "m"), ("product_id", "a"), ("paywall_id", "p")])
    #expect(EventLine.text(failed) == "transaction_fail product_id=a message=m slot=primary paywall_id=p")
    #expect(EventLine.text(PaywallEvent(.paywallOpen)) == "paywall_open")
  }

  @Test func theLogPaneScrollsWithPageKeys() throws {
    var state = try AppModelTests.opened()
    for i in 1...20 { _ = AppModel.update(&state, .notice("note \(i)")) }
    Self.press([.character("l")], &state)
    let size = Size(width: 80, height: 24)
    let newest = AppView.render(state, size: size)
    #expect(newest.text.contains("! note 20") && !newest.text.contains("! note 10\n"))
    Self.press([try Self.key("pgup")], &state)
    let back = AppView.render(state, size: size)
    #expect(back.text.contains("! note 15"), "\(back.text)")
    #expect(!back.lines[18...22].joined().contains("! note 20"), "the pane's rows: \(back.text)")
    #expect(back.lines.contains { $0.contains("↓ 5 more") }, "\(back.text)")
    #expect(state.session != nil, "pgup scrolled the log, nothing else")
    Self.press([try Self.key("pgdn")], &state)
    #expect(AppView.render(state, size: size).text.contains("! note 20"))
  }

  @Test func theFullScreenLogShowsWholeEventsAndCloses() throws {
    var state = try AppModelTests.opened()
    let long = "a notice long enough to need more than one row of a forty column terminal, ending here: END"
    _ = AppModel.update(&state, .notice(long))
    Self.press([.character("L")], &state)
    let size = Size(width: 40, height: 12)
    let text = AppView.render(state, size: size).text
    #expect(text.contains("END"), "the whole line, wrapped:\n\(text)")
    #expect(text.contains("Event log"), "\(text)")
    #expect(state.session != nil)
    Self.press([.character("q")], &state)
    #expect(state.session != nil, "q closed the log view, not the paywall")
    #expect(!AppView.render(state, size: size).text.contains("Event log"))
  }

  /// The debug panel sits above the log pane, so the events its keys cause stay in sight.
  @Test func theDebugPanelLeavesTheLogsHeader() throws {
    var state = try AppModelTests.opened()
    Self.press([.character("l"), .character("d")], &state)
    let frame = AppView.render(state, size: Size(width: 80, height: 24))
    #expect(frame.lines.contains { $0.contains("events (l hides") }, "\(frame.text)")
    #expect(frame.text.contains("Debug panel (QA)"))
  }
}

@Suite("Polish of the interactive app")
struct PolishRenderTests {
  /// The savings badge is shown whole or not at all: "Save 5…" read as 5%.
  @Test(arguments: [Size(width: 30, height: 10), Size(width: 40, height: 12), Size(width: 34, height: 12)])
  func theBadgeIsNeverCut(size: Size) throws {
    for id in ["onboarding", "plans"] {
      let text = PaywallRenderer.render(try Fixtures.screen(Fixtures.demoProject(), paywall: id), size: size).text
      #expect(!text.contains("Save 5…") && !text.contains("Save …") && !text.contains("Sav…"), "\(id) at \(size):\n\(text)")
    }
  }

  /// The focused product is marked as a focused button is: ▸ … ◂.
  @Test(arguments: [80, 40])
  func theFocusedProductIsMarkedLikeAButton(width: Int) throws {
    var screen = try Fixtures.screen(Fixtures.demoProject(), paywall: "onboarding")
    screen.focus = .products
    let text = PaywallRenderer.render(screen, size: Size(width: width, height: 24)).text
    #expect(text.contains("▸ ● Annual ◂"), "\(text)")
    screen.focus = .button(4)
    #expect(!PaywallRenderer.render(screen, size: Size(width: width, height: 24)).text.contains("▸ ● Annual"))
  }

  /// "onboarding: onboarding declined" said the placement's name twice.
  @Test func theHomeScreenNamesAPlacementAndItsPaywallOnce() throws {
    var state = AppState(project: try Fixtures.demoProject(), status: .inactive, assignments: AssignmentBook(userID: "tester"))
    _ = AppModel.update(&state, .presentation(.register(placement: "onboarding", params: [:])))
    #expect(state.session?.paywall.definition.id == "onboarding")
    _ = AppModel.update(&state, .key(.escape))
    let text = AppView.render(state, size: Size(width: 80, height: 24)).text
    #expect(!text.contains("onboarding: onboarding"), "\(text)")
    #expect(text.contains("onboarding: paywall declined"), "\(text)")
  }
}
