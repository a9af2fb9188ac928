/// Why a play, a recording or a scenario run could not go on: its message (already one clear line,
/// or a few for a screen) and how the program ends for it. The command line reports it as it
/// reports its own failures.
package struct PlayFailure: Error, Equatable, Sendable {
  package var message: String
  package var status: ExitStatus

  package init(message: String, status: ExitStatus) {
    self.message = message
    self.status = status
  }

  /// A usage error: `error: ` and the message, exit status 2.
  package static func usage(_ message: String) -> PlayFailure { PlayFailure(message: "error: \(message)", status: .usage) }
  /// A failure while running, the message as given, exit status 1.
  package static func invalid(_ message: String = "") -> PlayFailure { PlayFailure(message: message, status: .failed) }
}

/// How `play` reads its own command line, which only the command line's parser knows: the
/// runner is handed it, to read a scenario's `# args:` line exactly as the `play` that runs it
/// will (which controller it asks for, which options name paths), parsing no flag table of its own.
package struct PlayCommandLine: Sendable {
  /// What the runner needs of `words`, or nil when `play` would refuse them (it then says why).
  package var read: @Sendable ([String]) -> PlayWords?
  /// Play's option `name` (without `--`): whether it takes a value, and whether that value is a
  /// file or a folder; nil for an option play does not have.
  package var option: @Sendable (String) -> PlayOptionKind?

  package init(read: @escaping @Sendable ([String]) -> PlayWords?, option: @escaping @Sendable (String) -> PlayOptionKind?) {
    self.read = read
    self.option = option
  }
}

/// What the runner needs to know of a scenario's `play` words before it runs them.
package struct PlayWords: Sendable, Equatable {
  /// `--controller`, as written.
  package var controller: String?
  /// `--controller-command`: a command line the words would start.
  package var controllerCommand: String?
  /// `--allow-commands`.
  package var allowsCommands: Bool

  package init(controller: String?, controllerCommand: String?, allowsCommands: Bool) {
    self.controller = controller
    self.controllerCommand = controllerCommand
    self.allowsCommands = allowsCommands
  }
}

/// An option of `play`: a flag, or one that takes a value (a path or not).
package enum PlayOptionKind: Sendable, Equatable {
  case flag
  case value(isPath: Bool)
}
