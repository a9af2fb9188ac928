import CTerminalGuard
import Foundation
import PaywallModel

enum ControllerKind: String, CaseIterable {
  case simulated, scripted, ask, command
}

/// Options shared by `run` and `play`: which controller, the status, state and events.
struct SessionOptions {
  static let options: [OptionSpec] = [
    .option("controller", "kind", "Purchase controller: simulated (a local store, default), scripted, ask or command."),
    .option("outcome", "outcomes", "Scripted results, e.g. purchase=pending,restore=failed or purchase=failed:Card declined,latency=2s."),
    .option("controller-command", "cmd", "A shell command line (run as sh -c CMD) of a JSON-lines controller (with --controller command)."),
    .option("controller-timeout", "duration", "How long the command controller may take to answer (wall time; default 10s)."),
    .option("status", "status", "Start with this status: unknown, inactive, active or active:ENT,… (default: the cached one)."),
    .option("state-dir", "dir", "Where the status cache and the store's ledger live (default: $XDG_STATE_HOME/paywall-tui/PROJECT)."),
    .flag("fresh", "Ignore cached state: start unknown with an empty ledger."),
    .option("events", "file", "Also append every event as a JSON line to this file."),
    .option("paywall", "id", "Which paywall of a project to open first."),
    .option("placement", "name", "Register this placement at start."),
    .option("time-rate", "rate", "Simulated store clock: realtime, UNIT=DURATION (month=30s, day=1s) or renewal=DURATION (default: the .storekit _timeRate)."),
    .flag("ask-to-buy", "Simulated store: purchases wait for approval (Ask to Buy)."),
    .option("start", "ent=state", "Simulated store: begin with ENTITLEMENT in subscribed, trial, gracePeriod, billingRetry, expired or revoked (a new ledger).", repeatable: true),
    .flag("grace-period", "Simulated store: billing failures start with a grace period (the .storekit _billingGracePeriodEnabled)."),
    .flag("renewal-billing-issues", "Simulated store: every renewal fails with a billing issue (the .storekit _renewalBillingIssuesEnabled)."),
    .flag("home", "Start on the home screen (the project's placements) instead of the first paywall."),
    .option("user-id", "id", "The user audiences are assigned by (default: one kept in the state directory)."),
    .option("user", "key=value", "A user attribute for audience filters, e.g. --user age=13.", repeatable: true),
  ]

  var controller: ControllerKind = .simulated
  var outcome: String?
  var controllerCommand: String?
  var controllerTimeout = "10s"
  var status: String?
  var stateDir: String?
  var fresh = false
  var events: String?
  var paywall: String?
  var placement: String?
  var timeRate: String?
  var askToBuy = false
  var start: [String] = []
  var gracePeriod = false
  var renewalBillingIssues = false
  var userID: String?
  var userAttributes: [String: String] = [:]
  var home = false

  init() {}

  init(_ arguments: Arguments) throws(CLIFailure) {
    controller = try arguments.choice("controller", default: .simulated)
    outcome = arguments.value("outcome")
    controllerCommand = arguments.value("controller-command")
    controllerTimeout = arguments.value("controller-timeout") ?? "10s"
    status = arguments.value("status")
    stateDir = arguments.value("state-dir")
    fresh = arguments.flag("fresh")
    events = arguments.value("events")
    paywall = arguments.value("paywall")
    placement = arguments.value("placement")
    userID = arguments.value("user-id")
    home = arguments.flag("home")
    if home && paywall != nil { throw .usage("give --home or --paywall, not both") }
    if let id = userID, id.trimmingCharacters(in: .whitespaces).isEmpty {
      throw .usage("--user-id must not be empty")
    }
    userAttributes = try arguments.pairs("user")
    timeRate = arguments.value("time-rate")
    askToBuy = arguments.flag("ask-to-buy")
    start = arguments.values("start")
    gracePeriod = arguments.flag("grace-period")
    renewalBillingIssues = arguments.flag("renewal-billing-issues")
  }

  /// The simulated store's settings: the catalog's, then what the command line changes. The time
  /// rate comes back too, for the store's clock.
  func storeSettings(for catalog: Catalog, warnings: inout [String]) throws(CLIFailure) -> (SimulatedStore.Settings, TimeRate) {
    var settings = SimulatedStore.Settings(catalog: catalog.settings)
    var rate = TimeRate.realTime
    if let value = catalog.settings.timeRate {
      if let known = TimeRate(storeKitValue: value) {
        rate = known
      } else {
        warnings.append("\(catalog.file): _timeRate \(value) is not a StoreKit time rate; the store runs in real time (or give --time-rate)")
      }
    }
    if let text = timeRate {
      guard let parsed = TimeRate(parsing: text) else {
        throw CLIFailure.usage("--time-rate \(quoting: text): \(TimeRate.usage)")
      }
      rate = parsed
    }
    settings.rules.renewalInterval = rate.renewalInterval
    if askToBuy { settings.askToBuy = true }
    if gracePeriod { settings.rules.gracePeriodEnabled = true }
    if renewalBillingIssues { settings.rules.renewalBillingIssues = true }
    return (settings, rate)
  }

