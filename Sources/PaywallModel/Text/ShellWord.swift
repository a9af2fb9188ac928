/// A word as a POSIX shell reads it back unchanged: as it is when every character is safe, else in
/// single quotes (`'it'\''s'`). For the commands the CLI suggests (`test`'s rerun line, `init`'s `cd`).
package enum ShellWord {
  package static let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,@%+-")

  package static func quoted(_ word: String) -> String {
    !word.isEmpty && word.allSatisfy(safe.contains) ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
