#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the session ended from outside: a signal, or the terminal going away.
package struct Termination: Sendable, Hashable {
  /// The ending signal's number; nil when the terminal closed.
  package var signal: Int32?

  package init(signal: Int32?) { self.signal = signal }

  /// 128 + the signal, or 0 when the terminal closed.
  package var exitCode: Int32 { signal.map { 128 + $0 } ?? 0 }

  /// What the status bar says, e.g. "terminated (SIGTERM)".
  package var reason: String {
    switch signal {
    case nil: "the terminal closed"
    case SIGINT: "interrupted (Ctrl-C)"
    case SIGTERM: "terminated (SIGTERM)"
    case SIGHUP: "hung up (SIGHUP)"
    case SIGQUIT: "quit (SIGQUIT)"
    case let number?: "ended by \(Self.signalName(number))"
    }
  }

  /// `SIGUSR1` for 10.
  package static func signalName(_ number: Int32) -> String {
    let names: [Int32: String] = [
      SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT", SIGPIPE: "SIGPIPE", SIGUSR1: "SIGUSR1",
      SIGUSR2: "SIGUSR2", SIGALRM: "SIGALRM", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGVTALRM: "SIGVTALRM", SIGPROF: "SIGPROF",
    ]
    return names[number] ?? "signal \(number)"
  }
}
