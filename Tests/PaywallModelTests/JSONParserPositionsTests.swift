import Testing
import PaywallModel

/// `parse(bytes:positions: false)` builds the same tree without placing its values, and places an
/// error exactly where the parse with positions does (the warning for a bad `paywalljs_event`
/// quotes it).
@Suite("JSONParser without positions")
struct JSONParserPositionsTests {
  /// The tree as text, its strings, cut strings and shape, without places.
  static func shape(_ node: JSONNode) -> String {
    switch node.value {
    case .null: "null"
    case .bool(let b): "\(b)"
    case .number(let n): "n\(n)"
    case .string(let s): "s\(s.debugDescription)|\(node.uncut?.debugDescription ?? "-")"
    case .array(let items): "[" + items.map(shape).joined(separator: ",") + "]"
    case .object(let members): "{" + members.map { "\($0.key.debugDescription):\(shape($0.value))" }.joined(separator: ",") + "}"
    }
  }

  static func places(_ node: JSONNode) -> [PaywallModel.SourceLocation] {
    switch node.value {
    case .array(let items): [node.location] + items.flatMap(places)
    case .object(let members): [node.location] + members.flatMap { [$0.keyLocation] + places($0.value) }
    default: [node.location]
    }
  }

  @Test func theTreeIsTheSameAndUnplaced() throws {
    let long = String(repeating: "x", count: 5_000)
    let text = """
      [{"event_name": "template_substitutions", "substitutions": [
        {"key": "Title", "value": "Unlock <b>Pro</b>\\n\\u00e9\\"", "freeTrialValue": null, "n": -1.5e3},
        {"key": "bullet", "value": "\(long)", "properties": [{"property": {"clickBehavior": {"type": "purchase"}}}]},
        {"key": "dup", "key": "second", "value": "caf\u{E9} \\t tab", "ok": true}]}]
      """
    let placed = try JSONParser.parse(bytes: Array(text.utf8))
    let unplaced = try JSONParser.parse(bytes: Array(text.utf8), positions: false)
    #expect(Self.shape(unplaced) == Self.shape(placed))
    #expect(Self.places(unplaced).allSatisfy { $0 == PaywallModel.SourceLocation.start })
    #expect(Set(Self.places(placed)).count > 10, "the parse with positions places its values")
  }

  @Test(arguments: [
    "[{\"a\": \"never closed", "{\"a\": 1,}", "[1, 2", "{\"a\" 1}", "\n\n  [\"x\", \"y\\q\"]", "[\"tab\there\"]",
    "{\"k\": \"\u{E9}\u{E9}\", \"k2\": \"unterminated", "[1] 2", "[-]", "[01]", "{'a': 1}",
  ])
  func anErrorIsPlacedAsWithPositions(_ text: String) {
    let bytes = Array(text.utf8)
    var placed: JSONSyntaxError?
    var unplaced: JSONSyntaxError?
    do { _ = try JSONParser.parse(bytes: bytes) } catch { placed = error }
    do { _ = try JSONParser.parse(bytes: bytes, positions: false) } catch { unplaced = error }
    #expect(placed != nil)
    #expect(unplaced == placed)
  }
}
