import Foundation

/// Where a project's state (cached status, the simulated store's ledger) is kept:
/// `--state-dir DIR`, else `$XDG_STATE_HOME/paywall-tui/PROJECT`, else
/// `~/.local/state/paywall-tui/PROJECT`, with PROJECT named after the project and its path so two
/// projects never share state.
public struct StateDirectory: Sendable, Hashable {
  public var path: String

  public init(path: String) {
    self.path = path
  }

  public static func resolve(explicit: String?, projectName: String, projectPath: String,
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> StateDirectory {
    if let explicit { return StateDirectory(path: explicit) }
    let base: String
    if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
      base = xdg
    } else {
      let home = environment["HOME"] ?? NSHomeDirectory()
      base = (home as NSString).appendingPathComponent(".local/state")
    }
    let absolute = URL(fileURLWithPath: projectPath).standardizedFileURL.path
    let slug = String(projectName.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(40))
    let key = "\(slug)-\(String(stableHash(absolute), radix: 16))"
    return StateDirectory(path: ((base as NSString).appendingPathComponent("paywall-tui") as NSString).appendingPathComponent(key))
  }

  /// The files paywall-tui keeps here (each with its `.bak` and `.corrupt-TIMESTAMP` copies), and
  /// the `lock`. Anything else in the directory is someone else's.
  static let stateFileNames = ["ledger.json", StatusCache.fileName, AssignmentFile.fileName]

  /// Why this directory must not be used at all, or nil when it may be (or does not exist yet).
  ///
  /// As ssh treats `~/.ssh`: the directory must belong to this user (or root) and no one else may
  /// write to it; a sticky bit does not make it safe, since others can still create `lock` or
  /// `ledger.json` there first, as links to files of this user's. Such a directory is an attack,
  /// not an inconvenience: the session does not start (the command line exits 2).
  public func refusal() -> String? {
    guard !path.isEmpty else { return "the state directory is an empty path; give a directory" }
    var info = stat()
    // A link someone else made (in /tmp, say) would choose where this user's state goes.
    if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, info.st_uid != geteuid() && info.st_uid != 0 {
      return "\(path) is a symbolic link of another user's (uid \(info.st_uid)); give --state-dir a directory of your own"
    }
    // The directory itself may be a link (ssh follows ~/.ssh too); what it points at is checked.
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
    if info.st_uid != geteuid() && info.st_uid != 0 {
      return "\(path) belongs to another user (uid \(info.st_uid)); give --state-dir a directory of your own, or take this one over (chown)"
    }
    if info.st_mode & 0o022 != 0 {
      let mode = String(info.st_mode & 0o7777, radix: 8)
      return "\(path) can be written by other users (mode \(mode)), who could plant links in it; run chmod go-w \(path), or give --state-dir a directory of your own"
    }
    return nil
  }

  /// Whether `name` is a file paywall-tui makes here: a state file, its last good or damaged
  /// copy, the lock, or a temporary file (ours, or of an older version, `NAME.tmp-…`).
  static func isOwnFile(_ name: String) -> Bool {
    name == StateLock.fileName || isLeftover(name) || stateFileNames.contains { file in
      name == file || name == file + AtomicFile.previousSuffix || name.hasPrefix(file + ".corrupt-")
    }
  }

  /// Older versions named temporary files `NAME.tmp-PID-RANDOM` (and `NAME.bak.tmp-…`).
  static func isOlderTemporary(_ name: String, of file: String) -> Bool {
    name.hasPrefix(file + ".tmp-") || name.hasPrefix(file + AtomicFile.previousSuffix + ".tmp-")
  }

  /// Whether `name` is a temporary file a killed writer left: removed by the next owner.
  static func isLeftover(_ name: String) -> Bool {
    name.hasPrefix(AtomicFile.temporaryPrefix) || name.hasPrefix(".probe.tmp-")
      || stateFileNames.contains { isOlderTemporary(name, of: $0) }
  }

  public func file(_ name: String) -> String {
    (path as NSString).appendingPathComponent(name)
  }

  /// FNV-1a: stable across runs and machines, unlike `hashValue`.
  static func stableHash(_ text: String) -> UInt32 {
    var hash: UInt32 = 2_166_136_261
    for byte in text.utf8 {
      hash = (hash ^ UInt32(byte)) &* 16_777_619
    }
    return hash
  }
}
