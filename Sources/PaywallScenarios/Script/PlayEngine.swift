#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import PaywallModel
import Synchronization
import TerminalCore
import CursesBackend
import PaywallUI

/// Collects events in order as the runtime emits them.
package final class EventRecorder: Sendable {
  private let events = Mutex<[PaywallEvent]>([])

  package init() {}
  package func append(_ event: PaywallEvent) { events.withLock { $0.append(event) } }
  package var all: [PaywallEvent] { events.withLock { $0 } }
}

/// One `play`, validated: the project loaded, the script read, every option parsed and every
/// output path checked. The command line builds it (`PlayCommand`); `PlayEngine.run` plays it.
package struct PlayRequest: Sendable {
  /// The project, as the session opens it (`SessionConfiguration.localized`).
  package var project: Project
  /// Where it was loaded from (the session names it).
  package var path: String
  package var script: PlayScript
  /// The script's file (`-`: stdin), which `screenshot FILE` paths are relative to.
  package var scriptPath: String?
  package var session: SessionConfiguration
  package var overrides: [SlotOverride]
  /// Where the simulated clock starts.
  package var clockStart: Date
  /// The screen's size, for `expect screen`, `screenshot`, the last screen and the recording.
  package var size: Size
  /// `--record`: the file, the milliseconds between two screens, and the recording's title.
  package var recording: (path: String, pace: Int, title: String)?
  /// `--screenshot-every`: the folder (already made).
  package var screenshotEvery: String?
  /// `--screen`: the report carries the last screen.
  package var screen: Bool

  package init(project: Project, path: String, script: PlayScript, scriptPath: String?, session: SessionConfiguration,
               overrides: [SlotOverride], clockStart: Date, size: Size, recording: (path: String, pace: Int, title: String)?,
               screenshotEvery: String?, screen: Bool) {
    self.project = project
    self.path = path
    self.script = script
    self.scriptPath = scriptPath
    self.session = session
    self.overrides = overrides
    self.clockStart = clockStart
    self.size = size
    self.recording = recording
    self.screenshotEvery = screenshotEvery
    self.screen = screen
  }
}

/// Where a play's output goes: the command line prints the events and warnings, a test gives
/// them to a recorder. `failure` is the first write that failed, if one did: the script stops
/// at the next step and the play ends with it.
package struct PlayOutput: Sendable {
  package var event: @Sendable (PaywallEvent) -> Void
  package var warning: @Sendable (String) -> Void
  package var failure: @Sendable () -> (any Error)?

  package init(event: @escaping @Sendable (PaywallEvent) -> Void, warning: @escaping @Sendable (String) -> Void,
               failure: @escaping @Sendable () -> (any Error)? = { nil }) {
    self.event = event
    self.warning = warning
    self.failure = failure
  }
}

/// How a play ended: the status, and the step that failed with what it expected and found.
package struct PlayReport: Codable, Equatable, Sendable {
  /// `active`, `inactive` or `unknown`.
  package var status: String
  package var entitlements: [String]
  /// With `--screen`: the last screen's rows, trailing spaces trimmed.
  package var screen: [String]?
  /// Why the play failed, nil when every step held.
  package var failure: StepFailure?
}

/// The step that failed, as fields: the file and line, the step as written, what an `expect`
/// wanted and what was there, and the whole message `play` prints.
package struct StepFailure: Codable, Equatable, Sendable, Error {
  package var message: String
  package var file: String
  /// The step's line; nil for a failure before the first step or after the last.
  package var line: Int?
  /// The step as written.
  package var step: String?
  /// An `expect`'s two sides.
  package var expected: String?
  package var actual: String?

  package init(message: String, file: String, step: PlayScript.Step? = nil, expected: String? = nil, actual: String? = nil) {
    self.message = message
    self.file = file
    self.line = step?.line
    self.step = step?.text
    self.expected = expected
    self.actual = actual
  }
}

