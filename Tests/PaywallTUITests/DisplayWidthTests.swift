import Testing
@testable import TerminalCore
@testable import PaywallUI

@Suite("Display width")
struct DisplayWidthTests {
  @Test(arguments: [
    ("a", 1), (" ", 1), ("é", 1), ("e\u{301}", 1), ("漢", 2), ("ア", 2), ("한", 2), ("Ａ", 2),
    ("😀", 2), ("👨‍👩‍👧", 2), ("🇫🇷", 2), ("❤️", 2), ("👍🏽", 2), ("\u{200D}", 0), ("\u{301}", 0), ("✓", 1), ("€", 1),
    // Indic clusters as wcwidth (and so the terminal) counts them, scalar by scalar.
    ("ति", 2), ("प्र", 2), ("प्रति", 4), ("मुफ़्त", 3), ("हिन्दी", 5), ("ಕಿ", 1), ("น้ำ", 2), ("ค่ำคืน", 4),
  ] as [(String, Int)])
  func graphemeWidths(text: String, width: Int) {
    #expect(DisplayWidth.of(text) == width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
  }

  /// An Indic cluster is drawn as the terminal lays it out: a cell a column, the marks with their
  /// letter, so the frame's columns are the terminal's ("प्रति वर्ष" is eight).
  @Test func indicClustersTakeTheColumnsTheTerminalGivesThem() {
    var frame = Frame(width: 12, height: 1)
    let used = frame.put("प्रति वर्ष|", x: 0, y: 0, style: .plain)
    #expect(used == 9)
    #expect(frame.lines[0].hasPrefix("प्रति वर्ष|"))
    #expect(frame[8, 0].scalar == "|")
  }

  @Test func mixedLine() {
    #expect(DisplayWidth.of("Acme 漢字 😀!") == 4 + 1 + 4 + 1 + 2 + 1)
  }
}

@Suite("Text layout")
struct TextLayoutTests {
  @Test func wrapsOnWordBoundaries() {
    #expect(TextLayout.wrap("Try 7-day free, then $59.99/year", width: 16) == ["Try 7-day free,", "then $59.99/year"])
  }

  @Test func breaksWordsLongerThanALine() {
    #expect(TextLayout.wrap("abcdefghij kl", width: 4) == ["abcd", "efgh", "ij", "kl"])
  }

  @Test func wideCharactersWrapByColumns() {
    let lines = TextLayout.wrap("漢字漢字漢字", width: 5)
    #expect(lines == ["漢字", "漢字", "漢字"])
    #expect(lines.allSatisfy { DisplayWidth.of($0) <= 5 })
  }

  @Test func keepsNewlines() {
    #expect(TextLayout.wrap("one\ntwo three", width: 20) == ["one", "two three"])
  }

  /// A text that fits on one line comes back as it is only when wrapping would not respace it:
  /// spaces at the ends and runs of spaces go, as they do on a longer text.
  @Test func aLineThatFitsIsSpacedAsALongerOne() {
    #expect(TextLayout.wrap("Unlock Acme Pro", width: 20) == ["Unlock Acme Pro"])
    #expect(TextLayout.wrap("  two  spaces ", width: 20) == ["two spaces"])
    #expect(TextLayout.wrap(" lead", width: 20) == ["lead"])
    #expect(TextLayout.wrap("trail ", width: 20) == ["trail"])
    #expect(TextLayout.wrap("", width: 20) == [""])
    #expect(TextLayout.wrap(" ", width: 20) == [""])
    #expect(TextLayout.wrap("a\r\nb", width: 20) == ["a\r\nb"], "a CR LF is one grapheme, no newline to split on")
    // A first word of no width goes with its space, as on a line too long for one row.
    for invisible in ["\u{200B}", "\u{FEFF}", "\u{AD}", "\u{2060}", "\u{200D}", "\u{301}"] {
      #expect(TextLayout.wrap(invisible + " Pro", width: 20) == ["Pro"], "\(invisible.unicodeScalars.first!.value)")
    }
    #expect(TextLayout.wrap("\u{200B}", width: 20) == ["\u{200B}"])
  }

