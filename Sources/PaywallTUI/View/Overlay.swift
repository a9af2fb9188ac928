/// Modal boxes drawn over a screen: alerts, the ask dialog, help.
enum Overlay {
  /// A bordered box centred in `frame`, clearing what is under it. Each line is a run of
  /// (text, style) pieces; lines wider than the box are wrapped (single-piece) or cut.
  static func box(title: String, lines: [[(String, CellStyle)]], footer: String?, into frame: inout Frame,
                  preferredWidth: Int = 56) {
    guard frame.width >= 8 && frame.height >= 4 else { return }
    let width = min(frame.width - 2, max(preferredWidth, DisplayWidth.of(title) + 6))
    let inner = width - 4
    var rows: [[(String, CellStyle)]] = []
    for line in lines {
      guard let last = line.last else {
        rows.append([])
        continue
      }
      // The last piece wraps under itself (a hanging indent after a key or a label).
      let lead = Array(line.dropLast())
      let indent = lead.reduce(0) { $0 + DisplayWidth.of($1.0) }
      let wrapped = TextLayout.wrap(last.0, width: max(8, inner - indent))
      for (i, text) in (wrapped.isEmpty ? [""] : wrapped).enumerated() {
        rows.append((i == 0 ? lead : [(String(repeating: " ", count: indent), .plain)]) + [(text, last.1)])
      }
    }
    if let footer { rows += [[], [(footer, .muted)]] }
    let height = min(frame.height - 1, rows.count + 4)
    let left = (frame.width - width) / 2
    let top = max(0, (frame.height - 1 - height) / 2)
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
    frame.put(" " + TextLayout.truncate(title, width: width - 6) + " ", x: left + 2, y: top, style: .title)
    for (i, pieces) in rows.prefix(height - 4).enumerated() {
      var x = left + 2
      for (text, style) in pieces {
        x += frame.put(text, x: x, y: top + 2 + i, style: style, limit: left + width - 2 - x)
      }
    }
  }
}
