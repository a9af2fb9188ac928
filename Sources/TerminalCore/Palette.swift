/// How each `CellStyle` looks, as data: the one table the ncurses backend (`ColorScheme`), the
/// ANSI text of `render --color` (`FrameText.ansi`) and the pictures (`FramePicture`) all read,
/// so a terminal, a pipe and an SVG show the same colours.
package enum Palette {
  /// The 8 basic terminal colours, in ncurses' `COLOR_*` (and SGR 30–37) order.
  package enum Color: Int16, Sendable, CaseIterable {
    case black, red, green, yellow, blue, magenta, cyan, white
  }

  /// One style's look: colours (nil is the terminal's own foreground or background) and attributes.
  package struct Look: Sendable, Hashable {
    package var foreground: Color? = nil
    package var background: Color? = nil
    package var bold = false
    package var dim = false
    package var underline = false
    package var reverse = false
  }

  /// On a colour terminal: cyan accents, a black-on-yellow badge, the selected card green, dim
  /// borders, the status bar black on white (green when a subscription is active).
  package static func look(_ style: CellStyle) -> Look {
    switch style {
    case .plain, .button: Look()
    case .title, .price: Look(bold: true)
    case .muted, .border: Look(dim: true)
    case .accent: Look(foreground: .cyan)
    case .badge: Look(foreground: .black, background: .yellow, bold: true)
    case .selected: Look(foreground: .green, bold: true)
    case .focusedButton: Look(bold: true, reverse: true)
    case .statusBar: Look(foreground: .black, background: .white)
    case .statusActive: Look(foreground: .black, background: .green, bold: true)
    case .warning: Look(foreground: .yellow, bold: true)
    }
  }

  /// On a terminal without colours (TERM=vt100, NO_COLOR): attributes alone, readable still.
  package static func monochrome(_ style: CellStyle) -> Look {
    switch style {
    case .plain, .button, .border: Look()
    case .title, .price, .selected, .warning: Look(bold: true)
    case .muted: Look(dim: true)
    case .accent: Look(underline: true)
    case .badge, .statusBar: Look(reverse: true)
    case .focusedButton, .statusActive: Look(bold: true, reverse: true)
    }
  }

  /// The SGR parameters of a look, each after a `;` (`;1;30;43`), for `FrameText.ansi`.
  package static func sgr(_ look: Look) -> String {
    var out = ""
    if look.bold { out += ";1" }
    if look.dim { out += ";2" }
    if look.underline { out += ";4" }
    if look.reverse { out += ";7" }
    if let foreground = look.foreground { out += ";\(30 + foreground.rawValue)" }
    if let background = look.background { out += ";\(40 + background.rawValue)" }
    return out
  }

  // MARK: - Pictures

  /// An sRGB colour as `#rrggbb`.
  package typealias RGB = (red: UInt8, green: UInt8, blue: UInt8)

  /// The terminal the pictures imitate: a dark background, light text.
  package static let pictureBackground: RGB = (0x1E, 0x1E, 0x1E)
  package static let pictureForeground: RGB = (0xD4, 0xD4, 0xD4)

  /// The basic colours as a picture draws them (a common dark terminal theme's).
  package static func rgb(_ color: Color) -> RGB {
    switch color {
    case .black: (0x00, 0x00, 0x00)
    case .red: (0xCD, 0x31, 0x31)
    case .green: (0x0D, 0xBC, 0x79)
    case .yellow: (0xE5, 0xE5, 0x10)
    case .blue: (0x24, 0x72, 0xC8)
    case .magenta: (0xBC, 0x3F, 0xBC)
    case .cyan: (0x11, 0xA8, 0xCD)
    case .white: (0xE5, 0xE5, 0xE5)
    }
  }

  /// Dim text in a picture: this share of the way from the background to the foreground.
  package static let dimShare = 0.6

  /// The text and background colours a look has in a picture, reverse and dim applied; the
  /// background is nil where the terminal's own shows.
  package static func pictureColors(_ look: Look) -> (text: RGB, background: RGB?) {
    var text = look.foreground.map(rgb) ?? pictureForeground
    var background = look.background.map(rgb)
    if look.reverse {
      (text, background) = (background ?? pictureBackground, text)
    }
    if look.dim {
      let base = background ?? pictureBackground
      // Typed step by step: as one expression it took 0.4 s of every build to type-check.
      func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
        let low = Double(b)
        let span: Double = Double(a) - low
        let mixed: Double = low + span * dimShare
        return UInt8(mixed.rounded())
      }
      text = (mix(text.red, base.red), mix(text.green, base.green), mix(text.blue, base.blue))
    }
    return (text, background)
  }

  /// `#1e1e1e`.
  package static func hex(_ color: RGB) -> String {
    let digits = Array("0123456789abcdef")
    var out = "#"
    for byte in [color.red, color.green, color.blue] {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0xF)])
    }
    return out
  }
}
