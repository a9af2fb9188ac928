import Foundation

/// One figure beside its peer measured in the same run, with their ratio (ours ÷ peer), so a
/// reader needs no arithmetic. The line is also what `scripts/perf-table.py` reads to generate
/// README.md's performance table (and `Benchmarks/tty-bench.sh` prints the same form):
///
///     = KEY | WHAT | OURS | PEER | PEER'S FIGURE | RATIO | TARGET
///
/// `ours` and `peer` are in the same unit; `decimals` is how they are shown. `bar` is the line a
/// figure must not cross: the run prints `FAIL` beside it and ends with status 1 (`finishFigures`),
/// so a regression fails the benchmark instead of only moving a number.
func figure(_ key: String, _ what: String, ours: Double, peer: Double, unit: String, peerName: String,
            target: String, bar: Bar, decimals: Int = 1) {
  defer {
    if !bar.holds(ours: ours, peer: peer) {
      print("FAIL: \(key): \(String(format: "%.\(decimals)f", ours)) \(unit) misses its bar (\(target))")
      missedBars.append(key)
    }
  }
  func shown(_ value: Double) -> String {
    let text = String(format: "%.\(decimals)f", value)
    // Thousands separated (24,600 frames/s), as the README writes them.
    let parts = text.split(separator: ".", maxSplits: 1)
    var whole = String(parts[0])
    let negative = whole.hasPrefix("-")
    if negative { whole.removeFirst() }
    var grouped = ""
    for (index, character) in whole.reversed().enumerated() {
      if index > 0 && index % 3 == 0 { grouped.append(",") }
      grouped.append(character)
    }
    return (negative ? "-" : "") + String(grouped.reversed()) + (parts.count > 1 ? "." + parts[1] : "") + " " + unit
  }
  let ratio = peer > 0 ? String(format: "%.2f×", ours / peer) : "n/a"
  print("= \(key) | \(what) | \(shown(ours)) | \(peerName) | \(shown(peer)) | \(ratio) | \(target)")
}

/// Where a figure must stay: at most or at least a value in its unit, or at most a ratio to its peer.
enum Bar {
  case atMost(Double)
  case atLeast(Double)
  case ratioAtMost(Double)

  func holds(ours: Double, peer: Double) -> Bool {
    switch self {
    case .atMost(let limit): ours <= limit
    case .atLeast(let limit): ours >= limit
    case .ratioAtMost(let limit): peer > 0 && ours / peer <= limit
    }
  }
}

/// The keys of the figures that missed their bar in this run.
nonisolated(unsafe) var missedBars: [String] = []

/// Ends the run with status 1 when a figure missed its bar, naming them.
func finishFigures() {
  guard !missedBars.isEmpty else { return }
  print("FAIL: \(missedBars.count) figure(s) missed their bar: \(missedBars.joined(separator: ", "))")
  exit(1)
}
