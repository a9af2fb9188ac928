import CNCurses
import CTerminalGuard
#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PaywallModel
import Synchronization
import TerminalCore

/// What the interactive terminal and a recording (`CastRecorder`) both do with an ncurses screen:
/// the same modes, colours and drawing, so a `.cast` holds the bytes `run` sends. Call on the
/// thread that owns the screen.
package enum CursesPainter {
  /// Sets up a screen after newterm and returns its colours: what drawing needs. `noColor` (the
  /// user's NO_COLOR) draws with attributes alone. Reading keys needs `enableInput` too.
  package static func configure(_ window: UnsafeMutablePointer<WINDOW>?, noColor: Bool) -> ColorScheme {
    curs_set(0)
    return ColorScheme.make(noColor: noColor)
  }

  /// What only reading keys needs (keypad, extra Home/End sequences, the mouse), which a
  /// recording leaves out: those modes would change nothing on screen and stay on in the terminal
  /// of whoever plays it. The interactive terminal calls it after its first frame is out, before
  /// it reads any key: ncurses' table of key sequences cost that frame 104,000 instructions.
  package static func enableInput(_ window: UnsafeMutablePointer<WINDOW>?) {
    keypad(window, true)
    // Home and End as terminals send them whatever TERM says (tmux and screen send ESC [1~ and
    // ESC [4~, xterm ESC [H / ESC OH): a TERM that names another pair would see Esc and letters.
    for (sequence, code) in [("\u{1B}[1~", KEY_HOME), ("\u{1B}[H", KEY_HOME), ("\u{1B}OH", KEY_HOME), ("\u{1B}[7~", KEY_HOME),
                             ("\u{1B}[4~", KEY_END), ("\u{1B}[F", KEY_END), ("\u{1B}OF", KEY_END), ("\u{1B}[8~", KEY_END)]
    where key_defined(sequence) == 0 {
      define_key(sequence, code)
    }
    mousemask(pw_button1_clicked() | pw_button1_pressed() | pw_button1_released(), nil)
  }

  /// Full redraw of `frame` into the window's buffer, then `wnoutrefresh`; the caller's
  /// `doupdate` sends only what changed since the last frame. The cells are read from the
  /// frame's storage a row at a time: read through `frame[x, y]`, a call into another module up to
  /// three times a cell, the first frame's paint did 457,000 instructions (ncurses' part included)
  /// where it does 324,000.
  package static func paint(_ frame: Frame, on window: UnsafeMutablePointer<WINDOW>?, colors: ColorScheme) {
    werase(window)
    let rows = min(frame.height, Int(pw_getmaxy(window)))
    let cols = min(frame.width, Int(pw_getmaxx(window)))
    var text = [wchar_t](repeating: 0, count: 6)
    frame.cells.withUnsafeBufferPointer { cells in
      for y in 0..<rows {
        let row = UnsafeBufferPointer(rebasing: cells[(y * frame.width)..<(y * frame.width + cols)])
        let looks = colors.rowAttributes(row)
        for x in 0..<cols {
          let cell = row[x]
          guard !cell.isContinuation, let (attributes, pair) = looks[x] else { continue }
          // No array per cell: an ASCII cell is its scalar; a grapheme is up to five of its scalars.
          var count = 1
          if cell.scalar.isASCII {
            text[0] = wchar_t(bitPattern: cell.scalar.value)
          } else {
            count = 0
            for scalar in frame.character(x: x, y: y).unicodeScalars.prefix(5) {
              text[count] = wchar_t(bitPattern: scalar.value)
              count += 1
            }
          }
          text[count] = 0
          _ = pw_put_grapheme(window, Int32(y), Int32(x), &text, attributes, pair)
        }
      }
    }
    wnoutrefresh(window)
  }
}

