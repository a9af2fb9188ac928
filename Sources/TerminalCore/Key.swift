/// A key press, decoded from the terminal or named in a `play` script.
package enum Key: Sendable, Hashable, CustomStringConvertible {
  case up, down, left, right, tab, backTab, enter, escape, space, backspace
  /// Page Up, Page Down, Home and End: they scroll the help, the debug panel and the log.
  case pageUp, pageDown, home, end
  case character(Character)
  /// A mouse click at a cell.
  case click(x: Int, y: Int)

  /// Parses a script key name: `up down left right tab btab enter esc space backspace pgup pgdn
  /// home end`, or one
  /// printable character (`r`, `q`, `?`, `1`).
  package init?(name: String) {
    switch name {
    case "up": self = .up
    case "down": self = .down
    case "left": self = .left
    case "right": self = .right
    case "tab": self = .tab
    case "btab", "shift-tab": self = .backTab
    case "enter", "return": self = .enter
    case "esc", "escape": self = .escape
    case "space": self = .space
    case "backspace", "bs": self = .backspace
    case "pgup", "pageup": self = .pageUp
    case "pgdn", "pagedown": self = .pageDown
    case "home": self = .home
    case "end": self = .end
    // `#` would start a comment in a script: a recording writes it so.
    case "hash": self = .character("#")
    case _ where name.hasPrefix("click(") && name.hasSuffix(")"):
      // `click(X,Y)`, as `description` writes a click (a recording's `press`).
      let numbers = name.dropFirst(6).dropLast().split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
      guard numbers.count == 2, let x = numbers[0], let y = numbers[1], x >= 0, y >= 0 else { return nil }
      self = .click(x: x, y: y)
    default:
      guard name.count == 1, let c = name.first, !c.isWhitespace, c.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
        return nil
      }
      self = .character(c)
    }
  }

  package static let names = ["up", "down", "left", "right", "tab", "btab", "enter", "esc", "space", "backspace", "pgup", "pgdn", "home", "end"]

  package var description: String {
    switch self {
    case .up: "up"
    case .down: "down"
    case .left: "left"
    case .right: "right"
    case .tab: "tab"
    case .backTab: "btab"
    case .enter: "enter"
    case .escape: "esc"
    case .space: "space"
    case .backspace: "backspace"
    case .pageUp: "pgup"
    case .pageDown: "pgdn"
    case .home: "home"
    case .end: "end"
    case .character(let c): String(c)
    case .click(let x, let y): "click(\(x),\(y))"
    }
  }
}
