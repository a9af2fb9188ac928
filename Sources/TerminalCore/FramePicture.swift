/// A `Frame` as a picture: a standalone SVG (or an HTML page holding it) that a browser shows as
/// the terminal does, for `render --format svg|html`, `screenshot` and the state gallery.
///
/// Every cell sits on a fixed grid: text is drawn per run of same-styled narrow cells with
/// `textLength`, so whatever monospace font the browser picks, column 40 is at 40 × `cellWidth`;
/// a wide grapheme (CJK, emoji) is a run of its own two cells wide. Box-drawing characters are
/// vector lines from the cell's centre to its edges, so borders join whatever the font. Colours
/// come from `Palette`, the table the ncurses backend reads. Nothing outside the file is loaded.
package enum FramePicture {
  /// A cell's size in pixels, and the text in it.
  package static let cellWidth = 9
  package static let cellHeight = 18
  package static let fontSize = 15
  /// From a row's top to the text's baseline.
  package static let baseline = 13
  package static let fontFamily = "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', 'Noto Sans Mono', monospace"

  /// Pixel size of a frame's picture.
  package static func pixelSize(_ size: Size) -> (width: Int, height: Int) {
    (size.width * cellWidth, size.height * cellHeight)
  }

  /// A standalone SVG document of `frame`; `title` is its accessible name.
  package static func svg(_ frame: Frame, title: String = "paywall-tui") -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svgElement(frame, title: title, standalone: true) + "\n"
  }

  /// A standalone HTML page showing `frame` (its SVG inline), on a terminal-dark page.
  package static func html(_ frame: Frame, title: String = "paywall-tui") -> String {
    page(title: title, body: svgElement(frame, title: title, standalone: true))
  }

  /// An HTML5 page that is also well-formed XML (a test reads it with an XML parser).
  package static func page(title: String, body: String) -> String {
    let background = Palette.hex(Palette.pictureBackground), foreground = Palette.hex(Palette.pictureForeground)
    return """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"/><title>\(escape(title))</title>
      <style>body{margin:0;padding:16px;background:\(background);color:\(foreground);font-family:\(fontFamily)}\
      h2{font-size:18px;margin:24px 0 8px}figure{display:inline-block;margin:0 16px 16px 0;vertical-align:top}\
      figcaption{font-size:13px;margin-bottom:4px}svg{display:block}</style></head>
      <body>
      \(body)
      </body></html>

      """
  }

  /// The `<svg>` element: `standalone` gives it the namespace and the font (a sheet's outer
  /// element has them once); `x`/`y` place it inside a sheet.
  package static func svgElement(_ frame: Frame, title: String?, standalone: Bool, x: Int? = nil, y: Int? = nil) -> String {
    let (width, height) = pixelSize(frame.size)
    var out = "<svg"
    if standalone { out += " xmlns=\"http://www.w3.org/2000/svg\"" }
    if let x, let y { out += " x=\"\(x)\" y=\"\(y)\"" }
    out += " width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
    if standalone { out += rootAttributes }
    out += ">"
    if let title { out += "<title>\(escape(title))</title>" }
    out += "<rect width=\"\(width)\" height=\"\(height)\" fill=\"\(Palette.hex(Palette.pictureBackground))\"/>\n"
    for row in 0..<frame.height { out += Self.row(row, of: frame) }
    out += "</svg>"
    return out
  }

  /// Spaces kept as they are (each is a cell), the font, no selection of the background.
  package static let rootAttributes = " xml:space=\"preserve\" font-family=\"\(escape(fontFamily))\" font-size=\"\(fontSize)\" style=\"white-space:pre\""

  // MARK: - One row

  private static func colors(_ style: CellStyle) -> (text: String, background: String?, look: Palette.Look) {
    styleColors[Int(style.rawValue)]
  }

  /// Each style's colours as the picture writes them, worked out once (by raw value).
  private static let styleColors: [(text: String, background: String?, look: Palette.Look)] = CellStyle.allCases.map { style in
    let look = Palette.look(style)
    let (text, background) = Palette.pictureColors(look)
    return (Palette.hex(text), background.map(Palette.hex), look)
  }

  private static func row(_ y: Int, of frame: Frame) -> String {
    var out = ""
    let top = y * cellHeight
    // Backgrounds first, merged across cells of the same colour.
    var x = 0
    while x < frame.width {
      guard let background = colors(frame[x, y].style).background else { x += 1; continue }
      var end = x + 1
      while end < frame.width, colors(frame[end, y].style).background == background { end += 1 }
      out += "<rect x=\"\(x * cellWidth)\" y=\"\(top)\" width=\"\((end - x) * cellWidth)\" height=\"\(cellHeight)\" fill=\"\(background)\"/>"
      x = end
    }
    // Box-drawing lines, one path per colour.
    var lines: [String: String] = [:]
    var lineOrder: [String] = []
    // Text: runs of narrow cells of one style, broken at box characters, wide graphemes and two
    // spaces or more (a single space stays inside a run, so the text copies as it reads).
    var runStart = 0
    var runText = ""
    var runStyle = CellStyle.plain
    var runCells = 0
    var spaces = 0
    func flush() {
      let cells = runCells - spaces
      if cells > 0 {
        out += text(String(runText.dropLast(spaces)), x: runStart, y: y, cells: cells, style: runStyle)
      }
      runText = ""
      runCells = 0
      spaces = 0
    }
    for column in 0..<frame.width {
      let cell = frame[column, y]
      if cell.isContinuation { continue }
      let character = frame.character(x: column, y: y)
      if let arms = BoxDrawing.arms(cell.scalar), cell.cluster == 0 {
        flush()
        let color = colors(cell.style).text
        if lines[color] == nil { lineOrder.append(color) }
        lines[color, default: ""] += BoxDrawing.path(arms, x: column * cellWidth, y: top, width: cellWidth, height: cellHeight)
        continue
      }
      if cell.width == 2 {
        flush()
        out += text(String(character), x: column, y: y, cells: 2, style: cell.style)
        continue
      }
      if character == " " {
        if runCells == 0 { continue }
        if spaces >= 1 {
          // A second space: the run ends before the first.
          flush()
          continue
        }
        spaces += 1
        runText.append(" ")
        runCells += 1
        continue
      }
      if runCells > 0 && cell.style != runStyle { flush() }
      if runCells == 0 { runStart = column; runStyle = cell.style }
      spaces = 0
      runText.append(character)
      runCells += 1
    }
    flush()
    for color in lineOrder {
      out += "<path d=\"\(lines[color]!)\" stroke=\"\(color)\" stroke-width=\"1\" fill=\"none\" shape-rendering=\"crispEdges\"/>"
    }
    return out.isEmpty ? "" : out + "\n"
  }

  /// One run of text, stretched or squeezed to exactly its cells.
  private static func text(_ text: String, x: Int, y: Int, cells: Int, style: CellStyle) -> String {
    let (color, _, look) = colors(style)
    let left = x * cellWidth, width = cells * cellWidth
    var out = "<text x=\"\(left)\" y=\"\(y * cellHeight + baseline)\" textLength=\"\(width)\" lengthAdjust=\"spacingAndGlyphs\" fill=\"\(color)\""
    if look.bold { out += " font-weight=\"bold\"" }
    out += ">\(escape(text))</text>"
    if look.underline {
      out += "<rect x=\"\(left)\" y=\"\(y * cellHeight + baseline + 2)\" width=\"\(width)\" height=\"1\" fill=\"\(color)\"/>"
    }
    return out
  }

  /// Text as XML character data or an attribute value (`XMLText.escape`).
  package static func escape(_ text: String) -> String { XMLText.escape(text) }
}

