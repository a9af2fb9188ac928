import Foundation
@testable import PaywallModel
@testable import PaywallCLI
@testable import PaywallScenarios

/// The paywall these targets render templates against: three bundled products in named slots.
nonisolated(unsafe) var templatePaywall: ResolvedPaywall!

let templateSlots = ["primary", "secondary", "tertiary"]

/// Template text (as a JSON string gives it: sanitised) → parse → render with real products.
/// Property: a failure's offset lies inside the text; a success's literals hold no `{{`; the
/// rendered text is exactly the literals and the products' attribute values, in order.
let templateTarget = FuzzTarget(name: "template", setUp: {
  loadBundledCatalog()
  let ids = ["com.acme.pro.weekly", "com.acme.pro.monthly.intro", "com.acme.pro.annual.winback"]
  let definition = PaywallDefinition(id: "t", name: "t", slots: zip(templateSlots, ids).map { ProductSlot(name: $0, productID: $1) },
                                     components: [])
  templatePaywall = ResolvedPaywall(definition, catalog: bundledCatalog, now: fixedNow)
  require(templatePaywall.slots.count == 3, "bundled products missing from catalog.json")
}) { bytes in
  var input = InputReader(bytes)
  let choice = input.byte()
  let slots = Array(templateSlots.prefix(Int(choice % 4)))
  let text = UntrustedText.sanitize(String(decoding: input.rest(), as: UTF8.self))
  switch TemplateText.parse(text, slots: slots) {
  case .failure(let problem):
    require(problem.offset >= 0 && problem.offset <= text.unicodeScalars.count,
            "problem offset \(problem.offset) outside 0...\(text.unicodeScalars.count)")
    require(!problem.message.isEmpty, "empty problem message")
    require(controlScalars(in: problem.message).isEmpty, "problem message has control characters: \(problem.message.debugDescription)")
  case .success(let template):
    var expected = ""
    let selected: String? = choice & 0x10 == 0 ? slots.last : nil
    for segment in template.segments {
      switch segment {
      case .literal(let literal):
        require(!literal.isEmpty, "empty literal segment")
        require(!literal.contains("{{"), "literal segment holds '{{': \(literal.debugDescription)")
        expected += literal
      case .variable(let variable):
        let name: String? = switch variable.slot {
        case .selected: selected
        case .named(let n): n
        }
        if case .named(let n) = variable.slot { require(slots.contains(n), "variable names unknown slot '\(n)'") }
        if let product = name.flatMap(templatePaywall.slot(named:)) { expected += product[variable.attribute] }
      case .context(let variable):
        // `{{ user.KEY }}`, `{{ params.KEY }}`, `{{ device.KEY }}`: this paywall has none set.
        require(!variable.key.isEmpty, "a context variable with no key")
        switch variable.scope {
        case .user: expected += templatePaywall.userAttributes[variable.key] ?? ""
        case .params: expected += templatePaywall.params[variable.key] ?? ""
        case .device: break
        }
      }
    }
    if !text.contains("{{") {
      require(template.segments == (text.isEmpty ? [] : [.literal(text)]), "text without '{{' is not one literal")
    }
    let rendered = templatePaywall.string(template, selected: selected)
    require(rendered == expected, "rendered \(rendered.debugDescription), expected \(expected.debugDescription)")
    require(controlScalars(in: rendered).isEmpty, "rendered text has control characters")
  }
}

