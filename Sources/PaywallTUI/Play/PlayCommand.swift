import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PaywallModel
import Synchronization

/// Collects events in order as the runtime emits them.
final class EventRecorder: Sendable {
  private let events = Mutex<[PaywallEvent]>([])

  func append(_ event: PaywallEvent) { events.withLock { $0.append(event) } }
  var all: [PaywallEvent] { events.withLock { $0 } }
}

struct PlayCommand: CLICommand {
  static let spec = CommandSpec(
    name: "play",
    abstract: "Run the app with no terminal: feed keys and script steps, print the events as JSON lines, then the final status.",
    discussion: """
      Every timer (controller latency, renewals, expiries) runs on a simulated clock that only 'advance' moves, and each \
      step waits until the app is idle, so the same input always gives the same output. Each run starts from a fresh \
      state in memory (nothing is read or written) unless --state-dir names one to go on from. The first paywall \
      (or --paywall) opens at start; a script whose first step is 'placement' (after setup steps such as 'status' \
      or 'user') starts on the home screen instead, as --home does. A failed 'expect' \
      stops the run with exit code 1 and says which line failed and what was there instead.
      """,
    positionals: [PositionalSpec(name: "path", help: "A project directory, its app.json, or a paywall file.", count: .one)],
    options: [
      .option("keys", "keys", "Keys to press, e.g. \"down down enter\" (one 'press' line)."),
      .option("script", "file", "A scenario script (every command: 'paywall-tui help script'); - reads it from stdin."),
      .flag("screen", "Print the last screen after the status, as one JSON line: {\"screen\": [rows…]}."),
      .option("size", "size", "Screen size for 'expect screen' and --screen (default 80x24)."),
    ] + ProjectOptions.options + SessionOptions.options,
    examples: [
      "paywall-tui play paywalls --controller scripted --outcome purchase=pending --keys \"2 enter\" --screen",
      "paywall-tui play paywalls --controller simulated --status inactive --script scenarios/purchase-trial.play",
      "printf 'press enter\\nexpect status active\\n' | paywall-tui play paywalls --controller scripted --script -",
    ]
  )

  var path: String
  var keys: String?
  var script: String?
  var screen: Bool
  var size: String
  var project: ProjectOptions
  var session: SessionOptions

  init(_ arguments: Arguments) throws(CLIFailure) {
    path = arguments.positionals[0]
    keys = arguments.value("keys")
    script = arguments.value("script")
    screen = arguments.flag("screen")
    size = arguments.value("size") ?? "80x24"
    project = ProjectOptions(arguments)
    session = try SessionOptions(arguments)
  }

