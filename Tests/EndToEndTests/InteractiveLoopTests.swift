import Foundation
import PaywallModel
import Synchronization
import PaywallTesting
import Testing
@testable import TerminalCore
@testable import PaywallUI
@testable import PaywallCLI

/// The interactive loop in-process, against the recording terminal: keys in, frames out, the
/// ending's code. What tmux tests end to end (`TerminalEndToEndTests`) is here frame by frame.
///
/// The loop runs on the concurrency pool, which other suites' blocking tests (processes waited
/// for, tmux) can hold for tens of seconds on a 2-core machine: every wait here is bounded by
/// `patience`, long enough to outlast that, and returns as soon as what it waits for happens.
@Suite("Interactive loop")
struct InteractiveLoopTests {
  /// A session as `run` builds it (in memory: no state directory), its loop running on a thread of
  /// its own, and the terminal the test types into.
  static let patience: Duration = .seconds(120)

  final class Session: Sendable {
    let terminal: RecordingTerminal
    let runtime: AppRuntime
    private final class Result: Sendable {
      let ending = Mutex<(done: Bool, ending: InteractiveLoop.Ending?)>((false, nil))
    }

    private let result = Result()

    init(_ arguments: [String] = []) throws {
      let inbox = AppInbox()
      terminal = RecordingTerminal { inbox.send($0.message) }
      let options = try SessionConfiguration(Arguments(["paywalls"] + arguments, spec: RunCommand.spec))
      let app = try AppSession.make(project: try Fixtures.demoProject(), path: "paywalls", options: options, overrides: [],
                                    clock: LiveTimeSource(), inbox: inbox, animates: true, state: .library(nil)) { _ in }
      runtime = app.runtime
      let start: AppMessage? = app.firstPaywall.map { .presentation(.open(paywallID: $0, selected: nil)) }
      let (terminal, result) = (terminal, result)
      Task.detached {
        let ending = try? await InteractiveLoop.run(app.runtime, terminal: terminal, start: start)
        result.ending.withLock { $0 = (true, ending) }
      }
    }

    func press(_ keys: Key...) { for key in keys { terminal.send(.key(key)) } }

    /// The newest frame once one shows `text` (waits up to `patience` for it).
    func screen(showing text: String) async -> String? {
      let deadline = ContinuousClock.now + InteractiveLoopTests.patience
      while ContinuousClock.now < deadline {
        if let last = terminal.frames.last?.text, last.contains(text) { return last }
        try? await Task.sleep(nanoseconds: 2_000_000)
      }
      return nil
    }

    /// How the loop ended (waits up to `patience` for it to end, without holding a thread of the
    /// concurrency pool: the loop itself needs one).
    func end() async -> InteractiveLoop.Ending? {
      let deadline = ContinuousClock.now + InteractiveLoopTests.patience
      while ContinuousClock.now < deadline {
        let (done, ending) = result.ending.withLock { $0 }
        if done { return ending }
        try? await Task.sleep(nanoseconds: 2_000_000)
      }
      return nil
    }
  }

  @Test func keysDrawFramesAndQuittingEndsWithTheSummary() async throws {
    let session = try Session(["--fresh", "--status", "inactive"])
    #expect(await session.terminal.waitForFrames(1, within: 120), "the first frame")
    let first = try #require(session.terminal.frames.first).text
    #expect(first.contains("Unlock Acme Pro") && first.contains("● Annual"), "\(first)")
    session.press(.character("2"))
    #expect(await session.screen(showing: "● Monthly") != nil, "selecting draws a frame")
    session.press(.enter)
    let closed = await session.screen(showing: "closed: purchased")
    #expect(closed?.contains("active:pro") == true, "\(closed ?? "no frame")")
    session.press(.character("q"))
    let ending = try #require(await session.end())
    #expect(ending.exitCode == 0)
    #expect(ending.summary == "onboarding: purchased(com.acme.pro.monthly) · status: active:pro")
    #expect(session.terminal.isStopped, "the terminal is given back")
  }

  /// A signal is a typed termination: the loop quits through its model and exits 128 + N.
  @Test func aSignalEndsTheLoopWithItsCode() async throws {
    let session = try Session(["--status", "inactive"])
    #expect(await session.terminal.waitForFrames(1, within: 120))
    session.terminal.send(.terminate(Termination(signal: SIGTERM)))
    let ending = try #require(await session.end())
    #expect(ending.exitCode == 128 + SIGTERM)
    #expect(session.runtime.state.notice == "terminated (SIGTERM)")
    #expect(session.terminal.isStopped)
  }

