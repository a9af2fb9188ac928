import Foundation

/// One writer per state directory: the session that saves to it holds an exclusive `flock` on
/// `DIR/lock` (which also names its pid) for as long as it runs. The kernel drops the lock when
/// the process ends however it ends, `kill -9` included, so a lock is never stale. A second
/// session on the same directory reads the state and writes nothing.
public final class StateLock: Sendable {
  public static let fileName = "lock"

  public enum Acquisition: Sendable {
    case owned(StateLock)
    /// Another process holds the lock (its pid, when it wrote one).
    case inUse(pid: Int32?)
    /// The directory cannot be created or written (why).
    case unwritable(String)
  }

  public let directory: StateDirectory
  private let fd: Int32

  private init(directory: StateDirectory, fd: Int32) {
    self.directory = directory
    self.fd = fd
  }

  deinit {
    close(fd)
  }

  public static func acquire(_ directory: StateDirectory) -> Acquisition {
    if let why = FileSystem.makeDirectories(directory.path) { return .unwritable("cannot create it: \(why)") }
    let path = directory.file(fileName)
    // Close-on-exec: a controller process we start must not inherit (and outlive us with) the lock.
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return .unwritable(String(cString: strerror(errno))) }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let code = errno
      defer { close(fd) }
      if code == EWOULDBLOCK { return .inUse(pid: readPID(fd)) }
      return .unwritable("cannot lock \(path): \(String(cString: strerror(code)))")
    }
    let lock = StateLock(directory: directory, fd: fd)
    // The pid in a record of one width overwrites an earlier owner's in place: no truncate, which
    // on ext4 frees the file's block in the journal and cost half a millisecond of every start.
    let record = pidRecord(getpid())
    var info = stat()
    guard pwrite(fd, record, record.utf8.count, 0) == record.utf8.count, fstat(fd, &info) == 0,
          info.st_size <= record.utf8.count || ftruncate(fd, off_t(record.utf8.count)) == 0 else {
      return .unwritable(String(cString: strerror(errno)))
    }
    lock.removeLeftovers()
    // A directory can hold a writable lock file and still refuse new files.
    let probe = directory.file(".probe" + AtomicFile.temporaryMarker + "\(getpid())")
    let probeFD = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard probeFD >= 0 else { return .unwritable(String(cString: strerror(errno))) }
    close(probeFD)
    unlink(probe)
    return .owned(lock)
  }

  /// Temporary files of writers that were killed mid-write: no writer is left to finish them.
  private func removeLeftovers() {
    for name in FileSystem.names(in: directory.path) where name.contains(AtomicFile.temporaryMarker) {
      unlink(directory.file(name))
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
public enum StateAccess: Sendable {
  case readWrite(StateLock)
  case readOnly(reason: String)

  public static func open(_ directory: StateDirectory) -> StateAccess {
    switch StateLock.acquire(directory) {
    case .owned(let lock):
      return .readWrite(lock)
    case .inUse(let pid):
      let holder = pid.map { "another paywall-tui (pid \($0))" } ?? "another paywall-tui"
      return .readOnly(reason: "\(directory.path) is in use by \(holder); this session reads its state but saves nothing (give --state-dir DIR for a separate one)")
    case .unwritable(let why):
      return .readOnly(reason: "cannot write the state directory \(directory.path) (\(why)); this session saves nothing: status, ledger and assignments are kept in memory")
    }
  }

  public var canWrite: Bool {
    if case .readWrite = self { return true }
    return false
  }

  public var warning: String? {
    if case .readOnly(let reason) = self { return reason }
    return nil
  }
}
