#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds a paywall of our format from a Superwall paywall. The page itself is a web page we do
/// not render; what the config gives is its products by slot (`products_v2`), its gating, and the
/// editor's substitutions (`paywalljs_event`), whose text the page shows. From those: a title
/// (the first substitution keyed like a heading), a text (the first keyed like a subtitle or body),
/// a features list (bullets and checklist rows), the product cards, and purchase, restore and
/// close buttons labelled from the substitutions that carry those click behaviours.
package enum PaywallBuilder {
  /// Our paywall document for `paywall`, its slots already checked against the catalog. `layout`
  /// names the substitution keys a team chose for each component; a key a paywall lacks falls
  /// back to the guess.
  package static func document(for paywall: SuperwallConfig.Paywall, slots: [(String, JSONOutput)], layout: SubstitutionLayout? = nil,
                               _ d: DiagnosticCollector) -> JSONOutput {
    let slotNames = slots.map(\.0)
    // Only the substitutions a component uses are converted (and warned about).
    var parts: [Int: TextPart] = [:]
    let variables = TemplateText.VariableMemo()
    func part(_ index: Int) -> TextPart {
      if let done = parts[index] { return done }
      let made = TextPart(paywall.substitutions[index], slots: slotNames, paywall: paywall, variables: variables, d)
      parts[index] = made
      return made
    }
    // By index, like `keyed`: iterating `enumerated()` copied every substitution it looked at.
    func first(_ matches: (SuperwallConfig.Substitution) -> Bool) -> (SuperwallConfig.Substitution, TextPart)? {
      for index in paywall.substitutions.indices where matches(paywall.substitutions[index]) {
        let made = part(index)
        if !made.value.isEmpty { return (paywall.substitutions[index], made) }
      }
      return nil
    }
    let keys = paywall.substitutions.map { KeyText($0.key) }
    // By index: a substitution is copied (its strings retained) only once its key matches.
    func keyed(_ matches: (KeyText) -> Bool) -> (SuperwallConfig.Substitution, TextPart)? {
      for index in keys.indices where matches(keys[index]) {
        let made = part(index)
        if !made.value.isEmpty { return (paywall.substitutions[index], made) }
      }
      return nil
    }
    func named(_ key: String?) -> (SuperwallConfig.Substitution, TextPart)? {
      key.flatMap { key in first { $0.key == key } }
    }
    var used: Set<String> = []
    var components: [JSONOutput] = []
    let heading = named(layout?.title) ?? keyed { ["title", "heading", "headline"].contains($0.lowered) }
      ?? keyed { ($0.contains("title") || $0.contains("heading") || $0.contains("headline")) && !$0.contains("sub") }
    if let heading {
      used.insert(heading.0.key)
      components.append(.object([("type", "title")] + heading.1.members("text", trialKey: "freeTrialText")))
    } else {
      components.append(.object([("type", "title"), ("text", .string(paywall.name))]))
    }
    let chosenTexts = (layout?.texts ?? []).compactMap { named($0) }
    if !chosenTexts.isEmpty {
      for text in chosenTexts {
        used.insert(text.0.key)
        components.append(.object([("type", "text")] + text.1.members("text", trialKey: "freeTrialText")))
      }
    } else if let body = keyed({ key in ["subtitle", "subheading", "paragraph", "body", "description"].contains { key.contains($0) } }) {
      used.insert(body.0.key)
      components.append(.object([("type", "text")] + body.1.members("text", trialKey: "freeTrialText")))
    }
    var bullets = (layout?.features ?? []).compactMap { named($0)?.1.value }
    if bullets.isEmpty {
      for index in keys.indices {
        let key = keys[index]
        guard key.contains("bullet") || key.contains("checklist") || key.lowered.hasPrefix("feature "),
              paywall.substitutions[index].clickBehavior == nil, !used.contains(paywall.substitutions[index].key) else { continue }
        let value = part(index).value
        if !value.isEmpty { bullets.append(value) }
      }
    }
    if !bullets.isEmpty {
      components.append(.object([("type", "features"), ("items", .array(bullets.map { .string($0) }))]))
    }
    if !slots.isEmpty {
      components.append(.object([("type", "products")]))
      let label = named(layout?.purchase) ?? first { $0.clickBehavior == "purchase" } ?? keyed { $0.contains("purchase") }
      components.append(.object([("type", "button")] + (label?.1.members("label", trialKey: "freeTrialLabel") ?? [("label", "Continue")])
                                + [("action", "purchase")]))
    }
    let restore = named(layout?.restore) ?? first { $0.clickBehavior == "restore" }
    components.append(.object([("type", "button"), ("label", .string(restore.map { oneLine($0.1.value) } ?? "Restore purchases")),
                               ("action", "restore")]))
    let close = named(layout?.close) ?? first { $0.clickBehavior == "close" }
    components.append(.object([("type", "button"), ("label", .string(close.map { oneLine($0.1.value) } ?? "Close")), ("action", "close")]))
    var members: [(String, JSONOutput)] = [
      ("id", .string(paywall.identifier)),
      ("name", .string(paywall.name)),
    ]
    if !slots.isEmpty { members.append(("products", .object(slots))) }
    members.append(("featureGating", paywall.gated ? "gated" : "nonGated"))
    // 3.x's presentation_condition (4.x has none; our presenter reads it only for `sdk` 3).
    members.append(("presentationCondition", paywall.presentationCondition == "ALWAYS" ? "always" : "checkUserSubscription"))
    members.append(("components", .array(components)))
    if !paywall.surveys.isEmpty { members.append(("surveys", .array(paywall.surveys.map(SurveyImport.json)))) }
    if !paywall.localNotifications.isEmpty {
      members.append(("localNotifications", .array(paywall.localNotifications.map(LocalNotificationImport.json))))
    }
    return .object(members)
  }

  /// A substitution key lowercased, searched on its bytes: Foundation's `contains` goes through
  /// `range(of:)`, a good part of importing thousands of keys.
  struct KeyText {
    let lowered: String
    private let bytes: [UInt8]

    init(_ key: String) {
      lowered = key.lowercased()
      bytes = Array(lowered.utf8)
    }

    func contains(_ needle: StaticString) -> Bool {
      let n = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
      guard !n.isEmpty, n.count <= bytes.count else { return n.isEmpty }
      return bytes.withUnsafeBufferPointer { bytes in
        (0...(bytes.count - n.count)).contains { ByteSearch.equal(UnsafeBufferPointer(rebasing: bytes[$0..<($0 + n.count)]), n) }
      }
    }
  }

  private static func oneLine(_ text: String) -> String {
    text.split(separator: "\n").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// A substitution's value and free-trial value as text for our templates.
  struct TextPart {
    var value: String
    var freeTrial: String?

    init(_ substitution: SuperwallConfig.Substitution, slots: [String], paywall: SuperwallConfig.Paywall,
         variables: TemplateText.VariableMemo, _ d: DiagnosticCollector) {
      let warn = { (message: String) in
        d.warning(.superwallImport, "substitution \(quoting: substitution.key): \(message)", at: paywall.substitutionsLocation, path: paywall.path.appending("paywalljs_event"))
      }
      // Tidied again after a variable was left out, so no line starts or ends with its space.
      func text(_ html: String) -> String {
        let plain = SubstitutionText.plain(html)
        let kept = SubstitutionText.template(plain, slots: slots, variables: variables, warn: warn)
        guard kept != plain else { return plain }
        return kept.split(separator: "\n").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }.joined(separator: "\n")
      }
      value = text(substitution.value)
      freeTrial = substitution.freeTrialValue.map { text($0) }
      if freeTrial == value || freeTrial?.isEmpty == true { freeTrial = nil }
    }

    func members(_ key: String, trialKey: String) -> [(String, JSONOutput)] {
      [(key, .string(value))] + (freeTrial.map { [(trialKey, JSONOutput.string($0))] } ?? [])
    }
  }
}