  func run() throws {
    guard let size = Size(size) else { throw CLIFailure.usage("--size \(quoting: self.size) must be WIDTHxHEIGHT, e.g. 80x24") }
    let scenario = try loadScript()
    let overrides = try project.parsedOverrides()
    let loaded = try project.load(path)
    let events = EventRecorder()
    let eventFile = try session.openEventFile()
    let clock = SimulatedTimeSource()
    var session = self.session
    // A script that begins by registering a placement begins where an app would: on the home
    // screen, with no paywall in the way. --paywall and --home still decide.
    if session.paywall == nil, !session.home, scenario.startsWithPlacement { session.home = true }
    // A failed write (stdout, the events file) is remembered here and stops the script at the
    // next step; the command then ends with it.
    // A fresh state in memory unless --state-dir names one to go on from: the same script
    // gives the same result every time, and nothing is left behind.
    let app = try AppSession.make(project: loaded, path: path, options: session, overrides: overrides, clock: clock,
                                 simulatedClock: clock, animates: false, state: .commandLineOrMemory) { event in
      events.append(event)
      eventFile?.writeOrRecord(event)
      Console.outOrRecord(event.jsonLine)
    }
    defer { app.command?.stop() }
    app.keepNewUser()
    // Every way out waits for the state files being written (the new user's id above): a process
    // that ends during a write leaves its temporary file behind.
    defer { app.runtime.flushState() }
    // Warnings are not the command's output: one that cannot be written is remembered (the exit
    // code is 1 at the end) and the run goes on.
    for warning in app.warnings { Console.warn("warning: \(warning)") }
    app.runtime.setStateProblemHandler { Console.warn("warning: \($0)") }

    let player = Player(app: app, clock: clock, events: events, size: size, stopped: { Console.outputFailure != nil })
    let outcome = runBlocking { [session] in await player.play(scenario, placement: session.placement) }
    // The next run on this state directory continues from this moment of the store's clock.
    app.store?.checkpoint()
    app.runtime.flushState()
    if let failure = Console.outputFailure { throw failure }
    let state = app.runtime.state
    try Console.out(JSONOutput.object([
      ("status", .string(state.status.rawName.lowercased())),
      ("entitlements", .array(state.status.entitlements.sorted().map { .string($0.id) })),
    ]).text)
    if screen {
      // One JSON object, so every line of stdout is JSON (`jq` reads it whole).
      let rows = AppView.render(state, size: size).lines.map { JSONOutput.string(FrameText.trimTrailingSpaces($0)) }
      try Console.out(JSONOutput.object([("screen", .array(rows))]).text)
    }
    if case .failed(let message) = outcome { throw CLIFailure.invalid(message) }
    // A register still waiting for a subscription status would have failed after 5 s in the app;
    // the simulated clock never got there, so the run would end having shown nothing: say so.
    if let waiting = state.presentation.waiting {
      throw CLIFailure.invalid("error: placement \(quoting: waiting.placement) is still waiting for a subscription status at the end of the script (the SDK gives up after 5 s); set one (--status inactive, or 'status' in the script) or 'advance 5s' to see the timeout")
    }
  }

  private func loadScript() throws -> PlayScript {
    do {
      switch (keys, script) {
      case (let keys?, nil): return try PlayScript.keys(keys)
      case (nil, "-"):
        // `play` reads no keys from stdin, so a script may come from there: `… | paywall-tui play --script -`.
        let bytes = try SourceFile.readStandardInput()
        return try PlayScript.parse(String(decoding: bytes, as: UTF8.self), file: "<stdin>")
      case (nil, let file?):
        // A file, or a pipe read to its end (`/dev/stdin` in a pipeline, `<(…)`); other devices
        // are refused at once, never waited on.
        let bytes = try SourceFile.read(path: file, allowingStreams: true)
        return try PlayScript.parse(String(decoding: bytes, as: UTF8.self), file: file)
      case (nil, nil): return PlayScript(file: "(none)", steps: [])
      case (.some, .some): throw CLIFailure.usage("give --keys or --script, not both")
      }
    } catch let failure as ValidationFailure {
      throw CLIFailure(message: failure.description, code: 2)
    }
  }
}

/// Runs an async body to completion from synchronous code (the CLI's `run`).
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
  let box = Mutex<T?>(nil)
  let done = DispatchSemaphore(value: 0)
  // Detached: the caller may be on the main actor, which this semaphore blocks.
  Task.detached {
    let value = await body()
    box.withLock { $0 = value }
    done.signal()
  }
  done.wait()
  return box.withLock { $0! }
}

/// Executes a scenario against a runtime, one step at a time, waiting for idle after each.
struct Player: Sendable {
  enum Outcome: Sendable {
    case passed
    case failed(String)
  }

  let app: AppSession
  let clock: SimulatedTimeSource
  let events: EventRecorder
  let size: Size
  /// Checked before each step: true ends the script there (its output can no longer be written).
  var stopped: @Sendable () -> Bool = { false }

  private var runtime: AppRuntime { app.runtime }

