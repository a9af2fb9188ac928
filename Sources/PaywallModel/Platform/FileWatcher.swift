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
  struct Directory: Sendable {
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

  struct Interest: Sendable {
    /// Real path of a directory → what counts in it.
    var directories: [String: Directory] = [:]
  }

  let debounce: Duration
  /// The longest a change waits for its directory to rest before it is reported anyway.
  let longest: Duration
  let interest = Mutex(Interest())
  /// The files never to count, as given (their directories are resolved at each `watch`).
  let ignoring: [String]
  /// Changes found outside `waitForChange` (a lost directory back in its place during `watch`),
  /// reported by the next wait.
  let pending = Mutex<Set<String>>([])
  /// Written to by `stop`, so a waiting `poll` returns.
  let stopPipe: (read: Int32, write: Int32)
  let stopped = Atomic<Bool>(false)
  /// Directories watched once and not at their path now (moved aside, deleted): watched again as
  /// soon as one is there again.
  let lost = Mutex<Set<String>>([])
  #if canImport(Glibc)
  let inotify: Int32
  struct Watches {
    /// Watch descriptor → directories (real paths; one inode reached by two has one descriptor).
    var directories: [Int32: Set<String>] = [:]
    /// Watch descriptor of the nearest existing parent of lost directories → those directories.
    var parents: [Int32: Set<String>] = [:]
  }
  let watches = Mutex(Watches())
  #else
  let queue: Int32
  /// Open descriptors → what they watch: a directory (its real path), `file:` and a file's path
  /// in one, or `parent:` and the nearest existing folder of a lost directory. Files are
  /// re-opened after each change.
  let opened = Mutex<[Int32: String]>([:])
  /// What a counted file was when last looked at: a directory's event does not say which entry
  /// changed (a log or a temporary file beside the project makes one too), so the names whose
  /// snapshot differs are the change.
  struct Snapshot: Sendable, Equatable {
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int
    /// A named file (`.file`) that is not there.
    static let absent = Snapshot(inode: 0, size: -1, seconds: 0, nanoseconds: 0)
  }
  /// Real path of each watched directory → its counted names → their snapshot at the last report
  /// of a change there (a directory's entries that are not there are not in it).
  let snapshots = Mutex<[String: [String: Snapshot]]>([:])
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

  func release() {
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

  enum PollResult { case events, timedOut, stopped }

  func pollOnce(_ wait: Duration?) -> PollResult {
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

}
