import Foundation
@testable import PaywallModel
import Testing

/// `docs/reference/formats.md` lists every key of the three file formats as their JSON Schemas
/// (`paywalls/*.schema.json`) define them: made from the schemas here, held here, so the page
/// cannot fall behind a key the schemas gain. Regenerate with
/// `UPDATE_DOCS=1 swift test --filter SchemaReferenceTests`.
@Suite("File format reference")
struct SchemaReferenceTests {
  static let begin = "<!-- schema keys: generated from paywalls/*.schema.json; UPDATE_DOCS=1 swift test --filter SchemaReferenceTests -->"
  static let end = "<!-- schema keys end -->"
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  struct Row: Equatable {
    var path: String
    var type: String
    var required: Bool
    var text: String
  }

  /// A schema's keys, depth first in the file's order: each property, array element (`[]`), map
  /// entry (`.NAME`) and, under an `if`/`then` on a `type` constant, that kind's own keys.
  struct Walker {
    var defs: [String: JSONNode] = [:]
    var rows: [Row] = []

    static func text(_ node: JSONNode?) -> String? { node.flatMap { $0.uncut ?? $0.stringValue } }

    /// The node with its `$ref` followed (its own keys win), and the definition's name.
    func resolved(_ node: JSONNode) -> (JSONNode, ref: String?) {
      guard let ref = Self.text(node["$ref"]), ref.hasPrefix("#/$defs/"), let target = defs[String(ref.dropFirst(8))],
            case .object(let own) = node.value, case .object(let defined) = target.value else { return (node, nil) }
      let ownKeys = Set(own.map(\.key))
      return (JSONNode(.object(defined.filter { !ownKeys.contains($0.key) } + own.filter { $0.key != "$ref" }), at: node.location),
              String(ref.dropFirst(8)))
    }

    static func code(_ node: JSONNode) -> String {
      switch node.value {
      case .string(let s): "`\(s)`"
      case .number(let n): "`\(n)`"
      case .bool(let b): "`\(b)`"
      default: "`…`"
      }
    }

    func typeText(_ node: JSONNode, ref: String?) -> String {
      var parts: [String] = []
      if let values = node["enum"]?.elements { parts.append("one of " + values.map(Self.code).joined(separator: ", ")) }
      else if let value = node["const"] { parts.append(Self.code(value)) }
      else if let type = Self.text(node["type"]) { parts.append(ref == "template" ? "text (template variables)" : type) }
      else if let type = node["type"]?.elements { parts.append(type.compactMap(Self.text).joined(separator: " or ")) }
      else if let branches = node["oneOf"]?.elements ?? node["anyOf"]?.elements {
        // Each kind once: "string or object", not "string or object or object".
        var kinds: [String] = []
        for text in branches.map({ typeText(resolved($0).0, ref: resolved($0).ref) }).flatMap({ $0.components(separatedBy: " or ") })
        where !kinds.contains(text) { kinds.append(text) }
        parts.append(kinds.joined(separator: " or "))
      }
      if let low = node["minimum"].map(Self.code), let high = node["maximum"].map(Self.code) { parts.append("\(low)–\(high)") }
      else if let low = node["minimum"].map(Self.code) { parts.append("at least \(low)") }
      if let pattern = Self.text(node["pattern"]) { parts.append("matching `\(pattern)`") }
      if let value = node["default"] { parts.append("default \(Self.code(value))") }
      return parts.joined(separator: ", ")
    }

    mutating func walk(_ given: JSONNode, path: String, required: Bool, depth: Int = 0) {
      guard depth < 12, case .object = given.value else { return }
      let (node, ref) = resolved(given)
      if !path.isEmpty {
        // A template's long description is the formats page's own section: said once, not per key.
        let text = ref == "template" && given["description"] == nil ? "" : Self.text(node["description"]) ?? ""
        rows.append(Row(path: path, type: typeText(node, ref: ref), required: required, text: text))
      }
      children(of: node, path: path, depth: depth)
      for branch in node["oneOf"]?.elements ?? node["anyOf"]?.elements ?? [] {
        children(of: resolved(branch).0, path: path, depth: depth)
      }
      for part in node["allOf"]?.elements ?? [] {
        guard let then = part["then"] else { children(of: part, path: path, depth: depth); continue }
        let kind = part["if"]?["properties"]?["type"]?["const"].flatMap(Self.text)
        children(of: then, path: kind.map { "\(path) (\($0))" } ?? path, depth: depth)
      }
    }

