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
