import Foundation
import PaywallModel
import PaywallTesting
import Testing
@testable import TerminalCore
@testable import PaywallUI

/// Lists longer than the screen: the home screen's placements and a paywall's products scroll so
/// the selection always shows, with "↑ N more" / "↓ N more" saying how many are out of sight.
@Suite("Long lists scroll to the selection")
struct ScrollingListTests {
  // MARK: - Fixtures

  /// A project whose paywall `many` offers `count` products ("Plan 01"…), each a monthly plan at
  /// its own price.
  static func manyProductsProject(_ count: Int) throws -> Project {
    let ids = (1...count).map { String(format: "%02d", $0) }
    let products = (1...count).map { i in
      #"{"id": "com.acme.plan\#(ids[i - 1])", "name": "Plan \#(ids[i - 1])", "price": "\#(i).99", "period": "P1M", "entitlements": ["pro"]}"#
    }
    let slots = ids.map { #""s\#($0)": "com.acme.plan\#($0)""# }
    let paywall = #"""
      {"id": "many", "name": "Many plans", "products": {\#(slots.joined(separator: ", "))},
       "components": [{"type": "title", "text": "Pick one of many"}, {"type": "text", "text": "Every plan, every feature."},
                      {"type": "products"},
                      {"type": "button", "label": "Buy {{ products.selected.price }}", "action": "purchase"},
                      {"type": "button", "label": "Not now", "action": "close"}]}
      """#
    let directory = try Fixtures.directory(["catalog.json": #"{"products": [\#(products.joined(separator: ", "))]}"#,
                                            "many.json": paywall])
    let result = ProjectLoader.load(path: directory + "/many.json")
    return try #require(result.project, "\(result.diagnostics)")
  }

  static func manyProductsScreen(_ count: Int, selected: Int) throws -> PaywallScreenState {
    try Fixtures.screen(manyProductsProject(count), paywall: "many", select: "s" + String(format: "%02d", selected))
  }

  /// The numbers after "↑ " and "↓ " in "↑ N more" / "↓ N more" on screen (nil: no such marker).
  static func marker(_ arrow: String, in text: String) -> Int? {
    guard let range = text.range(of: "\(arrow) [0-9]+ more", options: .regularExpression) else { return nil }
    return Int(text[range].dropFirst(2).prefix { $0.isNumber })
  }

  static func press(_ keys: [Key], _ state: inout AppState) {
    for key in keys { _ = AppModel.update(&state, .key(key)) }
  }

  // MARK: - The home screen

  /// Walks 40 placements down and back up at 80x12 (the list is 5 rows): at every step the
  /// selected placement is on screen, and the markers count exactly the placements not shown.
  @Test(arguments: [Size(width: 80, height: 12), Size(width: 40, height: 10), Size(width: 30, height: 16)])
  func theHomeListFollowsTheSelectionAndCountsWhatIsHidden(size: Size) throws {
    let count = 40
    var state = AppState(project: try Fixtures.manyPlacementsProject(count).project, status: .inactive)
    _ = AppModel.update(&state, .resized(size))
    for step in 0...(2 * (count - 1)) {
      let selected = step < count ? step : 2 * (count - 1) - step
      let text = AppView.render(state, size: size).text
      let shown = (1...count).filter { text.contains(" \(Fixtures.placementName($0, of: count)) ") || text.contains(" \(Fixtures.placementName($0, of: count))…") }
      let first = try #require(shown.first, "no placement on screen:\n\(text)")
      let last = try #require(shown.last)
      #expect(text.contains("▸ \(String(format: "%2d", selected + 1)) \(Fixtures.placementName(selected + 1, of: count))"),
              "step \(step): placement \(selected + 1) is not on screen at \(size):\n\(text)")
      #expect(Self.marker("↑", in: text) == (first > 1 ? first - 1 : nil), "step \(step) at \(size):\n\(text)")
      #expect(Self.marker("↓", in: text) == (last < count ? count - last : nil), "step \(step) at \(size):\n\(text)")
      Self.press([step < count - 1 ? .down : .up], &state)
    }
  }

  /// Enter registers the placement on screen, not one scrolled out of sight.
  @Test func enterRegistersTheLastPlacementThatIsOnScreen() throws {
    var state = AppState(project: try Fixtures.manyPlacementsProject(40).project, status: .inactive)
    _ = AppModel.update(&state, .resized(Size(width: 80, height: 12)))
    Self.press(Array(repeating: .down, count: 39), &state)
    #expect(AppView.render(state, size: Size(width: 80, height: 12)).text.contains("▸ 40 place_40"))
    let effects = AppModel.update(&state, .key(.enter))
    #expect(RegistrationTests.events(effects).contains("trigger_fire"))
    let text = AppView.render(state, size: Size(width: 80, height: 12)).text
    #expect(text.contains("place_40: skipped (holdout)"), "\(text)")
    #expect(text.contains("▸ 40 place_40"), "the selection still shows under the outcome:\n\(text)")
  }

  /// The list moves only when the selection passes its edge: ↑ inside it scrolls nothing.
  @Test func theListMovesOnlyAsFarAsItMust() throws {
    var state = AppState(project: try Fixtures.manyPlacementsProject(40).project)
    let size = Size(width: 80, height: 12)
    _ = AppModel.update(&state, .resized(size))
    Self.press(Array(repeating: .down, count: 20), &state)
    let before = try #require(Self.marker("↑", in: AppView.render(state, size: size).text))
    Self.press([.up], &state)
    #expect(Self.marker("↑", in: AppView.render(state, size: size).text) == before, "one row up inside the list scrolls nothing")
  }

  /// pgdn and pgup move the selection a list's page, end and home to the last and the first; with
  /// the log pane shown they scroll the pane, as over a paywall.
  @Test func pageKeysMoveThroughTheList() throws {
    var state = AppState(project: try Fixtures.manyPlacementsProject(40).project)
    let size = Size(width: 80, height: 12)
    _ = AppModel.update(&state, .resized(size))
    let page = try #require(HomeScreen.window(state, size: size)).visible
    #expect(page >= 3 && page < 40)
    Self.press([.pageDown], &state)
    #expect(state.homeSelection == page)
    Self.press([.pageDown, .pageUp], &state)
    #expect(state.homeSelection == page)
    Self.press([.end], &state)
    #expect(state.homeSelection == 39)
    #expect(AppView.render(state, size: size).text.contains("▸ 40 place_40"))
    Self.press([.pageDown], &state)
    #expect(state.homeSelection == 39, "no wrap past the end")
    Self.press([.home], &state)
    #expect(state.homeSelection == 0)
    #expect(Self.marker("↑", in: AppView.render(state, size: size).text) == nil)
    Self.press([.character("l"), .pageDown], &state)
    #expect(state.homeSelection == 0, "the log pane takes the page keys when it shows")
    #expect(KeyMap.helpLines.contains { $0.0 == "pgup pgdn home end" && $0.1.contains("home screen") })
  }

  /// After a registration the outcome takes rows: the list shrinks (blank lines go first) and the
  /// selection still shows, at the smallest terminal the app draws in, with the log pane open.
  @Test func theSelectionShowsUnderAnOutcomeInTheSmallestTerminal() throws {
    var state = AppState(project: try Fixtures.manyPlacementsProject(40).project, status: .inactive)
    let size = PaywallRenderer.minimumSize
    _ = AppModel.update(&state, .resized(size))
    // ↑ from the first wraps to the last: 40, 39, 38, 37.
    Self.press([.character("l")] + Array(repeating: .up, count: 4) + [.enter], &state)
    let text = AppView.render(state, size: size).text
    #expect(text.contains("place_37: skipped"), "\(text)")
    #expect(text.contains("▸ 37 place_37"), "\(text)")
    #expect(Self.marker("↑", in: text) == 36 && Self.marker("↓", in: text) == 1, "\(text)")
  }

  /// Every size from 1x1 up, the home screen alone and the whole app, whatever scroll the model
  /// last kept: nothing traps, and wherever a row is left for the list the selection is on it.
  @Test(arguments: [(0, 39), (17, 0), (17, 39), (39, 0)])
  func everySizeDrawsTheHomeScreenAndItsSelection(selected: Int, scroll: Int) throws {
    let project = try Fixtures.manyPlacementsProject(40).project
    for width in 1...44 {
      for height in 1...14 {
        var state = AppState(project: project)
        let size = Size(width: width, height: height)
        _ = AppModel.update(&state, .resized(size))
        state.homeSelection = selected
        state.homeScroll = scroll
        let app = AppView.render(state, size: size)
        #expect(app.width == width && app.height == height)
        let home = HomeScreen.render(state, size: size)
        if height >= 2 && width >= 16 {
          #expect(home.text.contains("▸ \(String(format: "%2d", selected + 1))"), "\(size) selection \(selected + 1):\n\(home.text)")
        }
        if width >= PaywallRenderer.minimumSize.width && height >= PaywallRenderer.minimumSize.height {
          #expect(app.text.contains("▸ \(String(format: "%2d", selected + 1))"), "\(size) selection \(selected + 1):\n\(app.text)")
        }
      }
    }
  }

  // MARK: - A paywall's products

  /// Each of 30 products selected in turn: its row is on screen, the title too where there is
  /// room, and the markers count exactly the products out of sight above and below.
  @Test(arguments: [Size(width: 80, height: 24), Size(width: 40, height: 12), Size(width: 30, height: 10)])
  func theSelectedProductAndTheTitleShowWithTheHiddenCounted(size: Size) throws {
    let count = 30
    for selected in 1...count {
      let screen = try Self.manyProductsScreen(count, selected: selected)
      let frame = PaywallRenderer.render(screen, size: size)
      let text = frame.text
      let name = String(format: "Plan %02d", selected)
      #expect(text.contains("● \(name)"), "product \(selected) is not on screen at \(size):\n\(text)")
      #expect(text.contains("Pick one of many"), "the title at \(size):\n\(text)")
      #expect(text.contains("▸ Buy $\(selected).99 ◂"), "the focused button at \(size):\n\(text)")
      let shown = (1...count).filter { text.contains(String(format: "Plan %02d", $0)) }
      let first = try #require(shown.first)
      let last = try #require(shown.last)
      #expect(shown == Array(first...last), "one run of products: \(shown)")
      #expect(Self.marker("↑", in: text) == (first > 1 ? first - 1 : nil), "product \(selected) at \(size):\n\(text)")
      #expect(Self.marker("↓", in: text) == (last < count ? count - last : nil), "product \(selected) at \(size):\n\(text)")
    }
  }

  /// → walks the products in the running app (the log pane open, as a tester has it): at each
  /// step the selection is drawn, and a click on a product row that shows selects that product.
  @Test func arrowsWalkTheProductsAndClicksHitTheRowsShown() throws {
    var state = AppState(project: try Self.manyProductsProject(30))
    let size = Size(width: 40, height: 16)
    _ = AppModel.update(&state, .resized(size))
    _ = AppModel.update(&state, .presentation(.open(paywallID: "many", selected: nil)))
    Self.press([.character("l")], &state)
    for selected in 1...30 {
      #expect(state.session?.selectedSlot == "s" + String(format: "%02d", selected))
      let text = AppView.render(state, size: size).text
      #expect(text.contains(String(format: "● Plan %02d", selected)), "\(text)")
      Self.press([.right], &state)
    }
    let session = try #require(state.session)
    let regions = PaywallRenderer.layout(AppView.screen(state, session), size: AppView.paywallSize(state)).regions
    let frame = AppView.render(state, size: size)
    let slots = regions.compactMap { region -> (region: HitRegion, slot: String)? in
      if case .slot(let slot) = region.target, slot != "s30" { (region, slot) } else { nil }
    }
    let (other, slot) = try #require(slots.first, "another product's row is on screen")
    #expect(frame.lines[other.y].contains("Plan " + slot.dropFirst()), "the region lies on its product's row")
    _ = AppModel.update(&state, .key(.click(x: other.x + 1, y: other.y)))
    #expect(state.session?.selectedSlot == slot)
  }

  /// Every size from 1x1 up with the product list selected anywhere: nothing traps, and the
  /// paywall, once drawn, shows the selected product.
  /// The app too (10x4 among them), with the log pane shown and hidden: the paywall then gets
  /// what the pane leaves, down to 30x7.
  @Test func everySizeDrawsThePaywallAndItsSelection() throws {
    let project = try Self.manyProductsProject(30)
    for selected in [1, 15, 30] {
      let slot = "s" + String(format: "%02d", selected)
      let screen = try Fixtures.screen(project, paywall: "many", select: slot)
      for width in [1, 2, 5, 9, 10, 16, 20, 29, 30, 31, 37, 44] {
        for height in 1...14 {
          let size = Size(width: width, height: height)
          let drawn = size.width >= PaywallRenderer.minimumSize.width && size.height >= PaywallRenderer.minimumSize.height
          let frame = PaywallRenderer.render(screen, size: size)
          #expect(frame.width == width && frame.height == height)
          if drawn { #expect(frame.text.contains("● Plan " + slot.dropFirst()), "\(size):\n\(frame.text)") }
          // What the app draws in the part of the terminal the log pane leaves: any height from 2.
          let area = AppView.paywallLayout(screen, size: size).frame
          #expect(area.width == width && area.height == height)
          if width >= 30 && height >= 2 { #expect(area.text.contains("● Plan " + slot.dropFirst()), "\(size):\n\(area.text)") }
          for log in [false, true] {
            var state = AppState(project: project)
            _ = AppModel.update(&state, .resized(size))
            _ = AppModel.update(&state, .presentation(.open(paywallID: "many", selected: slot)))
            state.showsLog = log
            let app = AppView.render(state, size: size)
            #expect(app.width == width && app.height == height)
            if drawn { #expect(app.text.contains("● Plan " + slot.dropFirst()), "\(size), log \(log):\n\(app.text)") }
          }
        }
      }
    }
  }
}
