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
/// `debounce` passes with no more events, so a save in several steps is one change. Directories
/// are known by their real path (`paywalls`, `./paywalls` and a link to it are one directory), and
/// a file that is a symbolic link is watched in its own directory and in its target's; a path is
/// reported as it was given.
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

    /// The watched paths a change to `name` in this directory is a change of.
    func paths(_ name: String) -> Set<String> {
      var paths = files[name] ?? []
      if FileWatcher.counts(name, nil) { for spelling in whole { paths.insert(FileWatcher.join(spelling, name)) } }
      return paths
    }

    /// Every path watched here, for an event that may mean any of them.
    var all: Set<String> { whole.union(files.values.joined()) }
  }

  private struct Interest: Sendable {
    /// Real path of a directory → what counts in it.
    var directories: [String: Directory] = [:]
  }

  private let debounce: Duration
  private let interest = Mutex(Interest())
  /// Written to by `stop`, so a waiting `poll` returns.
  private let stopPipe: (read: Int32, write: Int32)
  private let stopped = Atomic<Bool>(false)
  #if canImport(Glibc)
  private let inotify: Int32
  /// Watch descriptor → directories (real paths; one inode reached by two has one descriptor).
  private let watches = Mutex<[Int32: Set<String>]>([:])
  #else
  private let queue: Int32
  /// Open descriptors (directories and the files in them) → directory, re-opened after each change.
  private let opened = Mutex<[Int32: String]>([:])
  #endif

  /// Watches `targets`; `debounce` is how long the events must stop before a change is reported.
  package init(_ targets: [Target], debounce: Duration = .milliseconds(40)) throws(Failure) {
    self.debounce = debounce
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
  /// the directories already watched stay watched.
  package func watch(_ targets: [Target]) throws(Failure) {
    var next = Interest()
    for target in targets {
      switch target {
      case .directory(let path):
        let spelled = Self.normalized(path)
        next.directories[Self.realPath(spelled) ?? spelled, default: Directory()].whole.insert(spelled)
      case .file(let path):
        let spelled = Self.normalized(path)
        let (directory, name) = Self.split(spelled)
        let real = Self.realPath(directory) ?? directory
        next.directories[real, default: Directory()].files[name, default: []].insert(spelled)
        // A symbolic link: its target is edited where it is, so its directory is watched too.
        if let resolved = Self.realPath(spelled), resolved != Self.join(real, name) {
          let (targetDirectory, targetName) = Self.split(resolved)
          next.directories[targetDirectory, default: Directory()].files[targetName, default: []].insert(spelled)
        }
      }
    }
    interest.withLock { $0 = next }
    for directory in next.directories.keys { try add(directory) }
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
  /// that changed (on macOS, every watched path of the directories that changed). Nil after
  /// `stop`, or when `timeout` (if given) passes first.
  package func waitForChange(timeout: Duration? = nil) -> Set<String>? {
    let deadline = timeout.map { ContinuousClock.now + $0 }
    var changed: Set<String> = []
    while true {
      if stopped.load(ordering: .acquiring) { return nil }
      let wait: Duration?
      if changed.isEmpty {
        wait = deadline.map { $0 - ContinuousClock.now }
        if let wait, wait <= .zero { return nil }
      } else {
        wait = debounce
      }
      switch pollOnce(wait) {
      case .stopped: return nil
      case .timedOut: if !changed.isEmpty { return changed }
      case .events: changed.formUnion(readEvents())
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
  private func add(_ directory: String) throws(Failure) {
    let mask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)
    let descriptor = inotify_add_watch(inotify, directory, mask)
    guard descriptor >= 0 else {
      throw Failure(description: "cannot watch \(directory): \(String(cString: strerror(errno)))")
    }
    watches.withLock { _ = $0[descriptor, default: []].insert(directory) }
  }

  /// Reads every queued event; returns the watched paths they name.
  private func readEvents() -> Set<String> {
    var changed: Set<String> = []
    let capacity = 64 * 1024
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    defer { buffer.deallocate() }
    let directories = watches.withLock { $0 }
    let interested = interest.withLock { $0.directories }
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
        for directory in directories[descriptor] ?? [] {
          if let wanted = interested[directory] { changed.formUnion(wanted.paths(name)) }
        }
      }
    }
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

  private func register(_ fd: Int32, _ directory: String) {
    var change = kevent(ident: UInt(fd), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                        fflags: UInt32(NOTE_WRITE | NOTE_EXTEND | NOTE_DELETE | NOTE_RENAME | NOTE_ATTRIB), data: 0, udata: nil)
    _ = kevent(queue, &change, 1, nil, 0, nil)
    opened.withLock { $0[fd] = directory }
  }

  /// A directory's vnode reports entries added, removed and renamed; a file's reports writes to
  /// it. Files are opened again after every change, since a rename over one leaves the old
  /// descriptor on the old file.
  private func reopenFiles() {
    // Every file descriptor is closed (directories are kept) and the files there now are opened.
    let files = opened.withLock { opened -> [Int32] in
      let keys = opened.filter { $0.value.hasPrefix("file:") }.map(\.key)
      for key in keys { opened[key] = nil }
      return keys
    }
    for fd in files { close(fd) }
    for (directory, wanted) in interest.withLock({ $0.directories }) {
      for name in Self.names(wanted, in: directory) {
        let fd = open(Self.join(directory, name), O_EVTONLY)
        if fd >= 0 { register(fd, "file:" + directory) }
      }
    }
  }

  /// The names `wanted` watches in `directory`: those it lists, and its project files if it is
  /// watched whole.
  private static func names(_ wanted: Directory, in directory: String) -> Set<String> {
    Set(wanted.files.keys).union(wanted.whole.isEmpty ? [] : entries(of: directory))
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
    var directories: Set<String> = []
    for event in events.prefix(Int(count)) {
      guard let owner = descriptors[Int32(event.ident)] else { continue }
      directories.insert(owner.hasPrefix("file:") ? String(owner.dropFirst(5)) : owner)
    }
    reopenFiles()
    let interested = interest.withLock { $0.directories }
    var changed: Set<String> = []
    for directory in directories {
      guard let wanted = interested[directory] else { continue }
      for name in Self.names(wanted, in: directory) { changed.formUnion(wanted.paths(name)) }
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
