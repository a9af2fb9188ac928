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

/// Reads `"campaigns"` from app.json, with the same precise errors as paywalls:
///
/// ```json
/// "campaigns": [{"placement": "NAME", "audiences": [
///   {"filter": "EXPR", "paywall": "ID"},
///   {"filter": "EXPR", "variants": [{"paywall": "ID", "percent": 50}, …], "holdout": 10},
///   {"filter": "EXPR", "holdout": 100},
///   {"filter": "EXPR", "paywall": "ID", "occurrence": {"maxCount": 1, "interval": {"minutes": 1440}}},
///   {"unsupportedRule": {"kind": "expression_js", "text": "…"}, "paywall": "ID"}]}]
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
    /// Every filter with its string's place, for `lint` once the catalog is known.
    var filters: [(filter: AudienceFilter, location: SourceLocation, path: JSONPath)] = []
    /// The file's collector, which maps a place inside a string to its column.
    var diagnostics: DiagnosticCollector?
  }

  /// `checkingNames: false` for campaigns built from a Superwall config, whose importer has
  /// already warned about a name at its own `event_name`. `parsed`: filters already parsed, by
  /// their text (the importer's, which checked each rule's filter as it mapped it).
  static func read(_ parent: ObjectReader, checkingNames: Bool = true, parsed: [String: AudienceFilter] = [:]) -> Pending {
    var pending = Pending(campaigns: [], references: [], diagnostics: parent.diagnostics)
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
        } else if PlacementNames.neverPresents(placement) {
          reader.diagnostics.error("\(quoting: placement) is a built-in event name and never fires a campaign; rename the placement (the SDK's events that present a campaign: \((Campaign.implicitPlacements + Campaign.lifecyclePlacements).joined(separator: ", ")))",
                                   at: location, path: path.appending("placement"))
        } else if Campaign.lifecyclePlacements.contains(placement) && !Campaign.firedHere.contains(placement) {
          reader.diagnostics.warning(.notFiredHere, "the SDK fires \(quoting: placement) and presents this campaign then; paywall-tui does not fire it, so here the campaign never presents (it fires \(Campaign.firedAtLaunch.joined(separator: ", ")) at launch, survey_response and deepLink_open)",
                                     at: location, path: path.appending("placement"))
        } else if checkingNames, let problem = PlacementNames.untypable(placement) {
          reader.diagnostics.warning(.placementName, problem, at: location, path: path.appending("placement"))
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
        if let audience = readAudience(audienceNode, path: audiencePath, key: AssignmentBook.key(placement ?? "PLACEMENT", i),
                                        placement: placement, diagnostics: reader.diagnostics, parsed: parsed, into: &pending) {
          audiences.append(audience)
        }
      }
      if let placement { pending.campaigns.append(Campaign(placement: placement, audiences: audiences)) }
    }
    return pending
  }

  private static func readAudience(_ node: JSONNode, path: JSONPath, key: String, placement: String?,
                                   diagnostics: DiagnosticCollector, parsed: [String: AudienceFilter],
                                   into pending: inout Pending) -> Audience? {
    guard let reader = ObjectReader(node, path: path, diagnostics: diagnostics, what: "an audience") else { return nil }
    defer { reader.finish() }
    var rule = AudienceRule.everyone
    var valid = true
    if let text = reader.string("filter"), let location = reader.value("filter")?.location {
      do {
        let filter: AudienceFilter
        if let known = parsed[text] { filter = known } else { filter = try AudienceFilter(parsing: text) }
        rule = .filter(filter)
        pending.filters.append((filter, location, path.appending("filter")))
        for warning in filter.warnings {
          diagnostics.warning(.audienceFilter, "filter: \(warning.message)", at: diagnostics.location(inStringAt: location, offset: warning.offset),
                              path: path.appending("filter"))
        }
        // An implicit placement's params are the SDK's, not the event's: a key it does not give
        // reads as missing on a device, whatever the emulator once gave.
        for param in placement.map({ placement in filter.paramKeys.compactMap { key in
          PlacementParams.problem(key: key, forImplicit: placement).map { (key, $0) } } }) ?? [] {
          diagnostics.warning(.audienceFilter, "filter: \(param.1)",
                              at: diagnostics.location(inStringAt: location, offset: filter.offset(ofParam: param.0)),
                              path: path.appending("filter"))
        }
      } catch {
        diagnostics.error("filter: \(error.message)", at: diagnostics.location(inStringAt: location, offset: error.offset),
                          path: path.appending("filter"))
        valid = false
      }
    }
    if let node = reader.value("unsupportedRule") {
      let rulePath = path.appending("unsupportedRule")
      if reader.value("filter") != nil {
        diagnostics.error("an audience has 'filter' or 'unsupportedRule', not both", at: node.location, path: rulePath)
        valid = false
      } else if let unsupported = ObjectReader(node, path: rulePath, diagnostics: diagnostics, what: "'unsupportedRule'") {
        let kind = unsupported.string("kind", required: true)
        let text = unsupported.string("text", required: true, nonEmpty: false)
        unsupported.finish()
        if let kind, let text {
          rule = .unsupported(UnsupportedRule(kind: kind, text: text))
          diagnostics.warning(.unevaluableRule, "this audience's rule is in \(kind), which the emulator cannot evaluate: play and explain need --assume-rule \(key)=match or \(key)=nomatch; run asks",
                              at: node.location, path: rulePath)
        } else {
          valid = false
        }
      } else {
        valid = false
      }
    }
    let holdout = reader.int("holdout", range: 0...100)
    let experimentID = reader.string("experimentId")
    let holdoutID = reader.string("holdoutId")
    var occurrenceLimit: OccurrenceLimit?
    if let node = reader.value("occurrence"),
       let occurrence = ObjectReader(node, path: path.appending("occurrence"), diagnostics: diagnostics, what: "'occurrence'") {
      // The SDK's TriggerAudienceOccurrence (Models/Triggers/TriggerAudienceOccurrence.swift):
      // maxCount within an interval, all time (INFINITY) or the last N minutes (MINUTES).
      let maxCount = occurrence.int("maxCount", required: true, range: OccurrenceLimit.maxCountRange)
      var interval = OccurrenceLimit.Interval.infinity
      if let intervalNode = occurrence.value("interval") {
        let intervalPath = path.appending("occurrence").appending("interval")
        if let object = ObjectReader(intervalNode, path: intervalPath, diagnostics: diagnostics,
                                     what: "'interval' ({\"minutes\": 1440} for a day; leave it out for all time)") {
          if let minutes = object.int("minutes", required: true, range: OccurrenceLimit.minutesRange) {
            interval = .minutes(minutes)
          } else {
            valid = false
          }
          object.finish()
        } else {
          valid = false
        }
      }
      occurrence.finish()
      if let maxCount { occurrenceLimit = OccurrenceLimit(maxCount: maxCount, interval: interval) } else { valid = false }
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
    return Audience(rule: rule, outcome: .paywalls(variants, holdout: holdout ?? 0), occurrence: occurrenceLimit,
                    experimentID: experimentID, holdoutID: holdoutID)
  }

  /// A paywall file app.json lists that did not load (missing, not JSON, or invalid), with its
  /// `id` when the file had one.
  struct UnloadedPaywall {
    var file: String
    /// The name app.json gives it, e.g. "main.json".
    var name: String
    var id: String?
  }

  /// Reports campaign paywall ids that no loaded paywall has. A reference to a paywall whose file
  /// failed to load (by its id, or by its file name when the id could not be read) is a
  /// consequence of that file's errors and says so, as does one that may be in a file with no
  /// readable id; only an id no file can hold is "no paywall".
  /// Warnings for comparisons the catalog makes impossible (`AudienceFilter.impossibleComparisons`):
  /// `device.subscriptionStatus == "ACTIV"`, an entitlement or product the catalog lacks.
  /// Also `device` keys and host functions the project's SDK does not have (`AudienceFilter.keysMissing`,
  /// `functionsMissing`).
  static func lint(_ pending: Pending, catalog: Catalog?, sdk: SDKVersion, into all: inout [Diagnostic]) {
    guard let collector = pending.diagnostics else { return }
    let entitlements = Set(catalog?.entitlementIDs ?? [])
    let products = Set(catalog?.productIDs ?? [])
    for (filter, location, path) in pending.filters {
      let impossible = catalog == nil ? [] : filter.impossibleComparisons(entitlements: entitlements, products: products)
      for warning in impossible + filter.keysMissing(in: sdk) + filter.functionsMissing(in: sdk) {
        all.append(Diagnostic(file: collector.file, location: collector.location(inStringAt: location, offset: warning.offset),
                              severity: .warning, message: "filter: \(warning.message)", path: path, kind: .audienceFilter))
      }
    }
  }

  static func check(_ pending: Pending, paywallIDs: [String], unloaded: [UnloadedPaywall] = [], file: String,
                    into all: inout [Diagnostic]) {
    // A set: a reference per variant checked against an array of every paywall was quadratic
    // (a 60,000-paywall config took 31 s to load).
    let known = Set(paywallIDs)
    for reference in pending.references where !known.contains(reference.id) {
      let stem = { (name: String) in name.hasSuffix(".json") ? String(name.dropLast(5)) : name }
      let message: String
      var isConsequence = true
      let hint = Suggestions.hint(for: reference.id, in: paywallIDs + unloaded.compactMap(\.id))
      let unread = unloaded.filter { $0.id == nil }
      if let failed = unloaded.first(where: { $0.id == reference.id })
        ?? unread.first(where: { stem(($0.name).lastPathComponent) == reference.id }) {
        message = "no paywall \(quoting: reference.id): \(failed.name) failed to load, see above"
      } else if hint.isEmpty && !unread.isEmpty {
        // Not a typo of a known id: it may be the id of a file that could not be read.
        let names = unread.map(\.name).joined(separator: ", ")
        message = "no paywall \(quoting: reference.id) among those that loaded (\(paywallIDs.joined(separator: ", "))); \(names) failed to load, see above"
      } else {
        isConsequence = false
        message = "no paywall \(quoting: reference.id) in this project\(hint) (paywalls: \(paywallIDs.joined(separator: ", ")))"
      }
      all.append(Diagnostic(file: file, location: reference.location, severity: .error, message: message,
                            path: reference.path, isConsequence: isConsequence))
    }
  }
}

