/// The plain-text backend: a frame as text, plain or with ANSI colours, for `render` and goldens.
public enum FrameText {
  /// The frame's rows as text, one line each, trailing spaces trimmed: what `render --color never`
  /// prints.
  public static func plain(_ frame: Frame) -> String {
    frame.lines.map { trimTrailingSpaces($0) }.joined(separator: "\n")
  }

  /// SGR sequences per style change; every line ends reset, so a cut pipe never leaves colour on.
  public static func ansi(_ frame: Frame) -> String {
    var out = ""
    for row in 0..<frame.height {
      var current: CellStyle?
      var line = ""
      for column in 0..<frame.width {
        let cell = frame[column, row]
        if cell.isContinuation { continue }
        if cell.style != current {
          line += "\u{1B}[0" + sgr(cell.style) + "m"
          current = cell.style
        }
        line.append(frame.character(x: column, y: row))
      }
      out += line + "\u{1B}[0m"
      if row < frame.height - 1 { out += "\n" }
    }
    return out
  }

  /// The palette's colour look as SGR parameters, as the ncurses backend draws the style.
  package static func sgr(_ style: CellStyle) -> String {
    Palette.sgr(Palette.look(style))
  }

  package static func trimTrailingSpaces(_ line: String) -> String {
    var end = line.endIndex
    while end > line.startIndex, line[line.index(before: end)] == " " {
      end = line.index(before: end)
    }
    return String(line[..<end])
  }
}
