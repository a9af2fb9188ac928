import PaywallModel
import TerminalCore

/// Which element has the keyboard focus: the product picker or a button (by component index).
public enum FocusTarget: Sendable, Hashable {
  case products
  case button(Int)
}

/// What a mouse click at a cell means.
public enum HitTarget: Sendable, Hashable {
  case slot(String)
  case button(Int)
}

/// Where one clickable element landed in a frame: a rectangle of cells and what a click there means.
public struct HitRegion: Sendable, Hashable {
  /// The left column.
  public var x: Int
  /// The top row.
  public var y: Int
  /// Columns.
  public var width: Int
  /// Rows.
  public var height: Int
  /// What a click inside means.
  public var target: HitTarget

  /// Whether the cell at column `px`, row `py` is inside.
  public func contains(x px: Int, y py: Int) -> Bool {
    px >= x && px < x + width && py >= y && py < y + height
  }
}

/// Everything a paywall screen shows: the paywall, the selection, the focus and the status line.
public struct PaywallScreenState: Sendable, Hashable {
  /// The paywall with its products, prices already formatted.
  public var paywall: ResolvedPaywall
  /// The slot drawn as selected (its card highlighted, `{{ selected.price }}` in texts).
  public var selectedSlot: String?
  /// The element drawn with the keyboard focus; nil for none.
  public var focus: FocusTarget?
  /// The subscription status as the status bar shows it ("unknown", "active:pro").
  public var statusText: String
  /// Shown at the left of the status bar instead of the paywall's name: what is in progress
  /// ("⠙ Purchasing Annual…") or a notice.
  public var activityText: String?

  /// Opens `paywall` as the SDK does: its default slot selected, the focus on its first purchase
  /// button so Enter alone buys the selected product.
  public init(paywall: ResolvedPaywall, selectedSlot: String? = nil, statusText: String = "unknown") {
    self.paywall = paywall
    let slots = paywall.slots.map(\.slot)
    let wanted = selectedSlot ?? paywall.definition.selectedSlot
    self.selectedSlot = wanted.flatMap { slots.contains($0) ? $0 : nil } ?? slots.first
    self.statusText = statusText
    self.focus = Self.firstPurchaseButton(of: paywall.definition) ?? Self.focusOrder(of: paywall.definition).first
  }

  /// The first button that buys: where the focus starts, and where Enter on the picker goes.
  package static func firstPurchaseButton(of definition: PaywallDefinition) -> FocusTarget? {
    definition.components.indices.first { i in
      if case .button(let button) = definition.components[i], case .purchase = button.action { return true }
      return false
    }.map { .button($0) }
  }

  /// Focusable elements top to bottom: Tab and the arrows walk this list.
  package static func focusOrder(of definition: PaywallDefinition) -> [FocusTarget] {
    definition.components.indices.compactMap { i in
      switch definition.components[i] {
      case .products: .products
      case .button: .button(i)
      default: nil
      }
    }
  }
}

/// A rendered screen: the frame and where each clickable thing landed.
public struct RenderedScreen: Sendable {
  /// What `PaywallRenderer.render` returns.
  public var frame: Frame
  /// The products' cards and the buttons as drawn, for mapping a click to what it hits.
  public var regions: [HitRegion]
}

/// Lays a paywall out into a frame. Pure: the same state and size always give the same frame.
public enum PaywallRenderer {
  /// Below this the screen says to enlarge the terminal instead of drawing a broken paywall.
  public static let minimumSize = Size(width: 30, height: 10)
  package static let maximumContentWidth = 72

  /// The paywall on a screen of `size`, as the interactive mode draws it: the cards roomy or
  /// compact as the height allows, scrolled to keep the focus visible, with the status bar on the
  /// last row. A size below `minimumSize` gives a notice to enlarge the terminal.
  public static func render(_ state: PaywallScreenState, size: Size) -> Frame {
    layout(state, size: size).frame
  }

  /// `render`, and where each card and button landed, for mouse hit-testing.
  public static func layout(_ state: PaywallScreenState, size: Size) -> RenderedScreen {
    layout(state, size: size, minimum: minimumSize)
  }

