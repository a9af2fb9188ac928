#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// Reads one component; knows the paywall's slots so templates and slot names can be checked.
struct ComponentContext {
  let slots: [String]
  let diagnostics: DiagnosticCollector
  /// Slots only another store fills (a cross-platform paywall's), and the session's store.
  var elsewhere: [String] = []
  var platform: SDKPlatform = .ios
  /// The verdicts on the template variables read so far, for these slots.
  let variables = TemplateText.VariableMemo()

  func read(_ node: JSONNode, path: JSONPath) -> PaywallComponent? {
    guard let reader = ObjectReader(node, path: path, diagnostics: diagnostics, what: "a component") else { return nil }
    defer { reader.finish() }
    guard let type = reader.string("type", required: true) else { return nil }
    switch type {
    case "title":
      return content(reader, "text", trialKey: "freeTrialText", required: true).map { .title($0) }
    case "text":
      let style = reader.choice("style", TextStyle.allCases.map(\.rawValue)).flatMap(TextStyle.init) ?? .body
      return content(reader, "text", trialKey: "freeTrialText", required: true).map { .text($0, style: style) }
    case "features":
      let title = content(reader, "title", trialKey: nil, required: false)
      var items: [TextContent] = []
      for (i, item) in (reader.array("items", required: true) ?? []).enumerated() {
        guard let s = item.stringValue else {
          diagnostics.error("feature items must be strings, found \(item.value.typeName)", at: item.location,
                            path: path.appending("items").appending(i))
          continue
        }
        if let t = template(s, uncut: item.uncut, at: item.location, path: path.appending("items").appending(i)) {
          items.append(TextContent(text: t))
        }
      }
      return .features(title: title, items: items)
    case "products":
      return .products(picker(reader))
    case "button":
      let label = content(reader, "label", trialKey: "freeTrialLabel", required: true)
      let action = buttonAction(reader)
      guard let label, let action else { return nil }
      return .button(PaywallButton(label: label, action: action))
    case "divider":
      return .divider
    case "spacer":
      return .spacer(lines: reader.int("lines", range: 1...10) ?? 1)
    case "art":
      guard let lines = reader.stringArray("lines", required: true) else { return nil }
      return .art(lines: lines.map(\.0))
    default:
      let known = PaywallComponent.typeNames.map { "\(quoting: $0)" }.joined(separator: ", ")
      diagnostics.error("unknown component type \(quoting: type)\(Suggestions.hint(for: type, in: PaywallComponent.typeNames)) (expected one of \(known))",
                        at: reader.value("type")!.location, path: path.appending("type"))
      // Mark the other keys known so one wrong type gives one error, not one per key.
      for key in ["text", "freeTrialText", "items", "title", "label", "action", "slot", "placement", "lines", "style", "badges", "slots", "savings", "freeTrialLabel"] {
        _ = reader.member(key)
      }
      return nil
    }
  }

  /// `text` parsed as a template, with every problem of it reported (each unknown variable, and
  /// the warnings). A string the length cap cut is checked whole (`uncut`) first, so a problem past
  /// the cut, or in the variable the cut dropped, is reported where it is; the cut text, which
  /// never splits a variable, is what is kept.
  private func template(_ text: String, uncut: String?, at location: SourceLocation, path: JSONPath) -> TemplateText? {
    let (whole, problems) = TemplateText.parseAll(uncut ?? text, slots: slots, memo: variables)
    report(problems, at: location, path: path)
    guard whole != nil else { return nil }
    guard uncut != nil else { return whole }
    let (cut, cutProblems) = TemplateText.parseAll(text, slots: slots, memo: variables)
    report(cutProblems.filter { !$0.isWarning }, at: location, path: path)
    return cut
  }

  private func report(_ problems: [TemplateText.Problem], at location: SourceLocation, path: JSONPath) {
    for problem in problems {
      let at = diagnostics.location(inStringAt: location, offset: problem.offset)
      if problem.isWarning {
        diagnostics.warning(.template, problem.message, at: at, path: path)
      } else {
        diagnostics.error(problem.message, at: at, path: path)
      }
    }
  }

