import Testing
@testable import PaywallModel

/// The scanner reads a decoded `paywalljs_event` without building its tree; whatever it reads
/// must be what the tree gives (`PaywallJSEvent.substitutions(in:)`), byte for byte, on events of
/// every shape an editor or a hand could write, and it must read the editor's plain JSON itself.
@Suite("substitution scanner")
struct SubstitutionScannerTests {
  /// Each substitution's four strings as their UTF-8 bytes: `==` on Strings would take a
  /// canonically equivalent spelling for the same text.
  static func exact(_ list: [SuperwallConfig.Substitution]) -> [[[UInt8]?]] {
    list.map { [Array($0.key.utf8), Array($0.value.utf8), $0.freeTrialValue.map { Array($0.utf8) }, $0.clickBehavior.map { Array($0.utf8) }] }
  }

  static func tree(_ bytes: [UInt8]) -> [[[UInt8]?]]? {
    guard let root = try? JSONParser.parse(bytes: bytes) else { return nil }
    return exact(PaywallJSEvent.substitutions(in: root))
  }

  /// Random JSON in the shapes an event takes, with the spellings that could tell the two apart.
  struct Writer {
    var random: SplitMix64
    static let texts = ["Title", "Unlock <b>Pro</b>", "<p class=\"paragraph-text\">Line 1</p>", "caf\u{E9}", "cafe\u{301}",
                        "tab\there", "back\\slash /", "{{ products.primary.price }} per {{ primary.period }}", "\u{7F}del",
                        "\u{202E}bidi", "emoji \u{1F642}", "", " ", "line\nbreak", String(repeating: "x{", count: 2_100) + "{{ a"]
    static let keys = ["key", "value", "freeTrialValue", "properties", "Key", "\u{212A}ey", "value ", "other", "event_name",
                       "substitutions", "property", "clickBehavior", "type"]

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func space() -> String { chance(70) ? "" : pick([" ", "\n", "\t ", "\r\n  "]) }

