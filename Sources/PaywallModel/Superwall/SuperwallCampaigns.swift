/// A Superwall config's triggers as our campaigns: one per placement, an audience per rule. What
/// it keeps and why is in `docs/fidelity.md` ("Superwall config import").
extension SuperwallImporter {
  /// The campaigns of `config`'s triggers (each placement's first, with every rule an audience),
  /// checked against the paywalls kept (`paywallIDs`, also as `known`), and each rule's filter as
  /// parsed, by its text (a filter repeated across rules is parsed once).
  static func campaigns(_ config: SuperwallConfig, paywallIDs: [String], known: Set<String>,
                        _ d: DiagnosticCollector) -> (campaigns: [JSONOutput], filters: [String: AudienceFilter]) {
    var campaigns: [JSONOutput] = []
    var placements: Set<String> = []
    var filters: [String: AudienceFilter] = [:]
    for trigger in config.triggers {
      if PlacementNames.neverPresents(trigger.placement) {
        d.warning(.superwallImport, "placement \(quoting: trigger.placement) is one the SDK fires itself; paywall-tui does not emulate it, so its campaign is left out",
                  at: trigger.location, path: trigger.path.appending("event_name"))
        continue
      }
      // The name becomes a campaign's placement: the same warning its app.json would give, here
      // at the config's own key.
      if let problem = PlacementNames.untypable(trigger.placement) {
        d.warning(.placementName, problem, at: trigger.location, path: trigger.path.appending("event_name"))
      }
      guard placements.insert(trigger.placement).inserted else {
        d.warning(.superwallImport, "placement \(quoting: trigger.placement) has a second trigger; the first is kept", at: trigger.location, path: trigger.path)
        continue
      }
      // A trigger whose rules could not be read has its errors already: "no rules" would name a
      // consequence as the cause.
      if trigger.rules.isEmpty && !trigger.hadUnreadableRules {
        d.warning(.superwallImport, "placement \(quoting: trigger.placement) has no rules; left out (registering it skips, as a placement with no audience matching)",
                  at: trigger.location, path: trigger.path.appending("rules"))
        continue
      }
      if trigger.rules.isEmpty { continue }
      let audiences = trigger.rules.compactMap { audience($0, paywallIDs: paywallIDs, known: known, broken: config.brokenPaywallIDs,
                                                         filters: &filters, d) }
      if audiences.count == trigger.rules.count {
        campaigns.append(.object([("placement", .string(trigger.placement)), ("audiences", .array(audiences))]))
      }
    }
    return (campaigns, filters)
  }