  private func content(_ reader: ObjectReader, _ key: String, trialKey: String?, required: Bool) -> TextContent? {
    let main = reader.string(key, required: required).flatMap {
      template($0, uncut: reader.value(key)!.uncut, at: reader.value(key)!.location, path: reader.path.appending(key))
    }
    var trial: TemplateText?
    if let trialKey, let s = reader.string(trialKey) {
      trial = template(s, uncut: reader.value(trialKey)!.uncut, at: reader.value(trialKey)!.location, path: reader.path.appending(trialKey))
    }
    return main.map { TextContent(text: $0, freeTrialText: trial) }
  }

  private func slot(_ reader: ObjectReader, _ key: String, required: Bool) -> String? {
    guard let name = reader.string(key, required: required) else { return nil }
    guard slots.contains(name) else {
      let known = slots.isEmpty ? "the paywall has no 'products'" : "slots: " + slots.map { "\(quoting: $0)" }.joined(separator: ", ")
      diagnostics.error("unknown slot \(quoting: name)\(Suggestions.hint(for: name, in: slots)) (\(known))",
                        at: reader.value(key)!.location, path: reader.path.appending(key))
      return nil
    }
    warnIfElsewhere(name, at: reader.value(key)!.location, path: reader.path.appending(key), "this button does nothing there")
    return name
  }

  /// A button or card of a slot only another store fills: drawn, as the paywall's page is the
  /// same on every device, but it buys or shows nothing on this store.
  private func warnIfElsewhere(_ name: String, at location: SourceLocation, path: JSONPath, _ consequence: String) {
    guard elsewhere.contains(name) else { return }
    let store = StoreChoice.storeName(platform)
    diagnostics.warning(.otherStoreSlot, "slot \(quoting: name) has no product on \(store) (only another store's), so \(consequence); give it \"\(platform.rawValue)\": ID in 'products'",
                        at: location, path: path)
  }

  private func buttonAction(_ reader: ObjectReader) -> ButtonAction? {
    guard let action = reader.choice("action", ButtonAction.names, required: true) else {
      _ = reader.member("slot")
      _ = reader.member("placement")
      return nil
    }
    switch action {
    case "purchase":
      if reader.has("slot") {
        return slot(reader, "slot", required: true).map { .purchase(slot: $0) }
      }
      return .purchase(slot: nil)
    case "restore": return .restore
    case "close": return .close
    case "select": return slot(reader, "slot", required: true).map { .select(slot: $0) }
    default: return reader.string("placement", required: true).map { .placement($0) }
    }
  }

  private func picker(_ reader: ObjectReader) -> ProductPicker {
    var chosen: [String]?
    if let list = reader.stringArray("slots") {
      chosen = []
      for (i, (name, location)) in list.enumerated() {
        if slots.contains(name) {
          chosen?.append(name)
          warnIfElsewhere(name, at: location, path: reader.path.appending("slots").appending(i), "its card is not shown there")
        } else {
          diagnostics.error("unknown slot \(quoting: name)\(Suggestions.hint(for: name, in: slots))", at: location,
                            path: reader.path.appending("slots").appending(i))
        }
      }
    }
    var badges: [String: String] = [:]
    if let node = reader.value("badges") {
      if let members = node.members {
        for member in members {
          if !slots.contains(member.key) {
            diagnostics.error("badge for unknown slot \(quoting: member.key)\(Suggestions.hint(for: member.key, in: slots))",
                              at: member.keyLocation, path: reader.path.appending("badges").appending(member.key))
          } else if let text = member.value.stringValue {
            badges[member.key] = text
          } else {
            diagnostics.error("a badge must be a string", at: member.value.location,
                              path: reader.path.appending("badges").appending(member.key))
          }
        }
      } else {
        diagnostics.error("'badges' must be an object of slot → text", at: node.location, path: reader.path.appending("badges"))
      }
    }
    let savings = reader.bool("savings") ?? true
    if slots.isEmpty {
      diagnostics.error("a products component needs the paywall's 'products' slots", at: reader.node.location, path: reader.path)
    }
    return ProductPicker(slots: chosen, badges: badges, showsSavings: savings)
  }
}
