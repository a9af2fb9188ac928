import PaywallModel
import TerminalCore

/// With no paywall up: the home screen. It lists the project's placements (with their gating) to
/// register, and what the last registration did; a project without campaigns offers to show the
/// last paywall again.
///
/// A list longer than the screen scrolls, and the selection always shows (Enter registers what the
/// tester sees), with "↑ N more" above the list and "↓ N more" under it. When rows are short the
/// screen first gives up its blank lines, then the hint, the title (the status bar names the
/// project too), the heading and the outcome's detail, before the list shows fewer than three
/// placements; the outcome's first line goes last.
package enum HomeScreen {
  /// The fewest placements a scrolled list shows while anything else is left to give up.
  package static let fewestShown = 3

  /// The order lines are given up in when rows are short: lowest first.
  private enum Drop: Int, Comparable {
    case blank, hint, title, heading, detail, outcome
    package static func < (a: Drop, b: Drop) -> Bool { a.rawValue < b.rawValue }
  }

  /// A line of text, wrapped and centred, or the blank under the list (the "↓ N more" row when
  /// the list scrolls).
  private struct Line {
    package var rows: [String]
    package var style: CellStyle
    package var drop: Drop
    package var isGapUnderList = false

    package init(_ text: String, _ style: CellStyle, _ drop: Drop, width: Int, isGapUnderList: Bool = false) {
      rows = text.isEmpty ? [""] : TextLayout.wrap(text, width: width)
      self.style = style
      self.drop = drop
      self.isGapUnderList = isGapUnderList
    }
  }

  /// What goes on screen: the lines above and below the list, and which placements show.
  private struct Layout {
    package var head: [Line]
    package var tail: [Line]
    /// The placements shown; nil when the project has none.
    package var window: ScrollWindow?
    /// Whether the list has its marker rows ("↑ N more" over it, "↓ N more" under it).
    package var marked: Bool
  }

  /// The placements the home screen shows in a screen of `size` (the paywall's part of the
  /// terminal); nil without placements. The model pages by its `visible` and keeps its `offset`.
  package static func window(_ state: AppState, size: Size) -> ScrollWindow? {
    layout(state, size: size).window
  }

  private static func layout(_ state: AppState, size: Size) -> Layout {
    let textWidth = size.width - 2
    let placements = state.project.placements
    var head = [Line(state.project.name, .title, .title, width: textWidth), Line("", .plain, .blank, width: textWidth)]
    if let outcome = state.presentation.outcome {
      for (i, line) in AppView.outcomeLines(outcome).enumerated() {
        head.append(Line(line, i == 0 ? .accent : .plain, i == 0 ? .outcome : .detail, width: textWidth))
      }
      head.append(Line("", .plain, .blank, width: textWidth))
    } else if let closed = state.closed {
      let name = state.project.paywall(id: closed.paywallID)?.name ?? closed.paywallID
      head.append(Line("\(name) closed: \(closed.result)", .accent, .outcome, width: textWidth))
      head.append(Line("", .plain, .blank, width: textWidth))
    }
    var tail: [Line] = []
    if placements.isEmpty {
      tail.append(Line("enter: show the paywall again · q: quit · ?: help", .muted, .hint, width: textWidth))
    } else {
      head.append(Line("Placements", .muted, .heading, width: textWidth))
      tail.append(Line("", .plain, .blank, width: textWidth, isGapUnderList: true))
      tail.append(Line("↑↓ choose · enter register · q quit · ? help", .muted, .hint, width: textWidth))
    }

    let room = max(0, size.height - 1)  // the status bar takes the last row
    let count = placements.count
    let selected = min(max(0, state.homeSelection), max(0, count - 1))
    while true {
      let fixed = (head + tail).filter { !$0.isGapUnderList }.reduce(0) { $0 + $1.rows.count }
      let gap = tail.contains { $0.isGapUnderList } ? 1 : 0
      if fixed + gap + count <= room {
        let window = count == 0 ? nil : ScrollWindow(total: count, visible: count, offset: 0)
        return Layout(head: head, tail: tail, window: window, marked: false)
      }
      let visible = room - fixed - 2
      if count > 0 && visible >= min(count, fewestShown) {
        let window = ScrollWindow(total: count, visible: visible, offset: state.homeScroll, showing: selected)
        return Layout(head: head, tail: tail.filter { !$0.isGapUnderList }, window: window, marked: true)
      }
      // Give up the least needed line: the lowest kind, the lowest on screen among equals.
      let lines = head + tail
      guard let least = lines.indices.filter({ !lines[$0].isGapUnderList }).min(by: { lines[$0].drop < lines[$1].drop ||
        (lines[$0].drop == lines[$1].drop && $0 > $1) }) else {
        // Nothing left but the list: the markers while three rows remain, else the selection alone.
        guard count > 0 else { return Layout(head: [], tail: [], window: nil, marked: false) }
        let marked = room >= 3
        let window = ScrollWindow(total: count, visible: marked ? room - 2 : room, offset: state.homeScroll, showing: selected)
        return Layout(head: [], tail: [], window: window, marked: marked)
      }
      if least < head.count { head.remove(at: least) } else { tail.remove(at: least - head.count) }
    }
  }

  package static func render(_ state: AppState, size: Size) -> Frame {
    var frame = Frame(size: size)
    let layout = layout(state, size: size)
    let placements = state.project.placements
    // The list is one left-aligned block, its columns kept (wrapping would collapse the padding),
    // cut to the width if it must be, and placed for its widest row so scrolling never moves it.
    let numberWidth = String(placements.count).count
    let nameWidth = placements.map { DisplayWidth.of($0) }.max() ?? 0
    let selected = min(max(0, state.homeSelection), max(0, placements.count - 1))
    let listRows = placements.enumerated().map { i, placement -> String in
      let gating = state.project.gating(of: placement) ?? "holdout"
      let number = String(i + 1)
      let name = placement + String(repeating: " ", count: nameWidth - DisplayWidth.of(placement))
      return "\(i == selected ? "▸" : " ") \(String(repeating: " ", count: numberWidth - number.count))\(number) \(name)  \(gating)"
    }
    let listWidth = listRows.map { DisplayWidth.of($0) }.max() ?? 0
    let listX = max(1, (size.width - listWidth) / 2)

    var rows: [(text: String, style: CellStyle, x: Int?)] = []
    for line in layout.head { rows += line.rows.map { ($0, line.style, nil) } }
    if let window = layout.window {
      let markX = listX + 2
      if layout.marked { rows.append((window.aboveMark ?? "", .accent, markX)) }
      for i in window.rows {
        rows.append((TextLayout.truncate(listRows[i], width: size.width - listX - 1), i == selected ? .selected : .plain, listX))
      }
      if layout.marked { rows.append((window.belowMark ?? "", .accent, markX)) }
    }
    for line in layout.tail { rows += line.rows.map { ($0, line.style, nil) } }

    let room = max(0, size.height - 1)
    let top = max(0, (room - rows.count) / 2)
    for (i, (text, style, x)) in rows.enumerated() where top + i < room {
      frame.put(text, x: x ?? (size.width - DisplayWidth.of(text)) / 2, y: top + i, style: style)
    }
    PaywallRenderer.drawStatusBar(left: state.notice.map { "! \($0)" } ?? state.project.name, status: state.status.description,
                                  into: &frame)
    return frame
  }
}
