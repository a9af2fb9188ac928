import Foundation
import Testing
@testable import PaywallModel

/// One reader of JSON objects, two policies: our own formats strictly, a Superwall config as the
/// SDK's decoder reads it.
@Suite struct ObjectReaderTests {
  static func reader(_ text: String, _ policy: ObjectReader.Policy) throws -> (ObjectReader, DiagnosticCollector) {
    let root = try JSONParser.parse(text)
    let collector = DiagnosticCollector(file: "f.json", source: Array(text.utf8))
    return (try #require(ObjectReader(root, path: .root, diagnostics: collector, policy: policy, what: "the file")), collector)
  }

  @Test func aDecoderReadsNullAsAbsentTheLastDuplicateAndAWholeFloat() throws {
    let text = #"{"a": 1, "a": 2, "n": null, "f": 5.0, "s": " ", "extra": true}"#
    let (decoder, quiet) = try Self.reader(text, .decoder)
    #expect(decoder.int("a") == 2)
    #expect(decoder.value("n") == nil)
    #expect(decoder.int("f") == 5)
    #expect(decoder.string("s") == " ")
    _ = decoder.string("n", required: true)
    decoder.finish()
    #expect(quiet.diagnostics.map(\.message) == ["'n' must not be null (the SDK requires it)"])

    let (strict, loud) = try Self.reader(text, .strict)
    #expect(strict.int("a") == 1)
    #expect(strict.int("f") == nil)
    #expect(strict.string("s") == nil)
    strict.finish()
    let messages = loud.diagnostics.map(\.message)
    #expect(messages.contains("duplicate key 'a'") && messages.contains("'f' must be a whole number, found a number")
            && messages.contains("'s' must not be empty") && messages.contains("unknown key 'extra'"),
            "\(messages)")
  }

  @Test func anObjectInsideKeepsThePolicy() throws {
    let (decoder, quiet) = try Self.reader(#"{"o": {"x": null, "y": 1.0}}"#, .decoder)
    let inner = try #require(decoder.object("o"))
    #expect(inner.policy == .decoder && inner.value("x") == nil && inner.int("y") == 1)
    #expect(quiet.diagnostics.isEmpty)
  }
}