/// Audience filter text (as app.json gives it: sanitised) → parse → evaluate and explain in a
/// context built from the input. Property: an error's offset lies inside the text; a filter
/// evaluates the same twice, `!(f)` is its negation when `f` is a boolean, and `explain` names
/// only what it reads.
let audienceTarget = FuzzTarget(name: "audience") { bytes in
  var input = InputReader(bytes)
  let statusChoice = input.byte()
  let userValue = input.string()
  let text = UntrustedText.sanitize(String(decoding: input.rest(), as: UTF8.self))
  let filter: AudienceFilter
  do throws(AudienceFilter.ParseError) {
    filter = try AudienceFilter(parsing: text)
  } catch {
    require(error.offset >= 0 && error.offset <= text.count, "error offset \(error.offset) outside 0...\(text.count) (characters)")
    require(!error.message.isEmpty, "empty filter error")
    require(controlScalars(in: error.message).isEmpty, "filter error has control characters")
    return
  }
  require(filter.text == text, "the filter does not keep its text")
  let status: SubscriptionStatus = switch statusChoice % 4 {
  case 0: .unknown
  case 1: .inactive
  case 2: .active(["pro"])
  default: .active([Entitlement(userValue), "lifetime"])
  }
  let value = FilterValue(parsing: userValue)
  let context = FilterContext(status: status, activeProducts: statusChoice & 4 == 0 ? [] : ["com.acme.pro.annual", userValue],
                              user: ["age": value, "name": .string(userValue), "flag": .bool(statusChoice & 8 != 0)],
                              params: ["source": value, "count": .number(Decimal(Int(statusChoice)))])
  let result = filter.evaluate(context)
  require(filter.evaluate(context) == result, "evaluation is not deterministic")
  // CEL: an error makes both a filter and its negation fail to match, so the negation holds
  // only for a boolean result.
  if let boolean = filter.booleanResult(context), let negated = try? AudienceFilter(parsing: "!(\(text))") {
    require(boolean == result, "a boolean result and the match disagree")
    require(negated.evaluate(context) == !result, "!(filter) is not the negation of the filter")
  }
  for line in filter.explain(context) {
    require(line.hasPrefix("device.") || line.hasPrefix("user.") || line.hasPrefix("params."), "explain line \(line.debugDescription)")
  }
}

/// One line from a `command` controller's stdout (its input split at newlines the way the reader
/// splits them) → the pure decoder. Property: every message and quoted line is free of control
/// characters, and a quoted line is short.
let commandLineTarget = FuzzTarget(name: "command-line") { bytes in
  for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(16) {
    let decoded = CommandPurchaseController.decode(line: Array(line))
    require(CommandPurchaseController.decode(line: Array(line)) == decoded, "decoding is not deterministic")
    switch decoded {
    case .blank:
      require(line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }, "a line with content decoded as blank")
    case .malformed(let message), .badStatus(let message), .reportedError(let message):
      require(controlScalars(in: message, allowNewline: false).isEmpty, "message has control characters: \(message.debugDescription)")
      require(message.count < 400, "message of \(message.count) characters")
    case .setStatus(let status):
      require(controlScalars(in: status.description).isEmpty, "status has control characters: \(status.description.debugDescription)")
    case .answer(_, let result, let error, let shown):
      require(controlScalars(in: shown, allowNewline: false).isEmpty, "quoted line has control characters: \(shown.debugDescription)")
      require(shown.unicodeScalars.count <= 120, "quoted line of \(shown.unicodeScalars.count) scalars")
      let errorText: String = switch error {
      case .message(let text)?, .code(let text)?: text
      case .unreadable?, nil: ""
      }
      require(controlScalars(in: result).isEmpty && controlScalars(in: errorText).isEmpty, "result or error has control characters")
    }
  }
}

/// A `play` script. Property: it parses, or every problem has a line of the script and a column
/// on it; parsed steps keep their line number and sanitised text.
let playTarget = FuzzTarget(name: "play") { bytes in
  let text = String(decoding: bytes, as: UTF8.self)
  let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
  require(lines.count == bytes.filter { $0 == 0x0A }.count + 1, "the script's lines are not its newline-separated lines")
  do throws(ValidationFailure) {
    let script = try PlayScript.parse(text, file: "fuzz.play")
    for step in script.steps {
      require(step.line >= 1 && step.line <= lines.count, "step line \(step.line) outside 1...\(lines.count)")
      require(!step.text.isEmpty && controlScalars(in: step.text, allowNewline: false).isEmpty,
              "step text \(step.text.debugDescription)")
    }
  } catch {
    require(!error.diagnostics.isEmpty, "a failure without diagnostics")
    for d in error.diagnostics {
      require(d.location.line >= 1 && d.location.line <= lines.count, "line \(d.location.line) outside 1...\(lines.count): \(d)")
      let length = lines[d.location.line - 1].count
      require(d.location.column >= 1 && d.location.column <= length + 1,
              "column \(d.location.column) outside 1...\(length + 1) on line \(d.location.line): \(d)")
      require(controlScalars(in: d.message, allowNewline: false).isEmpty, "message has control characters: \(d.message.debugDescription)")
    }
  }
}
