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
import PaywallScenarios
import Synchronization
import TerminalCore
import CursesBackend
import PaywallUI

package struct PlayCommand: CLICommand {
  package static let spec = CommandSpec(
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
    positionals: [PositionalSpec(name: "path", help: "A project directory, its app.json, or a paywall file; or a recording of 'run --record' (its '# args:' line gives the project and options, the rest of it is the script).", count: .one)],
    options: PlayFlags.own + ProjectFlags.all + SessionFlags.all,
    examples: [
      "paywall-tui play paywalls --controller scripted --outcome purchase=pending --keys \"2 enter\" --screen",
      "paywall-tui play paywalls --controller simulated --status inactive --script scenarios/purchase-trial.play",
      "printf 'press enter\\nexpect status active\\n' | paywall-tui play paywalls --controller scripted --script -",
      "paywall-tui play paywalls --controller simulated --script scenarios/purchase-trial.play --record demo.cast --pace 800ms",
      "paywall-tui play paywalls --keys \"down down enter\" --screenshot-every shots --storefront DEU",
      "paywall-tui play session.play --screen                       # replay a 'run --record session.play'",
    ]
  )

  package var path: String
  package var keys: String?
  package var script: String?
  package var screen: Bool
  package var size: String
  package var record: String?
  package var pace: String?
  package var screenshotEvery: String?
  package var clock: String?
  package var project: ProjectOptions
  package var session: SessionConfiguration
  /// Under `test`: the scenario's directory, which every file it writes must be inside
  /// (`ScenarioConfinement`). A child `play` has it from its environment; the worker sets it.
  package var confinement: String?
  /// The worker's projects, loaded once and kept; nil: load each time.
  package var cache: ProjectCache?

  package init(_ arguments: Arguments) throws(CLIFailure) {
    // A recording (`run --record`): its `# args:` line, then the command line's own options, and
    // the file itself as the script.
    let arguments = try Self.recording(arguments) ?? arguments
    clock = arguments[PlayFlags.clock]
    path = arguments.positionals[0]
    keys = arguments[PlayFlags.keys]
    script = arguments[PlayFlags.script]
    screen = arguments[PlayFlags.screen]
    size = arguments[PlayFlags.size]
    record = arguments[PlayFlags.record]
    pace = arguments[PlayFlags.pace]
    screenshotEvery = arguments[PlayFlags.screenshotEvery]
    project = ProjectOptions(arguments)
    session = try SessionConfiguration(arguments)
    confinement = ScenarioConfinement.fromEnvironment
  }

  /// How `play` reads its command line, for the scenario runner (it reads `# args:` lines).
  package static let commandLine = PlayCommandLine(
    read: { words in
      guard let parsed = try? Arguments(words, spec: spec) else { return nil }
      return PlayWords(controller: parsed.written(SessionFlags.controller), controllerCommand: parsed[SessionFlags.controllerCommand],
                       allowsCommands: parsed[PlayFlags.allowCommands])
    },
    option: { name in
      guard let option = spec.options.first(where: { $0.name == name }) else { return nil }
      guard option.placeholder != nil else { return .flag }
      let completion = option.completion
      return .value(isPath: completion == .file || completion == .directory)
    })

  package func run() async throws {
    // Under `test --process-per-scenario`: where the failed step goes as fields.
    let runner = StepReport.runnerDescriptor()
    let report = try await play()
    if let failure = report.failure {
      if let runner { StepReport.send(failure, to: runner) }
      throw CLIFailure.invalid(failure.message)
    }
  }

  /// Plays, printing the events, then the status (and with --screen the last screen), as JSON
  /// lines on stdout; a step that failed is the report's, for the caller to end with.
  package func play() async throws -> PlayReport {
    let (request, eventFile) = try self.request()
    Console.flushWhenASignalEnds()
    // A failed write (stdout, the events file) is remembered by `Console` and stops the script
    // at the next step; the command then ends with it.
    let output = PlayOutput(
      event: { event in
        eventFile?.writeOrRecord(event)
        Console.outBatched(event.jsonLine)
      },
      warning: { Console.warn($0) },
      failure: { Console.outputFailure })
    let report = try await PlayEngine.run(request, output: output)
    try Console.out(JSONOutput.object([
      ("status", .string(report.status)),
      ("entitlements", .array(report.entitlements.map { .string($0) })),
    ]).text)
    if let screen = report.screen {
      // One JSON object, so every line of stdout is JSON (`jq` reads it whole).
      try Console.out(JSONOutput.object([("screen", .array(screen.map { JSONOutput.string($0) }))]).text)
    }
    return report
  }

  /// The command line read into a request, every input read and every output checked before
  /// anything runs; and the `--events` file, opened.
  package func request() throws -> (PlayRequest, EventFile?) {
    guard let size = Size(size) else { throw CLIFailure.usage("--size \(quoting: self.size) must be WIDTHxHEIGHT, e.g. 80x24") }
    let scenario = try loadScript()
    // Under `test`, a path outside the scenario's directory is refused before --record's probe
    // file is made there.
    try checkOutputs(of: scenario)
    let pace = try recordingPace()
    let overrides = try project.parsedOverrides()
    let loaded = session.localized(try project.load(path, cache: cache, sdk: session.sdkChoice))
    let sdk: SDKVersion
    switch session.resolvedSDK(loaded.options.sdk) {
    case .success(let resolved): sdk = resolved
    case .failure(let error): throw CLIFailure.usage(error.message)
    }
    try checkAnswers(of: scenario, sdk: sdk)
    // A misspelt placement or entitlement would pass as a skip or a status nobody has: refused here.
    if let problems = ScriptNames.problems(in: scenario, project: loaded) { throw CLIFailure(message: problems, code: ExitStatus.usage.rawValue) }
    var start = SimulatedTimeSource.defaultStart
    if let text = self.clock {
      guard let date = StoreDates.parse(iso8601: text) else {
        throw CLIFailure.usage("--clock \(quoting: text) must be a UTC date such as 2026-03-01 or a time such as 2026-03-01T12:00:00.250Z")
      }
      start = date
    }
    let eventFile = try session.openEventFile(confined: confinement != nil)
    // Made last, once nothing before the run can fail: a refused run leaves no empty folder.
    if let every = screenshotEvery { try CLIFailure.reporting { () throws(PlayFailure) in try Screenshots.prepare(directory: every) } }
    let request = PlayRequest(project: loaded, path: path, script: scenario, scriptPath: script, session: session,
                              overrides: overrides, clockStart: start, size: size,
                              recording: pace.map { (record!, $0, recordingTitle) }, screenshotEvery: screenshotEvery, screen: screen)
    return (request, eventFile)
  }

  /// The recording's title: the command that made it.
  private var recordingTitle: String {
    var words = ["paywall-tui", "play", path]
    if let keys { words += ["--keys", keys] }
    if let script { words += ["--script", script] }
    return words.joined(separator: " ")
  }

  /// With --record, the milliseconds between two screens of the recording, nil without; a
  /// --record path that could not be written or a bad --pace is refused before anything runs.
  private func recordingPace() throws(CLIFailure) -> Int? {
    guard let record else {
      if pace != nil { throw .usage("--pace sets the time between screens of a recording; give --record FILE.cast too") }
      return nil
    }
    try CLIFailure.reporting { () throws(PlayFailure) in try OutputPath.checkWritable(record, option: "record", example: "demo.cast") }
    var milliseconds = Self.defaultPace
    if let pace {
      // Below 1ms the recording would say 1ms: refused, as the message says, not rounded up.
      let seconds = try CLIFailure.reporting { () throws(SessionError) in try DurationOption.seconds("pace", pace, DurationOption.pace) }
      milliseconds = max(1, Int((seconds * 1000).rounded()))
    }
    return milliseconds
  }

  /// Refuses, before anything runs, `answer purchase restored` on an SDK whose `PurchaseResult`
  /// has no `restored` (4.x), naming FILE:LINE.
  private func checkAnswers(of scenario: PlayScript, sdk: SDKVersion) throws(CLIFailure) {
    // A command controller's process is the app's: refused before the first step, not on reaching it.
    if session.controller == .command, let step = scenario.steps.first(where: { $0.command == .reinstall }) {
      throw .usage("\(scenario.file):\(step.line): 'reinstall' with --controller command would need the controller's process started again; "
        + "run play again with --reinstall on the same --state-dir instead")
    }
    guard !sdk.hasRestoredPurchaseResult else { return }
    for step in scenario.steps {
      guard case .answer(let answer) = step.command, answer.request == .purchase, answer.result == "restored" else { continue }
      throw .usage("\(scenario.file):\(step.line): \(quoting: step.text): SDK \(sdk.named) (\(AppSession.sdkSource(session))) has no restored purchase result, "
        + "\(sdk.restoredPurchaseFix); answer purchased\(sdk.platform == .ios ? ", or play with --sdk 3" : "")")
    }
  }

  /// Refuses, before anything runs, a `screenshot FILE` whose path holds something other than a
  /// regular file (it would be replaced); and under `paywall-tui test`, every file the scenario
  /// would write outside its own directory (`ScenarioConfinement`), naming FILE:LINE.
  private func checkOutputs(of scenario: PlayScript) throws(CLIFailure) {
    let base = Screenshots(base: Screenshots.directory(ofScript: script ?? "-"))
    let root = confinement
    for step in scenario.steps {
      guard case .screenshot(let file) = step.command else { continue }
      let path = base.resolve(file)
      let here = "\(scenario.file):\(step.line)"
      if let kind = OutputPath.notRegular(path) {
        throw .usage("\(here): \(quoting: step.text): \(path) is \(kind), not a regular file; paywall-tui replaces only regular files: give another file name")
      }
      if let root, let why = ScenarioConfinement.outside(path, root: root) {
        throw .usage("\(here): \(quoting: step.text) would write \(path), \(why); under 'paywall-tui test' a scenario writes only inside its own directory: give a path in it, e.g. 'screenshot shots/screen.svg'")
      }
    }
    guard let root else { return }
    // The '# args:' line of a scenario: its paths are from the current directory, as `test` reads them.
    let options: [(String, String?, String)] = [
      (PlayFlags.record.name, record, "demo.cast"), (SessionFlags.events.name, session.events, "events.jsonl"),
      (PlayFlags.screenshotEvery.name, screenshotEvery.map { $0 + "/" + Screenshots.stepFileName(number: 0, step: "start") }, "shots"),
    ]
    for case let (option, path?, example) in options {
      // A link committed in the scenario's folder would lead the write anywhere: refused, as
      // `screenshot` refuses one (the events file is also opened with O_NOFOLLOW).
      if option != PlayFlags.screenshotEvery.name, let kind = OutputPath.notRegular(path) {
        throw .usage("\(scenario.file):1: --\(option) \(quoting: path) is \(kind), not a regular file; under 'paywall-tui test' a scenario writes only regular files inside its own directory, never through a link: give another path, e.g. --\(option) \(root)/\(example)")
      }
      // Events are appended, not written over: a hard link committed in the folder would have
      // them appended to its other name, anywhere on the disk (the open checks again).
      if option == SessionFlags.events.name, let names = OutputPath.hardLinkCount(path) {
        throw .usage("\(scenario.file):1: --events \(quoting: path) is a hard link (the file has \(names) names, one may be outside the scenario's folder); under 'paywall-tui test' a scenario appends only to a file of its own: delete it or give another path, e.g. --events \(root)/\(example)")
      }
      if let why = ScenarioConfinement.outside(path, root: root) {
        let given = option == PlayFlags.screenshotEvery.name ? screenshotEvery! : path
        throw .usage("\(scenario.file):1: --\(option) \(quoting: given) writes \(why); under 'paywall-tui test' a scenario writes only inside its own directory: give a path in it, e.g. --\(option) \(root)/\(example)")
      }
    }
  }

  /// Milliseconds between two screens of a recording without --pace: time to read a key's effect.
  package static let defaultPace = 600

  /// The arguments of `play RECORDING [OPTIONS]`: the recording's `# args:` line, the options of
  /// the command line, and `--script RECORDING`; nil when the path is no recording (a file whose
  /// first line is `# args: `). Relative paths on that line are from the recording's folder, as
  /// `test` reads a scenario's (`ScenarioPaths`; `run --record` writes them so).
  package static func recording(_ arguments: Arguments) throws(CLIFailure) -> Arguments? {
    guard let path = arguments.positionals.first, Self.isRecording(path) else { return nil }
    let words: [String]
    let recording = Scenario(path: path, root: ".", relativePath: path)
    let parsed: PlayWords?
    switch recording.arguments(allowingCommands: true, commandLine: commandLine) {
    case .success(let found): (words, parsed) = (found.words, found.parsed)
    case .failure(let problem): throw CLIFailure.usage(problem.message)
    }
    // The file may be someone else's: the command it names runs only when this command line says so.
    if !arguments[PlayFlags.allowCommands],
       let refusal = Scenario.commandRefusal(parsed, file: path, fix: "if you trust it, replay it with 'paywall-tui play \(ShellWord.quoted(path)) --allow-commands'") {
      throw CLIFailure.usage(refusal)
    }
    if arguments.isGiven(PlayFlags.script) || arguments.isGiven(PlayFlags.keys) {
      throw CLIFailure.usage("\(path) is a recording (its first line is '# args: …'): it is its own script; drop --script and --keys")
    }
    for warning in recording.pathWarnings(commandLine: commandLine) { try? Console.error(UntrustedText.printable(warning)) }
    var rest = arguments.raw
    if let index = rest.firstIndex(of: path) { rest.remove(at: index) }
    return try Arguments(words + rest + ["--script", path], spec: spec)
  }

  /// A regular file whose first line starts with `# args: ` (a project is a directory or JSON).
  package static func isRecording(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let prefix = Array(Scenario.argumentsPrefix.utf8)
    var buffer = [UInt8](repeating: 0, count: prefix.count)
    return read(fd, &buffer, prefix.count) == prefix.count && buffer == prefix
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
      throw CLIFailure(message: failure.description, code: ExitStatus.usage.rawValue)
    }
  }
}