  /// `layout`, asking to be enlarged below `minimum`. The app checks the whole terminal against
  /// `minimumSize` and draws the paywall in what the log pane leaves (30x7 at 30x10), so the
  /// selected product shows there too rather than a notice over the paywall.
  package static func layout(_ state: PaywallScreenState, size: Size, minimum: Size) -> RenderedScreen {
    var frame = Frame(size: size)
    guard size.width >= minimum.width && size.height >= minimum.height && size.height >= 2 else {
      drawTooSmall(into: &frame)
      return RenderedScreen(frame: frame, regions: [])
    }
    let margin = size.width >= 50 ? 3 : 1
    let contentWidth = min(maximumContentWidth, size.width - 2 * margin)
    let left = (size.width - contentWidth) / 2
    let available = size.height - 1  // the status bar takes the last row
    let builder = BlockBuilder(state: state, width: contentWidth)

    // Roomiest first: cards with blank lines between blocks, then cards packed, then compact rows;
    // then drop decoration (lowest priority first); then a long picker shows the products around
    // the selection (the title and the buttons keep their rows); then scroll so the selected
    // product and the focus stay visible, the title too while there is room.
    var blocks: [Block] = []
    var gap = 0
    var density = Density.roomy
    var roomy: [Block]?  // built once for both of its gaps
    for (candidate, blockGap) in [(Density.roomy, 1), (.roomy, 0), (.compact, 0)] {
      if candidate == .roomy {
        if roomy == nil { roomy = builder.blocks(candidate) }
        blocks = roomy ?? []
      } else {
        blocks = builder.blocks(candidate)
      }
      (density, gap) = (candidate, blockGap)
      if height(of: blocks, gap: blockGap) <= available { break }
    }
    var kept = Array(blocks.indices)
    while height(of: kept.map { blocks[$0] }, gap: gap) > available,
          let drop = kept.filter({ blocks[$0].priority != nil }).min(by: { blocks[$0].priority! < blocks[$1].priority! }) {
      kept.removeAll { $0 == drop }
    }
    var chosen = kept.map { blocks[$0] }
    let excess = height(of: chosen, gap: gap) - available
    if excess > 0, let picker = chosen.filter({ $0.focusTargets == [.products] }).map(\.frame.height).max() {
      let windowed = BlockBuilder(state: state, width: contentWidth, productRows: picker - excess).blocks(density)
      chosen = kept.map { windowed[$0] }
    }

    let total = height(of: chosen, gap: gap)
    var offset = 0  // rows scrolled off the top
    var top = 0
    if total <= available {
      top = total + 2 <= available ? 1 + (available - total - 1) / 3 : (available - total) / 2
    } else {
      if let focusEnd = focusBottom(of: chosen, gap: gap, focus: state.focus) { offset = focusEnd - available }
      if let selected = selectedRows(of: chosen, gap: gap) {
        // The selected product wins over the focus when both cannot show: Enter buys it.
        offset = min(max(offset, selected.upperBound - available), selected.lowerBound)
      }
      offset = min(max(0, offset), total - available)
    }
    var regions: [HitRegion] = []
    var y = top - offset
    for block in chosen {
      frame.draw(block.frame, x: left, y: y)
      for region in block.regions {
        let absolute = HitRegion(x: left + region.x, y: y + region.y, width: region.width, height: region.height, target: region.target)
        if absolute.y >= 0 && absolute.y + absolute.height <= available { regions.append(absolute) }
      }
      y += block.frame.height + gap
    }
    // Clear anything a block drew below the content area, then mark hidden content.
    for row in available..<size.height { frame.fill(" ", x: 0, y: row, count: size.width, style: .plain) }
    if offset > 0 { frame.put("▲", x: size.width - 1, y: 0, style: .muted) }
    if total - offset > available { frame.put("▼", x: size.width - 1, y: available - 1, style: .muted) }
    drawStatusBar(state, into: &frame)
    return RenderedScreen(frame: frame, regions: regions)
  }

  private static func height(of blocks: [Block], gap: Int) -> Int {
    blocks.reduce(0) { $0 + $1.frame.height } + max(0, blocks.count - 1) * gap
  }

  private static func selectedRows(of blocks: [Block], gap: Int) -> Range<Int>? {
    var y = 0
    for block in blocks {
      if let rows = block.selectedRows { return (y + rows.lowerBound)..<(y + rows.upperBound) }
      y += block.frame.height + gap
    }
    return nil
  }

  private static func focusBottom(of blocks: [Block], gap: Int, focus: FocusTarget?) -> Int? {
    var y = 0
    for block in blocks {
      if let focus, block.focusTargets.contains(focus) { return y + block.frame.height }
      y += block.frame.height + gap
    }
    return nil
  }

  package static func drawStatusBar(_ state: PaywallScreenState, into frame: inout Frame) {
    drawStatusBar(left: state.activityText ?? state.paywall.definition.name, status: state.statusText, into: &frame)
  }

  /// The last row: `left` (what is on screen, or what is happening) and the live status.
  package static func drawStatusBar(left: String, status: String, into frame: inout Frame) {
    let row = frame.height - 1
    frame.fill(" ", x: 0, y: row, count: frame.width, style: .statusBar)
    let right = " status: \(status)  ? help "
    let rightWidth = DisplayWidth.of(right)
    let leftRoom = frame.width - rightWidth - 1
    if leftRoom > 4 {
      frame.put(TextLayout.truncate(" " + left, width: leftRoom), x: 0, y: row, style: .statusBar)
    }
    let statusStyle: CellStyle = status.hasPrefix("active") ? .statusActive : .statusBar
    frame.put(TextLayout.truncate(right, width: frame.width), x: max(0, frame.width - rightWidth), y: row, style: statusStyle)
  }

  package static func drawTooSmall(into frame: inout Frame) {
    let message = "Terminal too small: enlarge it to at least \(minimumSize.width)x\(minimumSize.height) (now \(frame.width)x\(frame.height))"
    let lines = TextLayout.wrap(message, width: frame.width)
    let top = max(0, (frame.height - lines.count) / 2)
    for (i, line) in lines.enumerated() where top + i < frame.height {
      let x = max(0, (frame.width - DisplayWidth.of(line)) / 2)
      frame.put(line, x: x, y: top + i, style: .warning)
    }
  }
}

package enum Density {
  case roomy
  case compact
}

/// One component (or a run of buttons) drawn at the content width.
package struct Block {
  package var frame: Frame
  /// Nil for essentials that are never dropped; lower values are dropped first when space is short.
  package var priority: Int?
  package var regions: [HitRegion] = []
  package var focusTargets: [FocusTarget] = []
  /// The selected product's rows, in a picker that shows it.
  package var selectedRows: Range<Int>?
}
