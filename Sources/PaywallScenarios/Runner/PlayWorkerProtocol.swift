#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `test` and its worker (`paywall-tui __play-worker`) say to each other, one JSON line each
/// way per scenario: `test` sends `{"arguments": ["play", …], "scenarioDirectory": …}`; the worker
/// runs it exactly as a child `paywall-tui play …` would (the same parsing, the same command, a
/// fresh state directory the runner made, its stdout thrown away, its stderr on fd 2: a file the
/// runner reads) and answers `{"code": N}` (its exit code) or `{"signal": 13}` (a broken pipe,
/// where a child would have died of SIGPIPE), with the step that failed as fields when one did.
/// End of input ends the worker.
package enum PlayWorkerProtocol {
  /// The hidden subcommand.
  package static let command = "__play-worker"

  /// One scenario to run: `play` and its arguments.
  package struct Request: Codable {
    package var arguments: [String]
    /// The scenario's directory: every file it writes must be inside it (`ScenarioConfinement`).
    package var scenarioDirectory: String?

    package init(arguments: [String], scenarioDirectory: String?) {
      self.arguments = arguments
      self.scenarioDirectory = scenarioDirectory
    }
  }

  /// How it ended: an exit code, or the signal a child would have died of; and the step that
  /// failed, as `play`'s report gives it.
  package struct Response: Codable, Equatable {
    package var code: Int32?
    package var signal: Int32?
    package var step: StepFailure?

    package init(code: Int32? = nil, signal: Int32? = nil, step: StepFailure? = nil) {
      self.code = code
      self.signal = signal
      self.step = step
    }
  }

  /// Lines read from a descriptor, without their line break; nil at end of input.
  package struct LineReader {
    package var fd: Int32
    package var buffered: [UInt8] = []

    package init(fd: Int32) { self.fd = fd }

    package mutating func next() -> [UInt8]? {
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        if let end = buffered.firstIndex(of: 0x0A) {
          let line = Array(buffered[..<end])
          buffered.removeSubrange(...end)
          return line
        }
        let count = read(fd, &chunk, chunk.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return nil }
        buffered += chunk[..<count]
      }
    }
  }
}
