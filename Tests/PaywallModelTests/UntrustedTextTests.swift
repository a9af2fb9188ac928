import Foundation
import Testing
import PaywallModel

@Suite("UntrustedText")
struct UntrustedTextTests {
  /// True when `text` holds no C0 control but newline, and nothing in DEL…U+009F.
  static func isTerminalSafe(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { s in
      (s.value >= 0x20 || s == "\n") && !(0x7F...0x9F).contains(s.value)
    }
  }

  // MARK: - sanitize directly

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var input: String
    var expected: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "ESC of a colour sequence", input: "\u{1B}[31mred\u{1B}[0m", expected: "[31mred[0m"),
    Case(name: "OSC title with BEL", input: "a\u{1B}]0;pwned\u{07}b", expected: "a]0;pwnedb"),
    Case(name: "one-byte CSI U+009B", input: "\u{9B}2Jx", expected: "2Jx"),
    Case(name: "all C1 controls", input: "a\u{80}\u{85}\u{8D}\u{9F}b", expected: "ab"),
    Case(name: "DEL", input: "a\u{7F}b", expected: "ab"),
    Case(name: "NUL and other C0", input: "a\u{00}\u{01}\u{08}\u{0C}\u{1F}b", expected: "ab"),
    Case(name: "right-to-left override", input: "admin\u{202E}gnp.exe", expected: "admingnp.exe"),
    Case(name: "all bidi embeddings and overrides", input: "\u{202A}a\u{202B}b\u{202C}c\u{202D}d\u{202E}", expected: "abcd"),
    Case(name: "bidi isolates", input: "\u{2066}x\u{2067}y\u{2068}z\u{2069}", expected: "xyz"),
    Case(name: "newline kept", input: "line one\nline two", expected: "line one\nline two"),
    Case(name: "tab becomes a space", input: "a\tb\t\tc", expected: "a b  c"),
    Case(name: "carriage return removed", input: "one\r\ntwo\rthree", expected: "one\ntwothree"),
    Case(name: "CJK untouched", input: "日本語のテキスト", expected: "日本語のテキスト"),
    Case(name: "emoji untouched", input: "👋🏽 👨‍👩‍👧 🇯🇵", expected: "👋🏽 👨‍👩‍👧 🇯🇵"),
    Case(name: "accents untouched", input: "Caf\u{E9} cre\u{300}me na\u{EF}ve", expected: "Caf\u{E9} cre\u{300}me na\u{EF}ve"),
    Case(name: "neighbours of removed ranges kept", input: "\u{A0}\u{2029}\u{202F}\u{2065}\u{206A}", expected: "\u{A0}\u{2029}\u{202F}\u{2065}\u{206A}"),
    Case(name: "empty", input: "", expected: ""),
  ]

  @Test(arguments: cases)
  func sanitize(_ c: Case) {
    let result = UntrustedText.sanitize(c.input)
    #expect(result == c.expected)
    #expect(Self.isTerminalSafe(result))
  }

  @Test(arguments: [0x00, 0x07, 0x09, 0x0D, 0x1B, 0x1F, 0x7F, 0x80, 0x9B, 0x9F, 0x202A, 0x202E, 0x2066, 0x2069] as [UInt32])
  func controlsAreRemoved(_ value: UInt32) throws {
    let scalar = try #require(Unicode.Scalar(value))
    #expect(UntrustedText.isRemoved(scalar))
  }

  @Test(arguments: [0x0A, 0x20, 0x41, 0x7E, 0xA0, 0xE9, 0x2029, 0x2065, 0x206A, 0x1F600] as [UInt32])
  func printableScalarsAreKept(_ value: UInt32) throws {
    let scalar = try #require(Unicode.Scalar(value))
    #expect(!UntrustedText.isRemoved(scalar))
  }

  @Test func textAtTheLimitIsUnchanged() {
    let text = String(repeating: "a", count: UntrustedText.maximumScalars)
    #expect(UntrustedText.sanitize(text) == text)
  }

  @Test(arguments: [1, 2, 10_000])
  func longTextIsCappedWithAnEllipsis(_ extra: Int) {
    let text = String(repeating: "é", count: UntrustedText.maximumScalars + extra)
    let result = UntrustedText.sanitize(text)
    #expect(result.unicodeScalars.count == UntrustedText.maximumScalars)
    #expect(result.hasSuffix("…"))
    #expect(result.dropLast() == Substring(String(repeating: "é", count: UntrustedText.maximumScalars - 1)))
  }

  @Test func removedScalarsDoNotCountTowardsTheLimit() {
    let text = String(repeating: "a\u{1B}", count: UntrustedText.maximumScalars)
    let result = UntrustedText.sanitize(text)
    #expect(result == String(repeating: "a", count: UntrustedText.maximumScalars))
  }

  // MARK: - Through the JSON parser

  static func decoded(_ json: String) throws -> [String] {
    let root = try JSONParser.parse(json)
    return root.elements?.compactMap(\.stringValue) ?? []
  }

  static func decoded(bytes: [UInt8]) throws -> [String] {
    let root = try JSONParser.parse(bytes: bytes)
    return root.elements?.compactMap(\.stringValue) ?? []
  }

  @Test func escapedControlsAreRemovedWhenDecoding() throws {
    let strings = try Self.decoded(#"""
      ["\u001b[2Jclear", "bell\u0007", "csi\u009b31m", "rtl\u202Eevil", "iso\u2066late\u2069d", "del\u007F", "nl\nkept", "tab\tspace", "cr\r\nlf"]
      """#)
    #expect(strings == ["[2Jclear", "bell", "csi31m", "rtlevil", "isolated", "del", "nl\nkept", "tab space", "cr\nlf"])
    #expect(strings.allSatisfy(Self.isTerminalSafe))
  }

  @Test func rawUTF8ControlBytesAreRemovedWhenDecoding() throws {
    // "[\"a<C2 9B>b<C2 85>c<7F>d<E2 80 AE>e\"]": C1 controls, DEL and U+202E as raw UTF-8 bytes.
    var bytes: [UInt8] = Array("[\"a".utf8)
    bytes += [0xC2, 0x9B] + Array("b".utf8) + [0xC2, 0x85] + Array("c".utf8) + [0x7F] + Array("d".utf8)
    bytes += [0xE2, 0x80, 0xAE] + Array("e\"]".utf8)
    let strings = try Self.decoded(bytes: bytes)
    #expect(strings == ["abcde"])
  }

  @Test func rawDELAloneIsRemovedWhenDecoding() throws {
    let strings = try Self.decoded(bytes: Array("[\"x".utf8) + [0x7F] + Array("\"]".utf8))
    #expect(strings == ["x"])
  }

  @Test func keysAreSanitisedToo() throws {
    let root = try JSONParser.parse(#"{"k\u001b[1m": 1}"#)
    #expect(root.members?.first?.key == "k[1m")
  }

  @Test func ordinaryTextSurvivesDecoding() throws {
    let strings = try Self.decoded(#"["日本語", "😀 \ud83d\ude00", "Caf\u00e9", "plain ASCII ~!@#"]"#)
    #expect(strings == ["日本語", "😀 😀", "Café", "plain ASCII ~!@#"])
  }

  @Test(arguments: [true, false])
  func longDecodedStringsAreCapped(_ ascii: Bool) throws {
    // ASCII takes the parser's fast path; "é" takes the decoding path.
    let unit = ascii ? "a" : "é"
    let json = "[\"" + String(repeating: unit, count: UntrustedText.maximumScalars + 50) + "\"]"
    let strings = try Self.decoded(json)
    let s = try #require(strings.first)
    #expect(s.unicodeScalars.count == UntrustedText.maximumScalars)
    #expect(s.hasSuffix("…"))
    #expect(s.hasPrefix(unit + unit))
  }

  // MARK: - Through PaywallReader

  @Test func paywallTitleWithTerminalEscapesIsDefused() throws {
    let json = #"""
      {
        "id": "evil",
        "name": "Evil\u009b",
        "components": [
          { "type": "title", "text": "Hi \u001b]0;pwned\u0007 there \u001b[2J\u202E" },
          { "type": "button", "label": "Close\u0000", "action": "close" }
        ]
      }
      """#
    let root = try JSONParser.parse(json)
    let diagnostics = DiagnosticCollector(file: "evil.json", source: Array(json.utf8))
    let paywall = try #require(PaywallReader.read(root, file: "evil.json", catalog: nil, diagnostics: diagnostics))
    #expect(diagnostics.diagnostics.isEmpty)
    #expect(paywall.name == "Evil")
    guard case .title(let content) = paywall.components.first else {
      Issue.record("first component is not a title: \(String(describing: paywall.components.first))")
      return
    }
    let title = ResolvedPaywall(paywall, catalog: Catalog(products: [])).string(content, selected: nil)
    #expect(title == "Hi ]0;pwned there [2J")
    for scalar in title.unicodeScalars {
      #expect(scalar.value >= 0x20, "control scalar U+\(String(scalar.value, radix: 16)) survived")
      #expect(!(0x7F...0x9F).contains(scalar.value), "C1/DEL scalar U+\(String(scalar.value, radix: 16)) survived")
    }
    guard case .button(let button) = paywall.components.last else {
      Issue.record("last component is not a button")
      return
    }
    #expect(button.label.text == TemplateText(stringLiteral: "Close"))
  }
}