  /// The `--start` states, each checked.
  func startStates() throws(CLIFailure) -> [StartState] {
    var states: [StartState] = []
    for text in start {
      do {
        states.append(try StartState(parsing: text))
      } catch {
        throw CLIFailure.usage("--start \(error.message)")
      }
    }
    return states
  }

  /// The options only the simulated store understands, given with another controller.
  var storeOnlyOptions: [String] {
    var given: [String] = []
    if timeRate != nil { given.append("--time-rate") }
    if askToBuy { given.append("--ask-to-buy") }
    if !start.isEmpty { given.append("--start") }
    if gracePeriod { given.append("--grace-period") }
    if renewalBillingIssues { given.append("--renewal-billing-issues") }
    return given
  }

  func openEventFile() throws -> EventFile? {
    guard let events else { return nil }
    do {
      return try EventFile(path: events)
    } catch let error as EventFile.NoReader {
      throw CLIFailure.usage(error.description)
    } catch {
      throw CLIFailure(message: "error: \(error.displayMessage)", code: 1)
    }
  }
}

/// A ready-to-run app: the runtime, its store (when simulated) and what to tell the user.
struct AppSession {
  var runtime: AppRuntime
  var store: SimulatedStore?
  var command: CommandPurchaseController?
  var firstPaywall: String?
  var warnings: [String]
  /// Holds the state directory's lock for as long as the session lives.
  var stateAccess: StateAccess
  /// A new user's id and assignments, not saved yet: see `keepNewUser`.
  var newUser: AssignmentBook?

  /// Saves a new user's id (off the loop), so the next run is the same user. `run` calls it once
  /// the first frame is out, so the save's thread and fsync do not compete with the first paint.
  func keepNewUser() {
    if let newUser { runtime.keepAssignments(newUser) }
  }

