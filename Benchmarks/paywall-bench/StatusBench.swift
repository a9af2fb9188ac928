import Foundation
import PaywallModel

/// 3. `changes` status changes set on one store with 3 observers each reading its stream, against
/// the same changes yielded straight into 3 bare `AsyncStream`s.
func benchmarkStatusChanges(changes: Int) {
  let store = SubscriptionStatusStore(.inactive)
  let final = SubscriptionStatus.active([Entitlement("final")])
  let statuses: [SubscriptionStatus] = [.active([Entitlement("pro")]), .inactive, .active([Entitlement("pro"), Entitlement("lifetime")])]
  let finished = DispatchSemaphore(value: 0)
  var observers: [Task<Int, Never>] = []
  for _ in 0..<3 {
    let stream = store.updates()
    observers.append(Task.detached {
      var seen = 0
      for await status in stream {
        seen += 1
        if status == final { break }
      }
      finished.signal()
      return seen
    })
  }
  let elapsed = seconds {
    for i in 0..<changes { store.set(statuses[i % statuses.count]) }
    store.set(final)
    for _ in 0..<3 { finished.wait() }
  }
  var delivered: [Int] = []
  for observer in observers { delivered.append(runBlockingValue(observer)) }
  print(String(format: "status changes delivered to 3 observers: %9.0f changes/s  (%d changes in %.1f ms; observers woke %@ times)  (target >= 1,200,000)",
               Double(changes + 1) / elapsed, changes + 1, elapsed * 1000, delivered.map(String.init).joined(separator: "/")))
  // The peer: the same changes yielded straight into three AsyncStreams that keep the newest
  // value (what an observer of the store is handed), with no store, no lock and no equality check.
  let peerFinished = DispatchSemaphore(value: 0)
  var continuations: [AsyncStream<SubscriptionStatus>.Continuation] = []
  for _ in 0..<3 {
    let (stream, continuation) = AsyncStream<SubscriptionStatus>.makeStream(bufferingPolicy: .bufferingNewest(1))
    continuations.append(continuation)
    Task.detached {
      for await status in stream where status == final { break }
      peerFinished.signal()
    }
  }
  let peerElapsed = seconds {
    for i in 0..<changes {
      let status = statuses[i % statuses.count]
      for continuation in continuations { continuation.yield(status) }
    }
    for continuation in continuations { continuation.yield(final) }
    for _ in 0..<3 { peerFinished.wait() }
  }
  figure("status-changes", "status changes delivered to 3 observers, per second", ours: Double(changes + 1) / elapsed,
         peer: Double(changes + 1) / peerElapsed, unit: "/s", peerName: "3 bare AsyncStreams (newest kept), same changes",
         target: ">= 1,200,000/s", bar: .atLeast(1_200_000), decimals: 0)
}

func runBlockingValue(_ task: Task<Int, Never>) -> Int {
  let done = DispatchSemaphore(value: 0)
  let box = ResultBox()
  Task.detached {
    box.value = await task.value
    done.signal()
  }
  done.wait()
  return box.value
}

final class ResultBox: @unchecked Sendable {
  var value = 0
}
