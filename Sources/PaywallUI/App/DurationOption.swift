import PaywallModel

/// A duration given on the command line (`test --timeout`, `play --pace`, `--controller-timeout`):
/// one parse and one bound check for all of them, so no value reaches arithmetic that cannot hold
/// it (`1e16` seconds as milliseconds overflows an Int64). A number with a unit (`500ms`, `30s`,
/// `2m`, `1h`, `1d`: `Duration.parseSeconds`), or where `bareSeconds` a plain number of seconds;
/// `nan`, `inf`, a negative or a number out of `range` is a usage error naming the option, what
/// was given and the bounds.
package enum DurationOption {
  package struct Bounds {
    package var range: ClosedRange<Double>
    /// What the message suggests, e.g. `60s or 500ms`.
    package var examples: String
  }

  /// `--timeout`: wall time a scenario may take.
  package static let scenarioTimeout = Bounds(range: 0.001...86_400, examples: "60s or 500ms")
  /// `--controller-timeout`: how long a command controller may take to answer.
  package static let controllerTimeout = Bounds(range: 0.001...86_400, examples: "10s or 2m")
  /// `--pace`: the time between two screens of a recording.
  package static let pace = Bounds(range: 0.001...3600, examples: "600ms or 1.5s")

  package static func seconds(_ option: String, _ text: String, _ bounds: Bounds, bareSeconds: Bool = false) throws(SessionError) -> Double {
    let parsed: Double? = if bareSeconds, let number = Double(text.trimmingSpaces()) {
      number
    } else {
      try? Duration.parseSeconds(text).get()
    }
    // `nan` and `inf` read as numbers: not finite, refused. `1ms` is 0.001 as computed: let it in.
    guard let seconds = parsed, seconds.isFinite, seconds >= bounds.range.lowerBound - 1e-12, seconds <= bounds.range.upperBound + 1e-9 else {
      throw .usage("--\(option) \(quoting: text) must be a duration from \(spell(bounds.range.lowerBound)) to \(spell(bounds.range.upperBound)), e.g. \(bounds.examples)")
    }
    return seconds
  }

  /// `1ms`, `30s`, `1h`, `24h`: a bound as a user would type it.
  package static func spell(_ seconds: Double) -> String {
    if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(Int(seconds / 3600))h" }
    if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60))m" }
    if seconds >= 1, seconds == seconds.rounded() { return "\(Int(seconds))s" }
    return "\(Int((seconds * 1000).rounded()))ms"
  }
}
