import Foundation
import Testing

@testable import PaywallModel

/// What `JSONText.quote` and `JSONOutput.text` write: the escapes a JSON reader needs (and the
/// ones that keep a line one line in a terminal and in JavaScript), everything else as it is.
@Suite("JSON text")
struct JSONTextTests {
  /// Each scalar that must be escaped, alone and amid text, and its neighbours that must not.
  @Test func quoteEscapesWhatJSONAndTerminalsNeedAndNothingElse() {
    let cases: [(String, String)] = [
      ("plain", #""plain""#),
      ("", #""""#),
      ("say \"hi\"", #""say \"hi\"""#),
      ("back\\slash", #""back\\slash""#),
      ("line\nbreak\r\ttab", #""line\nbreak\r\ttab""#),
      ("\u{01}\u{1F}", #""\u0001\u001f""#),
      ("del\u{7F}", #""del\u007f""#),
      ("c1 \u{80} \u{9F}", #""c1 \u0080 \u009f""#),
      ("\u{A0}é", "\"\u{A0}é\""),
      ("sep \u{2028} \u{2029}", #""sep \u2028 \u2029""#),
      ("\u{2027}\u{202A}…", "\"\u{2027}\u{202A}…\""),
      ("emoji 🎉 and 漢字", "\"emoji 🎉 and 漢字\""),
    ]
    for (text, expected) in cases {
      #expect(JSONText.quote(text) == expected, "\(text.debugDescription)")
      var appended = Array("[".utf8)
      JSONText.quote(text, into: &appended)
      #expect(appended == Array(("[" + expected).utf8))
    }
  }

  /// The text a JSON reader takes back to the same strings, for every scalar of the first planes'
  /// interesting ranges.
  @Test func quotedTextReadsBackAsTheSameString() throws {
    var scalars: [Unicode.Scalar] = []
    for v in UInt32(0)...0x2FF { scalars.append(Unicode.Scalar(v)!) }
    for v in UInt32(0x2000)...0x206F { scalars.append(Unicode.Scalar(v)!) }
    scalars += ["\u{FEFF}", "\u{1F389}"]
    let text = String(String.UnicodeScalarView(scalars))
    let json = JSONOutput.array([.string(text), .object([("key \"\u{2028}", .string("v\n"))])]).text
    #expect(!json.contains("\n") && !json.unicodeScalars.contains("\u{2028}"), "one line")
    let read = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any]
    #expect(read?.first as? String == text)
    #expect((read?.last as? [String: String])?["key \"\u{2028}"] == "v\n")
  }

  @Test func valuesWriteInOrder() {
    let value = JSONOutput.object([("b", 1), ("a", .array(["x", true, .null, .number("1.5")])), ("c", .object([]))])
    #expect(value.text == #"{"b":1,"a":["x",true,null,1.5],"c":{}}"#)
  }
}
