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
import PaywallModel
import Synchronization

/// A file an option asks a command to write (`play --record`), checked before the command runs:
/// a run that takes a while must not end on "cannot write".
///
/// Only a regular file (or a name not there yet) is ever replaced: a device, a pipe, a socket, a
/// directory or a symbolic link at the path is refused, never renamed over. Missing folders are
/// not made here: they are made when the file is written (`AtomicFile`), so a run that fails
/// before writing leaves nothing behind.
package enum OutputPath {
  /// Refuses a path that is empty, not a regular file, or in a place where no file can be created
  /// (a probe file is created and removed in the nearest folder there is).
  package static func checkWritable(_ path: String, option: String, example: String) throws(PlayFailure) {
    if path.isEmpty { throw .usage("--\(option) needs a file path, e.g. --\(option) \(example)") }
    if FileSystem.isDirectory(path) {
      throw .usage("--\(option) \(quoting: path) is a directory; give a file path, e.g. --\(option) \(path.hasSuffix("/") ? path : path + "/")\(example)")
    }
    if let kind = notRegular(path) {
      throw .usage("--\(option) \(quoting: path) is \(kind), not a regular file; paywall-tui replaces only regular files: give another path, e.g. --\(option) \(example)")
    }
    let directory = parent(of: path)
    let existing = nearestExisting(directory.isEmpty ? "." : directory)
    guard FileSystem.isDirectory(existing) else {
      throw .usage("--\(option) \(quoting: path): cannot create \(directory) (\(existing) is not a directory)")
    }
    let probe = existing + "/" + AtomicFile.temporaryPrefix + "probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw .usage("--\(option) \(quoting: path): cannot write in \(existing) (\(String(cString: strerror(errno))))")
    }
    close(fd)
    unlink(probe)
  }

  /// What is at `path` when it is there and is not a regular file ("a symbolic link", "a
  /// device", …), without following a link; nil for a regular file or nothing.
  package static func notRegular(_ path: String) -> String? { AtomicFile.nonRegularKind(path) }

  /// How many names the regular file at `path` has, when it has more than one (a hard link);
  /// nil for one name, nothing there, or not a regular file. Not following a link.
  package static func hardLinkCount(_ path: String) -> Int? {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink > 1 else { return nil }
    return Int(info.st_nlink)
  }

  /// `path` itself when it exists, else its nearest ancestor that does ("." for a relative path
  /// none of whose folders exist).
  package static func nearestExisting(_ path: String) -> String {
    var current = path
    while true {
      var info = stat()
      if lstat(current, &info) == 0 { return current }
      let up = parent(of: current)
      if up.isEmpty { return "." }
      if up == current { return current }
      current = up
    }
  }

  /// The folder part of `path` ("" for a bare name, "/" for a file at the root).
  package static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}

/// Under `paywall-tui test`, the directory of the scenario being run: every file the scenario
/// writes (`screenshot`, `--screenshot-every`, `--record`, `--events`) must be inside it, since
/// CI runs scenarios other people wrote. `test` names it to a child `play` in the environment
/// (`PAYWALL_TUI_SCENARIO_DIR`) and to its in-process worker per request; plain `play` has none.
package enum ScenarioConfinement {
  /// The environment variable `test` sets for a child `play`.
  package static let environmentVariable = "PAYWALL_TUI_SCENARIO_DIR"

  /// The directory `test` confined a child `play`'s writes to, if it did; the worker hands its
  /// `play` the scenario's directory instead (`PlayCommand.confinement`).
  package static var fromEnvironment: String? {
    guard let set = ProcessInfo.processInfo.environment[environmentVariable], !set.isEmpty else { return nil }
    return set
  }

  /// Why `path` (relative to the current directory) is not inside `root`, or nil when it is:
  /// folders that exist are resolved through their links; a `..` in the part that does not exist
  /// yet is refused.
  package static func outside(_ path: String, root: String) -> String? {
    guard let base = realPath(root) else { return "the scenario's directory \(root) cannot be resolved" }
    if let dangling = danglingFolder(in: path) { return "through \(dangling), a link that leads nowhere (the folder it names could be made anywhere)" }
    guard let resolved = resolve(path) else { return "'..' through a folder that does not exist" }
    if base == "/" || resolved == base || resolved.hasPrefix(base + "/") { return nil }
    return "outside the scenario's directory \(root)"
  }

  /// The first folder on the way to `path` that is a link to nothing: writing there would make
  /// its target, wherever it points.
  package static func danglingFolder(in path: String) -> String? {
    let parts = path.absolutePath.split(separator: "/", omittingEmptySubsequences: true).dropLast()
    var current = ""
    for part in parts {
      current += "/" + part
      var info = stat()
      if lstat(current, &info) != 0 { return nil }
      if info.st_mode & S_IFMT == S_IFLNK && stat(current, &info) != 0 { return current }
    }
    return nil
  }

  /// `path` made absolute, its existing folders resolved through links; nil when the part that
  /// does not exist yet has `..` in it, or the file name is `.` or `..`.
  package static func resolve(_ path: String) -> String? {
    let absolute = path.absolutePath
    var parts = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    guard let name = parts.popLast(), name != ".", name != ".." else { return nil }
    var existing = parts.count
    while existing > 0 {
      var info = stat()
      if stat("/" + parts[..<existing].joined(separator: "/"), &info) == 0 { break }
      existing -= 1
    }
    guard let head = realPath("/" + parts[..<existing].joined(separator: "/")) else { return nil }
    var result = head == "/" ? "" : head
    for part in parts[existing...] where part != "." {
      if part == ".." { return nil }
      result += "/" + part
    }
    return result + "/" + name
  }

  private static func realPath(_ path: String) -> String? {
    guard let resolved = POSIX.realpath(path) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
