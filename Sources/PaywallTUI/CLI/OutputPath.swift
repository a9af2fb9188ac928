import FoundationEssentials
import Glibc
import PaywallModel

/// A file an option asks a command to write (`play --record`), checked before the command runs:
/// a run that takes a while must not end on "cannot write".
enum OutputPath {
  /// Refuses a path that is empty, a directory, or in a place where no file can be created (its
  /// folders are made, as `mkdir -p` would, and a probe file is created and removed there).
  static func checkWritable(_ path: String, option: String, example: String) throws(CLIFailure) {
    if path.isEmpty { throw .usage("--\(option) needs a file path, e.g. --\(option) \(example)") }
    if FileSystem.isDirectory(path) {
      throw .usage("--\(option) \(quoting: path) is a directory; give a file path, e.g. --\(option) \(path.hasSuffix("/") ? path : path + "/")\(example)")
    }
    let directory = parent(of: path)
    if let why = FileSystem.makeDirectories(directory) {
      throw .usage("--\(option) \(quoting: path): cannot create \(directory.isEmpty ? "." : directory) (\(why))")
    }
    let probe = (directory.isEmpty ? "." : directory) + "/" + AtomicFile.temporaryPrefix + "probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw .usage("--\(option) \(quoting: path): cannot write in \(directory.isEmpty ? "." : directory) (\(String(cString: strerror(errno))))")
    }
    close(fd)
    unlink(probe)
  }

  /// The folder part of `path` ("" for a bare name, "/" for a file at the root).
  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}