/// How semantic styles look on this terminal: colour pairs when it has colours (and NO_COLOR is
/// unset), attributes alone on monochrome terminals (TERM=vt100), readable either way.
package struct ColorScheme {
  private let table: StyleTable

  /// The looks are set once, here, with what is worked out from them.
  private init(table: StyleTable, backgroundPairs: [Int16] = []) {
    self.table = table
    self.backgroundPairs = backgroundPairs
    var flags = [Bool](repeating: false, count: CellStyle.allCases.count)
    for style in CellStyle.allCases {
      flags[Int(style.rawValue)] = Self.blankLooksPlain(table[style] ?? (0, 0), backgroundPairs: backgroundPairs)
    }
    plainBlanks = flags
  }

  /// Looks by style in an array: a dictionary lookup for every cell (hashing the style) was
  /// about half the time `CursesPainter.paint` took.
  private struct StyleTable: ExpressibleByDictionaryLiteral {
    private var looks = [(attr_t, Int16)](repeating: (0, 0), count: CellStyle.allCases.count)

    package init(dictionaryLiteral elements: (CellStyle, (attr_t, Int16))...) {
      for (style, look) in elements { looks[Int(style.rawValue)] = look }
    }

    package subscript(style: CellStyle) -> (attr_t, Int16)? {
      get { looks[Int(style.rawValue)] }
      set { looks[Int(style.rawValue)] = newValue ?? (0, 0) }
    }
  }

  package static let monochrome: ColorScheme = {
    var table: StyleTable = [:]
    for style in CellStyle.allCases { table[style] = (attributes(Palette.monochrome(style)), 0) }
    return ColorScheme(table: table)
  }()

  /// A look's ncurses attributes (its colours are a pair's).
  private static func attributes(_ look: Palette.Look) -> attr_t {
    (look.bold ? pw_a_bold() : 0) | (look.dim ? pw_a_dim() : 0) | (look.underline ? pw_a_underline() : 0) | (look.reverse ? pw_a_reverse() : 0)
  }

  package func style(_ style: CellStyle) -> (attr_t, Int16) {
    table[style] ?? (0, 0)
  }

  /// Colour pairs with a background of their own: a blank in them is visible. A few numbers in a
  /// list (a set of Int16, met nowhere else, cost the first paint the runtime's making of its type).
  package let backgroundPairs: [Int16]

  /// Whether a blank drawn this way looks like any other such blank (no reverse, underline or
  /// background colour): bold, dim and foreground colours do not show on a space.
  private static func blankLooksPlain(_ look: (attr_t, Int16), backgroundPairs: [Int16]) -> Bool {
    look.0 & (pw_a_reverse() | pw_a_underline() | pw_a_standout()) == 0 && !backgroundPairs.contains(look.1)
  }

  /// `blankLooksPlain` of each style's look, by the style's raw value: asked for every cell of
  /// every row, it is worked out once, where the looks are set (`init`).
  private let plainBlanks: [Bool]

  private func blankIsPlain(_ style: CellStyle) -> Bool {
    plainBlanks[Int(style.rawValue)]
  }

  /// How to draw each cell of `row`, nil for a cell to leave as `werase` left it
  /// (a plain blank). A short run of plain-looking blanks between two drawn cells takes the look
  /// of the cell before it: ncurses reprints such a gap rather than move the cursor, and without
  /// this it would switch attributes off and on again around it ("│  │" between two dim card
  /// borders was four escape sequences per gap in the first paint).
  package func rowAttributes(_ row: UnsafeBufferPointer<Cell>) -> [(attr_t, Int16)?] {
    let width = row.count
    var looks = [(attr_t, Int16)?](repeating: nil, count: width)
    var previous: (attr_t, Int16)?
    var gap: Range<Int> = 0..<0
    /// Blanks that stay as they are: drawn in their own style, or left to werase when plain.
    func keep(_ blanks: Range<Int>) {
      for x in blanks where row[x].style != .plain { looks[x] = style(row[x].style) }
    }
    for x in 0..<width {
      let current = row[x]
      let plain = blankIsPlain(current.style)
      if current.scalar == " " && !current.isContinuation && plain {
        gap = gap.isEmpty ? x..<x + 1 : gap.lowerBound..<x + 1
        continue
      }
      let look = style(current.style)
      if let previous, gap.count <= Self.longestFilledGap {
        for g in gap { looks[g] = previous }
      } else {
        keep(gap)
      }
      gap = 0..<0
      looks[x] = look
      previous = plain ? look : nil
    }
    keep(gap)
    return looks
  }

  /// Longer runs of blanks are crossed with a cursor movement, which needs no attributes.
  private static let longestFilledGap = 8

  /// Call on the terminal thread after newterm.
  package static func make(noColor: Bool) -> ColorScheme {
    guard has_colors(), !noColor, start_color() == pw_ok() else {
      return .monochrome
    }
    use_default_colors()
    // Pairs on the terminal's own background (-1) unless the palette gives one, in the 8 basic
    // colours every colour terminal has: one pair for each pair of colours the palette uses.
    // Every style's look is set below.
    var table: StyleTable = [:]
    var backgroundPairs: [Int16] = []
    // Pair n is the n-th pair of colours met, pair 0 the terminal's own. A list searched in order,
    // not a dictionary keyed by the pair: a handful of entries, and a dictionary of a type met
    // nowhere else costs the first paint the runtime's making of that type.
    var pairs: [(foreground: Int16, background: Int16)] = [(-1, -1)]
    for style in CellStyle.allCases {
      let look = Palette.look(style)
      let colors = (foreground: look.foreground?.rawValue ?? -1, background: look.background?.rawValue ?? -1)
      let pair = pairs.firstIndex { $0 == colors }.map(Int16.init) ?? {
        let number = Int16(pairs.count)
        init_pair(number, colors.foreground, colors.background)
        pairs.append(colors)
        if colors.background != -1 { backgroundPairs.append(number) }
        return number
      }()
      table[style] = (attributes(look), pair)
    }
    return ColorScheme(table: table, backgroundPairs: backgroundPairs)
  }
}