  /// Sends a change of the world and waits for the app to settle; what it did.
  private func change(_ action: DebugAction) async -> WorldReport? {
    let before = runtime.state.lastReport?.number ?? 0
    runtime.send(.world(action))
    await runtime.settle()
    guard let (number, report) = runtime.state.lastReport, number > before else { return nil }
    return report
  }

  /// Renewals one `advance` may go through at a `renewal=` rate.
  static let maximumRenewals = 1_000_000

  /// Why the clock cannot be advanced by `seconds` from here, if it cannot: past the dates a
  /// ledger holds (the script was checked from the clock's usual start, but a state directory
  /// may have moved it on), or through more renewals than one step goes through.
  private func advanceProblem(_ seconds: Double) -> String? {
    let end = clock.now.addingTimeInterval(seconds)
    if end > LedgerFile.latestDate {
      return "would move the clock from \(StoreDates.format(clock.now)) to \(StoreDates.format(end)), past \(StoreDates.format(LedgerFile.latestDate)), the last date a ledger holds; advance less (or start afresh with --fresh)"
    }
    if let interval = app.store?.settings.rules.renewalInterval, seconds / interval > Double(Self.maximumRenewals) {
      return "would renew every \(TimeRate.spell(interval)) \(Int(seconds / interval)) times; one advance goes through at most \(Self.maximumRenewals) renewals (advance less, or use a slower --time-rate)"
    }
    return nil
  }

  /// A rule the emulator cannot evaluate that the last registration stopped at: `play` cannot
  /// ask, so the run fails, naming the rule and `--assume-rule`.
  private func undecidedRule() -> PlacementEvaluation.UndecidedRule? {
    if case .undecided(let rule)? = runtime.state.presentation.outcome?.kind { return rule }
    return nil
  }