/// `--layout FILE`: which of the editor's substitution keys become which of our components, kept
/// in a team's repository so every import draws its paywalls the same way:
///
/// ```json
/// {"title": "Heading", "texts": ["Subheading", "Footnote"], "features": ["bullet-1", "bullet-2"],
///  "purchase": "Purchase Primary", "restore": "restore-1", "close": "close-1"}
/// ```
///
/// Every key is optional; one a paywall lacks falls back to the guess `PaywallBuilder` makes.
package struct SubstitutionLayout: Sendable {
  package var title: String?
  package var texts: [String]?
  package var features: [String]?
  package var purchase: String?
  package var restore: String?
  package var close: String?

  /// Reads a layout file (our format: unknown keys are errors, with a did-you-mean).
  package static func load(path: String) throws(ValidationFailure) -> SubstitutionLayout {
    let (root, diagnostics) = try SourceFile.parse(path: path)
    var layout = SubstitutionLayout()
    if let reader = ObjectReader(root, path: .root, diagnostics: diagnostics, what: "a layout") {
      layout.title = reader.string("title")
      layout.texts = reader.stringArray("texts")?.map(\.0)
      layout.features = reader.stringArray("features")?.map(\.0)
      layout.purchase = reader.string("purchase")
      layout.restore = reader.string("restore")
      layout.close = reader.string("close")
      reader.finish()
    }
    if diagnostics.hasErrors { throw ValidationFailure(diagnostics.diagnostics) }
    return layout
  }
}

