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
import Synchronization

/// Writes a file so that a reader (or the next launch after a crash) sees either the old contents
/// or the new, never half of either: write a temporary file beside it, flush it to disk, rename.
/// With `keepingPrevious`, the contents being replaced stay beside it as `NAME.bak` (a hard link,
/// no copy), the last good copy a damaged file is recovered from.
public enum AtomicFile {
  /// Why a file could not be written.
  public struct WriteError: Error, CustomStringConvertible {
    /// The file that was being written.
    public var path: String
    /// What failed, in words (from the system call's error).
    public var reason: String
    /// `cannot write PATH: REASON`.
    public var description: String { "cannot write \(path): \(reason)" }
  }

  /// The suffix of a file that keeps the previous contents.
  package static let previousSuffix = ".bak"
  /// Temporary files are named `.paywall-tui-tmp-NAME-PID-RANDOM`, beside the file they replace:
  /// one prefix no other program uses, so the next owner of the state directory removes exactly
  /// the files a killed writer left, and nothing of anyone else's.
  package static let temporaryPrefix = ".paywall-tui-tmp-"

  /// A fresh temporary name for `path`: unique per write, so concurrent writers never truncate or
  /// rename each other's file.
  static func temporaryPath(for path: String) -> String {
    let directory = (path).deletingLastPathComponent
    let name = temporaryPrefix + (path).lastPathComponent + "-\(getpid())-\(UUID().uuidString.prefix(8))"
    return directory.isEmpty ? name : (directory).appendingPathComponent(name)
  }

  /// Creates a new file for writing: never one that is there already, never through a link.
  static func create(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
  }

  /// `write` of `text`'s UTF-8, copied into `Data` at once. `Data(text.utf8)`, generic over any
  /// sequence, first asks the runtime whether the view is contiguous bytes: at its first use, a
  /// search of every conformance of the binary (167,000 instructions at launch, when state files
  /// are saved).
  package static func write(_ text: String, to path: String, keepingPrevious: Bool = false,
                            replacingOnlyRegularFile: Bool = false, replacing: Bool = true) throws(WriteError) {
    var text = text
    let data = text.withUTF8 { Data(buffer: $0) }
    try write(data, to: path, keepingPrevious: keepingPrevious, replacingOnlyRegularFile: replacingOnlyRegularFile, replacing: replacing)
  }

  /// Writes `data` to `path` whole or not at all. With `replacingOnlyRegularFile`, a path that is
  /// there and is not a regular file (a device, a pipe, a socket, a symbolic link, a directory) is
  /// refused and left as it is: a file the user asked for is written, nothing else is touched.
  /// With `replacing: false`, nothing at `path` is ever replaced (a file, a directory, a link,
  /// dangling or not): the write fails with "it exists already" instead.
  package static func write(_ data: Data, to path: String, keepingPrevious: Bool = false,
                            replacingOnlyRegularFile: Bool = false, replacing: Bool = true) throws(WriteError) {
    if replacingOnlyRegularFile, let kind = nonRegularKind(path) {
      throw WriteError(path: path, reason: "it is \(kind), not a regular file; only a regular file is replaced (give another path)")
    }
    let directory = (path).deletingLastPathComponent
    if let why = FileSystem.makeDirectories(directory) {
      throw WriteError(path: path, reason: "cannot create \(directory.isEmpty ? "." : directory) (\(why))")
    }
    let temporary = temporaryPath(for: path)
    let fd = create(temporary)
    guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
    let fault = SimulatedFault.matching(path)
    var failure: Int32 = 0
    data.withUnsafeBytes { buffer in
      var offset = 0
      let limit = fault.map { min($0.afterBytes, buffer.count) } ?? buffer.count
      while offset < limit {
        let written = POSIX.write(fd, buffer.baseAddress! + offset, limit - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += written
      }
      if let fault { failure = fault.code }
    }
    if failure == 0, fsync(fd) != 0 { failure = errno }
    close(fd)
    if failure == 0, keepingPrevious { keepPrevious(of: path) }
    // Checked again at the last moment: something put there while the file was being written.
    if failure == 0, replacingOnlyRegularFile, let kind = nonRegularKind(path) {
      unlink(temporary)
      throw WriteError(path: path, reason: "it is \(kind), not a regular file; only a regular file is replaced (give another path)")
    }
    if failure == 0, !replacing {
      // A new name for the finished file, made only where nothing is: link(2) refuses any entry
      // at `path`, a dangling symbolic link too, which a check before rename would race with.
      if link(temporary, path) != 0 {
        failure = errno
        unlink(temporary)
        throw WriteError(path: path, reason: failure == EEXIST ? "it exists already (nothing there is replaced)" : String(cString: strerror(failure)))
      }
      unlink(temporary)
      return
    }
    if failure == 0, rename(temporary, path) != 0 { failure = errno }
    guard failure == 0 else {
      unlink(temporary)
      throw WriteError(path: path, reason: String(cString: strerror(failure)))
    }
  }

  /// What is at `path` when it is there and is not a regular file, without following a link.
  package static func nonRegularKind(_ path: String) -> String? {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return nil }
    return FileSystem.kind(of: info.st_mode)
  }

  /// Points `NAME.bak` at the current contents of `path` (when there are any), atomically too.
  /// Only a regular file is kept: a link put in its place is replaced, never given a second name.
  private static func keepPrevious(of path: String) {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
    let previous = path + previousSuffix
    let temporary = temporaryPath(for: previous)
    guard link(path, temporary) == 0 else { return }
    // When NAME.bak already is this file (a writer killed between the two renames), rename does
    // nothing and leaves the temporary name: unlink it either way.
    _ = rename(temporary, previous)
    unlink(temporary)
  }

  // MARK: - Faults, for tests

  /// Makes every write under a directory fail with an errno after writing some bytes, as a full
  /// disk (`ENOSPC`) or a failing one (`EIO`) would: for tests of what the app does then.
  package struct SimulatedFault: Sendable {
    package var code: Int32
    package var afterBytes: Int

    private static let registry = Mutex<[String: SimulatedFault]>([:])

    package static func install(_ fault: SimulatedFault, under directory: String) {
      registry.withLock { $0[directory.hasSuffix("/") ? directory : directory + "/"] = fault }
    }

    package static func remove(under directory: String) {
      registry.withLock { _ = $0.removeValue(forKey: directory.hasSuffix("/") ? directory : directory + "/") }
    }

    package init(code: Int32, afterBytes: Int = 0) {
      self.code = code
      self.afterBytes = afterBytes
    }

    static func matching(_ path: String) -> SimulatedFault? {
      registry.withLock { faults in
        guard !faults.isEmpty else { return nil }
        return faults.first { path.hasPrefix($0.key) }?.value
      }
    }
  }
}
