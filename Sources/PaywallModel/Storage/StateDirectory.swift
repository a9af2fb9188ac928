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

/// Where a project's state (cached status, the simulated store's ledger) is kept:
/// `--state-dir DIR`, else `$XDG_STATE_HOME/paywall-tui/PROJECT`, else
/// `~/.local/state/paywall-tui/PROJECT`, with PROJECT named after the project and its path so two
/// projects never share state.
public struct StateDirectory: Sendable, Hashable {
  /// The directory's path; it need not exist yet.
  public var path: String

  /// The state directory at `path`, as `--state-dir` gives it.
  public init(path: String) {
    self.path = path
  }

  /// The state directory of a project; nil when there is no default: neither XDG_STATE_HOME nor
  /// HOME is an absolute path (an empty or relative one would put the state under whatever the
  /// current directory is).
  /// `store`: the store a session of a cross-platform project follows; each store keeps its own
  /// (an iPhone's App Store account and an Android phone's Play account are two ledgers).
  /// `environment`: the variables to read instead of the process's (nil), which are read one by
  /// one: ProcessInfo's `environment` makes a dictionary of all of them, before the first paint.
  public static func resolve(explicit: String?, projectName: String, projectPath: String, store: SDKPlatform? = nil,
                             environment: [String: String]? = nil) -> StateDirectory? {
    if let explicit { return StateDirectory(path: explicit) }
    func variable(_ name: String) -> String? {
      if let environment { return environment[name] }
      return ProcessEnvironment.value(name)
    }
    let base: String
    if let xdg = variable("XDG_STATE_HOME"), xdg.hasPrefix("/") {
      base = xdg
    } else if let home = variable("HOME") ?? Optional(FileManager.default.homeDirectoryForCurrentUser.path), home.hasPrefix("/") {
      base = (home).appendingPathComponent(".local/state")
    } else {
      return nil
    }
    let absolute = URL(fileURLWithPath: projectPath).standardizedFileURL.path
    let slug = String(projectName.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(40))
    let key = "\(slug)-\(store.map { "\($0.rawValue)-" } ?? "")\(String(stableHash(absolute), radix: 16))"
    return StateDirectory(path: ((base).appendingPathComponent("paywall-tui")).appendingPathComponent(key))
  }

  /// The files paywall-tui keeps here, with what each holds and who writes it (each with its
  /// `.bak` and `.corrupt-TIMESTAMP` copies), and the `lock`. Anything else in the directory is
  /// someone else's. `docs/reference/files.md` lists them from here.
  package static let stateFiles: [(name: String, holds: String)] = [
    (LedgerFile.fileName, "the simulated store's ledger: the account's purchases, renewals, refunds and the store's clock, a line per entry (`run` and `play` with `--controller simulated`; `store` reads it)"),
    (StatusCache.fileName, "the subscription status the app last saw, which the next launch starts with (the SDK's cache)"),
    (AssignmentFile.fileName, "the user: its id, install date and audience assignments (`explain` reads it)"),
    (ReminderFile.fileName, "a trial's reminders still pending on the device, on the store's clock; written once one is scheduled"),
  ]

  /// The names of `stateFiles`.
  package static let stateFileNames = stateFiles.map(\.name)

