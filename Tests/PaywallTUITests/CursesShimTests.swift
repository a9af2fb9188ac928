@testable import TerminalCore
@testable import CursesBackend
import CNCurses
import Foundation
import Testing

/// The C shim exposes what Swift cannot import from curses.h (function-like macros, globals) and
/// the wide-character API that needs NCURSES_WIDECHAR defined before the header.
@Suite("ncurses shim")
struct CursesShimTests {
  @Test func macroWrappersMatchTheHeaderConstants() {
    #expect(pw_key_f(5) == KEY_F0 + 5)
    #expect(pw_color_pair(3) == 3 << 8)
    #expect(pw_a_bold() != 0 && pw_a_reverse() != 0 && pw_a_bold() != pw_a_reverse())
    #expect(pw_err() == -1 && pw_ok() == 0)
    #expect(pw_key_resize() != pw_key_mouse())
  }

  /// `initscr()` exits the process on an unknown TERM; `newterm()` returns NULL, so the app can
  /// print a clear error instead. Nothing is drawn: both streams are /dev/null.
  @Test func newtermRefusesAnUnknownTerminalWithoutExiting() throws {
    let output = try #require(fopen("/dev/null", "w"))
    let input = try #require(fopen("/dev/null", "r"))
    defer {
      fclose(output)
      fclose(input)
    }
    #expect(newterm("paywall-tui-no-such-terminal", output, input) == nil)
  }

  @Test func wideCharacterAPIIsAvailable() {
    // wget_wch and setcchar only exist when the shim enabled the wide API before curses.h.
    let getWide = wget_wch
    _ = getWide
    var cell = cchar_t()
    let text: [wchar_t] = [0x6F22, 0]  // 漢
    #expect(setcchar(&cell, text, 0, 0, nil) == pw_ok())
  }
}

/// The terminal backend lets a short blank gap between drawn cells take the look of the cell
/// before it, so ncurses does not switch attributes off and on around it.
@Suite("blank gaps")
struct BlankGapTests {
  private func looks(_ cells: [Cell], _ scheme: ColorScheme = .monochrome) -> [String] {
    cells.withUnsafeBufferPointer { scheme.rowAttributes($0) }.map { look in
      guard let look else { return "-" }
      return look == ColorScheme.monochrome.style(.muted) ? "dim" : look == ColorScheme.monochrome.style(.title) ? "bold"
        : look == ColorScheme.monochrome.style(.focusedButton) ? "rev" : look == (0, 0) ? "plain" : "\(look)"
    }
  }

  @Test func aShortGapBetweenDimBordersStaysDim() {
    let cells = [Cell("│", style: .muted), Cell(" "), Cell(" "), Cell("│", style: .muted)]
    #expect(looks(cells) == ["dim", "dim", "dim", "dim"])
  }

  @Test func theGapTakesTheLookOfTheCellBeforeIt() {
    let cells = [Cell("│", style: .muted), Cell(" "), Cell("A", style: .title), Cell(" "), Cell("│", style: .muted)]
    #expect(looks(cells) == ["dim", "dim", "bold", "bold", "dim"])
  }

  @Test func longGapsAndTrailingBlanksAreLeftToACursorMove() {
    let short = [Cell("│", style: .muted)] + Array(repeating: Cell(" "), count: 8) + [Cell("│", style: .muted)]
    #expect(looks(short) == Array(repeating: "dim", count: 10))
    let cells = [Cell("│", style: .muted)] + Array(repeating: Cell(" "), count: 9) + [Cell("│", style: .muted), Cell(" "), Cell(" ")]
    #expect(looks(cells) == ["dim"] + Array(repeating: "-", count: 9) + ["dim", "-", "-"])
  }

  /// A blank in reverse video shows, so it is drawn as it is and never lends its look to a gap:
  /// after it, blanks keep their own look (a plain one is left to werase).
  @Test func visibleBlanksKeepTheirOwnLook() {
    let cells = [Cell(" ", style: .focusedButton), Cell(" "), Cell("x", style: .focusedButton),
                 Cell(" ", style: .muted), Cell(" "), Cell("│", style: .muted)]
    #expect(looks(cells) == ["rev", "-", "rev", "dim", "-", "dim"])
  }

  @Test func aStyledBlankWithNothingAfterItKeepsItsOwnLook() {
    let cells = [Cell("a"), Cell(" ", style: .muted), Cell(" ", style: .muted)]
    #expect(looks(cells) == ["plain", "dim", "dim"])
  }
}
