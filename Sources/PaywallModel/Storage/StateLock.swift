#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One writer per state directory: the session that saves to it holds an exclusive `flock` on
/// `DIR/lock` (which also names its pid) for as long as it runs. The kernel drops the lock when
/// the process ends however it ends, `kill -9` included, so a lock is never stale. A second
/// session on the same directory reads the state and writes nothing.
///
/// A directory that others can write or that belongs to another user, or a path to it through
/// another user's link or directory, is refused (see `StateDirectory.refusal()`), and so is a
/// `lock` that is a link or anything but a plain file with one name: writing the pid through it
/// would overwrite a file of the user's.
package final class StateLock: Sendable {
  package static let fileName = "lock"

  package enum Acquisition: Sendable {
    case owned(StateLock)
    /// Another process holds the lock (its pid, when it wrote one).
    case inUse(pid: Int32?)
    /// The directory cannot be created or written (why).
    case unwritable(String)
    /// The directory or its lock is unsafe to use at all (why, and how to fix it).
    case refused(String)
  }

  package let directory: StateDirectory
  /// A one-line warning for the session that owns the directory, when there is one (the
  /// directory holds files that are not paywall-tui's, so nothing in it is cleaned up).
  package let notice: String?
  private let fd: Int32

  private init(directory: StateDirectory, fd: Int32, notice: String?) {
    self.directory = directory
    self.fd = fd
    self.notice = notice
  }

  deinit {
    close(fd)
  }

  package static func acquire(_ directory: StateDirectory) -> Acquisition {
    // The whole path is checked before anything is made along it, and again once it is made:
    // a link planted in between (in a sticky /tmp, say) is caught before the lock is opened.
    if let why = directory.refusal() { return .refused(why) }
    if let why = FileSystem.makeDirectories(directory.path) { return .unwritable("cannot create it: \(why)") }
    if let why = directory.refusal() { return .refused(why) }
    let path = directory.file(fileName)
    // Close-on-exec: a controller process we start must not inherit (and outlive us with) the lock.
    // No link is followed, and a named pipe put there does not make open wait.
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
    guard fd >= 0 else {
      if errno == ELOOP {
        return .refused("\(path) is a symbolic link; paywall-tui never follows links in its state directory: remove it (rm \(path))")
      }
      return .unwritable(String(cString: strerror(errno)))
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      defer { close(fd) }
      return .unwritable(String(cString: strerror(errno)))
    }
    if info.st_mode & S_IFMT != S_IFREG || info.st_nlink != 1 {
      close(fd)
      let what = info.st_mode & S_IFMT != S_IFREG ? "is \(FileSystem.kind(of: info.st_mode)), not a plain file"
        : "has other names (hard links) the pid would overwrite"
      return .refused("\(path) \(what); remove it (rm \(path))")
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let code = errno
      defer { close(fd) }
      if code == EWOULDBLOCK { return .inUse(pid: readPID(fd)) }
      return .unwritable("cannot lock \(path): \(String(cString: strerror(code)))")
    }
    // The pid in a record of one width overwrites an earlier owner's in place: no truncate, which
    // on ext4 frees the file's block in the journal and cost half a millisecond of every start.
    let record = pidRecord(getpid())
    guard pwrite(fd, record, record.utf8.count, 0) == record.utf8.count,
          info.st_size <= record.utf8.count || ftruncate(fd, off_t(record.utf8.count)) == 0 else {
      defer { close(fd) }
      return .unwritable(String(cString: strerror(errno)))
    }
    let names = FileSystem.names(in: directory.path)
    let foreign = names.filter { !StateDirectory.isOwnFile($0) }.sorted()
    let notice: String?
    if foreign.isEmpty {
      removeLeftovers(names.filter(StateDirectory.isLeftover), in: directory)
      notice = nil
    } else {
      let shown = foreign.prefix(3).joined(separator: ", ") + (foreign.count > 3 ? " and \(foreign.count - 3) more" : "")
      notice = "\(directory.path) holds files paywall-tui did not make (\(shown)); it is used, but nothing in it is ever cleaned up (give --state-dir a directory of its own)"
    }
    let lock = StateLock(directory: directory, fd: fd, notice: notice)
    // A directory can hold a writable lock file and still refuse new files.
    let probe = AtomicFile.temporaryPath(for: directory.file("probe"))
    let probeFD = AtomicFile.create(probe)
    guard probeFD >= 0 else { return .unwritable(String(cString: strerror(errno))) }
    close(probeFD)
    unlink(probe)
    return .owned(lock)
  }

  /// Temporary files of writers that were killed mid-write: no writer is left to finish them.
  /// Only in a directory that holds nothing but paywall-tui's files, and only regular files of
  /// this user's with a temporary name of ours.
  private static func removeLeftovers(_ names: [String], in directory: StateDirectory) {
    for name in names {
      let path = directory.file(name)
      var info = stat()
      if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() {
        unlink(path)
      }
    }
  }

  /// `pid` padded to the widest pid, then a newline: `"4242      \n"`.
  static func pidRecord(_ pid: Int32) -> String {
    let digits = String(pid)
    return digits + String(repeating: " ", count: max(0, 10 - digits.count)) + "\n"
  }

  private static func readPID(_ fd: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = pread(fd, &buffer, buffer.count, 0)
    guard count > 0 else { return nil }
    return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingSpacesAndNewlines())
  }
}

/// What a session may do with its state directory, and the one line that says why not.
package enum StateAccess: Sendable {
  case readWrite(StateLock)
  case readOnly(reason: String)
  /// The directory must not be used at all, not even read: another user's, writable by others,
  /// or a `lock` that is a link (`reason` says which and how to fix it). The command line exits 2.
  case refused(reason: String)

  package static func open(_ directory: StateDirectory) -> StateAccess {
    switch StateLock.acquire(directory) {
    case .owned(let lock):
      return .readWrite(lock)
    case .inUse(let pid):
      let holder = pid.map { "another paywall-tui (pid \($0))" } ?? "another paywall-tui"
      return .readOnly(reason: "\(directory.path) is in use by \(holder); this session reads its state but saves nothing (give --state-dir DIR for a separate one)")
    case .unwritable(let why):
      return .readOnly(reason: "cannot write the state directory \(directory.path) (\(why)); this session saves nothing: status, ledger, assignments and trial reminders are kept in memory")
    case .refused(let why):
      return .refused(reason: why)
    }
  }

  /// Why the directory is refused, when it is.
  package var refusal: String? {
    if case .refused(let reason) = self { return reason }
    return nil
  }

  package var canWrite: Bool {
    if case .readWrite = self { return true }
    return false
  }

  /// The one line to show at start: why this session saves nothing, why it may not use the
  /// directory, or that the directory holds files of someone else's; nil when all is well.
  package var warning: String? {
    switch self {
    case .readWrite(let lock): return lock.notice
    case .readOnly(let reason), .refused(let reason): return reason
    }
  }
}
