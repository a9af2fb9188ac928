import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Array {
  /// `transform` of each element, in order, computed on every core: for independent work on
  /// many items (an import's hundreds of paywalls). The caller promises what the compiler cannot
  /// check here: `transform` changes nothing it shares with another call (each element, and
  /// whatever it holds, such as its own diagnostics, is touched by its own call only).
  /// `transform` escapes: a helper thread may let go of it just after its last element.
  package func parallelMap<Result>(_ transform: @escaping (Element) -> Result) -> [Result] {
    guard Swift.min(count, onlineCores) > 1 else { return map(transform) }
    var results = [Result?](repeating: nil, count: count)
    results.withUnsafeMutableBufferPointer { buffer in
      let out = buffer
      onEveryCore(count, "parallel-map") { index in out[index] = transform(self[index]) }
    }
    return results.map { $0! }
  }
}

/// Lets go of `items` on every core: each element is freed, with all it alone holds, by the
/// thread that takes it. For the end of a large load, where freeing what one core built (a
/// config's parsed paywalls, their substitutions) was a tenth of the load, on one core while
/// the others waited.
package func dropOnEveryCore<Element>(_ items: consuming [Element]) {
  let count = items.count
  guard Swift.min(count, onlineCores) > 1 else { return }
  // Moved into a buffer the threads empty: once the array lets go of them, each element is held
  // there only, so what it holds is freed where it is deinitialised.
  let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: count)
  _ = buffer.initialize(fromContentsOf: items)
  items = []
  onEveryCore(count, "parallel-drop") { index in (buffer.baseAddress! + index).deinitialize(count: 1) }
  buffer.deallocate()
}

/// A helper's stack: what Linux gives every thread (8 MiB), where macOS gives a new thread 512
/// KiB. A JSON document nested `JSONParser.maximumDepth` deep is parsed on a helper when it is
/// large, and freed on one; on 512 KiB its recursion could overflow where the main thread's does not.
let helperStackBytes = 8 << 20

/// The cores online, at least one, read once: glibc reads /sys/devices/system/cpu/online at each
/// `sysconf`, and the parse of every project file asked (an open, a read and a close each, before
/// the first paint), small ones included.
package let onlineCores: Int = Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

/// `body` of each index below `count`, on every core. The calling thread works too, beside one
/// `DetachedThread` per other core; each takes the next index not yet taken. A thread the system
/// refuses leaves its share to the others. Returns once every index is done.
private func onEveryCore(_ count: Int, _ name: String, _ body: @escaping (Int) -> Void) {
  let work = IndexedWork(count: count, body: body)
  let finished = Semaphore()
  var started = 0
  for _ in 0..<(Swift.min(count, onlineCores) - 1) where DetachedThread.start(name, stackBytes: helperStackBytes, {
    work.drain()
    finished.signal()
  }) {
    started += 1
  }
  work.drain()
  // Every index is taken once `drain` returns here; the helpers finish what they took, and none
  // touches an index after it signals.
  for _ in 0..<started { finished.wait() }
}

/// One `onEveryCore`: each index is taken once (`next`), and only the thread that took it runs
/// `body` on it, so no two threads touch one place; the promise `parallelMap` asks of its caller
/// covers what `body` reaches.
private final class IndexedWork: @unchecked Sendable {
  let count: Int
  let body: (Int) -> Void
  let next = Atomic<Int>(0)

  init(count: Int, body: @escaping (Int) -> Void) {
    self.count = count
    self.body = body
  }

  /// Takes indices and runs `body` on them until none is left.
  func drain() {
    while true {
      let index = next.add(1, ordering: .relaxed).oldValue
      guard index < count else { return }
      body(index)
    }
  }
}
