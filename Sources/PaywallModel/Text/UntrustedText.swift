/// The one sanitiser every string read from a file goes through (the JSON parser calls it), so
/// nothing raw from a paywall, catalog or project reaches a terminal. It removes:
/// - C0 controls except newline (a tab becomes a space, a carriage return disappears),
/// - DEL and the C1 controls U+0080–U+009F (U+009B is a one-byte CSI on some terminals),
/// - bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069: "Trojan Source"),
/// and caps the length at `maximumScalars`, ending a cut string with "…".
public enum UntrustedText {
  public static let maximumScalars = 4096

  public static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A: false
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  public static func sanitize(_ text: String) -> String {
    let needsWork = text.unicodeScalars.contains { isRemoved($0) } || text.unicodeScalars.count > maximumScalars
    guard needsWork else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar == "\t" {
        out.append(" ")
      } else if !isRemoved(scalar) {
        out.append(scalar)
      }
    }
    if out.count > maximumScalars {
      out = String.UnicodeScalarView(out.prefix(maximumScalars - 1))
      out.append("…")
    }
    return String(out)
  }
}
