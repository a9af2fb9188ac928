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

/// The few directory operations the app needs at start, as plain system calls: FileManager's
/// versions build URLs and error objects on the way, a measurable part of the time to first paint.
package enum FileSystem {
  /// Creates `path` and any missing parents (like `mkdir -p`); nil on success, else why not
  /// ("Permission denied").
  package static func makeDirectories(_ path: String) -> String? {
    let target = path.isEmpty ? "." : path
    if isDirectory(target) { return nil }
    var prefix = target.hasPrefix("/") ? "/" : ""
    for component in target.split(separator: "/") {
      // A String, not the Substring: appending a Substring is generic code, whose first use
      // searched every conformance of the binary (180,000 instructions at launch).
      prefix += String(component)
      if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
        return String(cString: strerror(errno))
      }
      prefix += "/"
    }
    return isDirectory(target) ? nil : String(cString: strerror(ENOTDIR))
  }

  package static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  /// The names in a directory (no "." or ".."), unsorted; empty when it cannot be read.
  package static func names(in directory: String) -> [String] {
    guard let stream = opendir(directory.isEmpty ? "." : directory) else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// Whether anything is at `path`, a dangling or hostile link included (`lstat`: never follows
  /// the last component, unlike `FileManager.fileExists`).
  package static func entryExists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// What a file that is not a regular file is, for messages: "a named pipe", "a directory"….
  package static func kind(of mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: return "a regular file"
    case S_IFDIR: return "a directory"
    case S_IFIFO: return "a named pipe"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    case S_IFLNK: return "a symbolic link"
    default: return "not a file"
    }
  }

  /// Writes all of `bytes` to `fd` with plain `write(2)`, again after a signal, and after waiting
  /// for a full non-blocking descriptor to take more. nil when all is written, else the `errno`
  /// of the write that failed (EIO for one that took nothing). Foundation's `FileHandle.write`
  /// traps on an error instead: every writer of output and pipes goes through here.
  package static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let n = POSIX.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if n > 0 {
        offset += n
        continue
      }
      let code = n < 0 ? errno : EIO
      if code == EINTR { continue }
      if code == EAGAIN || code == EWOULDBLOCK {
        var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        _ = poll(&ready, 1, -1)
        continue
      }
      return code
    }
    return nil
  }

  /// `writeAll` of `text`'s UTF-8.
  package static func writeAll(_ text: String, to fd: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: fd) }
  }

  /// What `fd` holds from its start, at most `limit` bytes (read with `pread`, so its offset is
  /// left alone), and the file's whole size; nil when it cannot be looked at. A read that fails
  /// part-way gives what came before it.
  package static func readFromStart(_ fd: Int32, atMost limit: Int) -> (bytes: [UInt8], size: Int)? {
    var info = stat()
    guard fstat(fd, &info) == 0 else { return nil }
    let size = Int(info.st_size)
    var bytes = [UInt8](repeating: 0, count: min(size, limit))
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + offset, $0.count - offset, off_t(offset)) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      offset += count
    }
    return (Array(bytes[..<offset]), size)
  }
}
