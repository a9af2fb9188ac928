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
// The library is this module: what its users name (the errors `run` throws, frames and the
// renderer for a picture of a paywall) lives in the modules below it and comes with it.
@_exported import PaywallUI
@_exported import TerminalCore
import CursesBackend

/// The interactive app as a library, for Swift users who plug in their own `PurchaseController`:
///
/// ```swift
/// let project = try PaywallApp.loadProject("paywalls")
/// let status = SubscriptionStatusStore()
/// try await PaywallApp(project: project, controller: MyController(status: status), status: status).run()
/// ```
///
/// It is built like `paywall-tui run` (`AppSession.make`): the project's product overrides, audience
/// assignments kept in the state directory, the fault injector around the controller.
public final class PaywallApp {
  /// How the app starts and where it keeps state.
  public struct Options: Sendable {
    /// The paywall to open first (default: the project's first).
    public var paywall: String?
    /// A placement to register at start instead of opening a paywall.
    public var placement: String?
    /// Where the status cache and the audience assignments are kept between launches; nil keeps
    /// them in memory.
    public var stateDirectory: StateDirectory?
    /// Also called with every event, in order (e.g. to log them).
    public var onEvent: (@Sendable (PaywallEvent) -> Void)?

    /// Options with the given choices; every one may be left out.
    public init(paywall: String? = nil, placement: String? = nil, stateDirectory: StateDirectory? = nil,
                onEvent: (@Sendable (PaywallEvent) -> Void)? = nil) {
      self.paywall = paywall
      self.placement = placement
      self.stateDirectory = stateDirectory
      self.onEvent = onEvent
    }
  }

  /// The project shown.
  public let project: Project
  /// The controller every purchase and restore goes to.
  public let controller: any PurchaseController
  /// The status the controller sets and the app shows.
  public let status: SubscriptionStatusStore
  /// How the app starts.
  public let options: Options

  /// An app for `project` whose purchases go to `controller`, which sets `status`.
  public init(project: Project, controller: any PurchaseController, status: SubscriptionStatusStore, options: Options = Options()) {
    self.project = project
    self.controller = controller
    self.status = status
    self.options = options
  }

  /// Loads a project directory, app.json or paywall file; the error lists every problem.
  public static func loadProject(_ path: String, catalog: String? = nil) throws(ValidationFailure) -> Project {
    let result = ProjectLoader.load(path: path, catalogPath: catalog)
    guard let project = result.project else { throw ValidationFailure(result.errors) }
    return project
  }

  /// Runs in the terminal until the user quits; the terminal is restored on every exit path.
  /// Returns the exit code: 0, 128 + N after signal N, 141 when stdout's reader went away before
  /// the summary line, 1 when it could not be written otherwise or the state could not be set up,
  /// 2 when `options.paywall` names no paywall of the project (the reason is on stderr). Throws when stdin/stdout are not a terminal, TERM is unknown or cannot
  /// move the cursor.
  @discardableResult
  public func run() async throws(TerminalUnavailable) -> Int32 {
    if let id = options.paywall, project.paywall(id: id) == nil {
      let ids = project.paywalls.map(\.id)
      let message = "error: PaywallApp.Options.paywall \(quoting: id) is not a paywall of \(project.name)\(Suggestions.hint(for: id, in: ids)) (paywalls: \(ids.joined(separator: ", ")))"
      _ = FileSystem.writeAll(message + "\n", to: STDERR_FILENO)
      return 2
    }
    let inbox = AppInbox()
    let terminal = CursesTerminal { inbox.send($0.message) }
    try terminal.begin()
    var session = SessionConfiguration()
    session.paywall = options.paywall
    let onEvent = options.onEvent
    let app: AppSession
    do {
      app = try AppSession.make(project: project, path: project.name, options: session, overrides: [], clock: LiveTimeSource(),
                                inbox: inbox, animates: true, state: .library(options.stateDirectory),
                                custom: AppSession.CustomController(controller: controller, status: status)) { onEvent?($0) }
    } catch {
      // The terminal thread ends before it touched the terminal: the message is a clean line.
      terminal.stop()
      _ = FileSystem.writeAll(error.message + "\n", to: STDERR_FILENO)
      return 1
    }
    terminal.open()
    for warning in app.warnings { app.runtime.send(.notice(warning)) }
    let start: AppMessage? = options.placement.map { .presentation(.register(placement: $0, params: [:])) }
      ?? app.firstPaywall.map { .presentation(.open(paywallID: $0, selected: nil)) }
    app.runtime.send(.presentation(.launch(firstInstall: app.isFirstLaunch)))
    let ending = try await InteractiveLoop.run(app.runtime, terminal: terminal, start: start, afterFirstFrame: app.keepNewUser)
    app.runtime.flushState()
    withExtendedLifetime(app.stateAccess) {}
    // The summary goes through the same checked write as the command line's output: a reader that
    // went away gives 141, another failure a line on stderr and 1, never a trap or a silent 0.
    if let summary = ending.summary, let code = FileSystem.writeAll(summary + "\n", to: STDOUT_FILENO) {
      if code == EPIPE { return 141 }
      _ = FileSystem.writeAll(OutputFailure(target: OutputFailure.standardOutput, code: code).message + "\n", to: STDERR_FILENO)
      return ending.exitCode == 0 ? 1 : ending.exitCode
    }
    return ending.exitCode
  }
}