  /// Builds the controller, status and runtime for `project`. Usage problems throw `CLIFailure`.
  /// `clock` is the app's: in `play` a simulated one the store shares; otherwise the store gets
  /// its own clock, accelerated by `--time-rate`.
  static func make(project: Project, path: String, options: SessionOptions, overrides: [SlotOverride],
                   clock: any TimeSource, onEvent: @escaping @Sendable (PaywallEvent) -> Void) throws -> AppSession {
    var warnings: [String] = []
    var project = project
    var first = options.home ? nil : project.paywalls.first?.id
    if let id = options.paywall {
      let ids = project.paywalls.map(\.id)
      guard ids.contains(id) else {
        throw CLIFailure.usage("--paywall \(quoting: id): no such paywall\(Suggestions.hint(for: id, in: ids)) (paywalls: \(ids.joined(separator: ", ")))")
      }
      first = id
    }
    // Overrides replace slots before anything is shown, so controllers receive the new product:
    // the project's overrideProductsByName first, then --override on top.
    project.paywalls = project.paywalls.map { definition in
      let (overridden, found) = definition.applying(project.productOverrides + overrides, catalog: project.catalog)
      if definition.id == first { warnings += found }
      return overridden
    }

    var explicitStatus: SubscriptionStatus?
    if let text = options.status {
      guard let parsed = SubscriptionStatus(parsing: text, defaultEntitlements: Self.allEntitlements(project)) else {
        throw CLIFailure.usage("--status \(quoting: text) must be unknown, inactive, active or active:ENTITLEMENT,… (e.g. active:pro)")
      }
      explicitStatus = parsed
    }
    guard let timeout = Duration.seconds(parsing: options.controllerTimeout), timeout > 0 else {
      throw CLIFailure.usage("--controller-timeout \(quoting: options.controllerTimeout) must be a duration such as 10s")
    }

    // One writer per state directory; a second session (or an unwritable directory) reads only.
    let (directory, access) = try StateDirectoryOption.open(options.stateDir, projectName: project.name, projectPath: path)
    if let warning = access.warning { warnings.append(warning) }
    let cache = StatusCache(directory: directory)
    let statusStore = SubscriptionStatusStore()
    if !options.fresh {
      let (cached, warning) = cache.load(repair: access.canWrite)
      statusStore.set(cached)
      if let warning { warnings.append(warning) }
    }

    // Checked before any controller starts (the command controller spawns a process).
    if options.controller != .simulated, let option = options.storeOnlyOptions.first {
      throw CLIFailure.usage("\(option) applies to the simulated store (--controller simulated)")
    }
    let relay = NoticeRelay()
    var store: SimulatedStore?
    var timeRate = "realtime"
    var commandController: CommandPurchaseController?
    let controller: any PurchaseController
    switch options.controller {
    case .simulated:
      let (settings, rate) = try options.storeSettings(for: project.catalog, warnings: &warnings)
      let starts = try options.startStates()
      let storeClock: any TimeSource = (clock as? SimulatedTimeSource) ?? AcceleratedTimeSource(rate: rate.clockRate, start: clock.now)
      timeRate = rate.description
      // A starting state is a new history: the old ledger is replaced on the first write.
      let simulated = SimulatedStore(catalog: project.catalog, status: statusStore, clock: storeClock, directory: directory,
                                     fresh: options.fresh || !starts.isEmpty, writable: access.canWrite, settings: settings)
      if !starts.isEmpty {
        do {
          try simulated.start(starts)
        } catch {
          throw CLIFailure.usage(error.message)
        }
      }
      warnings += simulated.takeWarnings()
      store = simulated
      controller = simulated
    case .scripted:
      let outcomes: ScriptedPurchaseController.Outcomes
      do {
        outcomes = try options.outcome.map { text throws(PurchaseError) in try .init(parsing: text) } ?? .init()
      } catch {
        throw CLIFailure.usage(error.message)
      }
      controller = ScriptedPurchaseController(outcomes: outcomes, status: statusStore, clock: clock)
    case .ask:
      controller = AskPurchaseController(status: statusStore)
    case .command:
      guard let command = options.controllerCommand, !command.isEmpty else {
        throw CLIFailure.usage("--controller command needs --controller-command 'CMD' (a process speaking JSON lines)")
      }
      let spawned = CommandPurchaseController(command: command, status: statusStore, timeout: timeout) { relay.send($0) }
      do {
        try spawned.start()
      } catch {
        throw CLIFailure(message: "error: \(error.message)", code: 1)
      }
      // The command line's signal handlers (tg_install_process_handlers) run this just before the
      // process dies of a signal, so no path out of `run` or `play` leaves the controller's
      // process group behind (in the interactive loop, signals quit through the loop instead).
      tg_set_exit_hook(endControllerGroupsBeforeDying)
      commandController = spawned
      controller = spawned
    }
    // A usage error found after the controller started must not leave its process running.
    var started = commandController
    defer { started?.stop() }
    if options.controller != .scripted && options.outcome != nil {
      throw CLIFailure.usage("--outcome applies to --controller scripted")
    }

    if let explicitStatus { statusStore.set(explicitStatus) }

    let assignmentFile = AssignmentFile(directory: directory)
    let (book, userWarning, isNewUser) = assignmentFile.load(userID: options.userID, fresh: options.fresh, repair: access.canWrite)
    if let userWarning { warnings.append(userWarning) }
    var state = AppState(project: project, options: project.options, status: statusStore.status, assignments: book)
    state.userAttributes = options.userAttributes
    let runtime = AppRuntime(state: state, controller: FaultInjectingController(controller, clock: clock), statusStore: statusStore,
                             clock: clock, statusCache: access.canWrite ? cache : nil, store: store, timeRate: timeRate,
                             assignmentFile: access.canWrite ? assignmentFile : nil, onEvent: onEvent)
    relay.attach(runtime)
    started = nil
    return AppSession(runtime: runtime, store: store, command: commandController, firstPaywall: first, warnings: warnings,
                      stateAccess: access, newUser: isNewUser ? book : nil)
  }

  static func allEntitlements(_ project: Project) -> Set<Entitlement> {
    Set(project.catalog.products.flatMap(\.entitlements))
  }
}

/// Carries controller problems to the runtime, which exists only after the controller does.
final class NoticeRelay: @unchecked Sendable {
  private let lock = NSLock()
  private weak var runtime: AppRuntime?
  private var early: [String] = []

  func attach(_ runtime: AppRuntime) {
    lock.lock()
    self.runtime = runtime
    let queued = early
    early = []
    lock.unlock()
    for message in queued { runtime.send(.controllerProblem(message)) }
  }

  func send(_ message: String) {
    lock.lock()
    guard let runtime else {
      early.append(message)
      lock.unlock()
      return
    }
    lock.unlock()
    runtime.send(.controllerProblem(message))
  }
}

/// The exit hook of the command line's signal handlers: a fault ends the controllers' process
/// groups at once (SIGKILL); any other ending signal gives them half a second to go after
/// SIGTERM first. Async-signal-safe: `kill` and `nanosleep` on fixed atomic slots, which exist
/// by the time the hook is set (a controller has registered its group).
private func endControllerGroupsBeforeDying(_ signal: Int32) {
  switch signal {
  case SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE: ControllerGroups.killAllNow()
  default: ControllerGroups.endAll(graceMilliseconds: 500)
  }
}