  /// Why this directory must not be used at all, or nil when it may be (or does not exist yet).
  ///
  /// As ssh treats `~/.ssh` (its `safe_path`), every component of the path is checked, from `/`
  /// down (a relative path from the current directory): a symbolic link must have been made by
  /// this user (or root), and is then followed; a directory must belong to this user (or root); a
  /// directory on the way must not be writable by others unless it is sticky (as /tmp is: others
  /// cannot rename or remove our entries in it). The state directory itself must not be writable
  /// by others at all: a sticky bit does not make it safe, since others can still create `lock` or
  /// `ledger.json` there first, as links to files of this user's. Components that do not exist
  /// yet end the walk: they are made by us, 0755. Such a path is an attack, not an
  /// inconvenience: the session does not start (the command line exits 2).
  package func refusal() -> String? {
    guard !path.isEmpty else { return "the state directory is an empty path; give a directory" }
    let absolute = path.absolutePath
    guard absolute.hasPrefix("/") else {
      return "the current directory cannot be found, so \(path) cannot be checked; give --state-dir an absolute path"
    }
    // The components still to walk, the next one last.
    var pending = Array(absolute.split(separator: "/").map(String.init).reversed())
    // Where the walk is: a directory reached without links, checked already (`/` to start with).
    var current = "/"
    // How many components below `current` do not exist yet (all made by us, so nothing to check).
    var missing = 0
    var links = 0
    var info = stat()
    guard lstat(current, &info) == 0 else { return nil }
    if let why = refusal(ofParent: current, info) { return why }
    while let name = pending.popLast() {
      if name == "." { continue }
      if name == ".." {
        // `current` has no links in it, so its parent is what the kernel would find too.
        current = (current).deletingLastPathComponent
        missing = max(0, missing - 1)
        continue
      }
      let next = current == "/" ? "/" + name : current + "/" + name
      current = next
      if missing > 0 || lstat(next, &info) != 0 {
        // Made by us, 0755 (or, when it cannot be looked at, creating it says why not).
        missing += 1
        continue
      }
      switch info.st_mode & S_IFMT {
      case S_IFLNK:
        // A link someone else made (in /tmp, say) would choose where this user's state goes.
        if info.st_uid != geteuid() && info.st_uid != 0 {
          return "\(next) is a symbolic link of another user's (uid \(info.st_uid))\(onTheWay(next)); give --state-dir a directory of your own"
        }
        links += 1
        guard links <= Self.maximumLinks else {
          return "\(path) goes through more than \(Self.maximumLinks) symbolic links (a loop?); give --state-dir a directory of your own"
        }
        guard let target = Self.linkTarget(next) else {
          return "\(next) is a symbolic link that cannot be read\(onTheWay(next)); give --state-dir a directory of your own"
        }
        current = target.hasPrefix("/") ? "/" : (next).deletingLastPathComponent
        pending.append(contentsOf: target.split(separator: "/").map(String.init).reversed())
      case S_IFDIR:
        if pending.contains(where: { $0 != "." }), let why = refusal(ofParent: next, info) { return why }
      default:
        // Not a directory: creating the state directory in it fails, and says so.
        return nil
      }
    }
    guard missing == 0, lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
    if info.st_uid != geteuid() && info.st_uid != 0 {
      return "\(path) belongs to another user (uid \(info.st_uid)); give --state-dir a directory of your own, or take this one over (chown)"
    }
    if info.st_mode & 0o022 != 0 {
      let mode = String(info.st_mode & 0o7777, radix: 8)
      return "\(path) can be written by other users (mode \(mode)), who could plant links in it; run chmod go-w \(path), or give --state-dir a directory of your own"
    }
    return nil
  }

  /// As the kernel's limit on links followed in one lookup.
  static let maximumLinks = 40

  /// Why `directory`, on the way to the state directory, makes it unsafe: another user's, who
  /// could move what is in it, or writable by others without the sticky bit.
  private func refusal(ofParent directory: String, _ info: stat) -> String? {
    if info.st_uid != geteuid() && info.st_uid != 0 {
      return "\(directory) belongs to another user (uid \(info.st_uid))\(onTheWay(directory)), who could replace what is in it; give --state-dir a directory of your own"
    }
    if info.st_mode & 0o022 != 0 && info.st_mode & S_ISVTX == 0 {
      let mode = String(info.st_mode & 0o7777, radix: 8)
      return "\(directory) can be written by other users (mode \(mode)) and is not sticky\(onTheWay(directory)), so they could replace what is in it; run chmod go-w \(directory) (or chmod +t), or give --state-dir a directory of your own"
    }
    return nil
  }

  /// ", on the way to PATH" when `component` is not the state directory as given.
  private func onTheWay(_ component: String) -> String {
    component == path ? "" : ", on the way to \(path)"
  }

  /// What the link at `path` points at; nil when it cannot be read.
  private static func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
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

  package func file(_ name: String) -> String {
    (path).appendingPathComponent(name)
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
