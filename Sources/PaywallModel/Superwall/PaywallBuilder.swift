import Foundation

/// Builds a paywall of our format from a Superwall paywall. The page itself is a web page we do
/// not render; what the config gives is its products by slot (`products_v2`), its gating, and the
/// editor's substitutions (`paywalljs_event`), whose text the page shows. From those: a title
/// (the first substitution keyed like a heading), a text (the first keyed like a subtitle or body),
/// a features list (bullets and checklist rows), the product cards, and purchase, restore and
/// close buttons labelled from the substitutions that carry those click behaviours.
package enum PaywallBuilder {
  /// Our paywall document for `paywall`, its slots already checked against the catalog.
  package static func document(for paywall: SuperwallConfig.Paywall, slots: [(String, String)], _ d: DiagnosticCollector) -> JSONOutput {
    let slotNames = slots.map(\.0)
    let texts = paywall.substitutions.map { substitution in
      (substitution, TextPart(substitution, slots: slotNames, paywall: paywall, d))
    }
    func first(_ matches: (String) -> Bool) -> (SuperwallConfig.Substitution, TextPart)? {
      texts.first { matches($0.0.key.lowercased()) && !$0.1.value.isEmpty }
    }
    var used: Set<String> = []
    var components: [JSONOutput] = []
    let heading = first { ["title", "heading", "headline"].contains($0) }
      ?? first { ($0.contains("title") || $0.contains("heading") || $0.contains("headline")) && !$0.contains("sub") }
    if let heading {
      used.insert(heading.0.key)
      components.append(.object([("type", "title")] + heading.1.members("text", trialKey: "freeTrialText")))
    } else {
      components.append(.object([("type", "title"), ("text", .string(paywall.name))]))
    }
    if let body = first({ key in ["subtitle", "subheading", "paragraph", "body", "description"].contains { key.contains($0) } }) {
      used.insert(body.0.key)
      components.append(.object([("type", "text")] + body.1.members("text", trialKey: "freeTrialText")))
    }
    let bullets = texts.filter { entry in
      let key = entry.0.key.lowercased()
      return !used.contains(entry.0.key) && !entry.1.value.isEmpty && entry.0.clickBehavior == nil
        && (key.contains("bullet") || key.contains("checklist") || key.hasPrefix("feature "))
    }
    if !bullets.isEmpty {
      components.append(.object([("type", "features"), ("items", .array(bullets.map { .string($0.1.value) }))]))
    }
    if !slots.isEmpty {
      components.append(.object([("type", "products")]))
      let label = texts.first { $0.0.clickBehavior == "purchase" && !$0.1.value.isEmpty }
        ?? texts.first { $0.0.key.lowercased().contains("purchase") && !$0.1.value.isEmpty }
      components.append(.object([("type", "button")] + (label?.1.members("label", trialKey: "freeTrialLabel") ?? [("label", "Continue")])
                                + [("action", "purchase")]))
    }
    let restore = texts.first { $0.0.clickBehavior == "restore" && !$0.1.value.isEmpty }
    components.append(.object([("type", "button"), ("label", .string(restore.map { oneLine($0.1.value) } ?? "Restore purchases")),
                               ("action", "restore")]))
    let close = texts.first { $0.0.clickBehavior == "close" && !$0.1.value.isEmpty }
    components.append(.object([("type", "button"), ("label", .string(close.map { oneLine($0.1.value) } ?? "Close")), ("action", "close")]))
    var members: [(String, JSONOutput)] = [
      ("id", .string(paywall.identifier)),
      ("name", .string(paywall.name)),
    ]
    if !slots.isEmpty { members.append(("products", .object(slots.map { ($0.0, .string($0.1)) }))) }
    members.append(("featureGating", paywall.gated ? "gated" : "nonGated"))
    // 3.x's presentation_condition (4.x has none; our presenter reads it only for `sdk` 3).
    members.append(("presentationCondition", paywall.presentationCondition == "ALWAYS" ? "always" : "checkUserSubscription"))
    members.append(("components", .array(components)))
    return .object(members)
  }

  private static func oneLine(_ text: String) -> String {
    text.split(separator: "\n").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// A substitution's value and free-trial value as text for our templates.
  struct TextPart {
    var value: String
    var freeTrial: String?

    init(_ substitution: SuperwallConfig.Substitution, slots: [String], paywall: SuperwallConfig.Paywall, _ d: DiagnosticCollector) {
      let warn = { (message: String) in
        d.warning("substitution \(quoting: substitution.key): \(message)", at: paywall.substitutionsLocation, path: paywall.path.appending("paywalljs_event"))
      }
      value = SubstitutionText.template(SubstitutionText.plain(substitution.value), slots: slots, warn: warn)
      freeTrial = substitution.freeTrialValue.map { SubstitutionText.template(SubstitutionText.plain($0), slots: slots, warn: warn) }
      if freeTrial == value || freeTrial?.isEmpty == true { freeTrial = nil }
    }

    func members(_ key: String, trialKey: String) -> [(String, JSONOutput)] {
      [(key, .string(value))] + (freeTrial.map { [(trialKey, JSONOutput.string($0))] } ?? [])
    }
  }
}

/// The editor's HTML as plain text, and its `{{ … }}` variables checked against our templates.
package enum SubstitutionText {
  /// `html` without its tags: `<br>`, and the end of a `<p>`, `<div>` or `<li>`, become line
  /// breaks; the common entities are decoded; blank lines and spaces at line ends go.
  package static func plain(_ html: String) -> String {
    var out = ""
    var rest = Substring(html)
    while let open = rest.firstIndex(of: "<") {
      out += rest[..<open]
      guard let close = rest[open...].firstIndex(of: ">") else {
        out += rest[open...]
        rest = rest[rest.endIndex...]
        break
      }
      let tag = rest[rest.index(after: open)..<close].lowercased().trimmingSpaces()
      let name = tag.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "\n" }).first.map(String.init) ?? ""
      if name == "br" || (tag.hasPrefix("/") && ["/p", "/div", "/li", "/h1", "/h2", "/h3"].contains(where: { tag.hasPrefix($0) })) {
        out += "\n"
      }
      rest = rest[rest.index(after: close)...]
    }
    out += rest
    for (entity, character) in [("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'"), ("&amp;", "&")] {
      out = out.replacingOccurrences(of: entity, with: character)
    }
    return out.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.trimmingSpaces() }
      .filter { !$0.isEmpty }
      .joined(separator: "\n")
  }

  /// `text` with each `{{ … }}` our templates cannot read (an unknown slot or attribute, one never
  /// closed) removed, and `warn` told which: the SDK renders such a variable empty too.
  package static func template(_ text: String, slots: [String], warn: (String) -> Void) -> String {
    guard text.contains("{{") else { return text }
    if case .success = TemplateText.parse(text, slots: slots) { return text }
    var out = ""
    var rest = Substring(text)
    while let open = rest.range(of: "{{") {
      out += rest[..<open.lowerBound]
      guard let close = rest[open.upperBound...].range(of: "}}") else {
        warn("'{{' is never closed; dropped")
        rest = rest[open.upperBound...]
        continue
      }
      let variable = String(rest[open.lowerBound..<close.upperBound])
      if case .failure(let problem) = TemplateText.parse(variable, slots: slots) {
        warn("\(excerpt: variable) left out: \(problem.message)")
      } else {
        out += variable
      }
      rest = rest[close.upperBound...]
    }
    out += rest
    return out
  }
}
