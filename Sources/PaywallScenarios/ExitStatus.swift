/// How the program ends: the one table the command line returns, `man` prints and
/// docs/reference/exit-codes.md is generated from (`ExitStatusTests` holds the page to it, and
/// finds no code written as a bare number elsewhere).
package enum ExitStatus: Int32, CaseIterable, Sendable {
  case ok = 0
  case failed = 1
  case usage = 2
  case noTerminal = 3

  /// The line `man` gives it.
  package var summary: String {
    switch self {
    case .ok: "Success."
    case .failed: "A validation or scenario failure, or output that could not be written while running."
    case .usage: "A usage error, an output path that cannot be written, or a refused (or missing) state directory."
    case .noTerminal: "No usable terminal."
    }
  }

  /// All it covers, for the reference page.
  package var details: String {
    switch self {
    case .ok: "Success: the project is valid, every scenario passed, the session ended with `q`."
    case .failed:
      "A validation error, a failed `expect` or scenario, a project that does not load, a controller or recording that could not start, or output that could not be written while it ran (stdout, stderr, `--events`: one line says which, and why)."
    case .usage:
      "A usage error (an unknown option, a malformed value, a misspelt placement or entitlement in a script), an output file's path that cannot be written (`--out`, `--record`, `--junit`, `--screenshot-every`: refused before anything runs), or a refused state directory: another user's, writable by others, reached through another user's link or through a directory others control, or holding a `lock` that is a link; or no state directory at all for `run`, `store` or `explain` (neither `$XDG_STATE_HOME` nor `$HOME` absolute, and no `--state-dir`; with `$HOME` unset, the account's home directory counts)."
    case .noTerminal:
      "No usable terminal: `run` or `demo` with stdin or stdout not a terminal, `TERM` unset or without cursor addressing (`TERM=dumb`), or a screen ncurses cannot start."
    }
  }

  /// Ending on a signal: the shell's convention, which the terminal is restored before.
  package static let signalSummary = "Ended by signal N: 128 + N."
  package static let signalDetails =
    "Ended by signal N (SIGINT, SIGTERM, SIGHUP, SIGQUIT, …): 128 + N, after the terminal and the state directory are given back; 141 (SIGPIPE) when the reader of stdout went away, as under `| head -1`."

  /// docs/reference/exit-codes.md.
  package static var markdown: String {
    var lines = [
      "# Exit codes",
      "",
      "<!-- Generated from Sources/PaywallScenarios/ExitStatus.swift: UPDATE_DOCS=1 swift test --filter ExitStatusTests -->",
      "",
      "Every error is one line on stderr, never a stack trace.",
      "",
      "| Code | Meaning |",
      "|---|---|",
    ]
    lines += allCases.map { "| \($0.rawValue) | \($0.details) |" }
    lines.append("| 128 + N | \(signalDetails) |")
    return lines.joined(separator: "\n") + "\n"
  }
}
