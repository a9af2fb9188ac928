/// A Superwall config's `surveys` as the SDK decodes them: `Survey`'s synthesized `Codable` under
/// `.convertFromSnakeCase` (`Config/Models/Survey.swift`, `Misc/Extensions/JSONEncoder+Superwall.swift`),
/// every key required; `presentation_condition` `ON_MANUAL_CLOSE` or `ON_PURCHASE`
/// (`SurveyShowCondition.swift`). The paywall decodes the list as `[Throwable<Survey>]` and drops
/// each survey that fails (`Models/Paywall/Paywall.swift`): so does the import, with a warning.
enum SurveyImport {
  static func read(_ nodes: [JSONNode], path: JSONPath, _ d: DiagnosticCollector) -> [Survey] {
    var surveys: [Survey] = []
    for (i, node) in nodes.enumerated() {
      let itemPath = path.appending(i)
      // Problems go to a scratch collector: one is a reason to drop the survey, not the import.
      let scratch = DiagnosticCollector(file: d.file, source: d.source)
      if let survey = readOne(node, path: itemPath, scratch), !scratch.hasErrors {
        surveys.append(survey)
      } else {
        let why = scratch.diagnostics.first { $0.severity == .error }
        d.warning(.superwallImport, "survey skipped as the SDK drops it (Paywall.swift decodes surveys one by one): \(why?.message ?? "unreadable")",
                  at: why?.location ?? node.location, path: why?.path ?? itemPath)
      }
    }
    return surveys
  }

  private static func readOne(_ node: JSONNode, path: JSONPath, _ d: DiagnosticCollector) -> Survey? {
    guard let object = ObjectReader(node, path: path, diagnostics: d, policy: .decoder, what: "a survey") else { return nil }
    let id = object.string("id", required: true)
    let key = object.string("assignment_key", required: true)
    let title = object.string("title", required: true)
    let message = object.string("message", required: true)
    let condition = object.choice("presentation_condition", ["ON_MANUAL_CLOSE", "ON_PURCHASE"], required: true)
    let other = object.bool("include_other_option", required: true)
    let close = object.bool("include_close_option", required: true)
    var probability: Double?
    if let found = object.value("presentation_probability") {
      if case .number(let text) = found.value, let p = Double(text) {
        probability = p
      } else {
        d.error("'presentation_probability' must be a number, found \(found.value.typeName)", at: found.location,
                path: path.appending("presentation_probability"))
      }
    } else {
      d.error("missing required key 'presentation_probability' (the SDK requires it)", at: node.location, path: path)
    }
    var options: [Survey.Option] = []
    for (i, item) in (object.array("options", required: true) ?? []).enumerated() {
      guard let option = ObjectReader(item, path: path.appending("options").appending(i), diagnostics: d, policy: .decoder, what: "a survey option"),
            let optionID = option.string("id", required: true), let optionTitle = option.string("title", required: true) else { continue }
      options.append(Survey.Option(id: optionID, title: optionTitle))
    }
    guard let id, let key, let title, let message, let condition, let other, let close, let probability else { return nil }
    // The SDK compares the draw with any number; ours keeps it a share of users.
    return Survey(id: id, assignmentKey: key, title: title, message: message, options: options,
                  condition: condition == "ON_PURCHASE" ? .onPurchase : .onManualClose,
                  probability: min(max(probability, 0), 1), includeOtherOption: other, includeCloseOption: close)
  }

  /// The survey in our paywall JSON's form (`paywalls/paywall.schema.json`).
  static func json(_ survey: Survey) -> JSONOutput {
    .object([
      ("id", .string(survey.id)), ("assignmentKey", .string(survey.assignmentKey)), ("title", .string(survey.title)),
      ("message", .string(survey.message)),
      ("options", .array(survey.options.map { .object([("id", .string($0.id)), ("title", .string($0.title))]) })),
      ("presentationCondition", .string(survey.condition.rawValue)),
      ("presentationProbability", .number(String(survey.probability))),
      ("includeOtherOption", .bool(survey.includeOtherOption)), ("includeCloseOption", .bool(survey.includeCloseOption)),
    ])
  }
}

/// A Superwall config's `local_notifications` as the SDK decodes them (`Models/Paywall/LocalNotification.swift`:
/// `type`, `title`, `subtitle` optional, `body`, `delay` in milliseconds; the one type `TRIAL_STARTED`).
/// The paywall decodes the list as `[Throwable<LocalNotification>]` (`Paywall.swift`): one that
/// fails is dropped, here with a warning.
enum LocalNotificationImport {
  static func read(_ nodes: [JSONNode], path: JSONPath, _ d: DiagnosticCollector) -> [LocalNotification] {
    var out: [LocalNotification] = []
    for (i, node) in nodes.enumerated() {
      let scratch = DiagnosticCollector(file: d.file, source: d.source)
      if let notification = readOne(node, path: path.appending(i), scratch), !scratch.hasErrors {
        out.append(notification)
      } else {
        let why = scratch.diagnostics.first { $0.severity == .error }
        d.warning(.superwallImport, "local notification skipped as the SDK drops it: \(why?.message ?? "unreadable")",
                  at: why?.location ?? node.location, path: why?.path ?? path.appending(i))
      }
    }
    return out
  }

  private static func readOne(_ node: JSONNode, path: JSONPath, _ d: DiagnosticCollector) -> LocalNotification? {
    guard let object = ObjectReader(node, path: path, diagnostics: d, policy: .decoder, what: "a local notification") else { return nil }
    let type = object.choice("type", [LocalNotification.trialStartedType], required: true)
    let title = object.string("title", required: true)
    let subtitle = object.string("subtitle")
    let body = object.string("body", required: true)
    var delay: Double?
    if let found = object.value("delay") {
      if case .number(let text) = found.value, let ms = Double(text) { delay = ms } else {
        d.error("'delay' must be a number of milliseconds, found \(found.value.typeName)", at: found.location, path: path.appending("delay"))
      }
    } else {
      d.error("missing required key 'delay' (the SDK requires it)", at: node.location, path: path)
    }
    guard type != nil, let title, let body, let delay else { return nil }
    guard delay > 0 else {
      d.error("'delay' is \(delay): the SDK schedules nothing for 0 or less", at: object.value("delay")?.location ?? node.location,
              path: path.appending("delay"))
      return nil
    }
    return LocalNotification(title: title, subtitle: subtitle?.isEmpty == true ? nil : subtitle, body: body, delayMs: delay)
  }

  /// The notification in our paywall JSON's form.
  static func json(_ notification: LocalNotification) -> JSONOutput {
    var members: [(String, JSONOutput)] = [("type", "trialStarted"), ("title", .string(notification.title))]
    if let subtitle = notification.subtitle { members.append(("subtitle", .string(subtitle))) }
    members += [("body", .string(notification.body)), ("delay", .number(String(notification.delayMs)))]
    return .object(members)
  }
}