  @Test func truncatesWithEllipsis() {
    #expect(TextLayout.truncate("Restore purchases", width: 8) == "Restore…")
    #expect(TextLayout.truncate("short", width: 8) == "short")
    #expect(TextLayout.truncate("漢字漢字", width: 4) == "漢…")
  }
}

@Suite("Frame")
struct FrameTests {
  @Test func wideGraphemeTakesTwoCells() {
    var frame = Frame(width: 6, height: 1)
    let used = frame.put("a漢b", x: 0, y: 0, style: .title)
    #expect(used == 4)
    #expect(frame.character(x: 1, y: 0) == "漢" && frame[1, 0].width == 2)
    #expect(frame[2, 0].isContinuation)
    #expect(frame.character(x: 3, y: 0) == "b")
    #expect(frame.lines == ["a漢b  "])
  }

  @Test func clipsAtTheEdgeWithoutSplittingAWideGrapheme() {
    var frame = Frame(width: 3, height: 1)
    #expect(frame.put("ab漢", x: 0, y: 0, style: .plain) == 2)
    #expect(frame.lines == ["ab "])
  }

  @Test func multiScalarGraphemesSurviveDrawingIntoAnotherFrame() {
    var inner = Frame(width: 6, height: 1)
    inner.put("🇫🇷e\u{301}👨‍👩‍👧", x: 0, y: 0, style: .accent)
    var outer = Frame(width: 8, height: 2)
    outer.put("🇯🇵", x: 0, y: 0, style: .plain)
    outer.draw(inner, x: 1, y: 1)
    #expect(outer.lines == ["🇯🇵      ", " 🇫🇷e\u{301}👨‍👩‍👧  "])
    #expect(outer.character(x: 1, y: 1) == "🇫🇷")
    #expect(outer.character(x: 3, y: 1) == "e\u{301}")
    #expect(outer[4, 1].width == 2 && outer[5, 1].isContinuation)
  }

  @Test func drawingClipsAtEveryEdge() {
    var inner = Frame(width: 3, height: 3)
    for row in 0..<3 { inner.put("abc", x: 0, y: row, style: .plain) }
    var outer = Frame(width: 4, height: 2)
    outer.draw(inner, x: -1, y: -1)
    outer.draw(inner, x: 3, y: 1)
    #expect(outer.lines == ["bc  ", "bc a"])
  }

  /// Found by fuzzing: an overlay's border drawn on the second column of a wide grapheme left its
  /// first half in the row, which a terminal draws two columns wide, shifting the rest of the row.
  @Test func overwritingHalfAWideGraphemeBlanksTheOtherHalf() {
    var frame = Frame(width: 6, height: 4)
    for row in 0..<4 { frame.put("a漢b漢", x: 0, y: row, style: .plain) }
    frame.put("│", x: 2, y: 0, style: .border)
    frame.put("│", x: 1, y: 1, style: .border)
    frame.fill("─", x: 2, y: 2, count: 2, style: .border)
    var box = Frame(width: 2, height: 1)
    box.put("xy", x: 0, y: 0, style: .plain)
    frame.draw(box, x: 4, y: 3)
    #expect(frame.lines == ["a │b漢", "a│ b漢", "a ──漢", "a漢bxy"])
    for row in 0..<4 {
      for column in 0..<6 where frame[column, row].isContinuation {
        #expect(column > 0 && frame[column - 1, row].width == 2, "row \(row): column \(column) continues nothing")
      }
    }
  }

  @Test func drawingThatClipsAWideGraphemeLeavesABlank() {
    var inner = Frame(width: 4, height: 1)
    inner.put("漢漢", x: 0, y: 0, style: .plain)
    var outer = Frame(width: 3, height: 2)
    outer.draw(inner, x: -1, y: 0)
    outer.draw(inner, x: 0, y: 1)
    #expect(outer.lines == [" 漢", "漢 "])
  }

  @Test func styleRunsMergeEqualNeighbours() {
    var frame = Frame(width: 5, height: 1)
    frame.put("ab", x: 1, y: 0, style: .title)
    let runs = frame.styleRuns(row: 0).map { "\($0.start)+\($0.length) \($0.style)" }
    #expect(runs == ["0+1 plain", "1+2 title", "3+2 plain"])
  }

