import Foundation
import PaywallScenarios

/// 4b. `paywall-tui play` of `pairs` purchases each revoked at once, on the simulated store with
/// a state directory: the store saves its ledger after every line, so the ledger grows by a line
/// a step and each save writes it whole. Before the saves kept the lines already encoded, 1,000
/// pairs took 6.3 s and 2,000 took 27 s on this machine, three quarters of it encoding the same
/// lines again. The state directories are where `test` puts its own (/dev/shm where there is
/// one), so the figure is the program's and not the disk's (each save fsyncs). The peer: the same
/// play of an empty script.
func benchmarkLedgerSaves(binary: URL, demo: String, directory: URL, pairs: Int) {
  let script = directory.appendingPathComponent("saves.play")
  var text = ""
  for _ in 0..<pairs { text += "buy com.acme.pro.monthly\nrevoke com.acme.pro.monthly\n" }
  text += "expect status inactive\n"
  let empty = directory.appendingPathComponent("saves-empty.play")
  do {
    try text.write(to: script, atomically: true, encoding: .utf8)
    try "".write(to: empty, atomically: true, encoding: .utf8)
  } catch {
    print("ledger saves benchmark skipped: \(error)")
    return
  }
  let states = URL(fileURLWithPath: PlayProcessExecutor.scratchDirectory()).appendingPathComponent("paywall-bench-saves-\(getpid())")
  defer { try? FileManager.default.removeItem(at: states) }
  func play(_ script: URL, _ run: Int) -> Double {
    let state = states.appendingPathComponent("saves-state-\(run)").path
    var status: Int32 = -1
    let elapsed = seconds {
      status = spawnQuietly(binary.path, ["play", demo, "--controller", "simulated", "--fresh", "--state-dir", state, "--script", script.path])
    }
    precondition(status == 0, "play of \(script.lastPathComponent) failed with status \(status)")
    return elapsed
  }
  let runs = (0..<(quick ? 1 : 3)).map { play(script, $0) }
  let floors = (0..<(quick ? 1 : 5)).map { play(empty, 100 + $0) }
  let elapsed = median(runs)
  print(String(format: "play of %d purchase-and-revoke pairs, the ledger saved after each line: %7.1f ms  (median of %d)  (target <= 3,000 ms)",
               pairs, elapsed * 1000, runs.count))
  figure("ledger-saves", "play of \(pairs) purchase-and-revoke pairs, the ledger saved after each line", ours: elapsed * 1000,
         peer: median(floors) * 1000, unit: "ms", peerName: "the same play of an empty script (start, load)",
         target: "<= 3,000 ms", bar: .atMost(3000))
}