  /// One rule as an audience of our format, or nil after reporting why it cannot be one.
  /// `ConfigLogic.chooseVariant`: one variant is chosen whatever its percentage; with several,
  /// each gets its share of their sum (all at 0: an equal chance). Our format gives the holdout as
  /// a percent of everyone and the paywalls' percents of the rest, adding up to 100.
  private static func audience(_ rule: SuperwallConfig.Rule, paywallIDs: [String], known: Set<String>, broken: Set<String>,
                               filters: inout [String: AudienceFilter], _ d: DiagnosticCollector) -> JSONOutput? {
    var members: [(String, JSONOutput)] = [("experimentId", .string(rule.experimentID))]
    var valid = true
    if let cel = rule.expressionCEL, !cel.text.trimmingSpaces().isEmpty {
      do {
        if filters[cel.text] == nil { filters[cel.text] = try AudienceFilter(parsing: cel.text) }
        members.append(("filter", .string(cel.text)))
      } catch {
        d.error("expression_cel: \(error.message); paywall-tui cannot evaluate this rule", at: d.location(inStringAt: cel.location, offset: error.offset),
                path: cel.path)
        valid = false
      }
    } else if let other = rule.expression ?? rule.expressionJS, !other.text.trimmingSpaces().isEmpty {
      // TriggerRule.swift (4.x) reads only `expression_cel`: a rule with only a 3.x expression matches everyone on a 4.x device.
      d.warning(.superwallImport, "this rule has no expression_cel; the SDK 4.x reads no other expression, so it matches every user, here as on a device",
                at: other.location, path: other.path)
    }
    if let occurrence = rule.occurrence {
      // The limits our format holds (`OccurrenceLimit`): an import never writes what cannot load.
      let limits = OccurrenceLimit.self
      if !limits.maxCountRange.contains(occurrence.maxCount) {
        d.error("occurrence max_count must be from \(limits.maxCountRange.lowerBound) to \(limits.maxCountRange.upperBound), found \(occurrence.maxCount)",
                at: occurrence.location, path: rule.path.appending("occurrence").appending("max_count"))
        valid = false
      } else if let minutes = occurrence.minutes, !limits.minutesRange.contains(minutes) {
        d.error("occurrence interval minutes must be from \(limits.minutesRange.lowerBound) to \(limits.minutesRange.upperBound), found \(minutes)",
                at: occurrence.location, path: rule.path.appending("occurrence").appending("interval").appending("minutes"))
        valid = false
      } else {
        // `TriggerAudienceOccurrence`: MINUTES n counts the occurrences of the last n minutes.
        var limit: [(String, JSONOutput)] = [("maxCount", .number(String(occurrence.maxCount)))]
        if let minutes = occurrence.minutes { limit.append(("interval", .object([("minutes", .number(String(minutes)))]))) }
        members.append(("occurrence", .object(limit)))
      }
    }
    if rule.variants.isEmpty {
      d.error("a rule needs at least one variant (the SDK fails it with noVariantsFound)", at: rule.location, path: rule.path.appending("variants"))
      return nil
    }
    for variant in rule.variants where variant.kind == .treatment {
      guard let paywall = variant.paywallID else {
        d.error("a TREATMENT variant needs 'paywall_identifier'", at: variant.location, path: variant.path)
        valid = false
        continue
      }
      if broken.contains(paywall.text) {
        valid = false
      } else if !known.contains(paywall.text) {
        d.error("no paywall \(quoting: paywall.text) in paywall_responses\(Suggestions.hint(for: paywall.text, in: paywallIDs))",
                at: paywall.location, path: paywall.path)
        valid = false
      }
    }
    guard valid else { return nil }
    let shares = shares(rule.variants.map(\.percentage))
    let holdouts = rule.variants.indices.filter { rule.variants[$0].kind == .holdout }
    let holdout = holdouts.reduce(0) { $0 + shares[$1] }
    let treatments = rule.variants.indices.filter { rule.variants[$0].kind == .treatment }
    let treatmentTotal = treatments.reduce(0) { $0 + shares[$1] }
    var holdoutPercent = holdout
    if treatmentTotal == 0 { holdoutPercent = 100 }
    if holdoutPercent < 100 {
      let percents = largestRemainder(treatments.map { shares[$0] }, total: 100)
      members.append(("variants", .array(zip(treatments, percents).map { index, percent in
        .object([("paywall", .string(rule.variants[index].paywallID!.text)), ("percent", .number(String(percent))),
                 ("id", .string(rule.variants[index].id))])
      })))
    }
    if holdoutPercent > 0 { members.append(("holdout", .number(String(holdoutPercent)))) }
    if let first = holdouts.first { members.append(("holdoutId", .string(rule.variants[first].id))) }
    return .object(members)
  }

  /// Each variant's share of 100 as the SDK draws it: one variant alone takes everything, all at
  /// 0 share equally, else in proportion to their percentages.
  package static func shares(_ percentages: [Int]) -> [Int] {
    if percentages.count == 1 { return [100] }
    // The reader keeps each percentage within 0...100; clamped again here so that no caller can
    // make the sums and products below overflow (a trap, not an error).
    let percentages = percentages.map { min(max($0, 0), 100) }
    let sum = percentages.reduce(0, +)
    if sum == 0 { return largestRemainder(Array(repeating: 1, count: percentages.count), total: 100) }
    return largestRemainder(percentages, total: 100)
  }

  /// `weights` scaled to add up to `total` exactly (the largest remainders round up).
  static func largestRemainder(_ weights: [Int], total: Int) -> [Int] {
    let sum = weights.reduce(0, +)
    guard sum > 0 else { return weights.map { _ in 0 } }
    var result = weights.map { $0 * total / sum }
    var remainders = weights.enumerated().map { ($0.offset, $0.element * total % sum) }
    remainders.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
    var left = total - result.reduce(0, +)
    for (index, _) in remainders where left > 0 {
      result[index] += 1
      left -= 1
    }
    return result
  }

}
