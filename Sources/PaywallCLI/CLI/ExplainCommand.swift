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
import PaywallModel
import PaywallUI

/// `paywall-tui explain PATH PLACEMENT`: what `register` would do, and why, without showing
/// anything — the SDK's `getPresentationResult`, with each audience's filter and the values it read.
package struct ExplainCommand: CLICommand {
  package static let spec = CommandSpec(
    name: "explain",
    abstract: "Say which audience of a placement's campaign matches and what register would do, and why.",
    discussion: "Reads the project's campaigns; nothing is presented and nothing is written. Assignments already made for the user (in the state directory) are shown as they stand.",
    positionals: [
      PositionalSpec(name: "path", help: "A project directory, its app.json, or a Superwall config.", count: .one),
      PositionalSpec(name: "placement", help: "The placement to evaluate.", count: .one, values: .placements),
    ],
    options: ExplainFlags.all,
    examples: [
      "paywall-tui explain paywalls export_pdf                       # an inactive user: which audience, which paywall",
      "paywall-tui explain paywalls export_pdf --status active:pro   # a subscriber: skipped, and why",
      "paywall-tui explain paywalls settings_upgrade --param source=banner --user-id tester-1 --json",
    ]
  )

  package var path: String
  package var placement: String
  package var status: String
  package var user: [String: String]
  package var params: [String: String]
  package var userID: String?
  package var stateDir: String?
  package var sdk: SDKVersion?
  package var platform: SDKPlatform?
  package var assumeRules: [String]
  package var json: Bool
  package var catalog: String?

  package init(_ arguments: Arguments) throws(CLIFailure) {
    path = arguments.positionals[0]
    placement = arguments.positionals[1]
    status = arguments[ExplainFlags.status]
    user = try arguments[ExplainFlags.user]
    params = try arguments[ExplainFlags.param]
    userID = arguments[ExplainFlags.userID]
    stateDir = arguments[ExplainFlags.stateDir]
    sdk = try arguments[ExplainFlags.sdk]
    platform = try arguments[ExplainFlags.platform]
    assumeRules = arguments[ExplainFlags.assumeRule]
    json = arguments[ExplainFlags.json]
    catalog = arguments[ExplainFlags.catalog]
  }

  package func run() async throws {
    var project = try ProjectOptions.load(path, catalog: catalog, sdk: SDKChoice(platform: platform, given: sdk))
    switch SDKVersion.resolve(project: project.options.sdk, platform: platform, given: sdk) {
    case .success(let resolved): project.options.sdk = resolved
    case .failure(let error): throw CLIFailure.usage(error.message)
    }
    let entitlements = project.catalog.entitlements
    if json, SubscriptionStatus(parsing: status, defaultEntitlements: entitlements) == .unknown {
      // The SDK waits for the status, times out (subscriptionStatusTimeout) and answers
      // paywallNotAvailable (Get Presentation Result/InternalGetPresentationResult.swift).
      try Console.out(Self.notAvailable(placement: placement, project: project).text)
      return
    }
    guard let status = SubscriptionStatus(parsing: status, defaultEntitlements: entitlements), status != .unknown else {
      throw CLIFailure.usage("--status \(quoting: self.status) must be inactive, active or active:ENTITLEMENT,… (e.g. active:pro); with unknown, register waits for a status")
    }
    if !json, PlacementNames.neverPresents(placement) {
      try Console.out("placement \(quoting: placement): a built-in event name; register ignores it (no callback) and the feature does not run")
      return
    }
    let directory = try CLIFailure.reporting { () throws(SessionError) in
      try StateDirectoryOption.resolve(stateDir, projectName: project.name, projectPath: path,
                                       store: project.stateStore(following: project.options.sdk.platform))
    }
    // Read only: without a saved user (or --user-id) the answer is for an anonymous one.
    let file = AssignmentFile(directory: directory)
    var book = userID == nil && !FileSystem.entryExists(file.path)
      ? AssignmentBook(userID: "anonymous") : file.load(userID: userID, repair: false).0
    // The params a device evaluates: a register's with the keys the SDK adds to every placement
    // (`PlacementParams.register`); an implicit placement's as given, each key the SDK never
    // gives such a campaign named, as validate names it in a filter.
    let implicit = Campaign.sdkPlacements.contains(placement)
    if implicit, !json {
      for key in params.keys.sorted() {
        if let problem = PlacementParams.problem(key: key, forImplicit: placement) { try Console.out("warning: --param \(problem)") }
      }
    }
    let sdkParams = implicit ? params.merging(PlacementParams.standard(placement, isSDKEvent: true)) { own, _ in own }
      : PlacementParams.register(placement, params: params)
    var context = FilterContext(status: status, user: user.mapValues(FilterValue.init(parsing:)),
                                params: sdkParams.mapValues(FilterValue.init(parsing:)))
    context.now = Date()
    // The device template `play` gives, for the chosen platform and SDK (the status's
    // entitlements: `explain` has no store to read subscriptions from).
    context.fillDevice(sdk: project.options.sdk, subscriptions: nil, catalog: project.catalog)
    switch RuleAssumptions.parse(assumeRules, project: project) {
    case .success(let assumed): context.assumedRules = assumed
    case .failure(let error): throw CLIFailure.usage(error.message)
    }
    let before = book
    let evaluation = PlacementRules.evaluate(placement, project: project, context: context, book: &book)
    if let undecided = evaluation.undecided {
      // Never silently true or false: say what each answer would give, and fail.
      var answers: [(String, JSONOutput)] = []
      if !json { try Console.out("placement \(quoting: placement) for user \(book.userID), status \(status.rawName)") }
      if !json { for line in evaluation.lines { try Console.out("  " + line) } }
      for answer in [true, false] {
        var assumed = context
        assumed.assumedRules[undecided.key] = answer
        var scratch = before
        let outcome = PlacementRules.evaluate(placement, project: project, context: assumed, book: &scratch)
        let option = "\(undecided.key)=\(answer ? "match" : "nomatch")"
        if json {
          let result: JSONOutput = outcome.undecided == nil ? Self.json(outcome, project: project, userID: book.userID, status: status) : .null
          answers.append((option, result))
        } else {
          let result = outcome.undecided.map { "undecided at audience \($0.index + 1) too" } ?? outcome.lines.last ?? ""
          try Console.out("  with --assume-rule \(option): \(result)")
        }
      }
      if json {
        // A program gets the question and both answers (each what explain --json says with that
        // --assume-rule; null when another rule is undecided too), and the exit code 1.
        try Console.out(JSONOutput.object([
          ("placement", .string(placement)),
          ("undecided", .object([("rule", .string(undecided.key)), ("kind", .string(undecided.rule.kind)),
                                 ("text", .string(undecided.rule.text))])),
          ("withAssumeRule", .object(answers)),
        ]).text)
      }
      throw CLIFailure.invalid(undecided.message)
    }
    if let abandoned = evaluation.abandoned {
      throw CLIFailure.invalid(abandoned.message)
    }
    if json {
      try Console.out(Self.json(evaluation, project: project, userID: book.userID, status: status).text)
      return
    }
    if evaluation.outcome == .skip(.placementNotFound) {
      let known = project.campaigns.map(\.placement)
      try Console.out("placement \(quoting: placement): no campaign\(Suggestions.hint(for: placement, in: known)) → skipped (placementNotFound); the feature runs")
      return
    }
    try Console.out("placement \(quoting: placement) for user \(book.userID), status \(status.rawName)\(status.isActive ? " (\(status.entitlements.map(\.id).sorted().joined(separator: ",")))" : "")")
    for line in evaluation.lines { try Console.out("  " + line) }
    try Console.out("  " + Self.subscriberRule(evaluation, project: project, status: status))
    if case .present(let id) = evaluation.outcome, let paywall = project.paywall(id: id) {
      let gating = paywall.featureGating == .gated ? "gated: the feature runs only after a purchase or restore"
        : "non-gated: the feature runs when the paywall closes, whatever the result"
      try Console.out("  \(gating)")
    }
  }

  /// Which SDK version's subscriber rule applied, in one line.
  package static func subscriberRule(_ evaluation: PlacementEvaluation, project: Project, status: SubscriptionStatus) -> String {
    let sdk = evaluation.sdk
    guard sdk.skipsSubscribers else {
      let active = status.isActive ? "; this active user is treated like any other, so only an audience filter such as device.subscriptionStatus == \"INACTIVE\" keeps them out" : ""
      return "(SDK \(sdk.spelled): no subscriber rule\(active))"
    }
    if case .present(let id) = evaluation.outcome, status.isActive {
      return "(SDK v3: the user is active, but paywall \(quoting: id) has presentationCondition always, so it shows to subscribers)"
    }
    if evaluation.subscriberRuleSkipped != nil {
      return "(SDK v3: an active user is skipped, userIsSubscribed, unless the paywall's presentationCondition is always; --sdk 4 has no such rule)"
    }
    return "(SDK v3: the subscriber rule skips only active users; this one is not)"
  }

  // MARK: - --json: getPresentationResult

  /// The SDK's `PresentationResult` name for an evaluation (`PresentationResultNames`).
  package static func resultName(_ evaluation: PlacementEvaluation) -> String {
    PresentationResultNames.name(evaluation)
  }

  /// The SDK's `Experiment` for a paywall or holdout result (`PresentationResultNames`).
  package static func experiment(_ evaluation: PlacementEvaluation) -> JSONOutput {
    PresentationResultNames.experiment(evaluation)
  }

  /// `explain --json`: `result` is what `getPresentationResult(forPlacement:params:)` returns; the
  /// rest is what explain says in text. Nothing is written, deliberately: the SDK's call confirms
  /// the assignment and, on a holdout, saves the audience's occurrence
  /// (Internal/Operators/GetExperiment.swift), so in the app asking can use up a one-time holdout.
  package static func json(_ evaluation: PlacementEvaluation, project: Project, userID: String, status: SubscriptionStatus) -> JSONOutput {
    let name = resultName(evaluation)
    var result: [(String, JSONOutput)] = [("type", .string(name))]
    if name == "paywall" || name == "holdout" { result.append(("experiment", experiment(evaluation))) }
    let audiences = evaluation.steps.map { step -> JSONOutput in
      .object([
        ("index", .number(String(step.index + 1))), ("filter", step.filter.map { .string($0) } ?? .null),
        ("matched", .bool(step.matched)), ("because", .array(step.because.map { .string($0) })),
      ])
    }
    let assignment: JSONOutput = evaluation.assignment.map {
      .object([("bucket", .number(String($0.bucket))), ("paywallId", $0.paywallID.map { .string($0) } ?? .null), ("split", .bool($0.isSplit))])
    } ?? .null
    var gating: JSONOutput = .null
    if case .present(let id) = evaluation.outcome, let paywall = project.paywall(id: id) {
      gating = .string(paywall.featureGating.rawValue)
    }
    let builtIn = PlacementNames.neverPresents(evaluation.placement)
    return .object([
      ("placement", .string(evaluation.placement)), ("userId", .string(userID)),
      ("status", .string(status.rawName)), ("sdk", .string(evaluation.sdk.description)),
      ("result", .object(result)),
      ("registerIgnoresPlacement", .bool(builtIn)),
      ("audiences", .array(audiences)), ("assignment", assignment), ("featureGating", gating),
      ("explanation", .array(evaluation.lines.map { .string($0) })),
    ])
  }

  /// `--json` with `--status unknown`: the status never arrives, so the SDK answers paywallNotAvailable.
  package static func notAvailable(placement: String, project: Project) -> JSONOutput {
    .object([
      ("placement", .string(placement)), ("status", .string("UNKNOWN")), ("sdk", .string(project.options.sdk.description)),
      ("result", .object([("type", .string("paywallNotAvailable")), ("reason", .string("subscriptionStatusTimeout"))])),
      ("explanation", .array([.string("the subscription status is unknown: the SDK waits 5 s for it, then gives up (subscriptionStatusTimeout)")])),
    ])
  }
}

