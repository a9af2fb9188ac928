import Foundation

/// One figure beside its peer measured in the same run, with their ratio (ours ÷ peer), so a
/// reader needs no arithmetic. The line is also what `scripts/perf-table.py` reads to generate
/// README.md's performance table (and `Benchmarks/tty-bench.sh` prints the same form):
///
///     = KEY | WHAT | OURS | PEER | PEER'S FIGURE | RATIO | TARGET
///
/// `ours` and `peer` are in the same unit; `decimals` is how they are shown.
func figure(_ key: String, _ what: String, ours: Double, peer: Double, unit: String, peerName: String,
            target: String, decimals: Int = 1) {
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
