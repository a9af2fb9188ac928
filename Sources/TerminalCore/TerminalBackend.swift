import PaywallModel
import Synchronization

/// What a terminal reports.
package enum TerminalEvent: Sendable {
  case key(Key)
  case resized(Size)
  /// A signal that ends the program (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1…) or the terminal
  /// going away: quit cleanly, then exit with the termination's code.
  case terminate(Termination)
}

/// Where the interactive loop draws and where its keys come from (as Ratatui's `Backend`): the
/// ncurses terminal, or a recording one for tests. A backend is made with the sink its events go
/// to, and may start opening before the app exists (events wait in the app's inbox).
package protocol TerminalBackend: AnyObject, Sendable {
  /// Waits until the terminal is open; throws when it cannot be.
  func waitUntilStarted() throws(TerminalUnavailable)
  /// The size once open; later sizes come as `.resized` events.
  var size: Size { get }
  /// Shows `frame` as soon as it can (the ncurses backend skips a frame it has not drawn yet
  /// when a newer one comes; the recording one keeps every frame).
  func present(_ frame: Frame)
  /// Shows `frame` and returns once it is written.
  func presentAndWait(_ frame: Frame)
  /// Gives the terminal back; waits until it is.
  func stop()
  /// The size the terminal will have once open, if it can be known before (nil: wait for `size`).
  var sizeBeforeOpen: Size? { get }
}

extension TerminalBackend {
  /// Not known before the terminal is open.
  package var sizeBeforeOpen: Size? { nil }
}

/// A terminal with no terminal: it keeps every frame it is given and lets a test type keys, so
/// the interactive loop is tested in-process, frame by frame (Ratatui's `TestBackend`).
package final class RecordingTerminal: TerminalBackend, Sendable {
  private let events: @Sendable (TerminalEvent) -> Void
  private let recorded = Mutex<(frames: [Frame], stopped: Bool)>(([], false))
  package let size: Size

  package init(size: Size = Size(width: 80, height: 24), events: @escaping @Sendable (TerminalEvent) -> Void) {
    self.size = size
    self.events = events
  }

  package func waitUntilStarted() throws(TerminalUnavailable) {}

  package func present(_ frame: Frame) { recorded.withLock { $0.frames.append(frame) } }

  package func presentAndWait(_ frame: Frame) { present(frame) }

  package func stop() { recorded.withLock { $0.stopped = true } }

  /// What a person would do: a key, a resize, a signal.
  package func send(_ event: TerminalEvent) { events(event) }

  package var frames: [Frame] { recorded.withLock { $0.frames } }
  package var isStopped: Bool { recorded.withLock { $0.stopped } }

  /// Waits until at least `count` frames were presented; false if they did not come within `seconds`.
  package func waitForFrames(_ count: Int, within seconds: Double = 10) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while recorded.withLock({ $0.frames.count }) < count {
      if ContinuousClock.now >= deadline { return false }
      try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return true
  }
}