/// `explain`'s options: some share a name with `run`'s, but say what they do for `explain`.
package enum ExplainFlags {
  /// Read as written: `run()` reads it as `--status` of `run` does.
  package static let status = Flag.text("status", "status", "The subscription status: inactive (default), active or active:ENT,…", default: "inactive",
                                        completion: .words(["inactive", "active"]))
  package static let user = Flag.pairs("user", "key=value", "A user attribute, e.g. --user age=13.")
  package static let param = Flag.pairs("param", "key=value", "A placement parameter, e.g. --param source=settings.")
  package static let userID = Flag.text("user-id", "id", "The user whose assignment to show (default: the one in the state directory).")
  package static let stateDir = Flag.text("state-dir", "dir", "Where the user and assignments live (default: $XDG_STATE_HOME/paywall-tui/PROJECT).")
  package static let platform = SessionFlags.platform
  package static let sdk = Flag.sdk("Follow this SDK's rules: iOS 3, 4 (the latest 4.x) or 4.N; Android 2 or 2.N (default: the project's options.sdk, else the latest).")
  package static let assumeRule = Flag.list("assume-rule", "placement#n=match|nomatch", "What an audience rule the emulator cannot evaluate (expression, expression_js) decides; without it, explain shows both answers and exits 1.",
                                            completion: .text)
  package static let json = Flag.bool("json", "Print one JSON object: the SDK's getPresentationResult as \"result\", beside the audiences tried.")
  package static let catalog = Flag.text("catalog", "file", "Catalog for a Superwall config (.storekit or .json).")

  /// In the order help lists them.
  package static let all: [OptionInfo] = [
    status.option, user.option, param.option, userID.option, stateDir.option, platform.option, sdk.option, assumeRule.option,
    json.option, catalog.option,
  ]
}
