import Foundation
import Testing
import PaywallModel

/// A large document is parsed with its root object's arrays split over the cores: the tree, its
/// places, and any error must be what the one-core parse gives, and a document the first pass
/// cannot split is parsed the ordinary way.
@Suite("JSONParser splitting a large document")
struct JSONParserSplitTests {
  /// The one-core parse and the split one: the tree and its places, or the error.
  static func both(_ text: String, cores: Int = 2) -> (one: String, split: String, wasSplit: Bool) {
    let bytes = Array(text.utf8)
    func describe(_ parse: () throws(JSONSyntaxError) -> JSONNode) -> String {
      do {
        let root = try parse()
        return JSONParserPositionsTests.shape(root) + " @ " + JSONParserPositionsTests.places(root).map(\.description).joined(separator: " ")
      } catch {
        return "error \(error.location): \(error.message)"
      }
    }
    var wasSplit = false
    let one = describe { () throws(JSONSyntaxError) in try JSONParser.parse(bytes: bytes) }
    let split = describe { () throws(JSONSyntaxError) in
      let (root, split) = try JSONParser.parseSplittingReporting(bytes: bytes, threshold: 0, cores: cores)
      wasSplit = split
      return root
    }
    return (one, split, wasSplit)
  }

  /// A config-like document: arrays of objects on many lines, strings with escapes, non-ASCII
  /// text (columns count scalars), a long string the cap cuts, nested arrays, empty arrays, and
  /// values that are not arrays among the root's members.
  static func document(elements: Int, minified: Bool = false) -> String {
    let long = String(repeating: "é", count: 3_000)
    var paywalls: [String] = []
    for n in 0..<elements {
      paywalls.append("""
        {"id": "\(n)", "name": "Caf\u{E9} \(n) \\"quoted\\" \\u00e9\\ud83d\\ude00", "tags": [[1, 2], [], {"x": null}],
         "price": -1.5e\(n % 3), "ok": \(n % 2 == 0), "long": "\(n == 3 ? long : "short")"}
        """)
    }
    let text = """
      \u{FEFF}{"build_id": "b", "toggles": [],
       "paywall_responses": [
         \(paywalls.joined(separator: ",\n   "))
       ],
       "one": [ {"only": 1} ],
       "trigger_options": [\(paywalls.reversed().joined(separator: ", "))], "last": {"a": [1, 2, 3]}}\n
      """
    return minified ? text.replacingOccurrences(of: "\n", with: " ") : text
  }

  @Test(arguments: [1, 2, 3, 7, 40])
  func aSplitParseGivesTheSameTreeAndPlaces(elements: Int) {
    for minified in [false, true] {
      for cores in [2, 3, 8] {
        let (one, split, wasSplit) = Self.both(Self.document(elements: elements, minified: minified), cores: cores)
        #expect(split == one, "elements \(elements), minified \(minified), cores \(cores)")
        #expect(wasSplit == (elements >= 2), "an array of two elements or more is split")
      }
    }
  }

  /// Each error, wherever it is (in an element, between them, after the arrays, in the first
  /// pass's way), is the one-core parse's, at its place.
  @Test(arguments: [
    ("\"price\": -1.5e1", "\"price\": -1.5e"),
    ("\"ok\": true", "\"ok\": tru"),
    ("[[1, 2], []", "[[1, 2], [],]"),
    ("\"name\": \"Caf", "\"name\": \"C\taf"),
    ("\"name\": \"Caf", "\"name\": \"C\naf"),
    ("\"short\"}", "\"short\"},"),
    ("\"short\"}", "\"short\"]"),
    ("\"short\"}", "\"short\""),
    ("\"last\": {", "\"last\": ["),
    ("\"toggles\": []", "\"toggles\": [}"),
    ("\"build_id\": \"b\"", "\"build_id\": \"b"),
    ("\\u00e9", "\\u00g9"),
    ("\"one\": [ {\"only\": 1} ]", "\"one\": [ {\"only\": 1} ]]"),
    ("}}\n", "}} 2\n"),
  ])
  func anErrorIsTheOneCoreParsesError(_ original: String, _ replacement: String) throws {
    let text = Self.document(elements: 7)
    let broken = try #require(text.range(of: original).map { text.replacingCharacters(in: $0, with: replacement) })
    let (one, split, _) = Self.both(broken)
    #expect(one.hasPrefix("error "), "the edit \(replacement) makes the document invalid")
    #expect(split == one)
  }

  @Test func aDocumentOfAnotherShapeIsParsedOnOneCore() {
    for text in ["[1, 2, 3]", "\"text\"", "{\"a\": {\"b\": [1, 2]}}", "{\"a\": [1]}", "{}", "{\"a\": []}"] {
      let (one, split, wasSplit) = Self.both(text)
      #expect(split == one)
      #expect(!wasSplit, "\(text) has no array of the root object to split")
    }
  }

  @Test func nestingIsLimitedAsOnOneCore() {
    let deep = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
    let (one, split, _) = Self.both("{\"a\": [1, \(deep)]}")
    #expect(one.contains("nesting deeper"))
    #expect(split == one)
    let fits = String(repeating: "[", count: JSONParser.maximumDepth - 3) + String(repeating: "]", count: JSONParser.maximumDepth - 3)
    let (fine, splitFine, wasSplit) = Self.both("{\"a\": [1, \(fits)]}")
    #expect(!fine.hasPrefix("error"))
    #expect(splitFine == fine && wasSplit)
  }

  @Test func aSmallDocumentOrOneCoreIsNotSplit() throws {
    let bytes = Array(Self.document(elements: 7).utf8)
    #expect(try !JSONParser.parseSplittingReporting(bytes: bytes).split, "under the threshold")
    #expect(try !JSONParser.parseSplittingReporting(bytes: bytes, threshold: 0, cores: 1).split)
  }
}
