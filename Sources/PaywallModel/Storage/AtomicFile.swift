import Foundation

/// Writes a file so that a reader (or the next launch after a crash) sees either the old contents
/// or the new, never half of either: write a temporary file beside it, flush it to disk, rename.
public enum AtomicFile {
  public struct WriteError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write \(path): \(reason)" }
  }

  public static func write(_ data: Data, to path: String) throws(WriteError) {
    let directory = (path as NSString).deletingLastPathComponent
    do {
      try FileManager.default.createDirectory(atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true)
    } catch {
      throw WriteError(path: path, reason: "cannot create \(directory) (\(error.localizedDescription))")
    }
    // Unique per write, so concurrent writers never truncate or rename each other's file.
    let temporary = path + ".tmp-\(getpid())-\(UUID().uuidString.prefix(8))"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
    var ok = data.withUnsafeBytes { buffer -> Bool in
      var offset = 0
      while offset < buffer.count {
        let written = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += written
      }
      return true
    }
    let reason = ok ? "" : String(cString: strerror(errno))
    ok = ok && fsync(fd) == 0
    close(fd)
    guard ok, rename(temporary, path) == 0 else {
      let message = reason.isEmpty ? String(cString: strerror(errno)) : reason
      unlink(temporary)
      throw WriteError(path: path, reason: message)
    }
  }
}
