import Synchronization

/// A fixed row of atomic `Int32` slots, allocated once and never freed, that a signal handler may
/// read: what `InlineArray<N, Atomic<Int32>>` would be, which Apple's systems ship only from
/// macOS 26 while the package supports macOS 15. A slot holding 0 is free.
package final class AtomicSlots: @unchecked Sendable {
  private let base: UnsafeMutablePointer<Atomic<Int32>>
  /// The slots' indices, `0..<count`.
  package let indices: Range<Int>

  /// `count` free slots.
  package init(count: Int) {
    base = .allocate(capacity: count)
    for index in 0..<count { (base + index).initialize(to: Atomic<Int32>(0)) }
    indices = 0..<count
  }

  /// Puts `value` (not 0) in the first free slot; false when every slot is taken.
  @discardableResult
  package func claim(_ value: Int32) -> Bool {
    for index in indices where base[index].compareExchange(expected: 0, desired: value, ordering: .sequentiallyConsistent).exchanged {
      return true
    }
    return false
  }

  /// Frees the first slot holding `value`.
  package func release(_ value: Int32) {
    for index in indices where base[index].compareExchange(expected: value, desired: 0, ordering: .sequentiallyConsistent).exchanged {
      return
    }
  }

  /// The value in slot `index` (0 when free).
  package func load(_ index: Int) -> Int32 {
    base[index].load(ordering: .sequentiallyConsistent)
  }

  /// Empties slot `index` and returns what it held.
  package func take(_ index: Int) -> Int32 {
    base[index].exchange(0, ordering: .sequentiallyConsistent)
  }
}
