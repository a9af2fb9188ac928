import Foundation
import Testing
import PaywallModel

@Suite("JSONParser")
struct JSONParserTests {
  // MARK: - Values

  /// Found by the kill test, whose `store --json` output is one 40 KB line: every value's column
  /// was counted from the start of its line, so a minified file took time quadratic in its size
  /// (minutes for a few hundred KB). The time limit, 3 minutes, is over a thousand times what a
  /// linear parse takes; at 1 minute a CI run whose test pool stalled failed it.
  @Test(.timeLimit(.minutes(3)))
  func aLongSingleLineDocumentParsesInOnePassWithTheRightColumns() throws {
    let count = 200_000
    let text = "[" + (0..<count).map { "{\"k\":\"é\($0 % 10)\"}" }.joined(separator: ",") + "]"
    let root = try JSONParser.parse(text)
    let elements = try #require(root.elements)
    #expect(elements.count == count)
    // Each element is 10 scalars ({"k":"éN"}) and a comma: element n starts at column 2 + 11n.
    #expect(elements[count - 1].location == SourceLocation(line: 1, column: 2 + 11 * (count - 1)))
    #expect(elements[count - 1]["k"]?.location == SourceLocation(line: 1, column: 2 + 11 * (count - 1) + 5))
  }

  @Test func objectsKeepMemberOrderAndDuplicateKeys() throws {
    let root = try #require(Fixture.parse(#"{"b": 1, "a": 2, "b": 3, "c": {}}"#))
    let members = try #require(root.members)
    #expect(members.map(\.key) == ["b", "a", "b", "c"])
    // The subscript answers with the first of duplicated members.
    guard case .number(let first)? = root["b"]?.value else {
      Issue.record("root[\"b\"] is not a number")
      return
    }
    #expect(first == "1")
    guard case .number(let third) = members[2].value.value else {
      Issue.record("the third member is not a number")
      return
    }
    #expect(third == "3")
    #expect(root["c"]?.members?.isEmpty == true)
    #expect(root["missing"] == nil)
  }