  /// While a purchase waits (here for the tester's answer), the model asks for ticks and the
  /// spinner turns; once nothing moves, no more frames come.
  @Test func theSpinnerTurnsOnlyWhileAPurchaseWaits() async throws {
    let session = try Session(["--controller", "ask", "--status", "inactive"])
    #expect(await session.terminal.waitForFrames(1, within: 120))
    session.press(.enter)
    #expect(await session.screen(showing: "Result:") != nil, "the ask dialog opens")
    let count = session.terminal.frames.count
    #expect(await session.terminal.waitForFrames(count + 3, within: 120), "ticks redraw the spinner")
    let glyphs = Set(session.terminal.frames.suffix(3).compactMap { frame in AppView.spinner.first { frame.text.contains($0) } })
    #expect(glyphs.count >= 2, "the spinner moved: \(glyphs)")
    session.press(.enter)  // purchased, with the product's entitlements
    #expect(await session.screen(showing: "closed: purchased") != nil)
    // The last tick asked for while busy may still come (one redraw, late on a busy machine):
    // wait until half a second passes with no frame (a spinner still turning never gets there),
    // then a whole second must pass with none.
    var idle = session.terminal.frames.count
    let deadline = ContinuousClock.now + .seconds(10)
    repeat {
      idle = session.terminal.frames.count
      try await Task.sleep(nanoseconds: 500_000_000)
    } while session.terminal.frames.count != idle && ContinuousClock.now < deadline
    try await Task.sleep(nanoseconds: 1_000_000_000)
    // A spinner still turning draws ten frames a second; one frame may still be the purchase's
    // notice going away (6 s after it came, which a loaded machine's wait above can reach).
    #expect(session.terminal.frames.count - idle <= 1, "no frames while nothing happens")
    let last = session.terminal.frames.last?.text ?? ""
    #expect(!AppView.spinner.contains { last.contains($0) }, "the spinner stopped: \(last)")
    session.press(.escape)
    #expect(await session.end()?.exitCode == 0)
  }
}

/// What the runtime does with the inbox: order, and waiting after the session is over.
@Suite("Runtime inbox")
struct RuntimeInboxTests {
  /// Keys that arrive in one batch (a paste, a fast typist): the status a debug key sets is the
  /// app's before the next key is handled, as when the keys come one by one.
  @Test func aStatusSetByAKeyIsHandledBeforeTheKeysAfterIt() async throws {
    let project = try Fixtures.demoProject()
    let clock = SimulatedTimeSource()
    let status = SubscriptionStatusStore()
    let controller = ScriptedPurchaseController(outcomes: .init(), status: status, clock: clock)
    let runtime = AppRuntime(state: AppState(project: project), controller: controller, statusStore: status, clock: clock,
                             statusCache: nil) { _ in }
    for key in [Key.character("d"), .character("s"), .character("d"), .enter] { runtime.send(.key(key)) }
    await runtime.settle()
    #expect(runtime.state.status == .inactive)
    #expect(runtime.state.session?.id == "onboarding", "Enter registered with the status the s key set")
    #expect(runtime.state.presentation.waiting == nil)
    #expect(runtime.state.notice?.contains("waiting") != true, "\(runtime.state.notice ?? "")")
  }

  /// After `.quit` (q on the home screen of a `play` script), waiting for messages still waits.
  @Test func aFinishedInboxStillWaitsForPlay() async throws {
    let inbox = AppInbox()
    inbox.finish()
    let woke = Mutex(false)
    let waiter = Task {
      await inbox.waitForMessages(evenWhenFinished: false)
      woke.withLock { $0 = true }
    }
    try await Task.sleep(nanoseconds: 50_000_000)
    #expect(woke.withLock { $0 } == false, "it waits for a message")
    inbox.send(.notice("next step"))
    _ = await waiter.value
    #expect(woke.withLock { $0 })
  }

  /// One loop waits on an inbox at a time: a second waiter would take the first one's place and
  /// leave it waiting for ever, without a word, so the program stops instead. The body waits a
  /// little for that, then ends: with nothing to stop it, it exits 0.
  @Test func twoWaitersOnOneInboxStopTheProgram() async {
    await #expect(processExitsWith: .failure) {
      let inbox = AppInbox()
      for _ in 0..<2 {
        Task.detached { await inbox.waitForMessages() }
      }
      try? await Task.sleep(for: .seconds(3))
    }
  }
}
