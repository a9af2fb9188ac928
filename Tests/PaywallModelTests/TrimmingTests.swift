import Foundation
import PaywallModel
import Testing

/// The ICU-free trims must agree with Foundation's, which they replace on the start-up path.
@Suite("trimming")
struct TrimmingTests {
  static let samples: [String] = [
    "", " ", "\t", "plain", "  both  ", "\tlead", "trail\t", " in side ", "\u{00A0}nbsp\u{00A0}",
    "\u{3000}全角\u{3000}", "\u{2003}em\u{2009}", "\u{1680}ogham", "\n\nlines\r\n", "\u{0085}nel\u{2028}",
    "\u{2029}para", "\u{000B}\u{000C}vt ff", "e\u{0301} ", " \u{0301}", "🙂 ", " \u{200B}zero-width\u{200B} ",
    "\u{FEFF}bom", "a\u{202F}b", String(repeating: " ", count: 40) + "x",
  ]

  @Test(arguments: samples)
  func spacesMatchFoundation(_ text: String) {
    #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
    #expect(text[...].trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "on a Substring too")
  }

  @Test(arguments: samples)
  func spacesAndNewlinesMatchFoundation(_ text: String) {
    #expect(text.trimmingSpacesAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Every scalar of the Basic Multilingual Plane alone and around a letter: where the two sets
  /// differ from Foundation's by a single character, this finds it.
  @Test func everyBMPScalarAgrees() {
    var differences: [String] = []
    for value in UInt32(0)...0xFFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let text = "\(scalar)x\(scalar)"
      if text.trimmingSpaces() != text.trimmingCharacters(in: .whitespaces)
        || text.trimmingSpacesAndNewlines() != text.trimmingCharacters(in: .whitespacesAndNewlines) {
        differences.append(String(value, radix: 16))
      }
    }
    #expect(differences.isEmpty)
  }
}
