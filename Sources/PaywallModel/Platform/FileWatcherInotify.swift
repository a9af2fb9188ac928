#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

#if canImport(Glibc)
extension FileWatcher {
  /// One mask for every watch: adding a watch to an inode already watched replaces its mask, and
  /// a lost directory's parent may be a watched directory too.
  static let mask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB
                                   | IN_DELETE_SELF | IN_MOVE_SELF)

  func add(_ directory: String) throws(Failure) {
    let descriptor = inotify_add_watch(inotify, directory, Self.mask)
    guard descriptor >= 0 else {
      throw Failure(description: "cannot watch \(directory): \(String(cString: strerror(errno)))")
    }
    watches.withLock { _ = $0.directories[descriptor, default: []].insert(directory) }
  }

  /// Watches each lost directory that is back at its path (returning every watched path of
  /// those: their files may all be new), and the nearest existing parent of the others.
  func watchLostAgain() -> Set<String> {
    let missing = lost.withLock { $0 }
    guard !missing.isEmpty else { return [] }
    let interested = interest.withLock { $0.directories }
    var back: Set<String> = []
    for directory in missing {
      let descriptor = inotify_add_watch(inotify, directory, Self.mask)
      if descriptor >= 0 {
        watches.withLock { _ = $0.directories[descriptor, default: []].insert(directory) }
        lost.withLock { _ = $0.remove(directory) }
        back.formUnion(interested[directory]?.all ?? [])
        continue
      }
      let parent = Self.nearestExistingDirectory(above: directory)
      let guarding = inotify_add_watch(inotify, parent, Self.mask)
      if guarding >= 0 { watches.withLock { _ = $0.parents[guarding, default: []].insert(directory) } }
    }
    // A parent no longer needed is no longer watched (unless it is a watched directory itself).
    let still = lost.withLock { $0 }
    let unneeded = watches.withLock { watches -> [Int32] in
      var unneeded: [Int32] = []
      for (descriptor, directories) in watches.parents {
        let waiting = directories.intersection(still)
        watches.parents[descriptor] = waiting.isEmpty ? nil : waiting
        if waiting.isEmpty && watches.directories[descriptor] == nil { unneeded.append(descriptor) }
      }
      return unneeded
    }
    for descriptor in unneeded { _ = inotify_rm_watch(inotify, descriptor) }
    return back
  }

  /// A watched directory that left its path (moved aside, deleted): it is lost, every path it
  /// stands for changed, and it is watched again once back.
  func leave(_ descriptor: Int32, moved: Bool) -> Set<String> {
    let directories = watches.withLock { watches -> Set<String> in
      watches.parents[descriptor] = nil
      return watches.directories.removeValue(forKey: descriptor) ?? []
    }
    // A moved directory's watch goes with it: dropped, so its new place does not count.
    if moved { _ = inotify_rm_watch(inotify, descriptor) }
    let interested = interest.withLock { $0.directories }
    var changed: Set<String> = []
    lost.withLock { lost in
      for directory in directories where interested[directory] != nil {
        lost.insert(directory)
        changed.formUnion(interested[directory]?.all ?? [])
      }
    }
    return changed
  }

  /// Reads every queued event; returns the watched paths they name.
  func readEvents() -> Set<String> {
    var changed: Set<String> = []
    let capacity = 64 * 1024
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    defer { buffer.deallocate() }
    var directories = watches.withLock { $0.directories }
    var parents = watches.withLock { $0.parents }
    let interested = interest.withLock { $0.directories }
    var lookAgain = false
    while true {
      let count = read(inotify, buffer, capacity)
      guard count > 0 else { break }
      var offset = 0
      let header = MemoryLayout<Int32>.size + 3 * MemoryLayout<UInt32>.size
      while offset + header <= count {
        let descriptor = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
        let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
        let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
        let nameStart = buffer.advanced(by: offset + header).assumingMemoryBound(to: UInt8.self)
        let nameBytes = UnsafeBufferPointer(start: nameStart, count: length).prefix { $0 != 0 }
        let name = String(decoding: nameBytes, as: UTF8.self)
        offset += header + length
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
          // The kernel's queue overflowed and events were lost: every watched directory may have changed.
          for directory in interested.values { changed.formUnion(directory.all) }
          continue
        }
        if parents[descriptor] != nil { lookAgain = true }
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
          if directories[descriptor] != nil || parents[descriptor] != nil {
            changed.formUnion(leave(descriptor, moved: mask & UInt32(IN_MOVE_SELF) != 0))
            directories[descriptor] = nil
            parents[descriptor] = nil
            lookAgain = true
          }
          continue
        }
        for directory in directories[descriptor] ?? [] {
          if let wanted = interested[directory] { changed.formUnion(wanted.paths(name)) }
        }
      }
    }
    if lookAgain { changed.formUnion(watchLostAgain()) }
    return changed
  }
}
#endif
