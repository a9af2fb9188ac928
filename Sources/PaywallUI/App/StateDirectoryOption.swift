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

/// `--state-dir` as every command takes it: an empty value is a usage error (it would mean the
/// current directory, full of files that are not ours), and so is no --state-dir when neither
/// XDG_STATE_HOME nor HOME is absolute; a directory that belongs to another user or that others
/// can write, or a path to it through such a directory or another user's link, is refused with
/// exit 2 before anything in it is read or made.
package enum StateDirectoryOption {
  /// The state directory a command reads (`store`, `explain`), checked.
  package static func resolve(_ explicit: String?, projectName: String, projectPath: String,
                              store: SDKPlatform? = nil) throws(SessionError) -> StateDirectory {
    let directory = try locate(explicit, projectName: projectName, projectPath: projectPath, store: store)
    if let why = directory.refusal() { throw refused(why) }
    return directory
  }

  /// The state directory a session writes (`run`, `play`), opened: `StateAccess.open` checks the
  /// path itself, before and after making it, so it is not walked a third time here.
  package static func open(_ explicit: String?, projectName: String, projectPath: String,
                           store: SDKPlatform? = nil) throws(SessionError) -> (StateDirectory, StateAccess) {
    let directory = try locate(explicit, projectName: projectName, projectPath: projectPath, store: store)
    let access = StateAccess.open(directory)
    if let why = access.refusal { throw refused(why) }
    return (directory, access)
  }

  /// What to say when a cross-platform project's store has no default directory yet and the one
  /// the project kept while it had one catalog is there: its state is not read for either store
  /// (it may be either's), and `--state-dir` goes on from it.
  package static func earlierState(projectName: String, projectPath: String, store: SDKPlatform) -> String? {
    guard let own = StateDirectory.resolve(explicit: nil, projectName: projectName, projectPath: projectPath, store: store),
          let earlier = StateDirectory.resolve(explicit: nil, projectName: projectName, projectPath: projectPath),
          !FileSystem.entryExists(own.path), FileSystem.entryExists(earlier.path) else { return nil }
    return "each store of this cross-platform project keeps its own state (\(store.rawValue): \(own.path)); what it kept with one catalog is in \(earlier.path): --state-dir \(earlier.path) goes on from it"
  }

  /// Where the state directory is, unchecked.
  private static func locate(_ explicit: String?, projectName: String, projectPath: String, store: SDKPlatform?) throws(SessionError) -> StateDirectory {
    if explicit?.isEmpty == true {
      throw SessionError.usage("--state-dir is empty; give a directory, e.g. --state-dir /tmp/paywall-qa")
    }
    guard let directory = StateDirectory.resolve(explicit: explicit, projectName: projectName, projectPath: projectPath, store: store) else {
      throw SessionError.usage("neither XDG_STATE_HOME nor HOME is an absolute path, so there is no default state directory; give one with --state-dir DIR")
    }
    return directory
  }

  private static func refused(_ why: String) -> SessionError {
    .usage(why)
  }
}
