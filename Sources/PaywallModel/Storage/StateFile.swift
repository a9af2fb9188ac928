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

/// Reads one file of the state directory (`ledger.json`, `status.json`, `user.json`) and copes
/// with damage: a file cut short or garbled (a crash of a tool that wrote it in place, a full disk
/// under another writer, an editor) is replaced by its last good copy, `NAME.bak`, which every
/// save keeps (`AtomicFile.write(keepingPrevious:)`). The damaged file is kept beside it as
/// `NAME.corrupt-TIMESTAMP`, never deleted. A missing file is a fresh start, even when a `.bak`
/// is there: deleting a state file is how people reset it.
///
/// Nothing is read through a link (`O_NOFOLLOW`) or from anything but a regular file: a
/// `ledger.json` that is a symbolic link or a named pipe is damaged like a garbled one, and set
/// aside by renaming the link itself, so what it points at is never read, written or waited on.
package enum StateFile {
  /// Why a file's contents cannot be used, in a few words ("version is not 2").
  package struct Problem: Error, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
  }

  package enum Outcome<Value> {
    case missing
    case loaded(Value)
    /// The file was damaged and its last good copy is used; `warning` says so.
    case recovered(Value, warning: String)
    /// Neither the file nor a last good copy is usable. `keptAs` is where the damaged file was
    /// moved (when this process may repair the directory).
    case unusable(reason: String, keptAs: String?)
  }

  /// - Parameters:
  ///   - repair: this process owns the state directory, so it may move a damaged file aside and
  ///     put the last good copy back in its place. Without it nothing on disk changes.
  ///   - decode: the file's parsed JSON to a value, or why it cannot be one.
  package static func load<Value>(_ path: String, repair: Bool,
                                 decode: (JSONNode) throws(Problem) -> Value) -> Outcome<Value> {
    guard FileSystem.entryExists(path) else { return .missing }
    let why: String
    switch read(path, decode) {
    case .success(let value): return .loaded(value)
    case .failure(let problem): why = problem.message
    }
    let previous = path + AtomicFile.previousSuffix
    let name = (path).lastPathComponent
    if FileSystem.entryExists(previous), case .success(let value) = read(previous, decode) {
      guard repair else {
        return .recovered(value, warning: "\(path): damaged (\(why)); using its last good copy, \(name)\(AtomicFile.previousSuffix) (this session writes nothing to the state directory)")
      }
      let kept = setAside(path, copy: true)
      if let bytes = try? SourceFile.read(path: previous, followingLinks: false) {
        try? AtomicFile.write(Data(bytes), to: path)
      }
      let keptText = kept.map { "; the damaged file is kept as \(($0).lastPathComponent)" } ?? ""
      return .recovered(value, warning: "\(path): damaged (\(why)); recovered its last good copy from \(name)\(AtomicFile.previousSuffix)\(keptText)")
    }
    return .unusable(reason: why, keptAs: repair ? setAside(path, copy: false) : nil)
  }

  private static func read<Value>(_ path: String, _ decode: (JSONNode) throws(Problem) -> Value) -> Result<Value, Problem> {
    let root: JSONNode
    do {
      root = try SourceFile.parse(path: path, followingLinks: false).0
    } catch {
      return .failure(Problem(error.diagnostics.first.map { "\($0.location): \($0.message)" } ?? "unreadable"))
    }
    do {
      return .success(try decode(root))
    } catch {
      return .failure(error)
    }
  }

  /// Moves (or, with `copy`, hard-links) a damaged file to `NAME.corrupt-TIMESTAMP[-N]`.
  private static func setAside(_ path: String, copy: Bool) -> String? {
    let stamp = Int(Date().timeIntervalSince1970)
    var aside = path + ".corrupt-\(stamp)"
    var n = 1
    while FileSystem.entryExists(aside) {
      n += 1
      aside = path + ".corrupt-\(stamp)-\(n)"
    }
    let ok = copy ? link(path, aside) == 0 : rename(path, aside) == 0
    return ok ? aside : nil
  }
}