/// Plays a validated request: the app with no terminal, on a simulated clock, one step at a time.
package enum PlayEngine {
  /// Runs `request`, its events and warnings to `output`. A step that fails is the report's
  /// `failure`; what keeps the play from starting or finishing (the session, the recording,
  /// output that could not be written) is thrown.
  package static func run(_ request: PlayRequest, output: PlayOutput) async throws -> PlayReport {
    let events = EventRecorder()
    let clock = SimulatedTimeSource(start: request.clockStart)
    var session = request.session
    // A script that begins by registering a placement begins where an app would: on the home
    // screen, with no paywall in the way. --paywall and --home still decide.
    if session.paywall == nil, !session.home, request.script.startsWithPlacement { session.home = true }
    // A fresh state in memory unless --state-dir names one to go on from: the same script
    // gives the same result every time, and nothing is left behind.
    // A command controller's stderr is its log: a warning here too (stdout stays JSON lines).
    let app = try AppSession.make(project: request.project, path: request.path, options: session, overrides: request.overrides,
                                 clock: clock, simulatedClock: clock, animates: false, state: .commandLineOrMemory,
                                 controllerLog: { output.warning("controller: \($0)") }) { event in
      events.append(event)
      output.event(event)
    }
    defer { app.command?.stop() }
    app.keepNewUser()
    // Every way out waits for the state files being written (the new user's id above): a process
    // that ends during a write leaves its temporary file behind.
    defer { app.runtime.flushState() }
    // Warnings are not the command's output: one that cannot be written is remembered (the exit
    // code is 1 at the end) and the run goes on.
    for warning in app.warnings { output.warning("warning: \(warning)") }
    app.runtime.setStateProblemHandler { output.warning("warning: \($0)") }
    // A command controller's launch-time status arrives before the first step, as an app's
    // arrives before its first registration is presented (`waitForLaunchStatus` says why).
    if let command = app.command, command.waitForLaunchStatus() == .timedOut {
      output.warning("warning: the controller set no subscription status within --controller-timeout (\(DurationOption.spell(session.controllerTimeout))) of starting, so it stays unknown and a registration waits for one, as the SDK does; send {\"method\":\"setSubscriptionStatus\",…} at launch (docs/controllers.md), or give --status")
    }

    let started = clock.now
    // Made once the project and script are loaded: its thread draws each screen as play goes.
    let timeline = try request.recording.map { try makeTimeline(pace: $0.pace, size: request.size) }
    var player = Player(app: app, clock: clock, events: events, size: request.size, stopped: { output.failure() != nil },
                        timeline: timeline)
    player.screenshots = Screenshots(base: Screenshots.directory(ofScript: request.scriptPath ?? "-"), every: request.screenshotEvery)
    let outcome = await player.play(request.script, placement: session.placement)
    // What was shown, also when a step failed: the recording ends where the run did.
    if let recording = request.recording, let timeline {
      let cast = Asciicast(size: request.size, timestamp: Int(started.timeIntervalSince1970), title: recording.title,
                           shell: ProcessInfo.processInfo.environment["SHELL"])
      do {
        try AtomicFile.write(try cast.text(timeline), to: recording.path, replacingOnlyRegularFile: true)
      } catch let failure as CastFailure {
        throw PlayFailure.invalid(failure.description)
      } catch {
        throw PlayFailure.invalid("error: --record: \(error)")
      }
    }
    // The next run on this state directory continues from this moment of the store's clock.
    app.store?.checkpoint()
    app.runtime.flushState()
    if let failure = output.failure() { throw failure }
    let state = app.runtime.state
    var report = PlayReport(status: state.status.rawName.lowercased(), entitlements: state.status.entitlements.sorted().map(\.id))
    if request.screen {
      report.screen = AppView.render(state, size: state.size).lines.map { FrameText.trimTrailingSpaces($0) }
    }
    if case .failed(let failure) = outcome {
      report.failure = failure
    } else if let waiting = state.presentation.waiting {
      // A register still waiting for a subscription status would have failed after 5 s in the
      // app; the simulated clock never got there, so the run would end having shown nothing.
      report.failure = StepFailure(
        message: "error: placement \(quoting: waiting.placement) is still waiting for a subscription status at the end of the script (the SDK gives up after 5 s); set one (--status inactive, or 'status' in the script) or 'advance 5s' to see the timeout",
        file: request.script.file)
    }
    return report
  }

  /// A recording's timeline; its thread starts drawing at once.
  private static func makeTimeline(pace: Int, size: Size) throws(PlayFailure) -> CastTimeline {
    do {
      return try CastTimeline(pace: pace, size: size)
    } catch {
      throw .invalid(error.description)
    }
  }
}