  @Test func ansiOutputResetsEveryLine() {
    var frame = Frame(width: 4, height: 2)
    frame.put("Hi", x: 0, y: 0, style: .title)
    let ansi = FrameText.ansi(frame)
    #expect(ansi.hasPrefix("\u{1B}[0;1mHi\u{1B}[0m  \u{1B}[0m\n"))
    #expect(ansi.split(separator: "\n").allSatisfy { $0.hasSuffix("\u{1B}[0m") })
  }

  @Test(arguments: ["80x24", "40x12", "200x60"])
  func sizesParse(text: String) {
    #expect(Size(text)?.description == text)
  }

  @Test(arguments: ["80", "x24", "0x10", "80x24x2", "axb", ""])
  func badSizesAreRejected(text: String) {
    #expect(Size(text) == nil)
  }

  /// The shortcut for the scalars paywalls draw most (Latin letters, dashes and quotes, box
  /// drawing, shapes) gives what Unicode's tables give, for every scalar it covers.
  @Test func theShortcutAgreesWithUnicodesTables() {
    var covered = 0
    for v in UInt32(0xA0)...0x25FF where DisplayWidth.isNarrowWithoutLookup(v) {
      guard let scalar = Unicode.Scalar(v) else { continue }
      covered += 1
      #expect(DisplayWidth.measured(scalar) == 1, "U+\(String(v, radix: 16, uppercase: true))")
    }
    #expect(covered == 0x24F - 0xA0 + 1 - 1 + 0x18 + 0xFD + 1, "the ranges: Latin but the soft hyphen, 2010–2027, 2500–25FC, 25FF")
    #expect(DisplayWidth.of(Unicode.Scalar(0x25FD)!) == 2 && DisplayWidth.of(Unicode.Scalar(0xAD)!) == 0, "◽ and the soft hyphen stay outside")
  }

  /// `Frame.put` writes a string of these scalars and ASCII a cell a scalar, without breaking it
  /// into graphemes: that holds only if no scalar of the ranges joins a neighbour into one
  /// grapheme. Each is checked beside itself, ASCII, a control and the others' ends.
  @Test func theShortcutsScalarsAreEachAGraphemeOfTheirOwn() {
    let neighbours: [Unicode.Scalar] = ["a", " ", "\r", "\n", "\u{A0}", "\u{24F}", "\u{2010}", "\u{2027}", "\u{2500}", "\u{25FC}", "\u{25FF}"]
    for v in UInt32(0xA0)...0x25FF where DisplayWidth.isNarrowWithoutLookup(v) {
      guard let scalar = Unicode.Scalar(v) else { continue }
      for other in neighbours + [scalar] {
        var pair = String.UnicodeScalarView()
        pair.append(scalar)
        pair.append(other)
        #expect(String(pair).count == 2, "U+\(String(v, radix: 16, uppercase: true)) joins U+\(String(other.value, radix: 16, uppercase: true))")
        var reversed = String.UnicodeScalarView()
        reversed.append(other)
        reversed.append(scalar)
        #expect(String(reversed).count == 2, "U+\(String(other.value, radix: 16, uppercase: true)) joins U+\(String(v, radix: 16, uppercase: true))")
      }
    }
  }

  /// The same line written through the shortcut and grapheme by grapheme gives the same cells.
  @Test func putsShortcutDrawsWhatTheGraphemePathDraws() {
    let line = "╭─ Ünïcode — “quoted” • ├──┤ ▸ café ◂ ─╮"
    var fast = Frame(width: 60, height: 1)
    fast.put(line, x: 1, y: 0, style: .plain)
    var slow = Frame(width: 60, height: 1)
    var x = 1
    for character in line { x += slow.put(String(character) + "\u{200B}", x: x, y: 0, style: .plain) }
    #expect(fast.lines == slow.lines)
    #expect(fast.lines[0].hasPrefix(" ╭─ Ünïcode"))
  }
}