/// Names the SDK tracks itself: `register` refuses them, and only the implicit ones fire campaigns.
package enum PlacementNames {
  /// Why no app could register `name`, or shell completion cannot offer it, as a warning that
  /// says how to fix it: a line break (no dashboard field or `register(placement:)` call a person
  /// types holds one, and shell completion, one name a line, leaves it out), a tab (fish reads it
  /// as the start of the name's description), a space at either end (invisible: the app's
  /// `"upgrade"` never matches `"upgrade "`) or a leading `-` (inserted on a command line, the
  /// parser would read it as an option). Shell characters (`$`, backquotes, `;`, quotes) are
  /// fine: a Swift string holds them and completion offers them quoted. (The JSON reader has
  /// already dropped every other control character and made a tab a space; a project built in
  /// code may still hold one.)
  package static func untypable(_ name: String) -> String? {
    if name.contains(where: \.isNewline) {
      return "placement \(quoting: name) has a line break in it, which no app types and shell completion cannot offer; write it on one line"
    }
    if name.contains("\t") {
      return "placement \(quoting: name) has a tab in it, which shell completion cannot offer; use a space"
    }
    if name.hasPrefix("-") {
      return "placement \(quoting: name) begins with '-', which the command line reads as an option, so shell completion does not offer it; rename it, or type it as \(quoting: "--placement=" + name) (or after '--')"
    }
    if name.first?.isWhitespace == true || name.last?.isWhitespace == true {
      let trimmed = String(name.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
      return "placement \(quoting: name) begins or ends with a space, which no app's name for it has; remove it: \(quoting: trimmed)"
    }
    return nil
  }

  /// A built-in name no campaign can present on: `register` ignores it and the SDK never fires it
  /// as a trigger (not in `Campaign.sdkPlacements`).
  package static func neverPresents(_ placement: String) -> Bool {
    isBuiltIn(placement) && !Campaign.sdkPlacements.contains(placement)
  }

  /// Whether `name` is one of the SDK's own events (`SuperwallEventObjc`'s descriptions, 4.16.3):
  /// `register` ignores each (`TrackingLogic.checkNotSuperwallEvent`), trackable or not. A lookup,
  /// not a Set: built before the first paint, a Set of these names cost 95,000 instructions.
  package static func isBuiltIn(_ name: String) -> Bool {
    if let event = EventName(rawValue: name), !event.isOwn { return true }
    return otherBuiltIns.sortedIndex(of: name) != nil
  }

  /// The SDK's event names that `EventName` does not have (those it has and that are not our own
  /// are asked of it first), sorted for `isBuiltIn`'s binary search.
  static let otherBuiltIns: [String] = [
    "adServicesTokenRequest_complete", "adServicesTokenRequest_fail", "adServicesTokenRequest_start",
    "attribution_match", "config_attributes", "config_fail", "config_refresh", "confirm_all_assignments",
    "customerInfo_didChange", "device_attributes", "enrichment_complete", "enrichment_fail", "enrichment_start",
    "identity_alias", "integration_attributes", "networkDecoding_fail", "paywallPreload_complete",
    "paywallPreload_start", "paywallProductsLoad_complete", "paywallProductsLoad_fail",
    "paywallProductsLoad_missingProducts", "paywallProductsLoad_retry", "paywallProductsLoad_start",
    "paywallResponseLoad_complete", "paywallResponseLoad_fail", "paywallResponseLoad_notFound",
    "paywallResponseLoad_start", "paywallWebviewLoad_complete", "paywallWebviewLoad_fail",
    "paywallWebviewLoad_fallback", "paywallWebviewLoad_processTerminated", "paywallWebviewLoad_start",
    "paywallWebviewLoad_timeout", "paywall_page_view", "permission_denied", "permission_granted",
    "permission_requested", "redemption_complete", "redemption_fail", "redemption_start", "reset", "review_requested",
    "shimmerView_complete", "shimmerView_start", "stripeCheckout_complete", "stripeCheckout_fail",
    "stripeCheckout_start", "stripeCheckout_submit", "testModeModal_close", "testModeModal_open", "touches_began",
    "transaction_timeout",
  ]
}
