/// Reads `"campaigns"` from app.json, with the same precise errors as paywalls:
///
/// ```json
/// "campaigns": [{"placement": "NAME", "audiences": [
///   {"filter": "EXPR", "paywall": "ID"},
///   {"filter": "EXPR", "variants": [{"paywall": "ID", "percent": 50}, …], "holdout": 10},
///   {"filter": "EXPR", "holdout": 100},
///   {"filter": "EXPR", "paywall": "ID", "occurrence": {"maxCount": 1}}]}]
/// ```
///
/// An audience may carry the dashboard's ids for `trigger_fire` (as `import superwall` writes
/// them): `"experimentId"`, a variant's `"id"`, `"holdoutId"`.
enum CampaignReader {
  /// Campaigns as written; paywall ids are checked by `check` once the paywalls are loaded.
  struct Pending {
    var campaigns: [Campaign]
    /// Every paywall id a campaign names, where, for `check`.
    var references: [(id: String, location: SourceLocation, path: JSONPath)]
  }

  static func read(_ parent: ObjectReader) -> Pending {
    var pending = Pending(campaigns: [], references: [])
    guard let nodes = parent.array("campaigns") else { return pending }
    var placements: Set<String> = []
    for (index, node) in nodes.enumerated() {
      let path = JSONPath.root.appending("campaigns").appending(index)
      guard let reader = ObjectReader(node, path: path, diagnostics: parent.diagnostics, what: "a campaign") else { continue }
      defer { reader.finish() }
      let placement = reader.string("placement", required: true)
      if let placement, let location = reader.value("placement")?.location {
        if !placements.insert(placement).inserted {
          reader.diagnostics.error("placement \(quoting: placement) already has a campaign; put its audiences in one campaign",
                                   at: location, path: path.appending("placement"))
        } else if PlacementNames.builtIn.contains(placement) && !Campaign.implicitPlacements.contains(placement) {
          reader.diagnostics.error("\(quoting: placement) is a built-in event name and never fires a campaign; rename the placement (implicit placements: \(Campaign.implicitPlacements.joined(separator: ", ")))",
                                   at: location, path: path.appending("placement"))
        }
      }
      var audiences: [Audience] = []
      let audienceNodes = reader.array("audiences", required: true) ?? []
      if audienceNodes.isEmpty, let node = reader.value("audiences") {
        reader.diagnostics.error("'audiences' is empty; add one such as {\"paywall\": \"onboarding\"}", at: node.location,
                                 path: path.appending("audiences"))
      }
      for (i, audienceNode) in audienceNodes.enumerated() {
        let audiencePath = path.appending("audiences").appending(i)
        if let audience = readAudience(audienceNode, path: audiencePath, diagnostics: reader.diagnostics, into: &pending) {
          audiences.append(audience)
        }
      }
      if let placement { pending.campaigns.append(Campaign(placement: placement, audiences: audiences)) }
    }
    return pending
  }

  private static func readAudience(_ node: JSONNode, path: JSONPath, diagnostics: DiagnosticCollector,
                                   into pending: inout Pending) -> Audience? {
    guard let reader = ObjectReader(node, path: path, diagnostics: diagnostics, what: "an audience") else { return nil }
    defer { reader.finish() }
    var filter: AudienceFilter?
    var valid = true
    if let text = reader.string("filter"), let location = reader.value("filter")?.location {
      do {
        filter = try AudienceFilter(parsing: text)
      } catch {
        diagnostics.error("filter: \(error.message)", at: diagnostics.location(inStringAt: location, offset: error.offset),
                          path: path.appending("filter"))
        valid = false
      }
    }
    let holdout = reader.int("holdout", range: 0...100)
    let experimentID = reader.string("experimentId")
    let holdoutID = reader.string("holdoutId")
    var maxOccurrences: Int?
    if let node = reader.value("occurrence"),
       let occurrence = ObjectReader(node, path: path.appending("occurrence"), diagnostics: diagnostics, what: "'occurrence'") {
      // The SDK's TriggerAudienceOccurrence: maxCount over all time (its MINUTES interval is not emulated).
      maxOccurrences = occurrence.int("maxCount", required: true, range: 1...1_000_000)
      occurrence.finish()
      if maxOccurrences == nil { valid = false }
    }
    var variants: [AudienceOutcome.Variant] = []
    if let id = reader.string("paywall"), let location = reader.value("paywall")?.location {
      variants.append(.init(paywallID: id, percent: 100))
      pending.references.append((id, location, path.appending("paywall")))
    }
    if let nodes = reader.array("variants") {
      if !variants.isEmpty, let location = reader.value("variants")?.location {
        diagnostics.error("an audience has 'paywall' or 'variants', not both", at: location, path: path.appending("variants"))
        valid = false
      }
      var total = 0
      for (i, variantNode) in nodes.enumerated() {
        let variantPath = path.appending("variants").appending(i)
        guard let v = ObjectReader(variantNode, path: variantPath, diagnostics: diagnostics, what: "a variant") else { valid = false; continue }
        let id = v.string("paywall", required: true)
        let percent = v.int("percent", required: true, range: 0...100)
        let variantID = v.string("id")
        v.finish()
        guard let id, let percent, let location = v.value("paywall")?.location else { valid = false; continue }
        pending.references.append((id, location, variantPath.appending("paywall")))
        variants.append(.init(paywallID: id, percent: percent, id: variantID))
        total += percent
      }
      if total != 100, valid, let location = reader.value("variants")?.location {
        diagnostics.error("variant percentages add up to \(total); make them add up to 100 (use 'holdout' for users who see nothing)",
                          at: location, path: path.appending("variants"))
        valid = false
      }
    }
    if variants.isEmpty && holdout != 100 && valid {
      diagnostics.error("an audience needs a 'paywall', 'variants', or \"holdout\": 100", at: node.location, path: path)
      valid = false
    }
    guard valid else { return nil }
    return Audience(filter: filter, outcome: .paywalls(variants, holdout: holdout ?? 0), maxOccurrences: maxOccurrences,
                    experimentID: experimentID, holdoutID: holdoutID)
  }

  /// Reports campaign paywall ids that no loaded paywall has.
  static func check(_ pending: Pending, paywallIDs: [String], file: String, into all: inout [Diagnostic]) {
    for reference in pending.references where !paywallIDs.contains(reference.id) {
      all.append(Diagnostic(file: file, location: reference.location, severity: .error,
                            message: "no paywall \(quoting: reference.id) in this project\(Suggestions.hint(for: reference.id, in: paywallIDs)) (paywalls: \(paywallIDs.joined(separator: ", ")))",
                            path: reference.path))
    }
  }
}

/// Names the SDK tracks itself: `register` refuses them, and only the implicit ones fire campaigns.
package enum PlacementNames {
  package static let builtIn: Set<String> = Set(EventName.allCases.filter { !$0.isOwn }.map(\.rawValue)).union([
    "app_open", "app_launch", "app_install", "app_close", "session_start", "first_seen", "deepLink_open",
    "user_attributes", "touches_began", "survey_response",
  ])
}