/// `play`'s own options (it takes `ProjectFlags` and `SessionFlags` too).
package enum PlayFlags {
  package static let keys = Flag.text("keys", "keys", "Keys to press, e.g. \"down down enter\" (one 'press' line).")
  package static let script = Flag.text("script", "file", "A scenario script (every command: 'paywall-tui help script'); - reads it from stdin.")
  package static let screen = Flag.bool("screen", "Print the last screen after the status, as one JSON line: {\"screen\": [rows…]}.")
  /// Read as written: `request()` checks it, after the script and before the project.
  package static let size = Flag.text("size", "size", "Screen size for 'expect screen', 'screenshot', --screen and --record (default 80x24).", default: "80x24")
  package static let record = Flag.text("record", "file", "Also write the run as an asciicast v2 file (asciinema play FILE): the bytes 'run' sends a terminal for each screen.")
  /// Read as written: checked only with --record, once the record file is known writable.
  package static let pace = Flag.text("pace", "duration", "With --record: the time between two screens in the recording (default 600ms).")
  package static let screenshotEvery = Flag.text("screenshot-every", "dir", "Write the screen as an SVG after every step into this directory: 000-start.svg, 001-press-down.svg, …")
  package static let clock = Flag.text("clock", "date", "Start the simulated clock at this time, UTC: 2026-03-01 or 2026-03-01T12:00:00.250Z (default 2026-01-01); a recording's '# args:' sets its session's.")
  package static let allowCommands = Flag.bool("allow-commands", "Let a recording's '# args:' line start the --controller-command it gives (only for a file you trust); without it such a recording is refused.")

  /// In the order help lists them.
  package static let own: [OptionInfo] = [
    keys.option, script.option, screen.option, size.option, record.option, pace.option, screenshotEvery.option, clock.option,
    allowCommands.option,
  ]
}
