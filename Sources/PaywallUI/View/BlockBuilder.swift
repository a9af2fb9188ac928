import PaywallModel
import TerminalCore

/// Turns a paywall's components into blocks at one content width and density.
package struct BlockBuilder {
  package let state: PaywallScreenState
  package let width: Int
  /// The most rows a picker drawn as rows may take; nil: as many as its products need. A longer
  /// picker shows the products around the selected one between a "↑ N more" and a "↓ N more" row.
  package var productRows: Int? = nil

  private var paywall: ResolvedPaywall { state.paywall }

  package func blocks(_ density: Density) -> [Block] {
    var blocks: [Block] = []
    let components = paywall.definition.components
    var index = 0
    while index < components.count {
      switch components[index] {
      case .title(let content):
        blocks.append(centered(paywall.string(content, selected: state.selectedSlot), style: .title, priority: nil))
      case .text(let content, let style):
        let cellStyle: CellStyle = switch style {
        case .body: .plain
        case .muted: .muted
        case .accent: .accent
        }
        blocks.append(centered(paywall.string(content, selected: state.selectedSlot), style: cellStyle, priority: style == .muted ? 40 : 50))
      case .features(let title, let items):
        blocks.append(features(title: title, items: items))
      case .products(let picker):
        blocks.append(products(picker, density: density))
      case .button:
        // A run of buttons is one block so a compact layout can put them on one row.
        var run: [Int] = []
        while index < components.count, case .button = components[index] {
          run.append(index)
          index += 1
        }
        blocks.append(buttons(run, density: density))
        continue
      case .divider:
        var frame = Frame(width: width, height: 1)
        frame.fill("─", x: 0, y: 0, count: width, style: .border)
        blocks.append(Block(frame: frame, priority: 20))
      case .spacer(let lines):
        blocks.append(Block(frame: Frame(width: width, height: lines), priority: 10))
      case .art(let lines):
        blocks.append(art(lines))
      }
      index += 1
    }
    return blocks
  }

  // MARK: - Text

  private func centered(_ text: String, style: CellStyle, priority: Int?) -> Block {
    let lines = TextLayout.wrap(text, width: width)
    var frame = Frame(width: width, height: lines.count)
    for (row, line) in lines.enumerated() {
      frame.put(line, x: (width - DisplayWidth.of(line)) / 2, y: row, style: style)
    }
    return Block(frame: frame, priority: priority)
  }

  private func features(title: TextContent?, items: [TextContent]) -> Block {
    var lines: [(String, CellStyle, Bool)] = []  // text, style, is a continuation line
    if let title {
      for line in TextLayout.wrap(paywall.string(title, selected: state.selectedSlot), width: width) {
        lines.append((line, .title, false))
      }
    }
    for item in items {
      let wrapped = TextLayout.wrap(paywall.string(item, selected: state.selectedSlot), width: max(1, width - 2))
      for (i, line) in wrapped.enumerated() {
        lines.append((line, .plain, i > 0))
      }
    }
    // The list is left-aligned inside itself and centred as a whole, as paywalls show it.
    let itemsWidth = lines.map { DisplayWidth.of($0.0) + 2 }.max() ?? 0
    let left = max(0, (width - itemsWidth) / 2)
    var frame = Frame(width: width, height: lines.count)
    for (row, (text, style, continuation)) in lines.enumerated() {
      if style == .title {
        frame.put(text, x: (width - DisplayWidth.of(text)) / 2, y: row, style: .title)
        continue
      }
      if !continuation { frame.put("✓", x: left, y: row, style: .accent) }
      frame.put(text, x: left + 2, y: row, style: .plain)
    }
    return Block(frame: frame, priority: 30)
  }

  private func art(_ lines: [String]) -> Block {
    let artWidth = min(width, lines.map { DisplayWidth.of($0) }.max() ?? 0)
    let left = (width - artWidth) / 2
    var frame = Frame(width: width, height: lines.count)
    for (row, line) in lines.enumerated() {
      frame.put(line, x: left, y: row, style: .accent, limit: artWidth)
    }
    return Block(frame: frame, priority: 0)
  }

  // MARK: - Buttons

  private func buttonLabel(_ index: Int) -> (String, Bool) {
    guard case .button(let button) = paywall.definition.components[index] else { return ("", false) }
    let label = paywall.string(button.label, selected: state.selectedSlot)
    let focused = state.focus == .button(index)
    return (focused ? "▸ \(label) ◂" : "  \(label)  ", focused)
  }

  private func buttons(_ indices: [Int], density: Density) -> Block {
    let labels = indices.map { buttonLabel($0) }
    let inlineWidth = labels.reduce(0) { $0 + DisplayWidth.of($1.0) } + 2 * max(0, labels.count - 1)
    let targets = indices.map { FocusTarget.button($0) }
    if density == .compact && inlineWidth <= width {
      var frame = Frame(width: width, height: 1)
      var regions: [HitRegion] = []
      var x = (width - inlineWidth) / 2
      for (i, (label, focused)) in labels.enumerated() {
        let used = frame.put(label, x: x, y: 0, style: focused ? .focusedButton : .button)
        regions.append(HitRegion(x: x, y: 0, width: used, height: 1, target: .button(indices[i])))
        x += used + 2
      }
      return Block(frame: frame, priority: nil, regions: regions, focusTargets: targets)
    }
    var frame = Frame(width: width, height: labels.count)
    var regions: [HitRegion] = []
    for (row, (label, focused)) in labels.enumerated() {
      let text = TextLayout.truncate(label, width: width)
      let textWidth = DisplayWidth.of(text)
      let x = (width - textWidth) / 2
      frame.put(text, x: x, y: row, style: focused ? .focusedButton : .button)
      regions.append(HitRegion(x: x, y: row, width: textWidth, height: 1, target: .button(indices[row])))
    }
    return Block(frame: frame, priority: nil, regions: regions, focusTargets: targets)
  }

  // MARK: - Products

  private func products(_ picker: ProductPicker, density: Density) -> Block {
    let shown = (picker.slots ?? paywall.slots.map(\.slot)).compactMap { paywall.slot(named: $0) }
    let badges = badges(for: shown, picker: picker)
    let gap = 2
    let cardWidth = shown.isEmpty ? 0 : (width - gap * (shown.count - 1)) / shown.count
    if density == .roomy && cardWidth >= ProductCard.minimumWidth {
      var frame = Frame(width: width, height: ProductCard.height)
      var regions: [HitRegion] = []
      let used = cardWidth * shown.count + gap * (shown.count - 1)
      var x = (width - used) / 2
      for product in shown {
        let card = ProductCard(product: product, badge: badges[product.slot], selected: product.slot == state.selectedSlot,
                               focused: state.focus == .products && product.slot == state.selectedSlot)
        frame.draw(card.draw(width: cardWidth), x: x, y: 0)
        regions.append(HitRegion(x: x, y: 0, width: cardWidth, height: ProductCard.height, target: .slot(product.slot)))
        x += cardWidth + gap
      }
      let selectedRows = shown.contains { $0.slot == state.selectedSlot } ? 0..<ProductCard.height : nil
      return Block(frame: frame, priority: nil, regions: regions, focusTargets: [.products], selectedRows: selectedRows)
    }
    let rows = shown.map { product in
      ProductCard(product: product, badge: badges[product.slot], selected: product.slot == state.selectedSlot,
                  focused: state.focus == .products && product.slot == state.selectedSlot).drawRow(width: width)
    }
    let selected = shown.firstIndex { $0.slot == state.selectedSlot }
    let needed = rows.reduce(0) { $0 + $1.height }
    // Too long for its rows: a window around the selection, and a marker row above and below it.
    var drawn = rows.indices
    var height = needed
    var marked = false
    if let limit = productRows, needed > limit, !rows.isEmpty {
      let anchor = selected ?? 0
      let room = max(limit - 2, rows[anchor].height)
      drawn = Self.window(heights: rows.map(\.height), around: anchor, room: room)
      height = room + 2
      marked = true
    }
    var frame = Frame(width: width, height: height)
    var regions: [HitRegion] = []
    var selectedRows: Range<Int>?
    var y = marked ? 1 : 0
    for i in drawn {
      frame.draw(rows[i], x: 0, y: y)
      regions.append(HitRegion(x: 0, y: y, width: width, height: rows[i].height, target: .slot(shown[i].slot)))
      if i == selected { selectedRows = y..<(y + rows[i].height) }
      y += rows[i].height
    }
    if marked {
      let above = ScrollWindow.mark(above: drawn.lowerBound), below = ScrollWindow.mark(below: rows.count - drawn.upperBound)
      if let above { frame.put(above, x: 2, y: 0, style: .accent) }
      if let below { frame.put(below, x: 2, y: height - 1, style: .accent) }
    }
    return Block(frame: frame, priority: nil, regions: regions, focusTargets: [.products], selectedRows: selectedRows)
  }

  /// The products around `selected` whose rows fit in `room`: as many above it as below where the
  /// list allows, so the selection sits mid-window and reaches an edge only at the list's ends.
  package static func window(heights: [Int], around selected: Int, room: Int) -> Range<Int> {
    var (low, high, used) = (selected, selected + 1, heights[selected])
    while true {
      let up = low > 0 && used + heights[low - 1] <= room
      let down = high < heights.count && used + heights[high] <= room
      if up && (!down || selected - low <= high - 1 - selected) {
        low -= 1
        used += heights[low]
      } else if down {
        used += heights[high]
        high += 1
      } else {
        return low..<high
      }
    }
  }

  /// Badges the paywall names, plus "Save N%" on the best-value card that has none.
  private func badges(for shown: [SlotProduct], picker: ProductPicker) -> [String: String] {
    var badges = picker.badges
    guard picker.showsSavings else { return badges }
    let savings = paywall.savingsPercent.filter { slot, _ in shown.contains { $0.slot == slot } }
    if let best = savings.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), badges[best.key] == nil {
      badges[best.key] = "Save \(best.value)%"
    }
    return badges
  }
}
