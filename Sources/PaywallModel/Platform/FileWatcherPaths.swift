#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

extension FileWatcher {
  // MARK: - Paths

  /// Whether a name in a watched directory counts: one of `wanted`, or with no list a project's
  /// file (`.json`, `.storekit`), not an editor's backup or swap file.
  static func counts(_ name: String, _ wanted: Set<String>?) -> Bool {
    guard let wanted else { return name.hasSuffix(".json") || name.hasSuffix(".storekit") }
    return wanted.contains(name)
  }

  static func normalized(_ path: String) -> String {
    var path = path.isEmpty ? "." : path
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    return path
  }

  /// The real path of `path`; for one not there (a directory moved aside), the real path of its
  /// nearest existing folder with the rest of it, which is its real path once it is back.
  static func canonical(_ path: String) -> String {
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
  static func nearestExistingDirectory(above path: String) -> String {
    var current = path
    while true {
      let (directory, _) = split(current)
      if isDirectory(directory) || directory == current || directory == "/" { return directory }
      current = directory
    }
  }

  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// The path with every link, `.` and `..` resolved; nil when it does not exist.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// ("dir", "name") for "dir/name"; (".", "name") for "name".
  static func split(_ path: String) -> (String, String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  static func join(_ directory: String, _ name: String) -> String {
    directory == "/" ? "/" + name : directory + "/" + name
  }
}
