#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import PaywallModel
import TerminalCore

/// Where `play` writes pictures of its screen: the `screenshot FILE` steps, and one per step
/// with `--screenshot-every DIR`.
///
/// A relative `FILE` is taken from the script's directory (the current directory for
/// `--script -` and `--keys`), so a scenario kept beside its pictures writes to the same place
/// from wherever it is run. Each file is written whole or not at all (`AtomicFile`).
package struct Screenshots: Sendable {
  /// What relative paths start from; empty for the current directory.
  package var base = ""
  /// `--screenshot-every`: the directory that gets `003-press-enter.svg` after step 3.
  package var every: String?

  package init(base: String = "", every: String? = nil) {
    self.base = base
    self.every = every
  }

  /// `file` as given when absolute, else inside `base`.
  package func resolve(_ file: String) -> String {
    file.hasPrefix("/") || base.isEmpty ? file : base + "/" + file
  }

  /// The script's directory, for `base`: nil for `-` and for a file named without one.
  package static func directory(ofScript path: String) -> String {
    guard path != "-", let slash = path.lastIndex(of: "/") else { return "" }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Writes `frame` to `path` in the format its extension names (svg, html, txt).
  package func write(_ frame: Frame, to path: String, title: String) throws(AtomicFile.WriteError) {
    let format = PictureFormat(extensionOf: path) ?? .svg
    try AtomicFile.write(format.document(frame, title: title), to: path, replacingOnlyRegularFile: true)
  }

  /// `--screenshot-every`'s file for step `number` (0: the screen before the first step):
  /// `003-press-enter.svg`, the step's words in lower case joined by dashes, at most 40 characters.
  package static func stepFileName(number: Int, step: String) -> String {
    var slug = ""
    for character in step.lowercased() {
      if character.isASCII && (character.isLetter || character.isNumber) {
        slug.append(character)
      } else if !slug.isEmpty && slug.last != "-" {
        slug.append("-")
      }
    }
    while slug.last == "-" { slug.removeLast() }
    if slug.count > 40 {
      slug = String(slug.prefix(40))
      while slug.last == "-" { slug.removeLast() }
    }
    let digits = String(number)
    let padded = String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    return padded + "-" + (slug.isEmpty ? "step" : slug) + ".svg"
  }

  /// Creates `--screenshot-every`'s directory (and its parents) when missing; a file there is an error.
  package static func prepare(directory: String) throws(PlayFailure) {
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      let why = FileManager.default.fileExists(atPath: directory)
        ? "it exists and is not a directory" : "it cannot be created (check the path and its permissions)"
      throw PlayFailure.invalid("error: --screenshot-every \(quoting: directory): \(why); give a directory for the pictures")
    }
  }
}
