#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Tells when one of a set of files changes, however an editor saves it: written in place,
/// truncated then written, written to a temporary file renamed over it, deleted and made again.
/// The directories that hold the files are watched (inotify on Linux, kqueue on macOS), not the
/// files, so a rename over a file is seen and a file that comes back is watched again. Nothing is
/// polled: `waitForChange` sleeps in `poll` until the kernel reports something, then waits until
/// `debounce` passes with no more changes to watched names, so a save in several steps is one
/// change; other files of the directory (a log, the app's own events file) never hold it back, and
/// a change is reported at most `longest` after it was first seen, however busy the directory.
/// Directories are known by their real path (`paywalls`, `./paywalls` and a link to it are one
/// directory), and a file that is a symbolic link is watched in its own directory and in its
/// target's; a path is reported as it was given. A watched directory moved aside or deleted is
/// watched again by its path as soon as one is there again (its parent is watched meanwhile).
/// Files the app writes itself (`ignoring`) never count.
package final class FileWatcher: @unchecked Sendable {
  /// What to watch: a file by its path, or every `.json` and `.storekit` file of a directory (a
  /// project directory, where a new paywall file counts).
  package enum Target: Sendable, Hashable {
    case file(String)
    case directory(String)
  }

  /// The system refused a watch (too many inotify instances, no such directory).
  package struct Failure: Error, Sendable, CustomStringConvertible {
    /// What failed, in one line.
    package var description: String
  }

  /// What counts in one directory, and the paths to report for it (as the targets spelled them).
  private struct Directory: Sendable {
    /// The spellings of this directory watched whole: every `.json`/`.storekit` file in it counts.
    var whole: Set<String> = []
    /// A name in this directory → the watched paths it stands for (itself under each spelling of
    /// the directory, or a link elsewhere whose target it is).
    var files: [String: Set<String>] = [:]
    /// Names here the app writes itself (state files, `--events`, `render --out`): never a change.
    var ignored: Set<String> = []

    /// The watched paths a change to `name` in this directory is a change of.
    func paths(_ name: String) -> Set<String> {
      if ignored.contains(name) { return [] }
      var paths = files[name] ?? []
      if FileWatcher.counts(name, nil) { for spelling in whole { paths.insert(FileWatcher.join(spelling, name)) } }
      return paths
    }

    /// Every path watched here, for an event that may mean any of them.
    var all: Set<String> { whole.union(files.values.joined()) }

    /// Whether `name` here is watched and not one the app writes.
    func counts(_ name: String) -> Bool {
      !ignored.contains(name) && (files[name] != nil || (!whole.isEmpty && FileWatcher.counts(name, nil)))
    }
  }

  private struct Interest: Sendable {
    /// Real path of a directory → what counts in it.
    var directories: [String: Directory] = [:]
  }

  private let debounce: Duration
  /// The longest a change waits for its directory to rest before it is reported anyway.
  private let longest: Duration
  private let interest = Mutex(Interest())
  /// The files never to count, as given (their directories are resolved at each `watch`).
  private let ignoring: [String]
  /// Changes found outside `waitForChange` (a lost directory back in its place during `watch`),
  /// reported by the next wait.
  private let pending = Mutex<Set<String>>([])
  /// Written to by `stop`, so a waiting `poll` returns.
  private let stopPipe: (read: Int32, write: Int32)
  private let stopped = Atomic<Bool>(false)
  /// Directories watched once and not at their path now (moved aside, deleted): watched again as
  /// soon as one is there again.
  private let lost = Mutex<Set<String>>([])
  #if canImport(Glibc)
  private let inotify: Int32
  private struct Watches {
    /// Watch descriptor → directories (real paths; one inode reached by two has one descriptor).
    var directories: [Int32: Set<String>] = [:]
    /// Watch descriptor of the nearest existing parent of lost directories → those directories.
    var parents: [Int32: Set<String>] = [:]
  }
  private let watches = Mutex(Watches())
  #else
  private let queue: Int32
  /// Open descriptors → what they watch: a directory (its real path), `file:` and a file's path
  /// in one, or `parent:` and the nearest existing folder of a lost directory. Files are
  /// re-opened after each change.
  private let opened = Mutex<[Int32: String]>([:])
  /// What a counted file was when last looked at: a directory's event does not say which entry
  /// changed (a log or a temporary file beside the project makes one too), so the names whose
  /// snapshot differs are the change.
  private struct Snapshot: Sendable, Equatable {
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int
    /// A named file (`.file`) that is not there.
    static let absent = Snapshot(inode: 0, size: -1, seconds: 0, nanoseconds: 0)
  }
  /// Real path of each watched directory → its counted names → their snapshot at the last report
  /// of a change there (a directory's entries that are not there are not in it).
  private let snapshots = Mutex<[String: [String: Snapshot]]>([:])
  #endif

  /// Watches `targets`; `debounce` is how long changes to watched names must stop before they are
  /// reported, `longest` the most a change waits for that. `ignoring`: files never to count.
  package init(_ targets: [Target], ignoring: [String] = [], debounce: Duration = .milliseconds(40),
               longest: Duration = .milliseconds(250)) throws(Failure) {
    self.debounce = debounce
    self.longest = longest
    self.ignoring = ignoring.map(Self.normalized)
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw Failure(description: "cannot make a pipe: \(String(cString: strerror(errno)))") }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
    stopPipe = (fds[0], fds[1])
    #if canImport(Glibc)
    inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard inotify >= 0 else {
      let reason = String(cString: strerror(errno))
      close(fds[0]); close(fds[1])
      throw Failure(description: "cannot watch files (inotify_init1: \(reason); raise fs.inotify.max_user_instances)")
    }
    #else
    queue = kqueue()
    guard queue >= 0 else {
      let reason = String(cString: strerror(errno))
      close(fds[0]); close(fds[1])
      throw Failure(description: "cannot watch files (kqueue: \(reason))")
    }
    #endif
    do {
      try watch(targets)
    } catch {
      release()
      throw error
    }
  }

  deinit { release() }

  private func release() {
    close(stopPipe.read)
    close(stopPipe.write)
    #if canImport(Glibc)
    close(inotify)
    #else
    for fd in opened.withLock({ $0.keys }) { close(fd) }
    close(queue)
    #endif
  }

  /// Replaces what is watched (a reload may name other files, a link may point elsewhere now);
  /// the directories already watched stay watched. A directory not there is refused, unless it
  /// was watched before (moved aside or deleted: it is watched again once it is back).
  package func watch(_ targets: [Target]) throws(Failure) {
    var next = Interest()
    for target in targets {
      switch target {
      case .directory(let path):
        let spelled = Self.normalized(path)
        next.directories[Self.canonical(spelled), default: Directory()].whole.insert(spelled)
      case .file(let path):
        let spelled = Self.normalized(path)
        let (directory, name) = Self.split(spelled)
        let real = Self.canonical(directory)
        next.directories[real, default: Directory()].files[name, default: []].insert(spelled)
        // A symbolic link: its target is edited where it is, so its directory is watched too.
        if let resolved = Self.realPath(spelled), resolved != Self.join(real, name) {
          let (targetDirectory, targetName) = Self.split(resolved)
          next.directories[targetDirectory, default: Directory()].files[targetName, default: []].insert(spelled)
        }
      }
    }
    for path in ignoring {
      let (directory, name) = Self.split(path)
      let real = Self.canonical(directory)
      if next.directories[real] != nil { next.directories[real]?.ignored.insert(name) }
    }
    let before = interest.withLock { interest in defer { interest = next }; return interest.directories }
    let missing = lost.withLock { $0 }
    for directory in next.directories.keys where !missing.contains(directory) {
      do {
        try add(directory)
      } catch where before[directory] != nil && !Self.isDirectory(directory) {
        // Gone since the last look (its event not read yet): watched again once back.
        lost.withLock { _ = $0.insert(directory) }
      }
    }
    lost.withLock { $0.formIntersection(next.directories.keys) }
    let back = watchLostAgain()
    if !back.isEmpty { pending.withLock { $0.formUnion(back) } }
    #if canImport(Darwin)
    reopenFiles()
    #endif
  }

  /// Ends a `waitForChange` in progress (and every later one) with nil. Safe from any thread.
  package func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    var byte: UInt8 = 1
    _ = write(stopPipe.write, &byte, 1)
  }

  /// Blocks until a watched file changes and `debounce` then passes quietly; returns the paths
  /// that changed. Nil after `stop`, or when `timeout` (if given) passes first.
  package func waitForChange(timeout: Duration? = nil) -> Set<String>? {
    let deadline = timeout.map { ContinuousClock.now + $0 }
    var changed = pending.withLock { pending in defer { pending = [] }; return pending }
    // When the changes seen so far are reported: `debounce` after the last one, at most
    // `longest` after the first. Events of names that do not count move neither.
    var first = ContinuousClock.now
    var quiet = first + debounce
    while true {
      if stopped.load(ordering: .acquiring) { return nil }
      let now = ContinuousClock.now
      let wait: Duration?
      if changed.isEmpty {
        wait = deadline.map { $0 - now }
        if let wait, wait <= .zero { return nil }
      } else {
        wait = min(quiet, first + longest) - now
        if let wait, wait <= .zero { return changed }
      }
      switch pollOnce(wait) {
      case .stopped: return nil
      case .timedOut: continue
      case .events:
        let found = readEvents()
        guard !found.isEmpty else { continue }
        let seen = ContinuousClock.now
        if changed.isEmpty { first = seen }
        quiet = seen + debounce
        changed.formUnion(found)
      }
    }
  }

  private enum PollResult { case events, timedOut, stopped }

  private func pollOnce(_ wait: Duration?) -> PollResult {
    #if canImport(Glibc)
    let source = inotify
    #else
    let source = queue
    #endif
    var fds = [pollfd(fd: source, events: Int16(POLLIN), revents: 0), pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
    let milliseconds: Int32 = wait.map { wait in
      let (seconds, attoseconds) = wait.components
      return Int32(clamping: max(0, seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    } ?? -1
    let ready = poll(&fds, 2, milliseconds)
    if ready < 0 { return errno == EINTR ? .timedOut : .stopped }
    if fds[1].revents != 0 { return .stopped }
    return ready == 0 ? .timedOut : .events
  }

  // MARK: - Linux

  #if canImport(Glibc)
  /// One mask for every watch: adding a watch to an inode already watched replaces its mask, and
  /// a lost directory's parent may be a watched directory too.
  private static let mask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB
                                   | IN_DELETE_SELF | IN_MOVE_SELF)

  private func add(_ directory: String) throws(Failure) {
    let descriptor = inotify_add_watch(inotify, directory, Self.mask)
    guard descriptor >= 0 else {
      throw Failure(description: "cannot watch \(directory): \(String(cString: strerror(errno)))")
    }
    watches.withLock { _ = $0.directories[descriptor, default: []].insert(directory) }
  }

  /// Watches each lost directory that is back at its path (returning every watched path of
  /// those: their files may all be new), and the nearest existing parent of the others.
  private func watchLostAgain() -> Set<String> {
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
  private func leave(_ descriptor: Int32, moved: Bool) -> Set<String> {
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
  private func readEvents() -> Set<String> {
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
  #endif

  // MARK: - macOS

  #if canImport(Darwin)
  private func add(_ directory: String) throws(Failure) {
    if opened.withLock({ $0.values.contains(directory) }) { return }
    let fd = open(directory, O_EVTONLY)
    guard fd >= 0 else { throw Failure(description: "cannot watch \(directory): \(String(cString: strerror(errno)))") }
    register(fd, directory)
  }

  /// Watches each lost directory that is back at its path (returning every watched path of
  /// those: their files may all be new), and the nearest existing parent of the others.
  private func watchLostAgain() -> Set<String> {
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

  private func register(_ fd: Int32, _ directory: String) {
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
  private func reopenFiles(refresh: Set<String> = [], written: [String: Set<String>] = [:]) {
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
  private static func snapshot(_ path: String) -> Snapshot {
    var info = stat()
    guard stat(path, &info) == 0 else { return .absent }
    return Snapshot(inode: UInt64(info.st_ino), size: Int64(info.st_size),
                    seconds: Int(info.st_mtimespec.tv_sec), nanoseconds: Int(info.st_mtimespec.tv_nsec))
  }

  /// The names `wanted` counts in `directory`: those it lists, and its project files if it is
  /// watched whole; never one the app writes itself (`ignored`), so neither its descriptor nor
  /// its snapshot makes a change.
  private static func names(_ wanted: Directory, in directory: String) -> Set<String> {
    Set(wanted.files.keys).union(wanted.whole.isEmpty ? [] : entries(of: directory)).subtracting(wanted.ignored)
  }

  private static func entries(of directory: String) -> [String] {
    guard let handle = opendir(directory) else { return [] }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if counts(name, nil) { names.append(name) }
    }
    return names
  }

  private func readEvents() -> Set<String> {
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
  #endif

  // MARK: - Paths

  /// Whether a name in a watched directory counts: one of `wanted`, or with no list a project's
  /// file (`.json`, `.storekit`), not an editor's backup or swap file.
  fileprivate static func counts(_ name: String, _ wanted: Set<String>?) -> Bool {
    guard let wanted else { return name.hasSuffix(".json") || name.hasSuffix(".storekit") }
    return wanted.contains(name)
  }

  private static func normalized(_ path: String) -> String {
    var path = path.isEmpty ? "." : path
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    return path
  }

  /// The real path of `path`; for one not there (a directory moved aside), the real path of its
  /// nearest existing folder with the rest of it, which is its real path once it is back.
  private static func canonical(_ path: String) -> String {
    if let real = realPath(path) { return real }
    var rest: [String] = []
    var current = path
    while true {
      let (directory, name) = split(current)
      rest.insert(name, at: 0)
      if let real = realPath(directory) {
        return rest.reduce(real) { join($0, $1) }
      }
      if directory == current || directory == "/" || directory == "." { return path }
      current = directory
    }
  }

  /// The nearest folder above `path` that exists ("/" at worst).
  private static func nearestExistingDirectory(above path: String) -> String {
    var current = path
    while true {
      let (directory, _) = split(current)
      if isDirectory(directory) || directory == current || directory == "/" { return directory }
      current = directory
    }
  }

  private static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// The path with every link, `.` and `..` resolved; nil when it does not exist.
  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// ("dir", "name") for "dir/name"; (".", "name") for "name".
  private static func split(_ path: String) -> (String, String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  fileprivate static func join(_ directory: String, _ name: String) -> String {
    directory == "/" ? "/" + name : directory + "/" + name
  }
}