    mutating func children(of node: JSONNode, path: String, depth: Int) {
      let required = Set(node["required"]?.elements?.compactMap(Self.text) ?? [])
      for member in node["properties"]?.members ?? [] where member.key != "$schema" {
        walk(member.value, path: path.isEmpty ? member.key : "\(path).\(member.key)", required: required.contains(member.key), depth: depth + 1)
      }
      if let items = node["items"] { walk(items, path: path + "[]", required: false, depth: depth + 1) }
      if let entry = node["additionalProperties"], case .object = entry.value {
        walk(entry, path: path + ".NAME", required: false, depth: depth + 1)
      }
    }
  }

  static func table(_ file: String) throws -> [Row] {
    let text = try String(contentsOf: root.appendingPathComponent("paywalls/\(file)"), encoding: .utf8)
    let schema = try JSONParser.parse(text)
    var walker = Walker()
    for member in schema["$defs"]?.members ?? [] { walker.defs[member.key] = member.value }
    walker.walk(schema, path: "", required: false)
    return walker.rows
  }

  static func markdown() throws -> String {
    let files = [("paywall.schema.json", "A paywall"), ("catalog.schema.json", "Our JSON catalog"), ("app.schema.json", "app.json, a project")]
    var out: [String] = []
    for (file, title) in files {
      out += ["", "**\(title)** (`paywalls/\(file)`; **bold**: required):", "", "| Key | Type | What it is |", "| --- | --- | --- |"]
      for row in try table(file) {
        let cell = row.text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
        let key = "`\(row.path)`"
        out.append("| \(row.required ? "**\(key)**" : key) | \(row.type.replacingOccurrences(of: "|", with: "\\|")) | \(cell) |")
      }
    }
    return out.joined(separator: "\n")
  }

  @Test func everyKeyOfTheSchemasIsOnTheFormatsPage() throws {
    let url = Self.root.appendingPathComponent("docs/reference/formats.md")
    let doc = try String(contentsOf: url, encoding: .utf8)
    guard let start = doc.range(of: Self.begin), let stop = doc.range(of: Self.end, range: start.upperBound..<doc.endIndex) else {
      Issue.record("docs/reference/formats.md has no key reference between \(Self.begin) and \(Self.end)")
      return
    }
    let wanted = "\n" + (try Self.markdown()) + "\n\n"
    if String(doc[start.upperBound..<stop.lowerBound]) != wanted {
      if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
        try doc.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: wanted).write(to: url, atomically: true, encoding: .utf8)
      } else {
        Issue.record("docs/reference/formats.md's key reference is not the schemas' (UPDATE_DOCS=1 swift test --filter SchemaReferenceTests)")
      }
    }
  }

  /// The walk reaches what a person looks for: a component kind's own keys, a map's entries, an
  /// array's elements, required keys marked.
  @Test func theWalkFindsNestedKeysKindsAndRequiredOnes() throws {
    let paywall = try Self.table("paywall.schema.json")
    let paths = paywall.map(\.path)
    #expect(paths.contains("components[] (text).style"), "\(paths)")
    #expect(paths.contains("products.NAME"), "\(paths)")
    #expect(paywall.first { $0.path == "id" }?.required == true)
    #expect(paywall.first { $0.path == "featureGating" }?.type == "one of `gated`, `nonGated`, default `nonGated`")
    let app = try Self.table("app.schema.json").map(\.path)
    #expect(app.contains("options.notificationPermissionsDenied"), "\(app)")
  }
}