  func play(_ script: PlayScript, placement: String?) async -> Outcome {
    if let placement {
      runtime.send(.register(placement: placement, params: [:]))
    } else if let first = app.firstPaywall {
      runtime.send(.open(paywallID: first, selected: nil))
    }
    await runtime.settle()
    if let rule = undecidedRule() { return .failed("--placement \(placement ?? ""): \(rule.message)") }
    var matched = 0  // `expect event` looks at events after the last match, from the very first
    var lastMatchLine: Int?
    var previous = script.file
    for step in script.steps {
      if stopped() { break }
      if let rule = undecidedRule() { return .failed("\(previous): \(rule.message)") }
      let here = "\(script.file):\(step.line)"
      previous = here
      switch step.command {
      case .press(let keys):
        for key in keys {
          runtime.send(.key(key))
          await runtime.settle()
        }
      case .advance(let distance):
        let seconds = distance.seconds(from: clock.now)
        if let problem = advanceProblem(seconds) { return .failed("\(here): \(quoting: step.text) \(problem)") }
        // The runtime moves the clock deadline by deadline, with the ledger written once.
        _ = await change(.advanceClock(distance))
      case .status(let status, let everyEntitlement):
        let entitlements = AppSession.allEntitlements(runtime.state.project)
        _ = await change(.setStatus(everyEntitlement ? .active(entitlements) : status))
      case .placement(let name, let params):
        runtime.send(.register(placement: name, params: params))
        await runtime.settle()
      case .user(let attributes):
        runtime.send(.userAttributes(attributes))
        await runtime.settle()
      case .override(let overrides):
        let catalog = runtime.state.project.catalog
        if let unknown = overrides.first(where: { catalog.product(id: $0.productID) == nil }) {
          return .failed("\(here): no product \(quoting: unknown.productID) in the catalog\(Suggestions.hint(for: unknown.productID, in: catalog.productIDs))")
        }
        runtime.send(.setOverrides(overrides))
        await runtime.settle()
      case .open(let id):
        guard runtime.state.project.paywall(id: id) != nil else {
          return .failed("\(here): no paywall \(quoting: id)\(Suggestions.hint(for: id, in: runtime.state.project.paywalls.map(\.id)))")
        }
        runtime.send(.open(paywallID: id, selected: nil))
        await runtime.settle()
      case .call(.purchase(let productID)):
        let catalog = runtime.state.project.catalog
        guard let product = catalog.product(id: productID) else {
          return .failed("\(here): no product \(quoting: productID) in the catalog\(Suggestions.hint(for: productID, in: catalog.productIDs))")
        }
        runtime.send(.callPurchase(product))
        await runtime.settle()
      case .call(.restore):
        runtime.send(.callRestore)
        await runtime.settle()
      case .store(let action):
        guard app.store != nil else {
          return .failed("\(here): \(quoting: step.text) needs the simulated store (--controller simulated)")
        }
        if let report = await change(.store(action)), report.failed {
          return .failed("\(here): \(quoting: step.text) did nothing: \(report.message)")
        }
      case .fail(let target, let error):
        switch target {
        case .purchase: _ = await change(.failNextPurchaseWith(error))
        case .restore: _ = await change(.failNextRestore(error))
        }
      case .latency(let seconds):
        _ = await change(.setLatency(seconds: seconds))
      case .drop:
        _ = await change(.dropNextResponse)
      case .expectSubscription(let productID, let expectation):
        guard let store = app.store else {
          return .failed("\(here): \(quoting: step.text) needs the simulated store (--controller simulated)")
        }
        let derived = store.derived
        guard let subscription = derived.subscription(productID: productID) else {
          let known = derived.subscriptions.map { "\($0.productID) (\($0.summary))" }
          return .failed("\(here): expected a subscription to \(excerpt: productID) (\(expectation.rawValue)); the store has \(known.isEmpty ? "none" : known.joined(separator: ", "))")
        }
        guard expectation.matches(subscription) else {
          return .failed("\(here): expected \(excerpt: productID) to be \(expectation.rawValue); it is \(subscription.summary)")
        }
      case .expectEvent(let name, let params):
        let all = events.all
        if let index = all[matched...].firstIndex(where: { $0.name == name && $0.matches(params) }) {
          matched = index + 1
          lastMatchLine = step.line
        } else {
          let since = lastMatchLine.map { "since line \($0)" } ?? "so far"
          let seen = all[matched...].map { $0.name == name ? $0.brief : $0.name.rawValue }
          return .failed("\(here): expected event \(name.rawValue)\(params.isEmpty ? "" : " with " + params.sorted { $0.key < $1.key }.map { "\(excerpt: $0.key)=\(excerpt: $0.value)" }.joined(separator: " ")); the events \(since) were: \(seen.isEmpty ? "(none)" : seen.joined(separator: ", "))")
        }
      case .expectNoEvent(let name, let params):
        let all = events.all
        if let found = all[matched...].first(where: { $0.name == name && $0.matches(params) }) {
          let since = lastMatchLine.map { "since line \($0)" } ?? "so far"
          return .failed("\(here): expected no event \(name.rawValue) \(since); found \(found.brief)")
        }
      case .expectNoScreen(let text):
        let frame = FrameText.plain(AppView.render(runtime.state, size: size))
        if frame.contains(text) {
          return .failed("\(here): expected the screen not to show \"\(excerpt: text)\"; the screen was:\n\(frame)")
        }
      case .expectScreen(let text):
        let frame = FrameText.plain(AppView.render(runtime.state, size: size))
        guard frame.contains(text) else {
          return .failed("\(here): expected the screen to show \"\(excerpt: text)\"; the screen was:\n\(frame)")
        }
      case .expectStatus(let status, let anyActive):
        let actual = runtime.state.status
        guard anyActive ? actual.isActive : actual == status else {
          return .failed("\(here): expected status \(anyActive ? "active" : status.description); it is \(actual)")
        }
      }
    }
    if let rule = undecidedRule() { return .failed("\(previous): \(rule.message)") }
    return .passed
  }
}
