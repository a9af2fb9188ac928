import PaywallModel
import PaywallUI

/// The names a script gives checked against the project before anything runs, as the command
/// line checks `--placement` and `--start`: a placement no campaign has would register nothing
/// (placementNotFound) and the scenario would pass on a typo; an entitlement no product grants
/// is a status no purchase could give. Each is an error at `FILE:LINE:COL` with a did-you-mean.
package enum ScriptNames {
  /// Every problem of `script` against `project`, one `FILE:LINE:COL: error: …` line each; nil when none.
  package static func problems(in script: PlayScript, project: Project) -> String? {
    let placements = project.campaignPlacements
    let entitlements = project.catalog.entitlementIDs
    var lines: [String] = []
    for step in script.steps {
      /// The column of `name` in the step: a whole word after the command (a placement), or an
      /// entitlement after the ':' or ',' of a status.
      func report(_ name: String, _ message: String) {
        let text = step.text
        let word = PlayScript.wordStarts(text).dropFirst().first { text.dropFirst($0).hasPrefix(name) }
        let listed = [":", ","].lazy.compactMap { text.range(of: $0 + name) }.first
          .map { text.distance(from: text.startIndex, to: $0.lowerBound) + 1 }
        lines.append("\(script.file):\(step.line):\((word ?? listed ?? 0) + 1): error: \(message)")
      }
      /// A placement the step names: one of the project's campaigns (or a built-in event name),
      /// unless written `VERB unknown NAME` on purpose, which must then have none.
      func checkPlacement(_ name: String, unknown: Bool, verb: String) {
        let known = placements.contains(name)
        if unknown && known {
          report(name, "\(quoting: step.text): the project has a campaign on \(quoting: name); write '\(verb) \(name)'")
        } else if !unknown && !known && !PlacementNames.isBuiltIn(name) {
          let list = placements.isEmpty ? "the project has no campaigns" : "placements: \(placements.joined(separator: ", "))"
          report(name, "\(quoting: step.text): no campaign has the placement \(quoting: name)\(Suggestions.hint(for: name, in: placements)) (\(list)); to name it on purpose (the SDK's placementNotFound), write '\(verb) unknown \(name)'")
        }
      }
      switch step.command {
      case .placement(let name, _, let unknown):
        checkPlacement(name, unknown: unknown, verb: "placement")
      case .call(.presentationResult(let name, _, let unknown)):
        checkPlacement(name, unknown: unknown, verb: "call getPresentationResult")
      case .status(.active(let given), false), .expectStatus(.active(let given), _):
        for entitlement in given.map(\.id).sorted() where !entitlements.contains(entitlement) {
          let list = entitlements.isEmpty ? "the catalog grants none" : "entitlements: \(entitlements.joined(separator: ", "))"
          report(entitlement, "\(quoting: step.text): no product grants the entitlement \(quoting: entitlement)\(Suggestions.hint(for: entitlement, in: entitlements)) (\(list))")
        }
      case .store(.redeem(let code)):
        let codes = project.catalog.products.flatMap { $0.offers.filter { $0.kind == .code }.map(\.id) }
        if !codes.contains(where: { $0.lowercased() == code.lowercased() }) {
          let list = codes.isEmpty ? "the catalog has no offer codes" : "codes: \(codes.joined(separator: ", "))"
          report(code, "\(quoting: step.text): no offer code \(quoting: code) in the catalog\(Suggestions.hint(for: code, in: codes)) (\(list))")
        }
      default:
        continue
      }
    }
    return lines.isEmpty ? nil : lines.joined(separator: "\n")
  }}
