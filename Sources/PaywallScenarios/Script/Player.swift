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
import Synchronization
import TerminalCore
import CursesBackend
import PaywallUI

/// Executes a scenario against a runtime, one step at a time, waiting for idle after each.
package struct Player: Sendable {
  package enum Outcome: Sendable, Equatable {
    case passed
    case failed(StepFailure)
  }

  package let app: AppSession
  package let clock: SimulatedTimeSource
  package let events: EventRecorder
  package let size: Size
  /// Checked before each step: true ends the script there (its output can no longer be written).
  package var stopped: @Sendable () -> Bool = { false }
  /// With --record: where each screen is noted after each key and each step.
  package var timeline: CastTimeline?
  /// Where `screenshot` and `--screenshot-every` write.
  package var screenshots = Screenshots()

  package init(app: AppSession, clock: SimulatedTimeSource, events: EventRecorder, size: Size,
               stopped: @escaping @Sendable () -> Bool = { false }, timeline: CastTimeline? = nil) {
    self.app = app
    self.clock = clock
    self.events = events
    self.size = size
    self.stopped = stopped
    self.timeline = timeline
  }

  var runtime: AppRuntime { app.runtime }

  /// Notes the screen as it is now (when recording).
  private func noteScreen() {
    timeline?.note(AppView.render(runtime.state, size: size))
  }

  /// Sends a change of the world and waits for the app to settle; what it did.
  private func change(_ action: DebugAction) async -> WorldReport? {
    let before = runtime.state.lastReport?.number ?? 0
    runtime.send(.world(action))
    await runtime.settle()
    guard let last = runtime.state.lastReport, last.number > before else { return nil }
    return last.report
  }

  /// Renewals one `advance` may go through at a `renewal=` rate.
  package static let maximumRenewals = 1_000_000

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

  /// With `--screenshot-every`: the screen after step `number` (0: before the first), or why it
  /// could not be written.
  private func shootEvery(number: Int, step: String) -> String? {
    guard let directory = screenshots.every else { return nil }
    let path = directory + "/" + Screenshots.stepFileName(number: number, step: step)
    do {
      try screenshots.write(AppView.render(runtime.state, size: size), to: path, title: "step \(number): \(step)")
      return nil
    } catch {
      return "--screenshot-every: \(error)"
    }
  }

  /// Steps that act on the app itself, refused while it is in the background: the store,
  /// the status, the user, the clock and every `expect` go on without it.
  static func needsTheAppInFront(_ command: PlayScript.Command) -> Bool {
    switch command {
    case .press, .placement, .open, .call: true
    default: false
    }
  }

  package func play(_ script: PlayScript, placement: String?) async -> Outcome {
    // The screen's size is the app's (mouse hit-tests use it), until a `resize` step.
    runtime.send(.resized(size))
    runtime.send(.presentation(.launch(firstInstall: app.isFirstLaunch)))
    await runtime.settle()
    // `--placement` registers as the app's launch code would, after the launch events: over a
    // paywall a launch campaign presented it fails (`paywallAlreadyPresented`), as on a device.
    // The first paywall opens only on an empty screen.
    if let placement {
      runtime.send(.presentation(.register(placement: placement, params: [:])))
    } else if runtime.state.presentation.session == nil, let first = app.firstPaywall {
      runtime.send(.presentation(.open(paywallID: first, selected: nil)))
    }
    await runtime.settle()
    noteScreen()
    // However the script ends (a step that failed after changing the screen too), the recording
    // ends on the screen it left.
    defer { noteScreen() }
    if let rule = undecidedRule() { return .failed(StepFailure(message: "--placement \(placement ?? ""): \(rule.message)", file: script.file)) }
    if let problem = shootEvery(number: 0, step: "start") { return .failed(StepFailure(message: "\(script.file): \(problem)", file: script.file)) }
    var matched = 0  // `expect event` looks at events after the last match, from the very first
    var lastMatchLine: Int?
    // The step before this one, which a rule it stopped at is blamed on.
    var previousStep: PlayScript.Step?
    func undecided(_ rule: PlacementEvaluation.UndecidedRule) -> Outcome {
      let at = previousStep.map { "\(script.file):\($0.line)" } ?? script.file
      return .failed(StepFailure(message: "\(at): \(rule.message)", file: script.file, step: previousStep))
    }
    // The line of the `background` step the app is in the background since; nil: in front.
    var backgroundLine: Int?
    for (index, step) in script.steps.enumerated() {
      if stopped() { break }
      if let rule = undecidedRule() { return undecided(rule) }
      let here = "\(script.file):\(step.line)"
      previousStep = step
      /// This step failed: `message` is what is said, `expected` and `actual` an `expect`'s two sides.
      func fail(_ message: String, expected: String? = nil, actual: String? = nil) -> Outcome {
        .failed(StepFailure(message: message, file: script.file, step: step, expected: expected, actual: actual))
      }
      if let line = backgroundLine, Self.needsTheAppInFront(step.command) {
        return fail("\(here): the app is in the background (since line \(line)); add 'foreground' first")
      }
      switch step.command {
      case .press(let keys):
        for key in keys {
          runtime.send(.key(key))
          await runtime.settle()
          noteScreen()
        }
      case .notifications(let permission):
        runtime.send(.presentation(.setNotificationPermission(permission)))
        await runtime.settle()
      case .advance(let distance):
        let seconds = distance.seconds(from: clock.now)
        if let problem = advanceProblem(seconds) { return fail("\(here): \(quoting: step.text) \(problem)") }
        // The runtime moves the clock deadline by deadline, with the ledger written once.
        _ = await change(.advanceClock(distance))
      case .status(let status, let everyEntitlement):
        let entitlements = runtime.state.project.catalog.entitlements
        _ = await change(.setStatus(everyEntitlement ? .active(entitlements) : status))
      case .placement(let name, let params, _):
        runtime.send(.presentation(.register(placement: name, params: params)))
        await runtime.settle()
      case .user(let attributes):
        runtime.send(.presentation(.setUserAttributes(attributes)))
        await runtime.settle()
      case .override(let overrides):
        let catalog = runtime.state.project.catalog
        if let unknown = overrides.first(where: { catalog.product(id: $0.productID) == nil }) {
          return fail("\(here): \(catalog.missingProductLine(unknown.productID))")
        }
        runtime.send(.presentation(.setOverrides(overrides)))
        await runtime.settle()
      case .open(let id):
        guard runtime.state.project.paywall(id: id) != nil else {
          return fail("\(here): no paywall \(quoting: id)\(Suggestions.hint(for: id, in: runtime.state.project.paywalls.map(\.id)))")
        }
        runtime.send(.presentation(.open(paywallID: id, selected: nil)))
        await runtime.settle()
      case .call(.purchase(let productID)):
        let catalog = runtime.state.project.catalog
        guard let product = catalog.product(id: productID) else {
          return fail("\(here): \(catalog.missingProductLine(productID))")
        }
        runtime.send(.presentation(.callPurchase(product)))
        await runtime.settle()
      case .call(.restore):
        runtime.send(.presentation(.callRestore))
        await runtime.settle()
      case .survey(let answer):
        if let problem = surveyProblem(answer) { return fail("\(here): \(problem)") }
        runtime.send(.presentation(.paywall(Self.action(for: answer, runtime.state.presentation.session?.survey))))
        await runtime.settle()
        noteScreen()
      case .call(.presentationResult(let placement, let params, _)):
        runtime.send(.presentation(.callGetPresentationResult(placement: placement, params: params)))
        await runtime.settle()
      case .relaunch:
        runtime.send(.presentation(.relaunch))
        await runtime.settle()
        backgroundLine = nil
        noteScreen()
      case .reinstall:
        // (With --controller command the request refused the step before anything ran.)
        runtime.send(.presentation(.reinstall(userID: app.userIDAfterReinstall)))
        // The app's own controller forgets the status with the app; the store keeps its purchases.
        if runtime.world.store == nil { runtime.world.statusStore.set(.unknown) }
        await runtime.settle()
        backgroundLine = nil
        noteScreen()
      case .background(let away):
        if let line = backgroundLine {
          return fail("\(here): the app is already in the background (since line \(line)); 'foreground' first")
        }
        runtime.send(.presentation(.background))
        await runtime.settle()
        backgroundLine = step.line
        if let away {
          let seconds = away.seconds(from: clock.now)
          if let problem = advanceProblem(seconds) { return fail("\(here): \(quoting: step.text) \(problem)") }
          _ = await change(.advanceClock(away))
          runtime.send(.presentation(.foreground))
          await runtime.settle()
          backgroundLine = nil
        }
      case .deepLink(let url):
        // iOS brings the app to the front to open a URL.
        if backgroundLine != nil {
          runtime.send(.presentation(.foreground))
          await runtime.settle()
          backgroundLine = nil
        }
        runtime.send(.presentation(.deepLink(url: url)))
        await runtime.settle()
      case .foreground:
        // A key may have sent the app away too (the debug panel's `B`, the notification alert's
        // Open Settings).
        guard backgroundLine != nil || runtime.state.presentation.appSession.inBackground else {
          return fail("\(here): the app is not in the background; 'background' first")
        }
        runtime.send(.presentation(.foreground))
        await runtime.settle()
        backgroundLine = nil
      case .store(let action):
        guard app.store != nil else {
          return fail("\(here): \(quoting: step.text) needs the simulated store (--controller simulated)")
        }
        if let report = await change(.store(action)), report.failed {
          return fail("\(here): \(quoting: step.text) did nothing: \(report.message)")
        }
      case .fail(let target, let error):
        switch target {
        case .purchase: _ = await change(.failNextPurchaseWith(error))
        case .restore: _ = await change(.failNextRestore(error))
        }
      case .failPlay(let response):
        guard runtime.state.project.options.sdk.platform == .android else {
          return fail("\(here): \(quoting: step.text): \(response.name) is Google Play's answer, for an Android project (--platform android); StoreKit's errors are \(StoreError.names.joined(separator: ", "))")
        }
        // Play's answer reaches Superwall only through its own purchasing: an app's controller
        // answers with its own result (`answer purchase failed MESSAGE`, or the controller itself).
        guard app.store != nil else {
          return fail("\(here): \(quoting: step.text) needs the simulated store (--controller simulated): with the app's own purchase controller, the failure is the controller's")
        }
        _ = await change(.failNextPurchaseWithPlay(response))
      case .latency(let seconds):
        _ = await change(.setLatency(seconds: seconds))
      case .drop:
        _ = await change(.dropNextResponse)
      case .resize(let size):
        runtime.send(.resized(size))
        await runtime.settle()
      case .answer(let answer):
        _ = await change(.answerNext(answer))
      case .expectSubscription(let productID, let expectation):
        guard let store = app.store else {
          return fail("\(here): \(quoting: step.text) needs the simulated store (--controller simulated)")
        }
        let derived = store.derived
        guard let subscription = derived.subscription(productID: productID) else {
          let known = derived.subscriptions.map { "\($0.productID) (\($0.summary))" }
          return fail("\(here): expected a subscription to \(excerpt: productID) (\(expectation.rawValue)); the store has \(known.isEmpty ? "none" : known.joined(separator: ", "))",
                      expected: "\(productID) \(expectation.rawValue)", actual: known.isEmpty ? "no subscription" : known.joined(separator: ", "))
        }
        guard expectation.matches(subscription) else {
          return fail("\(here): expected \(excerpt: productID) to be \(expectation.rawValue); it is \(subscription.summary)",
                      expected: expectation.rawValue, actual: subscription.summary)
        }
      case .expectSubscriptionOffer(let productID, let type, let id):
        guard let store = app.store else {
          return fail("\(here): \(quoting: step.text) needs the simulated store (--controller simulated)")
        }
        let wanted = type.map { "\($0.rawValue)\(id.map { " \($0)" } ?? "")" } ?? "none"
        guard let subscription = store.derived.subscription(productID: productID) else {
          return fail("\(here): expected a subscription to \(excerpt: productID) on offer \(wanted); the store has none",
                      expected: "offer \(wanted)", actual: "no subscription")
        }
        let actualType = subscription.offer == nil ? nil : (subscription.offerType ?? .introductory)
        let actual = actualType.map { "\($0.rawValue)\(subscription.offerID.map { " \($0)" } ?? "")" } ?? "none"
        guard actualType == type, id == nil || subscription.offerID == id else {
          return fail("\(here): expected \(excerpt: productID)'s period to run on offer \(wanted); it runs on \(actual) (\(subscription.summary))",
                      expected: "offer \(wanted)", actual: "offer \(actual)")
        }
      case .expectEvent(let name, let params):
        let all = events.all
        if let index = all[matched...].firstIndex(where: { $0.name == name && $0.matches(params) }) {
          matched = index + 1
          lastMatchLine = step.line
        } else {
          let since = lastMatchLine.map { "since line \($0)" } ?? "so far"
          let seen = all[matched...].map { $0.name == name ? $0.brief : $0.name.rawValue }
          let wanted = name.rawValue + (params.isEmpty ? "" : " " + params.sorted { $0.key < $1.key }.map { "\(excerpt: $0.key)=\(excerpt: $0.value)" }.joined(separator: " "))
          let were = seen.isEmpty ? "(none)" : seen.joined(separator: ", ")
          return fail("\(here): expected event \(name.rawValue)\(params.isEmpty ? "" : " with " + params.sorted { $0.key < $1.key }.map { "\(excerpt: $0.key)=\(excerpt: $0.value)" }.joined(separator: " ")); the events \(since) were: \(were)",
                      expected: "event \(wanted)", actual: "events \(since): \(were)")
        }
      case .expectNoEvent(let name, let params):
        let all = events.all
        if let found = all[matched...].first(where: { $0.name == name && $0.matches(params) }) {
          let since = lastMatchLine.map { "since line \($0)" } ?? "so far"
          return fail("\(here): expected no event \(name.rawValue) \(since); found \(found.brief)",
                      expected: "no event \(name.rawValue)", actual: found.brief)
        }
      case .expectNoScreen(let text):
        let frame = FrameText.plain(AppView.render(runtime.state, size: runtime.state.size))
        if frame.contains(text) {
          return fail("\(here): expected the screen not to show \"\(excerpt: text)\"; the screen was:\n\(frame)",
                      expected: "not \"\(text)\"", actual: frame)
        }
      case .expectScreen(let text):
        let frame = FrameText.plain(AppView.render(runtime.state, size: runtime.state.size))
        guard frame.contains(text) else {
          return fail("\(here): expected the screen to show \"\(excerpt: text)\"; the screen was:\n\(frame)",
                      expected: "\"\(text)\"", actual: frame)
        }
      case .expectStatus(let status, let anyActive):
        let actual = runtime.state.status
        guard anyActive ? actual.isActive : actual == status else {
          return fail("\(here): expected status \(anyActive ? "active" : status.description); it is \(actual)",
                      expected: anyActive ? "active" : status.description, actual: actual.description)
        }
      case .screenshot(let file):
        let path = screenshots.resolve(file)
        do {
          try screenshots.write(AppView.render(runtime.state, size: size), to: path, title: "\(here): \(step.text)")
        } catch {
          return fail("\(here): \(quoting: step.text): \(error)")
        }
      }
      noteScreen()
      if let problem = shootEvery(number: index + 1, step: step.text) { return fail("\(here): \(problem)") }
    }
    if let rule = undecidedRule() { return undecided(rule) }
    return .passed
  }
}
