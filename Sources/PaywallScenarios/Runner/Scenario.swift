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

/// One `.play` file that `paywall-tui test` runs: where it is, and the name it goes by.
package struct Scenario: Sendable, Hashable {
  /// The file, as the user would type it: the root given joined with `relativePath`.
  package var path: String
  /// The PATH it was found under (`scenarios`), or the directory of a file given by itself.
  package var root: String
  /// Its path below `root` (`purchase-trial.play`, `sub/refund.play`): what `--filter` matches.
  package var relativePath: String

  package init(path: String, root: String, relativePath: String) {
    self.path = path
    self.root = root
    self.relativePath = relativePath
  }

  /// The folder it is in ("." for a bare name): every file it writes must be inside it
  /// (`ScenarioConfinement`).
  package var directory: String {
    let folder = Screenshots.directory(ofScript: path)
    return folder.isEmpty ? "." : folder
  }

  /// The arguments of its first line, `# args: PATH OPTION…`, split as `words(_:)` does; or why
  /// the file cannot say them (the scenario fails with that message, the others still run).
  /// A scenario is data someone else may have written: unless `allowingCommands` (the `test`
  /// command line's `--allow-commands`), a line that would start a process of its choosing
  /// (`--controller-command`) is refused. Relative paths on the line are from the file's folder
  /// (`ScenarioPaths`); the words returned name them from the current directory.
  /// The line is read once, as `play` reads it (`commandLine`): `parsed` is what the runner needs
  /// of it, nil when `play` would refuse the words (it then says why, as it runs them).
  package func arguments(allowingCommands: Bool = false, commandLine: PlayCommandLine) -> Result<ScenarioArguments, ScenarioProblem> {
    written(allowingCommands: allowingCommands, commandLine: commandLine).map { written in
      ScenarioArguments(words: ScenarioPaths.resolve(written.words, file: path, commandLine: commandLine).words, parsed: written.parsed)
    }
  }

  /// What the `# args:` line's paths would warn about: each read the old way, from the current directory.
  package func pathWarnings(commandLine: PlayCommandLine) -> [String] {
    guard case .success(let written) = written(allowingCommands: true, commandLine: commandLine) else { return [] }
    return ScenarioPaths.resolve(written.words, file: path, commandLine: commandLine).warnings
  }

  /// The `# args:` line's words as written.
  private func written(allowingCommands: Bool, commandLine: PlayCommandLine) -> Result<ScenarioArguments, ScenarioProblem> {
    // A named pipe or a device would block or never end: only a regular file is a scenario.
    var info = stat()
    if stat(path, &info) != 0 {
      return .failure(ScenarioProblem("\(path): cannot read the scenario (\(String(cString: strerror(errno))))"))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      return .failure(ScenarioProblem("\(path): not a regular file (a pipe, a device or a directory); a scenario is a text file"))
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      return .failure(ScenarioProblem("\(path): cannot read the scenario (it could not be opened or read)"))
    }
    let text = String(decoding: data, as: UTF8.self)
    var header = text.prefix { $0 != "\n" && $0 != "\r\n" }
    if header.hasSuffix("\r") { header = header.dropLast() }
    guard header.hasPrefix(Self.argumentsPrefix) else {
      return .failure(ScenarioProblem("\(path):1: the first line must be '\(Self.argumentsPrefix)PATH [OPTIONS]', the arguments for 'paywall-tui play' (e.g. '# args: paywalls --controller simulated --status inactive')"))
    }
    let line = String(header.dropFirst(Self.argumentsPrefix.count))
    guard line.filter({ $0 == "\"" }).count % 2 == 0 else {
      return .failure(ScenarioProblem("\(path):1: the arguments have an unclosed '\"'; close the quoted word"))
    }
    let words = Self.words(line)
    if let option = words.first(where: { Self.reservedOptions.contains($0.split(separator: "=").first.map(String.init) ?? $0) }) {
      return .failure(ScenarioProblem("\(path):1: '\(option)' is given by 'paywall-tui test' itself (each scenario gets a fresh --state-dir and runs its own file as --script); remove it from the '# args:' line"))
    }
    // `--help` makes play print its help and run nothing: a scenario that passes without a step.
    if let help = words.first(where: { $0 == "--help" || $0 == "-h" }) {
      return .failure(ScenarioProblem("\(path):1: '\(help)' on the '# args:' line makes play print its help and run nothing; remove it"))
    }
    let parsed = commandLine.read(words)
    if !allowingCommands, let refusal = Self.commandRefusal(parsed, file: path, fix: "if you trust this scenario, run it with 'paywall-tui test --allow-commands'") {
      return .failure(ScenarioProblem(refusal))
    }
    return .success(ScenarioArguments(words: words, parsed: parsed))
  }

  /// Why an `# args:` line may not be used as it is when commands are not allowed: it gives
  /// `--controller-command` (a shell command line the file chose) or `--allow-commands` (a file
  /// cannot allow itself). The words are read as `play` reads them, so `--controller-command=CMD`
  /// counts and a word after `--` does not. `fix` ends the message.
  package static func commandRefusal(_ parsed: PlayWords?, file: String, fix: String) -> String? {
    // Words play would refuse anyway start nothing: play says what is wrong with them.
    guard let parsed else { return nil }
    if let command = parsed.controllerCommand {
      return "\(file):1: the '# args:' line gives --controller-command \(quoting: command), a command that would run on this machine; a file's arguments run no command unless the command line allows it: \(fix)"
    }
    if parsed.allowsCommands {
      return "\(file):1: '--allow-commands' on the '# args:' line: a file cannot allow its own commands; remove it (the command line gives it)"
    }
    return nil
  }

  package static let argumentsPrefix = "# args: "
  /// What `test` passes itself: a scenario that gives them would clash (or share state).
  package static let reservedOptions: Set<String> = ["--state-dir", "--script", "--keys"]

  /// Splits on spaces, keeping "double-quoted words" whole (the quotes are dropped).
  package static func words(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    for character in line {
      if character == "\"" {
        quoted.toggle()
      } else if character == " " && !quoted {
        if !current.isEmpty { words.append(current) }
        current = ""
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }
}

/// A scenario's `# args:` line: its words, paths made relative to the current directory, and what
/// the runner needs of them (nil: `play` refuses the words, and says why when it runs them).
package struct ScenarioArguments: Sendable, Equatable {
  package var words: [String]
  package var parsed: PlayWords?
}

/// Why a scenario could not be run as written: its message is the test's failure.
package struct ScenarioProblem: Error, Sendable {
  package var message: String
  package init(_ message: String) { self.message = message }
}

/// Finds the scenarios under the PATHs given and picks those `--filter` and `--shard` select.
package enum ScenarioDiscovery {
  /// Every `.play` file under each path (recursively; hidden files and folders skipped), and
  /// each file given by itself whatever its name; sorted by path, each file once.
  package static func scenarios(under paths: [String]) throws(PlayFailure) -> [Scenario] {
    var found: [Scenario] = []
    var seen: Set<String> = []
    for path in paths {
      var isDirectory: Bool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw .usage("no file or directory \(quoting: path); give a .play file or a directory of them")
      }
      var here: [Scenario] = []
      if isDirectory {
        let root = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        for relative in playFiles(in: root) {
          here.append(Scenario(path: root == "." ? relative : (root).appendingPathComponent(relative), root: root, relativePath: relative))
        }
        if here.isEmpty { throw .usage("no .play files under \(quoting: path)") }
      } else {
        let directory = (path).deletingLastPathComponent
        here.append(Scenario(path: path, root: directory.isEmpty ? "." : directory, relativePath: (path).lastPathComponent))
      }
      for scenario in here where seen.insert(URL(fileURLWithPath: scenario.path).standardizedFileURL.resolvingSymlinksInPath().path).inserted {
        found.append(scenario)
      }
    }
    return found.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
  }

  /// The `.play` files below `directory`, as paths relative to it. Folders reached through a
  /// link are not entered (no loops); hidden names (`.git`, `.build`) are skipped.
  private static func playFiles(in directory: String) -> [String] {
    var files: [String] = []
    var pending = [""]
    while let relative = pending.popLast() {
      let absolute = relative.isEmpty ? directory : (directory).appendingPathComponent(relative)
      for name in FileSystem.names(in: absolute) where !name.hasPrefix(".") {
        let child = relative.isEmpty ? name : (relative).appendingPathComponent(name)
        var info = stat()
        guard lstat((directory).appendingPathComponent(child), &info) == 0 else { continue }
        if info.st_mode & S_IFMT == S_IFDIR {
          pending.append(child)
        } else if name.hasSuffix(".play") {
          files.append(child)
        }
      }
    }
    return files
  }
}

/// Which of the scenarios found run: those whose relative path matches a `--filter`, then this
/// machine's share of them under `--shard K/N`.
package struct ScenarioSelection: Sendable {
  /// `--shard K/N`: shard `index` (1-based) of `count`. Scenario i of the sorted, filtered list
  /// (from 0) belongs to shard (i mod N) + 1, so the shards partition the list, each gets every
  /// N-th scenario (a run of similar names spreads over the machines), and the split depends
  /// only on the list.
  package struct Shard: Sendable, Equatable {
    package var index: Int
    package var count: Int

    package init(index: Int, count: Int) {
      self.index = index
      self.count = count
    }

    package init(parsing text: String) throws(PlayFailure) {
      let parts = text.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
        throw .usage("--shard \(quoting: text) must be K/N, this machine's shard K of N (from 1), e.g. --shard 1/4")
      }
      guard n >= 1 else {
        throw .usage("--shard \(quoting: text): N must be at least 1 (the number of shards), e.g. --shard 1/2")
      }
      guard k >= 1, k <= n else {
        throw .usage("--shard \(quoting: text): K must be from 1 to N (shards are numbered from 1), e.g. --shard 1/\(max(n, 2))")
      }
      self.init(index: k, count: n)
    }

    package func contains(position: Int) -> Bool { position % count == index - 1 }
  }

  package var filters: [String] = []
  package var shard: Shard?

  package init(filters: [String] = [], shard: Shard? = nil) {
    self.filters = filters
    self.shard = shard
  }

  /// `--filter` patterns, checked once: an invalid one is a usage error naming it.
  package static func checkFilters(_ patterns: [String]) throws(PlayFailure) {
    for pattern in patterns {
      if let reason = PatternMatcher.problem(in: pattern) {
        throw .usage("--filter \(quoting: pattern) is not a regular expression (\(reason)); e.g. --filter 'purchase|restore'")
      }
    }
  }

  package func select(_ scenarios: [Scenario]) -> [Scenario] {
    let patterns = filters.filter { PatternMatcher.problem(in: $0) == nil }
    let filtered = patterns.isEmpty ? scenarios : scenarios.filter { scenario in
      patterns.contains { PatternMatcher.matches(pattern: $0, in: scenario.relativePath) == true }
    }
    guard let shard else { return filtered }
    return filtered.enumerated().filter { shard.contains(position: $0.offset) }.map(\.element)
  }
}
