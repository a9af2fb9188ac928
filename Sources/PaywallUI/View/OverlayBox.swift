import TerminalCore
/// Modal boxes drawn over a screen: alerts, the ask dialog, help, the debug panel.
package enum OverlayBox {
  package typealias Line = [(String, CellStyle)]

  /// Where a box goes in a frame of a size, and which of its rows it shows. A box taller than the
  /// frame drops its padding rows, keeps its footer on its last row and scrolls the rest; the
  /// border says how many rows are above ("↑ 3 more") and below ("↓ 12 more").
  package struct Layout {
    package var left: Int
    package var top: Int
    package var width: Int
    package var height: Int
    /// The body's rows (lines wrapped to the box), then the footer's.
    package var body: [Line]
    package var footer: [Line]
    /// How many body rows show at once.
    package var visible: Int
    /// Blank rows inside the border, above and below the content (1, or 0 when it scrolls).
    package var padding: Int

    /// The largest scroll: 0 when the body fits.
    package var scrollLimit: Int { ScrollWindow(total: body.count, visible: visible, offset: 0).limit }

    package init?(title: String, lines: [Line], footer: String?, in size: Size, preferredWidth: Int) {
      guard size.width >= 8 && size.height >= 4 else { return nil }
      let width = min(size.width - 2, max(preferredWidth, DisplayWidth.of(title) + 6))
      self.width = width
      body = OverlayBox.wrap(lines, width: width - 4)
      self.footer = footer.map { [[(TextLayout.truncate($0, width: width - 4), CellStyle.muted)]] } ?? []
      let room = size.height - 1
      if body.count + (self.footer.isEmpty ? 0 : 2) + 4 <= room {
        padding = 1
        if !self.footer.isEmpty { self.footer.insert([], at: 0) }
        height = body.count + self.footer.count + 4
      } else {
        padding = 0
        height = room
      }
      visible = max(0, height - 2 - 2 * padding - self.footer.count)
      left = (size.width - width) / 2
      top = max(0, (size.height - 1 - height) / 2)
    }
  }

  /// Lines cut to rows `inner` columns wide: the last piece of a line wraps under itself (a
  /// hanging indent after a key or a label); the pieces before it stay on the first row.
  package static func wrap(_ lines: [Line], width inner: Int) -> [Line] {
    var rows: [Line] = []
    for line in lines {
      guard let last = line.last else {
        rows.append([])
        continue
      }
      let lead = Array(line.dropLast())
      let indent = lead.reduce(0) { $0 + DisplayWidth.of($1.0) }
      let wrapped = TextLayout.wrap(last.0, width: max(8, inner - indent))
      for (i, text) in (wrapped.isEmpty ? [""] : wrapped).enumerated() {
        rows.append((i == 0 ? lead : [(String(repeating: " ", count: indent), .plain)]) + [(text, last.1)])
      }
    }
    return rows
  }

  /// The largest scroll of a box in a frame of `size` (0: it fits).
  package static func scrollLimit(title: String, lines: [Line], footer: String?, in size: Size, preferredWidth: Int = 56) -> Int {
    Layout(title: title, lines: lines, footer: footer, in: size, preferredWidth: preferredWidth)?.scrollLimit ?? 0
  }

  /// A bordered box centred in `frame`, clearing what is under it, its body scrolled down by
  /// `scroll` rows (clamped). Each line is a run of (text, style) pieces.
  package static func box(title: String, lines: [Line], footer: String?, into frame: inout Frame,
                  preferredWidth: Int = 56, scroll: Int = 0) {
    guard let layout = Layout(title: title, lines: lines, footer: footer, in: Size(width: frame.width, height: frame.height),
                              preferredWidth: preferredWidth) else { return }
    let (left, top, width, height) = (layout.left, layout.top, layout.width, layout.height)
    for row in top..<(top + height) { frame.fill(" ", x: left, y: row, count: width, style: .plain) }
    frame.fill("─", x: left + 1, y: top, count: width - 2, style: .border)
    frame.fill("─", x: left + 1, y: top + height - 1, count: width - 2, style: .border)
    frame.put("┌", x: left, y: top, style: .border)
    frame.put("┐", x: left + width - 1, y: top, style: .border)
    frame.put("└", x: left, y: top + height - 1, style: .border)
    frame.put("┘", x: left + width - 1, y: top + height - 1, style: .border)
    for row in (top + 1)..<(top + height - 1) {
      frame.put("│", x: left, y: row, style: .border)
      frame.put("│", x: left + width - 1, y: row, style: .border)
    }
    let window = ScrollWindow(total: layout.body.count, visible: layout.visible, offset: scroll)
    let aboveMark = window.aboveMark.map { " \($0) " } ?? ""
    let belowMark = window.belowMark.map { " \($0) " } ?? ""
    frame.put(" " + TextLayout.truncate(title, width: max(1, width - 6 - DisplayWidth.of(aboveMark))) + " ", x: left + 2, y: top, style: .title)
    if !aboveMark.isEmpty {
      frame.put(aboveMark, x: left + width - 2 - DisplayWidth.of(aboveMark), y: top, style: .accent)
    }
    if !belowMark.isEmpty {
      frame.put(belowMark, x: left + width - 2 - DisplayWidth.of(belowMark), y: top + height - 1, style: .accent)
    }
    let shown = Array(layout.body[window.rows])
    let rowsTop = top + 1 + layout.padding
    for (i, pieces) in shown.enumerated() {
      draw(pieces, x: left + 2, y: rowsTop + i, right: left + width - 2, into: &frame)
    }
    for (i, pieces) in layout.footer.enumerated() {
      draw(pieces, x: left + 2, y: rowsTop + min(layout.visible, layout.body.count) + i, right: left + width - 2, into: &frame)
    }
  }

  private static func draw(_ pieces: Line, x: Int, y: Int, right: Int, into frame: inout Frame) {
    var x = x
    for (text, style) in pieces {
      x += frame.put(text, x: x, y: y, style: style, limit: right - x)
    }
  }
}
