import CTerminalGuard
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

/// A ready-to-run app: the runtime, its store (when simulated) and what to tell the user. Built in
/// one place, `make`, for `run`, `play` and the library's `PaywallApp`.
package struct AppSession {
  package var runtime: AppRuntime
  package var store: SimulatedStore?
  package var command: CommandPurchaseController?
  package var firstPaywall: String?
  package var warnings: [String]
  /// Holds the state directory's lock for as long as the session lives (nil: state in memory).
  package var stateAccess: StateAccess?
  /// Where the state files are written (nil: in memory): `--watch` never counts them as a save.
  package var stateDirectory: StateDirectory?
  /// A new user's id and assignments, not saved yet: see `keepNewUser`.
  package var newUser: AssignmentBook?
  /// `--user-id`: the user a reinstall keeps (else a new anonymous one).
  package var explicitUserID: String?

  /// Saves a new user's id (off the loop), so the next run is the same user. `run` calls it once
  /// the first frame is out, so the save's thread and fsync do not compete with the first paint.
  /// The app's first launch on this state: a new user, or a state in memory (each `play` without
  /// `--state-dir` is a fresh install). The SDK then tracks `app_install` and `first_seen`.
  package var isFirstLaunch: Bool { newUser != nil || stateDirectory == nil }

  /// The user a reinstall starts with, as `--reinstall` does: `--user-id`'s, else a new anonymous
  /// one where state is kept, else the one in-memory user (so audience splits come out the same
  /// every run).
  package var userIDAfterReinstall: String {
    explicitUserID ?? (stateDirectory == nil ? "anonymous" : AssignmentFile.newAnonymousUserID())
  }

  package func keepNewUser() {
    if let newUser { runtime.keepAssignments(newUser) }
  }

  /// Where state lives: the command line's `--state-dir` (or the default for the project), or a
  /// library user's choice (nil: in memory, nothing read or written). `play` keeps it in memory
  /// unless `--state-dir` is given (`commandLineOrMemory`), so a script runs the same every time.
  package enum StatePlace {
    case commandLine
    case commandLineOrMemory
    case library(StateDirectory?)
  }

  /// A library user's own controller, and the status store it sets.
  package struct CustomController {
    package var controller: any PurchaseController
    package var status: SubscriptionStatusStore

    package init(controller: any PurchaseController, status: SubscriptionStatusStore) {
      self.controller = controller
      self.status = status
    }
  }

  /// Builds the controller, status and runtime for `project`. Usage problems throw `SessionError.usage`.
  /// `clock` is the app's: in `play` the simulated one (also `simulatedClock`), which the store
  /// shares; otherwise the store gets its own clock, accelerated by `--time-rate`. The debug
  /// panel's `advance` moves the app's clock and the store's. Messages go to `inbox`, which may already hold
  /// some (the terminal opens while the project loads). A command controller's stderr, its log,
  /// goes to `controllerLog`, else to the log pane.
  package static func make(project given: Project, path: String, options: SessionConfiguration, overrides: [SlotOverride],
                   clock: any AdjustableTimeSource, simulatedClock: SimulatedTimeSource? = nil, inbox: AppInbox = AppInbox(),
                   animates: Bool, state place: StatePlace = .commandLine, custom: CustomController? = nil,
                   controllerLog: (@Sendable (String) -> Void)? = nil,
                   onEvent: @escaping @Sendable (PaywallEvent) -> Void) throws(SessionError) -> AppSession {
    var warnings: [String] = []
    // A campaign on a launch event decides what shows at launch, as in the app: the home screen.
    let launches = given.campaigns.contains { Campaign.firedAtLaunch.contains($0.placement) }
    var first = options.home || launches ? nil : given.paywalls.first?.id
    if let id = options.paywall {
      let ids = given.paywalls.map(\.id)
      guard ids.contains(id) else {
        throw SessionError.usage("--paywall \(quoting: id): no such paywall\(Suggestions.hint(for: id, in: ids)) (paywalls: \(ids.joined(separator: ", ")))")
      }
      first = id
    }
    if let name = options.placement {
      // A typo would register nothing (placementNotFound) and pass: refused, as `explain` hints.
      let placements = given.campaignPlacements
      guard placements.contains(name) else {
        let known = placements.isEmpty ? "; the project has no campaigns" : "\(Suggestions.hint(for: name, in: placements)) (placements: \(placements.joined(separator: ", ")))"
        throw SessionError.usage("--placement \(quoting: name): no campaign has this placement\(known)")
      }
    }
    let sessionPlatform: SDKPlatform
    switch options.resolvedSDK(given.options.sdk) {
    case .failure(let error): throw SessionError.usage(error.message)
    case .success(let sdk):
      sessionPlatform = sdk.platform
      // A release that reads Play ids otherwise than app.json's may sell nothing under a slot's id.
      let problems = given.following(sdk).problems
      if !problems.isEmpty { throw SessionError.usage(problems.joined(separator: "\n")) }
      let pinned = given.options.sdk != .latest(for: given.options.sdk.platform)
      if sdk.platform != given.options.sdk.platform, !given.stores.contains(sdk.platform) || pinned {
        // The project's own SDK and its options for that platform give way: say so, not in silence.
        // A cross-platform project has the store the session chose: only a release app.json pins
        // (its own store's) gives way there.
        warnings.append("--platform \(sdk.platform.rawValue): the project follows \(given.options.sdk.platform.sdkName) \(given.options.sdk.description) (app.json's options); this session follows \(sdk.platform.sdkName) \(sdk.description) instead")
      }
    }
    let (project, found) = prepared(given, options: options, overrides: overrides, warningsFor: first)
    warnings += found

    var explicitStatus: SubscriptionStatus?
    if let text = options.status {
      guard let parsed = SubscriptionStatus(parsing: text, defaultEntitlements: project.catalog.entitlements) else {
        throw SessionError.usage(SessionConfiguration.statusRefusal(text) ?? "--status \(quoting: text)")
      }
      explicitStatus = parsed
    }
    let timeout = options.controllerTimeout

    // One writer per state directory; a second session (or an unwritable directory) reads only.
    let ownStore = project.stateStore(following: sessionPlatform)
    if options.stateDir == nil, case .commandLine = place, let ownStore,
       let earlier = StateDirectoryOption.earlierState(projectName: project.name, projectPath: path, store: ownStore) {
      warnings.append(earlier)
    }
    let directory: StateDirectory?
    let access: StateAccess?
    switch place {
    case .commandLine:
      let (opened, openedAccess) = try StateDirectoryOption.open(options.stateDir, projectName: project.name, projectPath: path, store: ownStore)
      (directory, access) = (opened, openedAccess)
    case .commandLineOrMemory where options.stateDir != nil:
      let (opened, openedAccess) = try StateDirectoryOption.open(options.stateDir, projectName: project.name, projectPath: path, store: ownStore)
      (directory, access) = (opened, openedAccess)
    case .commandLineOrMemory:
      // Nothing read or made: no directory, no lock, the user "anonymous" (audience splits
      // the same every run), the ledger in memory.
      (directory, access) = (nil, nil)
    case .library(let given):
      access = given.map(StateAccess.open)
      // A refused directory (another user's, writable by others) is not even read.
      directory = access?.refusal == nil ? given : nil
    }
    if let warning = access?.warning { warnings.append(warning) }
    let canWrite = access?.canWrite ?? false
    let cache = directory.map(StatusCache.init(directory:))
    let statusStore = custom?.status ?? SubscriptionStatusStore()
    // The cached status is the one the app launches with (the SDK loads it at configure); what
    // the controller then sets, e.g. a simulated store whose ledger backs no subscription, is a
    // change the app sees and reports (Superwall.swift listenToSubscriptionStatus).
    var cachedAtLaunch: SubscriptionStatus?
    if !options.fresh && !options.reinstall, let cache, statusStore.status == .unknown {
      let (cached, warning) = cache.load(repair: canWrite)
      statusStore.set(cached)
      if cached != .unknown { cachedAtLaunch = cached }
      if let warning { warnings.append(warning) }
    }

    // Checked before any controller starts (the command controller spawns a process).
    if options.controller != .simulated || custom != nil, let option = options.storeOnlyOptions.first {
      throw SessionError.usage("\(option) applies to the simulated store (--controller simulated)")
    }
    var store: SimulatedStore?
    var ask: AskPurchaseController?
    var timeRate = "realtime"
    var wallRate = 1.0
    var adjustable: [any AdjustableTimeSource] = [clock]
    var commandController: CommandPurchaseController?
    let controller: any PurchaseController
    switch (custom, options.controller) {
    case (let custom?, _):
      controller = custom.controller
    case (nil, .simulated):
      var (settings, rate) = options.storeSettings(for: project.catalog, warnings: &warnings)
      settings.grantsOneTimePurchases = project.options.sdk.oneTimePurchasesGrantWithoutController
      let starts = options.start
      let storeClock: any TimeSource
      if let simulatedClock {
        storeClock = simulatedClock
      } else {
        let accelerated = LiveTimeSource(rate: rate.clockRate, start: clock.now)
        adjustable.append(accelerated)
        storeClock = accelerated
      }
      timeRate = rate.description
      wallRate = rate.clockRate
      // A starting state is a new history: the old ledger is replaced on the first write.
      let simulated = SimulatedStore(catalog: project.catalog, status: statusStore, clock: storeClock,
                                     directory: directory,
                                     fresh: options.fresh || !starts.isEmpty, writable: canWrite, settings: settings)
      if let foreign = simulated.foreignLedger, let directory {
        throw SessionError.usage(StoreChoice.foreignLedger(foreign, in: directory.file(LedgerFile.fileName), following: project.catalog.store,
                                                           crossPlatform: project.stores.count > 1))
      }
      if !starts.isEmpty {
        do {
          try simulated.start(starts)
        } catch {
          throw SessionError.usage(error.message)
        }
      }
      warnings += simulated.takeWarnings()
      store = simulated
      controller = simulated
    case (nil, .scripted):
      let outcomes = options.outcome ?? .init()
      if outcomes.purchase == .restored, !project.options.sdk.hasRestoredPurchaseResult {
        let sdk = project.options.sdk
        throw SessionError.usage("--outcome purchase=restored: SDK \(sdk.named) (\(sdkSource(options))) has no restored purchase result, "
          + "\(sdk.restoredPurchaseFix); use purchase=purchased\(sdk.platform == .ios ? ", or --sdk 3" : "")")
      }
      controller = ScriptedPurchaseController(outcomes: outcomes, status: statusStore, clock: clock)
    case (nil, .ask):
      let asking = AskPurchaseController(status: statusStore)
      ask = asking
      controller = asking
    case (nil, .command):
      // The command line refuses `--controller command` without one; a library session never asks for it.
      guard let command = options.controllerCommand, !command.isEmpty else {
        throw SessionError.usage("--controller command needs --controller-command 'CMD' (a process speaking JSON lines)")
      }
      let spawned = CommandPurchaseController(command: command, status: statusStore, timeout: timeout, sdk: project.options.sdk,
                                              onLog: controllerLog ?? { inbox.send(.controllerLog($0)) }) { inbox.send(.controllerProblem($0)) }
      do {
        try spawned.start()
      } catch {
        throw SessionError.failed(error.message)
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

    if let explicitStatus { statusStore.set(explicitStatus) }

    let assignmentFile = directory.map(AssignmentFile.init(directory:))
    let (loaded, userWarning, isNewUser) = assignmentFile?.load(userID: options.userID, fresh: options.fresh || options.reinstall, repair: canWrite)
      ?? (AssignmentBook(userID: options.userID ?? "anonymous"), nil, false)
    var book = loaded
    // The install date goes into the new user's file with its first write.
    if isNewUser { book.installedAt = StoreDates.wholeMilliseconds(clock.now) }
    if let userWarning { warnings.append(userWarning) }
    var state = AppState(project: project, status: statusStore.status, assignments: book)
    // The device's pending trial reminders: a reinstall (and --fresh) starts with none, and
    // empties the file at the first chance so a later launch does not bring them back.
    let startsOver = options.fresh || options.reinstall
    let reminderFile = directory.map(ReminderFile.init(directory:))
    var kept = PendingReminders.none
    if let reminderFile, !startsOver {
      let (loaded, warning) = reminderFile.load(repair: canWrite)
      kept = loaded
      if let warning { warnings.append(warning) }
    }
    state.presentation.restoreReminders(kept)
    let reminders = canWrite ? reminderFile.map { ReminderKeeper(file: $0, stale: startsOver && $0.exists, restored: state.presentation) } : nil
    state.presentation.userAttributes = options.userAttributes
    state.presentation.notificationPermission = options.notifications
    switch RuleAssumptions.parse(options.assumeRules, project: project) {
    case .success(let assumed): state.presentation.assumedRules = assumed
    case .failure(let error): throw SessionError.usage(error.message)
    }
    // The simulated store stands for StoreKit with the SDK buying itself (no purchase controller,
    // the UI tests' automatic configuration); every other controller is the app's PurchaseController.
    // Only `call purchase` / `call restore` tell them apart (`SDKCalls`).
    state.presentation.hasPurchaseController = store == nil
    var world = AppWorld(controller: FaultInjectingController(controller, clock: clock), statusStore: statusStore, clock: clock,
                         simulatedClock: simulatedClock, adjustableClocks: adjustable, store: store, ask: ask, timeRate: timeRate, wallRate: wallRate)
    world.diesWithTheApp = store == nil && commandController == nil
    let runtime = AppRuntime(state: state, world: world, inbox: inbox, launchStatus: explicitStatus == nil ? cachedAtLaunch : nil,
                             statusCache: canWrite ? cache : nil,
                             assignmentFile: canWrite ? assignmentFile : nil, reminders: reminders, animates: animates, onEvent: onEvent)
    runtime.startKeptReminders(kept)
    started = nil
    return AppSession(runtime: runtime, store: store, command: commandController, firstPaywall: first, warnings: warnings,
                      stateAccess: access, stateDirectory: directory, newUser: isNewUser ? book : nil, explicitUserID: options.userID)
  }

  /// `project` as the session presents it: `--sdk` over app.json's `options.sdk`, and overrides
  /// replacing slots before anything is shown (so controllers receive the new product), the
  /// project's overrideProductsByName first, then `--override` on top. Also how `run --watch`
  /// prepares a project loaded again. Returns the override warnings of paywall `warningsFor`.
  package static func prepared(_ project: Project, options: SessionConfiguration, overrides: [SlotOverride],
                       warningsFor id: String?) -> (Project, [String]) {
    var project = project
    var warnings: [String] = []
    // A reloaded project whose platform no longer fits --sdk keeps the project's own SDK; the
    // session refused the mismatch when it started.
    if case .success(let sdk) = options.resolvedSDK(project.options.sdk) { project.options.sdk = sdk }
    project = project.following(project.options.sdk).0
    project.paywalls = project.paywalls.map { definition in
      let (overridden, found) = definition.applying(project.productOverrides + overrides, catalog: project.catalog)
      if definition.id == id { warnings += found }
      return overridden
    }
    return (project, warnings)
  }

  /// Where the session's SDK version came from, for a message that refuses what it lacks.
  package static func sdkSource(_ options: SessionConfiguration) -> String {
    options.sdk != nil ? "--sdk" : options.platform != nil ? "--platform" : "app.json's options.sdk, or the default"
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
