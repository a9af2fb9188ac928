import Synchronization

/// The controller's calls in flight, so a process that dies can cancel them. A call's task is
/// started with no lock held and registered after: a task that holds the lock while another
/// starts makes the new one, run at once on the other core, wait for it to finish its work
/// (a tenth of `play`'s purchase-restore cycles went to that wait). A task that ends before it
/// is registered leaves its id behind, and its registration then keeps nothing. Calls are
/// started and taken by the runtime's one loop, so none is started while the tasks are taken.
final class InFlightCalls: Sendable {
  private struct Calls {
    var next = 0
    var tasks: [Int: Task<Void, Never>] = [:]
    var ended: Set<Int> = []
    /// Ids `takeAll` took whose tasks have not ended yet.
    var taken: Set<Int> = []
  }

  private let calls = Mutex(Calls())

  /// Starts `body` as a task, kept until it ends.
  func start(_ body: @escaping @Sendable () async -> Void) {
    let id = calls.withLock { calls in
      defer { calls.next += 1 }
      return calls.next
    }
    let task = Task {
      await body()
      self.calls.withLock { calls in
        if calls.tasks.removeValue(forKey: id) == nil, calls.taken.remove(id) == nil { calls.ended.insert(id) }
      }
    }
    calls.withLock { calls in
      if calls.ended.remove(id) == nil { calls.tasks[id] = task }
    }
  }

  /// Whether nothing is kept: no task in flight, no id left behind.
  var isEmpty: Bool {
    calls.withLock { $0.tasks.isEmpty && $0.ended.isEmpty && $0.taken.isEmpty }
  }

  /// The tasks in flight, forgotten here. Each still ends as it will: it leaves nothing behind,
  /// as its id is marked taken, not ended.
  func takeAll() -> [Task<Void, Never>] {
    calls.withLock { calls in
      defer {
        calls.taken.formUnion(calls.tasks.keys)
        calls.tasks = [:]
      }
      return Array(calls.tasks.values)
    }
  }
}
