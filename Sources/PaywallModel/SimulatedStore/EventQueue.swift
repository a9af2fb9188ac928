/// Subscriptions ordered by their next event (time, then subscription order), with stale entries
/// skipped by version: a binary heap.
struct EventQueue: Sendable {
  struct Event: Sendable {
    var time: Double
    var index: Int
    var version: Int

    func precedes(_ other: Event) -> Bool {
      time < other.time || (time == other.time && index < other.index)
    }
  }

  private var heap: [Event] = []

  var first: Event? { heap.first }

  mutating func insert(_ event: Event) {
    heap.append(event)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].precedes(heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  mutating func removeFirst() {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var first = parent
      if left < heap.count && heap[left].precedes(heap[first]) { first = left }
      if right < heap.count && heap[right].precedes(heap[first]) { first = right }
      if first == parent { return }
      heap.swapAt(parent, first)
      parent = first
    }
  }
}
