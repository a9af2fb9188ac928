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

/// How a relative path on a file's `# args:` line (a scenario, a `run --record` recording) is
/// read: from the file's own folder, wherever the command runs from. `init`'s scenario says
/// `# args: ..`, and it works from the project, from the repository root (`paywall-tui test
/// app/scenarios`) or from anywhere else; a recording names its project relative to itself, so it
/// replays on another machine.
///
/// Files written before this rule named paths from the current directory. Such a path is still
/// read, with a warning that says how to write it, when it does not fit from the file's folder but
/// does from the current directory: an input (the project, `--catalog`) that is there only from
/// the current directory, an output (`--record`, `--events`, `--screenshot-every`) whose folder
/// is there only from the current directory.
package enum ScenarioPaths {
  /// The folder of `file` ("." for a bare name).
  package static func folder(of file: String) -> String {
    let folder = file.deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }

  /// The words of `file`'s `# args:` line with every relative path made relative to the current
  /// directory, and a warning (`FILE:1: warning: …`) for each path read the old way.
  package static func resolve(_ words: [String], file: String, commandLine: PlayCommandLine) -> (words: [String], warnings: [String]) {
    let folder = folder(of: file)
    guard folder != "." else { return (words, []) }
    var out: [String] = []
    var warnings: [String] = []
    func resolved(_ value: String, input: Bool, project: Bool, what: String) -> String {
      guard !value.isEmpty, !value.hasPrefix("/"), value != "-" else { return value }
      let joined = folder.appendingPathComponent(value)
      func fits(_ path: String) -> Bool {
        if !input { return exists(parent(path)) }
        return project ? isProject(path) : exists(path)
      }
      if fits(joined) || !fits(value) { return joined }
      let suggested = relative(value.absolutePath, from: folder.absolutePath)
      warnings.append("\(file):1: warning: \(what) \(quoting: value) is read from the current directory; a path on the '# args:' line is relative to the file's folder (\(folder)): write \(quoting: suggested)")
      return value
    }
    var index = 0
    var positional = 0
    var optionsEnded = false
    while index < words.count {
      let word = words[index]
      index += 1
      if optionsEnded || !word.hasPrefix("-") || word == "-" {
        out.append(positional == 0 ? resolved(word, input: true, project: true, what: "the project") : word)
        positional += 1
        continue
      }
      if word == "--" {
        optionsEnded = true
        out.append(word)
        continue
      }
      let body = word.dropFirst(2)
      let (name, inline) = body.firstIndex(of: "=").map { (String(body[..<$0]), Optional(String(body[body.index(after: $0)...]))) }
        ?? (String(body), nil)
      guard word.hasPrefix("--"), case .value(let isPath)? = commandLine.option(name) else {
        out.append(word)
        continue
      }
      let input = inputOptions.contains(name)
      if let inline {
        out.append(isPath ? "--\(name)=" + resolved(inline, input: input, project: false, what: "--\(name)") : word)
      } else if index < words.count, !(words[index].hasPrefix("--") && words[index].count > 2) {
        out.append(word)
        out.append(isPath ? resolved(words[index], input: input, project: false, what: "--\(name)") : words[index])
        index += 1
      } else {
        out.append(word)
      }
    }
    return (out, warnings)
  }

  /// The options whose file is read; every other path option names a file or folder written.
  package static let inputOptions: Set<String> = ["catalog", "script"]

  /// `target` relative to `folder`, both absolute (`../paywalls`; `.` for the folder itself).
  package static func relative(_ target: String, from folder: String) -> String {
    let to = normalized(target), from = normalized(folder)
    var common = 0
    while common < to.count, common < from.count, to[common] == from[common] { common += 1 }
    let parts = Array(repeating: "..", count: from.count - common) + to[common...]
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }

  /// The components of an absolute path with `.` and `..` taken out, as written (links are not
  /// followed: both ends of `relative` are read the same way).
  private static func normalized(_ path: String) -> [String] {
    var parts: [String] = []
    for part in path.split(separator: "/") where part != "." {
      if part == ".." { _ = parts.popLast() } else { parts.append(String(part)) }
    }
    return parts
  }

  private static func exists(_ path: String) -> Bool {
    var info = stat()
    return stat(path.isEmpty ? "." : path, &info) == 0
  }

  private static func parent(_ path: String) -> String {
    let up = path.deletingLastPathComponent
    return up.isEmpty ? "." : up
  }

  /// What `play` can open as a project: a file, or a folder with app.json or any JSON or
  /// `.storekit` file in it (a folder of `.play` files is not one).
  private static func isProject(_ path: String) -> Bool {
    guard exists(path) else { return false }
    guard FileSystem.isDirectory(path) else { return true }
    return FileSystem.names(in: path).contains { $0.hasSuffix(".json") || $0.hasSuffix(".storekit") }
  }
}
