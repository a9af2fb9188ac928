#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

#if canImport(Darwin)
extension FileWatcher {
  func add(_ directory: String) throws(Failure) {
    if opened.withLock({ $0.values.contains(directory) }) { return }
    let fd = open(directory, O_EVTONLY)
    guard fd >= 0 else { throw Failure(description: "cannot watch \(directory): \(String(cString: strerror(errno)))") }
    register(fd, directory)
  }

  /// Watches each lost directory that is back at its path (returning every watched path of
  /// those: their files may all be new), and the nearest existing parent of the others.
  func watchLostAgain() -> Set<String> {
    let parents = opened.withLock { opened -> [Int32] in
      let keys = opened.filter { $0.value.hasPrefix("parent:") }.map(\.key)
      for key in keys { opened[key] = nil }
      return keys
    }
    for fd in parents { close(fd) }
    let missing = lost.withLock { $0 }
    guard !missing.isEmpty else { return [] }
    let interested = interest.withLock { $0.directories }
    var back: Set<String> = []
    var waiting: Set<String> = []
    for directory in missing {
      let fd = open(directory, O_EVTONLY)
      if fd >= 0 {
        register(fd, directory)
        lost.withLock { _ = $0.remove(directory) }
        back.formUnion(interested[directory]?.all ?? [])
      } else {
        waiting.insert(Self.nearestExistingDirectory(above: directory))
      }
    }
    for parent in waiting {
      let fd = open(parent, O_EVTONLY)
      if fd >= 0 { register(fd, "parent:" + parent) }
    }
    return back
  }

  func register(_ fd: Int32, _ directory: String) {
    var change = kevent(ident: UInt(fd), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                        fflags: UInt32(NOTE_WRITE | NOTE_EXTEND | NOTE_DELETE | NOTE_RENAME | NOTE_ATTRIB), data: 0, udata: nil)
    _ = kevent(queue, &change, 1, nil, 0, nil)
    opened.withLock { $0[fd] = directory }
  }

  /// A directory's vnode reports entries added, removed and renamed; a file's reports writes to
  /// it. Files are opened again after every change, since a rename over one leaves the old
  /// descriptor on the old file. Snapshots are taken again for `refresh` (directories whose
  /// differences are being reported) and `written` (files being reported); every other name keeps
  /// the snapshot of the last report, so a change whose event is not read yet still differs when
  /// it is. A directory not looked at before, and a file named for the first time, get their first.
  func reopenFiles(refresh: Set<String> = [], written: [String: Set<String>] = [:]) {
    // Every file descriptor is closed (directories are kept) and the files there now are opened.
    let files = opened.withLock { opened -> [Int32] in
      let keys = opened.filter { $0.value.hasPrefix("file:") }.map(\.key)
      for key in keys { opened[key] = nil }
      return keys
    }
    for fd in files { close(fd) }
    let last = snapshots.withLock { $0 }
    var taken: [String: [String: Snapshot]] = [:]
    for (directory, wanted) in interest.withLock({ $0.directories }) {
      let names = Self.names(wanted, in: directory)
      for name in names {
        let fd = open(Self.join(directory, name), O_EVTONLY)
        if fd >= 0 { register(fd, "file:" + Self.join(directory, name)) }
      }
      guard let previous = last[directory], !refresh.contains(directory) else {
        var here: [String: Snapshot] = [:]
        for name in names { here[name] = Self.snapshot(Self.join(directory, name)) }
        taken[directory] = here
        continue
      }
      var here = previous.filter { wanted.counts($0.key) }
      for name in written[directory] ?? [] where wanted.counts(name) {
        // An entry of a directory watched whole that is gone is no entry (as a refresh leaves it).
        let now = Self.snapshot(Self.join(directory, name))
        here[name] = now == .absent && wanted.files[name] == nil ? nil : now
      }
      for name in wanted.files.keys where here[name] == nil && wanted.counts(name) {
        here[name] = Self.snapshot(Self.join(directory, name))
      }
      taken[directory] = here
    }
    snapshots.withLock { $0 = taken }
  }

  /// The inode, size and modification time of what `path` leads to (`absent`: nothing there).
  static func snapshot(_ path: String) -> Snapshot {
    var info = stat()
    guard stat(path, &info) == 0 else { return .absent }
    return Snapshot(inode: UInt64(info.st_ino), size: Int64(info.st_size),
                    seconds: Int(info.st_mtimespec.tv_sec), nanoseconds: Int(info.st_mtimespec.tv_nsec))
  }

  /// The names `wanted` counts in `directory`: those it lists, and its project files if it is
  /// watched whole; never one the app writes itself (`ignored`), so neither its descriptor nor
  /// its snapshot makes a change.
  static func names(_ wanted: Directory, in directory: String) -> Set<String> {
    Set(wanted.files.keys).union(wanted.whole.isEmpty ? [] : entries(of: directory)).subtracting(wanted.ignored)
  }

  static func entries(of directory: String) -> [String] {
    guard let handle = opendir(directory) else { return [] }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if counts(name, nil) { names.append(name) }
    }
    return names
  }

  func readEvents() -> Set<String> {
    var events = [kevent](repeating: kevent(), count: 64)
    var zero = timespec(tv_sec: 0, tv_nsec: 0)
    let count = kevent(queue, nil, 0, &events, Int32(events.count), &zero)
    guard count > 0 else { return [] }
    let descriptors = opened.withLock { $0 }
    let interested = interest.withLock { $0.directories }
    // Directories whose entries may have changed, and files written to (directory → names).
    var directories: Set<String> = []
    var written: [String: Set<String>] = [:]
    var changed: Set<String> = []
    var lookAgain = false
    for event in events.prefix(Int(count)) {
      let fd = Int32(event.ident)
      guard let owner = descriptors[fd] else { continue }
      if owner.hasPrefix("parent:") {
        lookAgain = true
      } else if owner.hasPrefix("file:") {
        let (directory, name) = Self.split(String(owner.dropFirst("file:".count)))
        written[directory, default: []].insert(name)
      } else if event.fflags & UInt32(NOTE_DELETE | NOTE_RENAME) != 0 {
        // The directory itself left its path (moved aside, deleted): lost until one is back.
        if opened.withLock({ $0.removeValue(forKey: fd) }) != nil { close(fd) }
        lost.withLock { _ = $0.insert(owner) }
        changed.formUnion(interested[owner]?.all ?? [])
        // Its snapshot becomes "nothing there", so what the new one holds once back is new.
        directories.insert(owner)
        lookAgain = true
      } else {
        directories.insert(owner)
      }
    }
    if lookAgain { changed.formUnion(watchLostAgain()) }
    let before = snapshots.withLock { $0 }
    reopenFiles(refresh: directories, written: written)
    let after = snapshots.withLock { $0 }
    // A file written to changed, whatever its snapshot says (a write within the clock's grain).
    for (directory, names) in written {
      guard let wanted = interested[directory] else { continue }
      for name in names { changed.formUnion(wanted.paths(name)) }
    }
    // A directory's event: the counted names made, removed, replaced or rewritten since the last look.
    for directory in directories {
      guard let wanted = interested[directory] else { continue }
      let old = before[directory] ?? [:], new = after[directory] ?? [:]
      for name in Set(old.keys).union(new.keys) where old[name] != new[name] {
        changed.formUnion(wanted.paths(name))
      }
    }
    return changed
  }
}
#endif
