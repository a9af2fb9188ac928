@testable import PaywallCLI
import Testing

/// `play`'s event lines are written in batches (`Console.outBatched`): every line, in order, in
/// a few writes, the first line of each batch asking once for the timed write.
@Suite("Line batches")
struct LineBatchTests {
  @Test func tenThousandEventLinesGoOutInAFewWholeBatches() {
    var batch = LineBatch()
    let line = #"{"event":"transaction_complete","at":"2026-01-01T00:00:00Z","params":{"paywall_id":"onboarding","product_id":"com.acme.pro.annual"}}"#
    var written: [String] = []
    var timers = 0
    for _ in 0..<10_000 {
      let (full, startTimer) = batch.add(line)
      if let full { written.append(full) }
      if startTimer { timers += 1 }
    }
    if let rest = batch.take() { written.append(rest) }
    let total = 10_000 * (line.utf8.count + 1)
    #expect(written.joined() == String(repeating: line + "\n", count: 10_000))
    #expect(written.count == total / LineBatch.bytes + 1, "\(written.count) writes")
    // Each batch but the last was full; each line ends in its batch (none is split).
    #expect(written.dropLast().allSatisfy { $0.utf8.count >= LineBatch.bytes && $0.hasSuffix("\n") })
    // A full batch leaves no timer pending, so the next line starts one; never more than one a batch.
    #expect(timers == written.count, "\(timers) timers for \(written.count) writes")
  }

  @Test func aLineAfterATimedWriteStartsTheNextTimer() {
    var batch = LineBatch()
    #expect(batch.add("a") == (nil, true))
    #expect(batch.add("b") == (nil, false))
    #expect(batch.take() == "a\nb\n")
    #expect(batch.take() == nil)
    #expect(batch.add("c") == (nil, true))
  }
}