/// Box-drawing characters as lines: which edges of its cell each one reaches.
package enum BoxDrawing {
  package struct Arms: OptionSet, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let up = Arms(rawValue: 1), down = Arms(rawValue: 2), left = Arms(rawValue: 4), right = Arms(rawValue: 8)
    /// A rounded corner (╭╮╰╯): a quarter circle instead of a right angle.
    package static let rounded = Arms(rawValue: 16)
  }

  package static func arms(_ scalar: Unicode.Scalar) -> Arms? {
    switch scalar {
    case "─": [.left, .right]
    case "│": [.up, .down]
    case "┌": [.down, .right]
    case "┐": [.down, .left]
    case "└": [.up, .right]
    case "┘": [.up, .left]
    case "├": [.up, .down, .right]
    case "┤": [.up, .down, .left]
    case "┬": [.left, .right, .down]
    case "┴": [.left, .right, .up]
    case "┼": [.left, .right, .up, .down]
    case "╭": [.down, .right, .rounded]
    case "╮": [.down, .left, .rounded]
    case "╰": [.up, .right, .rounded]
    case "╯": [.up, .left, .rounded]
    default: nil
    }
  }

  /// Path data for a cell at (x, y): on half pixels, so a 1-pixel line covers whole pixels.
  package static func path(_ arms: Arms, x: Int, y: Int, width: Int, height: Int) -> String {
    let cx = "\(x + width / 2).5", cy = "\(y + height / 2).5"
    if arms.contains(.rounded) {
      let radius = min(width, height) / 2
      let vertical = arms.contains(.up) ? "\(y)" : "\(y + height)"
      let horizontal = arms.contains(.left) ? "\(x)" : "\(x + width)"
      let towardsX = arms.contains(.left) ? "\(x + width / 2 - radius).5" : "\(x + width / 2 + radius).5"
      let towardsY = arms.contains(.up) ? "\(y + height / 2 - radius).5" : "\(y + height / 2 + radius).5"
      return "M\(cx) \(vertical)V\(towardsY)Q\(cx) \(cy) \(towardsX) \(cy)H\(horizontal)"
    }
    var d = ""
    if arms.contains(.left) || arms.contains(.right) {
      d += "M\(arms.contains(.left) ? "\(x)" : cx) \(cy)H\(arms.contains(.right) ? "\(x + width)" : cx)"
    }
    if arms.contains(.up) || arms.contains(.down) {
      d += "M\(cx) \(arms.contains(.up) ? "\(y)" : cy)V\(arms.contains(.down) ? "\(y + height)" : cy)"
    }
    return d
  }
}

/// What `render --format` writes: the text a terminal shows, or a picture of it.
package enum PictureFormat: String, CaseIterable, Sendable {
  case text, svg, html

  /// By a file's extension (`.svg`, `.html`/`.htm`, `.txt`); nil for any other.
  package init?(extensionOf path: String) {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    switch name[name.index(after: dot)...].lowercased() {
    case "svg": self = .svg
    case "html", "htm": self = .html
    case "txt", "text": self = .text
    default: return nil
    }
  }

  /// A frame in this format; text is plain (no colours), ending in a newline.
  package func document(_ frame: Frame, title: String) -> String {
    switch self {
    case .text: FrameText.plain(frame) + "\n"
    case .svg: FramePicture.svg(frame, title: title)
    case .html: FramePicture.html(frame, title: title)
    }
  }
}