    mutating func string(_ text: String) -> String {
      var out = "\""
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "/": out += chance(30) ? "\\/" : "/"
        case "\n": out += chance(80) ? "\\n" : "\\u000a"
        case "\t": out += "\\t"
        case "\u{7F}" where chance(20): out += "\\u007f"
        default: out.unicodeScalars.append(scalar)
        }
      }
      return out + "\""
    }

    mutating func scalar() -> String {
      pick([{ (w: inout Writer) in w.string(w.pick(Writer.texts)) }, { _ in "null" }, { _ in "true" }, { _ in "false" },
            { w in w.pick(["0", "-12", "3.25", "-0.5e+3", "1E9", "7e-2"]) }])(&self)
    }

    mutating func value(depth: Int) -> String {
      guard depth < 4, chance(40) else { return scalar() }
      if chance(50) { return "[" + (0..<Int.random(in: 0...3, using: &random)).map { _ in space() + value(depth: depth + 1) }.joined(separator: ",") + "]" }
      return object((0..<Int.random(in: 0...3, using: &random)).map { _ in (pick(Self.keys), value(depth: depth + 1)) })
    }

    mutating func object(_ members: [(String, String)]) -> String {
      "{" + members.map { space() + string($0.0) + space() + ":" + space() + $0.1 + space() }.joined(separator: ",") + "}"
    }

    mutating func properties() -> String {
      guard chance(80) else { return value(depth: 2) }
      let behaviours = (0..<Int.random(in: 0...3, using: &random)).map { _ -> String in
        if chance(25) { return value(depth: 2) }
        let type = chance(80) ? string(pick(["purchase", "restore", "close", "open-url"])) : scalar()
        let click = chance(85) ? object([("type", type)] + (chance(20) ? [("type", string("second"))] : [])) : scalar()
        return object([(chance(90) ? "property" : "Property", chance(85) ? object([("clickBehavior", click)]) : scalar())])
      }
      return "[" + behaviours.joined(separator: ",") + "]"
    }

    mutating func item() -> String {
      guard chance(92) else { return value(depth: 2) }
      // Mostly an editor's item, with a few members more, in any order.
      var members: [(String, String)] = chance(70) ? [("key", string(pick(Self.texts))), ("value", string(pick(Self.texts)))]
        + (chance(50) ? [("freeTrialValue", string(pick(Self.texts)))] : []) + (chance(40) ? [("properties", properties())] : []) : []
      for _ in 0..<Int.random(in: members.isEmpty ? 1...6 : 0...2, using: &random) {
        let key = chance(85) ? pick(["key", "value", "freeTrialValue", "properties"]) : pick(Self.keys)
        members.append((key, key == "properties" ? properties() : chance(85) ? string(pick(Self.texts)) : value(depth: 2)))
      }
      return object(members.shuffled(using: &random))
    }

    mutating func event() -> String {
      guard chance(90) else { return value(depth: 1) }
      var members: [(String, String)] = chance(70) ? [("event_name", string("template_substitutions")), ("substitutions", items())] : []
      for _ in 0..<Int.random(in: members.isEmpty ? 1...4 : 0...2, using: &random) {
        switch Int.random(in: 0..<5, using: &random) {
        case 0, 1: members.append(("event_name", chance(80) ? string(pick(["template_substitutions", "other", "template_substitutions "])) : scalar()))
        case 2, 3: members.append(("substitutions", chance(90) ? items() : value(depth: 1)))
        default: members.append((pick(Self.keys), value(depth: 1)))
        }
      }
      return object(members.shuffled(using: &random))
    }

    mutating func items() -> String {
      "[" + (0..<Int.random(in: 0...6, using: &random)).map { _ in space() + item() }.joined(separator: ",") + "]"
    }

    mutating func document() -> String {
      let body = chance(85) ? "[" + (0..<Int.random(in: 0...3, using: &random)).map { _ in space() + event() }.joined(separator: ",") + "]" : event()
      return space() + body + space()
    }
  }

  @Test func whatItReadsTheTreeReadsAlike() {
    var writer = Writer(random: SplitMix64(seed: 0x5CA7))
    var read = 0, left = 0, found = 0
    for _ in 0..<4_000 {
      let bytes = Array(writer.document().utf8)
      guard let scanned = SubstitutionScanner.substitutions(in: bytes) else {
        left += 1
        continue
      }
      read += 1
      found += scanned.count
      #expect(Self.exact(scanned) == Self.tree(bytes), "\(String(decoding: bytes, as: UTF8.self))")
    }
    // Both paths run: the plain JSON is read here, and a `\u` escape is left to the parser.
    #expect(read > 2_000 && left > 200 && found > 2_000, "read \(read), left \(left), substitutions \(found)")
  }

  @Test func brokenTextIsNeverReadOnlyByTheScanner() {
    // One to three bytes changed, dropped or doubled: what the scanner still reads the parser
    // must accept and read alike; what it refuses goes to the parser, which gives the warning.
    var writer = Writer(random: SplitMix64(seed: 0xB20C))
    let noise = Array("{}[],:\"\\ 0-e.tnfx\u{01}".utf8)
    var read = 0, refused = 0
    for _ in 0..<4_000 {
      var bytes = Array(writer.document().utf8)
      guard !bytes.isEmpty else { continue }
      for _ in 0..<Int.random(in: 1...3, using: &writer.random) where !bytes.isEmpty {
        let at = Int.random(in: 0..<bytes.count, using: &writer.random)
        switch Int.random(in: 0..<3, using: &writer.random) {
        case 0: bytes[at] = writer.pick(noise)
        case 1: bytes.remove(at: at)
        default: bytes.insert(bytes[at], at: at)
        }
      }
      guard let scanned = SubstitutionScanner.substitutions(in: bytes) else {
        refused += 1
        continue
      }
      read += 1
      #expect(Self.exact(scanned) == Self.tree(bytes), "\(String(decoding: bytes, as: UTF8.self))")
    }
    #expect(read > 200 && refused > 1_000, "read \(read), refused \(refused)")
  }

  @Test func anEditorsEventIsReadByTheScanner() throws {
    let text = """
      [{"event_name":"template_substitutions","substitutions":[{"key":"Title","value":"Unlock <b>Pro</b>",\
      "freeTrialValue":"Try {{ primary.trialPeriodDays }} days free"},{"key":"Purchase Primary","value":"Continue",\
      "properties":[{"property":{"clickBehavior":{"type":"purchase"}}}]}]}]
      """
    let scanned = try #require(SubstitutionScanner.substitutions(in: Array(text.utf8)))
    #expect(scanned == PaywallJSEvent.substitutions(in: try JSONParser.parse(text)))
    #expect(scanned.map(\.clickBehavior) == [nil, "purchase"])
  }

  @Test(arguments: ["[{\"event_name\":\"template_substitutions\",\"substitutions\":[{\"key\":\"\\u0041\",\"value\":\"v\"}]}]",
                    "\u{FEFF}[]", String(repeating: "[", count: 600) + String(repeating: "]", count: 600), "[] x", "[1,]", "", "  "])
  func whatItDoesNotReadIsLeftToTheParser(_ text: String) {
    #expect(SubstitutionScanner.substitutions(in: Array(text.utf8)) == nil)
  }
}
