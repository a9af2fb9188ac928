/// Why a session could not be made. `usage`: something the caller gave that cannot be used (a
/// paywall or placement the project lacks, a status, duration or state directory that is refused),
/// fixed by changing what was given. `failed`: a part that would not start (a controller's
/// process). The command line turns it into its exit code; a library user reads `message`.
package struct SessionError: Error, Sendable {
  package enum Kind: Sendable, Hashable {
    case usage
    case failed
  }

  package var kind: Kind
  /// One line saying what to do, without the `error: ` a terminal line starts with.
  package var reason: String

  package static func usage(_ reason: String) -> SessionError { SessionError(kind: .usage, reason: reason) }
  package static func failed(_ reason: String) -> SessionError { SessionError(kind: .failed, reason: reason) }

  /// The line to show: `error: REASON`.
  package var message: String { "error: \(reason)" }
}