  @Test func arraysKeepElementsInOrder() throws {
    let root = try #require(Fixture.parse(#"[true, false, null, "s", 1, [], [2, [3]]]"#))
    let elements = try #require(root.elements)
    #expect(elements.count == 7)
    #expect(elements.map(\.value.typeName) ==
      ["a boolean", "a boolean", "null", "a string", "a number", "an array", "an array"])
    guard case .bool(true) = elements[0].value, case .bool(false) = elements[1].value, case .null = elements[2].value else {
      Issue.record("literals decoded wrongly: \(elements.prefix(3).map(\.value))")
      return
    }
    #expect(elements[3].stringValue == "s")
    #expect(elements[5].elements?.count == 0)
    let nested = try #require(elements[6].elements)
    #expect(nested.count == 2)
    #expect(nested[1].elements?.count == 1)
  }

  @Test(arguments: [
    "0", "-0", "59.99", "4.990", "-0.5e+10", "1E3", "2e-7", "100000000000000000000000000001",
    "0.1000000000000000055511151231257827",
  ])
  func numbersKeepTheirExactSourceText(_ text: String) throws {
    let root = try #require(Fixture.parse("[\(text)]"))
    let element = try #require(root.elements?.first)
    guard case .number(let kept) = element.value else {
      Issue.record("\(text) did not decode as a number: \(element.value)")
      return
    }
    #expect(kept == text)
  }

  @Test func stringEscapesAreDecoded() throws {
    let root = try #require(Fixture.parse(#"["quote \" backslash \\ slash \/ end", "line\nbreak", "caf\u00e9 \u00C9", "tab\there"]"#))
    let strings = try #require(root.elements).map(\.stringValue)
    #expect(strings[0] == #"quote " backslash \ slash / end"#)
    #expect(strings[1] == "line\nbreak")
    #expect(strings[2] == "caf\u{E9} \u{C9}")
    // A tab is decoded, then the sanitiser turns it into a space.
    #expect(strings[3] == "tab here")
  }

  @Test func surrogatePairsDecodeToOneScalar() throws {
    let root = try #require(Fixture.parse(#"["\ud83d\ude00", "\uD834\uDD1E!", "x\ud83dy", "\ude00", "\ud83d\u0041"]"#))
    let strings = try #require(root.elements).map(\.stringValue)
    #expect(strings[0] == "\u{1F600}")
    #expect(strings[0]?.unicodeScalars.count == 1)
    #expect(strings[1] == "\u{1D11E}!")
    // A lone high surrogate, a lone low surrogate, and a high surrogate followed by a non-surrogate
    // each become U+FFFD rather than an invalid string.
    #expect(strings[2] == "x\u{FFFD}y")
    #expect(strings[3] == "\u{FFFD}")
    #expect(strings[4] == "\u{FFFD}A")
  }

  @Test func rawUTF8IsKept() throws {
    let root = try #require(Fixture.parse("[\"日本語 😀 caf\u{E9}\"]"))
    #expect(root.elements?.first?.stringValue == "日本語 😀 caf\u{E9}")
  }

  @Test func byteOrderMarkIsSkippedAndDoesNotShiftColumns() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8)
    let root = try JSONParser.parse(bytes: bytes)
    #expect(root.location == Position(line: 1, column: 1))
    let member = try #require(root.members?.first)
    #expect(member.key == "a")
    #expect(member.keyLocation == Position(line: 1, column: 2))
    #expect(member.value.location == Position(line: 1, column: 7))
  }

  @Test func byteOrderMarkIsOnlyAllowedAtTheStart() throws {
    let bytes: [UInt8] = Array(" ".utf8) + [0xEF, 0xBB, 0xBF] + Array("{}".utf8)
    let error = try #require(Fixture.syntaxError(bytes: bytes))
    #expect(error.location == Position(line: 1, column: 2))
    #expect(error.message.contains("expected a value"))
  }

  // MARK: - Locations

  @Test func nestedValuesAndKeysHaveLineAndColumn() throws {
    let text = """
      {
        "a": [1, {"b": "x"}],
        "c": {
          "d": null
        }
      }
      """
    let root = try #require(Fixture.parse(text))
    #expect(root.location == Position(line: 1, column: 1))
    let members = try #require(root.members)
    #expect(members[0].keyLocation == Position(line: 2, column: 3))
    let array = members[0].value
    #expect(array.location == Position(line: 2, column: 8))
    let elements = try #require(array.elements)
    #expect(elements[0].location == Position(line: 2, column: 9))
    #expect(elements[1].location == Position(line: 2, column: 12))
    let inner = try #require(elements[1].members?.first)
    #expect(inner.keyLocation == Position(line: 2, column: 13))
    #expect(inner.value.location == Position(line: 2, column: 18))
    #expect(members[1].keyLocation == Position(line: 3, column: 3))
    #expect(members[1].value.location == Position(line: 3, column: 8))
    let d = try #require(members[1].value.members?.first)
    #expect(d.keyLocation == Position(line: 4, column: 5))
    #expect(d.value.location == Position(line: 4, column: 10))
  }

  @Test func columnsCountUnicodeScalarsNotBytes() throws {
    // "é" is two UTF-8 bytes but one column; "😀" is four bytes but one column.
    let root = try #require(Fixture.parse("{\"\u{E9}\": 1, \"k\": [\"😀\", 2]}"))
    let members = try #require(root.members)
    #expect(members[0].key == "\u{E9}")
    #expect(members[0].value.location == Position(line: 1, column: 7))
    #expect(members[1].keyLocation == Position(line: 1, column: 10))
    let elements = try #require(members[1].value.elements)
    #expect(elements[0].location == Position(line: 1, column: 16))
    #expect(elements[1].location == Position(line: 1, column: 21))
  }

  /// Strings are scanned, and columns counted, eight bytes at a time: each byte that ends a run
  /// (a quote, an escape, a control character, DEL and any non-ASCII byte on the fast path) must be
  /// found at every place in and across those words, and every multi-byte character count once.
  @Test(arguments: ["\\n", "\\\"", "\\u00e9", "\u{7F}", "\u{E9}", "\u{20AC}", "😀", "\u{202E}", "\u{01}"])
  func stringsEndAndColumnsCountWhereverAByteFallsInAWord(_ probe: String) throws {
    for before in 0..<20 {
      let content = String(repeating: "a", count: before) + probe + String(repeating: "b", count: 19 - before)
      let json = "{\"k\": \"" + content + "\", \"z\": 1}"
      if probe == "\u{01}" {
        // A raw control character is refused where it is: `{"k": "` is 7 columns.
        let error = try #require(Fixture.syntaxError(json))
        #expect(error.location == Position(line: 1, column: 8 + before), "at \(before)")
        continue
      }
      let root = try #require(Fixture.parse(json))
      let decoded = switch probe {
      case "\\n": "\n"
      case "\\\"": "\""
      case "\\u00e9": "\u{E9}"
      default: probe
      }
      let expected = UntrustedText.sanitize(String(repeating: "a", count: before) + decoded + String(repeating: "b", count: 19 - before))
      #expect(root["k"]?.stringValue == expected, "at \(before)")
      // The next key's column counts the literal's scalars as written: `{"k": "`, the text, `", "`.
      let written = content.unicodeScalars.count
      #expect(root.members?[1].keyLocation == Position(line: 1, column: 8 + written + 3), "at \(before)")
    }
  }

  /// Columns are counted over long runs in blocks of 255 words (2,040 bytes); a run of two-byte
  /// scalars ending on either side of a block's end, or many blocks long, still counts each once.
  @Test(arguments: [1, 1019, 1020, 1021, 1024, 2040, 2041, 5000])
  func columnsCountScalarsAcrossLongRuns(_ count: Int) throws {
    // `{"k": "` is 7 columns; then `count` two-byte scalars and a three-byte one, `", "`: key z.
    let json = "{\"k\": \"" + String(repeating: "\u{E9}", count: count) + "\u{20AC}\", \"z\": 1, \"y\": [true]}"
    let root = try #require(Fixture.parse(json))
    let members = try #require(root.members)
    let z = 8 + count + 1 + 3
    #expect(members[1].keyLocation == Position(line: 1, column: z))
    #expect(members[1].value.location == Position(line: 1, column: z + 5))
    #expect(members[2].keyLocation == Position(line: 1, column: z + 8))
    #expect(members[2].value.elements?.first?.location == Position(line: 1, column: z + 14))
  }

  @Test func errorColumnsCountUnicodeScalars() throws {
    let error = try #require(Fixture.syntaxError("{\"caf\u{E9}\": x}"))
    #expect(error.location == Position(line: 1, column: 10))
  }

  @Test func crlfLineEndingsCountOneLineEach() throws {
    let root = try #require(Fixture.parse("{\r\n  \"a\": 1,\r\n  \"b\": 2\r\n}"))
    let members = try #require(root.members)
    #expect(members[0].keyLocation == Position(line: 2, column: 3))
    #expect(members[1].value.location == Position(line: 3, column: 8))
  }

  // MARK: - Syntax errors

  struct SyntaxCase: Sendable, CustomTestStringConvertible {
    var name: String
    var json: String
    var line: Int
    var column: Int
    var message: String
    var testDescription: String { name }
  }

  static let syntaxCases: [SyntaxCase] = [
    SyntaxCase(name: "trailing comma in object", json: #"{"a": 1,}"#, line: 1, column: 9,
               message: "trailing comma before '}'"),
    SyntaxCase(name: "trailing comma in object, multi-line", json: "{\n  \"a\": 1,\n}", line: 3, column: 1,
               message: "trailing comma before '}'"),
    SyntaxCase(name: "trailing comma in array", json: "[1, 2,]", line: 1, column: 7,
               message: "trailing comma before ']'"),
    SyntaxCase(name: "trailing comma in nested array", json: "{\n  \"items\": [\n    \"a\",\n  ]\n}", line: 4, column: 3,
               message: "trailing comma before ']'"),
    SyntaxCase(name: "missing colon", json: #"{"a" 1}"#, line: 1, column: 6,
               message: #"expected ':' after the key "a", found '1'"#),
    SyntaxCase(name: "missing comma between members", json: "{\n  \"a\": 1\n  \"b\": 2\n}", line: 3, column: 3,
               message: #"expected ',' or '}' after the value of "a", found '"'"#),
    SyntaxCase(name: "missing comma in array", json: "[1 2]", line: 1, column: 4,
               message: "expected ',' or ']' in the array, found '2'"),
    SyntaxCase(name: "unterminated string", json: #"{"name": "abc"#, line: 1, column: 10,
               message: "unterminated string (opened here)"),
    SyntaxCase(name: "unterminated string on a later line", json: "[\n  \"ok\",\n  \"caf\u{E9} never closed", line: 3, column: 3,
               message: "unterminated string (opened here)"),
    SyntaxCase(name: "single-quoted string value", json: "{\"a\": 'x'}", line: 1, column: 7,
               message: "strings must use double quotes (\"), not single quotes"),
    SyntaxCase(name: "single-quoted key", json: "{'a': 1}", line: 1, column: 2,
               message: "keys must use double quotes (\"), not single quotes"),
    SyntaxCase(name: "leading zero", json: "[01]", line: 1, column: 3,
               message: "numbers must not have leading zeros"),
    SyntaxCase(name: "negative leading zero", json: #"{"n": -007}"#, line: 1, column: 9,
               message: "numbers must not have leading zeros"),
    SyntaxCase(name: "minus without digits", json: "[-]", line: 1, column: 3, message: "expected a digit after '-'"),
    SyntaxCase(name: "dot without digits", json: "[1.]", line: 1, column: 4, message: "expected a digit after '.'"),
    SyntaxCase(name: "exponent without digits", json: "[1e+]", line: 1, column: 5, message: "expected a digit in the exponent"),
    SyntaxCase(name: "invalid escape", json: #"["a\x"]"#, line: 1, column: 5, message: #"invalid escape '\x' in a string"#),
    // Found by fuzzing: the byte after the backslash was echoed raw, so a file could put an escape
    // sequence into `validate`'s output.
    SyntaxCase(name: "invalid escape of a control character", json: "[\"a\\\u{1B}[31m\"]", line: 1, column: 5,
               message: "invalid escape: '\\' followed by control character 0x1B in a string"),
    SyntaxCase(name: "invalid escape of a non-ASCII character", json: "[\"\\\u{9B}\"]", line: 1, column: 4,
               message: "invalid escape: '\\' followed by a non-ASCII character in a string"),
    SyntaxCase(name: "missing colon after a key with a line break", json: #"{"a\nb" 1}"#, line: 1, column: 9,
               message: #"expected ':' after the key "a\nb", found '1'"#),
    SyntaxCase(name: "short unicode escape", json: #"["\u12G4"]"#, line: 1, column: 7, message: #"expected four hex digits after \u"#),
    SyntaxCase(name: "raw newline in string", json: "[\"ab\ncd\"]", line: 1, column: 5,
               message: "unescaped line break inside a string (write \\n)"),
    SyntaxCase(name: "raw tab in string", json: "[\"a\tb\"]", line: 1, column: 4,
               message: "unescaped control character 0x9 inside a string"),
    SyntaxCase(name: "end of file instead of a value", json: #"{"a": "#, line: 1, column: 7,
               message: "unexpected end of file, expected a value"),
    SyntaxCase(name: "empty file", json: "", line: 1, column: 1, message: "unexpected end of file, expected a value"),
    SyntaxCase(name: "end of file inside an object", json: "{\"a\": 1\n", line: 2, column: 1,
               message: "unexpected end of file inside an object, expected '}'"),
    SyntaxCase(name: "end of file inside an array", json: "[1, 2", line: 1, column: 6,
               message: "unexpected end of file inside an array, expected ']'"),
    SyntaxCase(name: "garbage after the top-level value", json: "{} x", line: 1, column: 4,
               message: "unexpected 'x' after the top-level value"),
    SyntaxCase(name: "second value after the top-level value", json: "{\"a\": 1}\n}", line: 2, column: 1,
               message: "unexpected '}' after the top-level value"),
    SyntaxCase(name: "misspelt literal", json: "[tru]", line: 1, column: 2, message: "expected a value, found 't'"),
    SyntaxCase(name: "bare word", json: #"{"a": yes}"#, line: 1, column: 7, message: "expected a value, found 'y'"),
    SyntaxCase(name: "comment", json: "{\n  // no comments in JSON\n  \"a\": 1\n}", line: 2, column: 3,
               message: "expected a quoted key, found '/'"),
  ]

  @Test(arguments: syntaxCases)
  func syntaxErrorsHaveExactPositionAndMessage(_ c: SyntaxCase) throws {
    let error = try #require(Fixture.syntaxError(c.json), "\(c.name) should not parse")
    #expect(error.location == Position(line: c.line, column: c.column))
    #expect(error.message == c.message)
  }

  @Test func nestingUpToMaximumDepthIsAccepted() throws {
    let depth = JSONParser.maximumDepth
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    var node = try JSONParser.parse(text)
    var levels = 1
    while let inner = node.elements?.first {
      node = inner
      levels += 1
    }
    #expect(levels == depth)
  }

  @Test func nestingDeeperThanMaximumDepthIsRefused() throws {
    let depth = JSONParser.maximumDepth + 1
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let error = try #require(Fixture.syntaxError(text))
    #expect(error.message == "nesting deeper than \(JSONParser.maximumDepth) levels")
    #expect(error.location == Position(line: 1, column: depth))
  }

  @Test func deeplyNestedObjectsAreRefusedWithoutCrashing() throws {
    // 100 000 levels would overflow the stack of a naive recursive parser.
    let text = String(repeating: #"{"a":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000)
    let error = try #require(Fixture.syntaxError(text))
    #expect(error.message.contains("nesting deeper than"))
    #expect(error.location == Position(line: 1, column: 5 * JSONParser.maximumDepth + 1))
  }

  /// A syntax error after a 5,000-character key quotes 60 characters of it, not the whole key.
  @Test(arguments: [#"{"KEY" 1}"#, #"{"KEY": 1 2}"#])
  func aSyntaxErrorQuotesALongKeyShort(template: String) throws {
    let json = template.replacingOccurrences(of: "KEY", with: String(repeating: "k", count: 5000))
    let error = try #require(Fixture.syntaxError(bytes: Array(json.utf8)))
    #expect(error.message.count < 200 && error.message.contains("…"), "\(error.message.count) characters")
  }
}

@Suite("DecimalParsing")
struct DecimalParsingTests {
  /// Prices are built without a Locale; they must equal what the POSIX locale parse gives.
  @Test(arguments: ["0", "0.99", "9.99", "10.50", "0.05", "100", "-3.5", "-0", "00012.3400", "1234567890123456789",
                    "12345678901234567890.5", "0.000000000000000000001", "59.99", "1"])
  func agreesWithTheLocaleParse(text: String) throws {
    let ours = try #require(DecimalParsing.parse(text))
    let reference = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
    #expect(ours == reference)
    #expect(ours.description == reference.description)
  }

  @Test(arguments: ["", "-", ".", "1e5", "1.2.3", "--1", "1-", " 1", "0x10", "١٢"])
  func refusesWhatIsNotAPlainDecimal(text: String) {
    #expect(DecimalParsing.parse(text) == nil)
  }
}
