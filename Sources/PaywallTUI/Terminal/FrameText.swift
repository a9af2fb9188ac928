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

  static func sgr(_ style: CellStyle) -> String {
    switch style {
    case .plain: ""
    case .title: ";1"
    case .muted: ";2"
    case .accent: ";36"
    case .price: ";1"
    case .badge: ";30;43"
    case .border: ";2"
    case .selected: ";1;32"
    case .button: ""
    case .focusedButton: ";1;7"
    case .statusBar: ";7"
    case .statusActive: ";30;42"
    case .warning: ";1;33"
    }
  }

  static func trimTrailingSpaces(_ line: String) -> String {
    var end = line.endIndex
    while end > line.startIndex, line[line.index(before: end)] == " " {
      end = line.index(before: end)
    }
    return String(line[..<end])
  }
}
