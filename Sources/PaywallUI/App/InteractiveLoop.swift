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
import TerminalCore

/// The interactive session: the terminal's keys, resizes and signals, the controller's answers and
/// the status all reach the runtime's inbox; after each batch of messages the screen is drawn again
/// (the backend sends only what changed). Nothing wakes up while nothing happens: ticks are
/// effects the model asks for only while a controller works or the debug panel is open, a notice
/// has one timer that clears it, and the store wakes the loop only when it changes (a renewal at
/// an accelerated time rate does).
package enum InteractiveLoop {
  /// How the session ended, for the exit code: 0 after `q`, 128 + the signal after one.
  package struct Ending {
    package var exitCode: Int32
    package var summary: String?
  }

  /// Runs until the `.quit` effect. `afterFirstFrame` runs once the first frame is handed to the
  /// terminal: work that can wait (saving a new user's id) waits, and does not compete with the
  /// first paint for the CPU. The terminal is given back on every way out.
  package static func run(_ runtime: AppRuntime, terminal: any TerminalBackend, start: AppMessage?,
                  afterFirstFrame: () -> Void = {}) async throws(TerminalUnavailable) -> Ending {
    try await self.start(runtime, terminal: terminal, start: start, afterFirstFrame: afterFirstFrame).finish()
  }

  /// A session whose first frame is drawn: `finish` runs its loop.
  package struct Started {
    let runtime: AppRuntime
    let terminal: any TerminalBackend

    /// Runs the loop until the `.quit` effect and gives the terminal back.
    package func finish() async -> Ending {
      defer { terminal.stop() }
      let state = await InteractiveLoop.loop(runtime, terminal)
      return InteractiveLoop.ending(state)
    }
  }

  /// The session up to its first frame, on the calling thread and with no task: `run` without
  /// its loop. The terminal is given back when it throws.
  package static func start(_ runtime: AppRuntime, terminal: any TerminalBackend, start: AppMessage?,
                            afterFirstFrame: () -> Void = {}) throws(TerminalUnavailable) -> Started {
    do {
      try firstFrame(runtime, terminal: terminal, start: start)
    } catch {
      terminal.stop()
      throw error
    }
    afterFirstFrame()
    return Started(runtime: runtime, terminal: terminal)
  }

  private static func firstFrame(_ runtime: AppRuntime, terminal: any TerminalBackend, start: AppMessage?) throws(TerminalUnavailable) {
    // The first frame is worked out while the terminal thread opens the terminal (newterm reads
    // terminfo and sends its first sequences), on the size the kernel gives: first paint is that
    // work's time shorter. Drawn only once the terminal is open, after any other size it opened at.
    var early: (size: Size, frame: Frame)?
    if let size = terminal.sizeBeforeOpen {
      runtime.send(.resized(size))
      if let start { runtime.send(start) }
      runtime.drain(budget: .milliseconds(30))
      if !runtime.isFinished { early = (size, AppView.render(runtime.state, size: size)) }
    }
    try terminal.waitUntilStarted()
    if early == nil || early?.size != terminal.size {
      runtime.send(.resized(terminal.size))
      if early == nil, let start { runtime.send(start) }
      early = nil
    }
    // The first frame is drawn before any task starts, and this thread waits until it is
    // written: where the system packs threads onto one CPU (this VM does), the terminal thread
    // would otherwise wait for whatever this thread starts next. With the early frame, messages
    // that came meanwhile (a key typed ahead) stay in the inbox: the loop draws them next.
    if let early {
      if !runtime.isFinished { terminal.presentAndWait(early.frame) }
    } else {
      runtime.drain(budget: .milliseconds(30))
      if !runtime.isFinished { terminal.presentAndWait(AppView.render(runtime.state, size: runtime.state.size)) }
    }
  }

  private static func loop(_ runtime: AppRuntime, _ terminal: any TerminalBackend) async -> AppState {
    while !runtime.isFinished {
      await runtime.waitForMessages()
      runtime.drain(budget: .milliseconds(30))
      if !runtime.isFinished { terminal.present(AppView.render(runtime.state, size: runtime.state.size)) }
    }
    return runtime.state
  }

  private static func ending(_ state: AppState) -> Ending {
    var summary = "status: \(state.status)"
    if let closed = state.closed { summary = "\(closed.paywallID): \(closed.result) · " + summary }
    return Ending(exitCode: state.termination?.exitCode ?? 0, summary: summary)
  }
}