/// The editor's HTML as plain text, and its `{{ … }}` variables checked against our templates.
package enum SubstitutionText {
  private static let breakTag = Array("br".utf8)
  private static let blockTags = ["p", "div", "li", "h1", "h2", "h3"].map { Array($0.utf8) }
  private static let entities: [([UInt8], [UInt8])] = [("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"),
                                                       ("&apos;", "'"), ("&amp;", "&")].map { (Array($0.0.utf8), Array($0.1.utf8)) }

  /// `html` without its tags: `<br>`, and the end of a `<p>`, `<div>`, `<li>` or `<h1>`–`<h3>`,
  /// become line breaks; the common entities are decoded; blank lines and spaces at line ends go.
  /// One pass over the UTF-8 bytes (a config has thousands of substitutions).
  package static func plain(_ html: String) -> String {
    var html = html
    // Over the string's own UTF-8 buffer, into one of the same size (a tag or an entity is never
    // shorter than what it becomes): appending byte by byte to arrays cost 100 instructions a
    // byte, a seventh of a large import.
    let out = html.withUTF8 { bytes in
      [UInt8](unsafeUninitializedCapacity: bytes.count) { out, count in
        var n = 0
        var i = 0
        var close = -1
        while i < bytes.count {
          // The text up to the next tag or entity, copied whole.
          let next = ByteSearch.first(UInt8(ascii: "<"), or: UInt8(ascii: "&"), in: bytes, from: i)
          if next > i {
            _ = UnsafeMutableBufferPointer(rebasing: out[n..<(n + next - i)]).initialize(fromContentsOf: bytes[i..<next])
            n += next - i
            i = next
            continue
          }
          let b = bytes[i]
          // The first `>` after `i`: found again only once passed, so text full of `<` and no `>`
          // is read once, not once per `<`.
          if b == UInt8(ascii: "<") && close <= i { close = ByteSearch.first(UInt8(ascii: ">"), in: bytes, from: i + 1) }
          if b == UInt8(ascii: "<"), close < bytes.count {
            var j = i + 1
            let closing = j < close && bytes[j] == UInt8(ascii: "/")
            if closing { j += 1 }
            // The tag's name: its letters (any case) and digits, read in place.
            let nameStart = j
            while j < close, bytes[j].isASCIILetter || bytes[j].isASCIIDigit { j += 1 }
            let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<j])
            if (!closing && isTag(name, breakTag)) || (closing && blockTags.contains { isTag(name, $0) }) {
              out[n] = UInt8(ascii: "\n")
              n += 1
            }
            i = close + 1
            continue
          }
          if b == UInt8(ascii: "&"), let entity = entities.first(where: { bytes[i...].starts(with: $0.0) }) {
            for byte in entity.1 { out[n] = byte; n += 1 }
            i += entity.0.count
            continue
          }
          out[n] = b
          n += 1
          i += 1
        }
        count = n
      }
    }
    // Each line without the spaces at its ends, blank lines dropped: trimmed in bytes where its
    // ends are ASCII, by scalars where one is not (a no-break or an ideographic space is trimmed too).
    var text: [UInt8] = []
    text.reserveCapacity(out.count)
    out.withUnsafeBufferPointer { out in
      var lineStart = 0
      while lineStart < out.count {
        let lineEnd = ByteSearch.first(UInt8(ascii: "\n"), in: out, from: lineStart)
        var low = lineStart
        var high = lineEnd
        lineStart = lineEnd + 1
        while low < high, out[low] == 0x20 || out[low] == 0x09 { low += 1 }
        while high > low, out[high - 1] == 0x20 || out[high - 1] == 0x09 { high -= 1 }
        if low == high { continue }
        if out[low] < 0x80 && out[high - 1] < 0x80 {
          if !text.isEmpty { text.append(UInt8(ascii: "\n")) }
          text.append(contentsOf: UnsafeBufferPointer(rebasing: out[low..<high]))
          continue
        }
        let trimmed = String(decoding: UnsafeBufferPointer(rebasing: out[low..<high]), as: UTF8.self).trimmingSpaces()
        if trimmed.isEmpty { continue }
        if !text.isEmpty { text.append(UInt8(ascii: "\n")) }
        text += trimmed.utf8
      }
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Whether a tag's name is `tag` (lowercase), whatever the case of its letters.
  private static func isTag(_ name: UnsafeBufferPointer<UInt8>, _ tag: [UInt8]) -> Bool {
    guard name.count == tag.count else { return false }
    for (byte, expected) in zip(name, tag) {
      let folded = byte.isASCIIDigit ? byte : byte | 0x20
      if folded != expected { return false }
    }
    return true
  }

  /// `text` with each `{{ … }}` our templates cannot read (an unknown slot or attribute, one never
  /// closed) removed, and `warn` told which: the SDK renders such a variable empty too.
  /// `variables` keeps each verdict for `slots`: a paywall's texts repeat the same few variables.
  package static func template(_ text: String, slots: [String], variables: TemplateText.VariableMemo = .init(),
                               warn: (String) -> Void) -> String {
    var source = text
    // Read in place, and copied only once a variable is left out: most texts keep every one.
    return source.withUTF8 { bytes -> String in
      guard var open = ByteSearch.doubled(UInt8(ascii: "{"), in: bytes, from: 0) else { return text }
      var out: [UInt8]?
      var kept = 0  // bytes before this are in `out`, once there is one
      func leaveOut(_ range: Range<Int>) {
        if out == nil { out = [] }
        out! += UnsafeBufferPointer(rebasing: bytes[kept..<range.lowerBound])
        kept = range.upperBound
      }
      while true {
        guard let close = ByteSearch.doubled(UInt8(ascii: "}"), in: bytes, from: open + 2) else {
          warn("'{{' is never closed; dropped")
          leaveOut(open..<(open + 2))
          guard let next = ByteSearch.doubled(UInt8(ascii: "{"), in: bytes, from: open + 2) else { break }
          open = next
          continue
        }
        let (_, problems) = TemplateText.verdict(on: UnsafeBufferPointer(rebasing: bytes[(open + 2)..<close]), slots: slots, memo: variables)
        if let problem = problems.first(where: { !$0.isWarning }) {
          let variable = String(decoding: UnsafeBufferPointer(rebasing: bytes[open..<(close + 2)]), as: UTF8.self)
          warn("\(excerpt: variable) left out: \(problem.message)")
          leaveOut(open..<(close + 2))
        }
        guard let next = ByteSearch.doubled(UInt8(ascii: "{"), in: bytes, from: close + 2) else { break }
        open = next
      }
      guard var out else { return text }
      out += UnsafeBufferPointer(rebasing: bytes[kept...])
      return String(decoding: out, as: UTF8.self)
    }
  }
}
