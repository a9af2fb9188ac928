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

/// `paywall-tui demo`: the demo project from the copy built into the binary, so the first command
/// after an install shows a paywall. It is `run` on that project, with every option `run` takes.
package struct DemoCommand: CLICommand {
  package static let spec = CommandSpec(
    name: "demo",
    abstract: "Open the demo project built into paywall-tui (the Acme Notes paywalls) in the terminal.",
    discussion: """
      Needs no files: the demo project carried by the binary is written to
      $XDG_CACHE_HOME/paywall-tui/demo (default ~/.cache/paywall-tui/demo), each file as built
      (one edited there is put back), and opened as 'paywall-tui run DIR' would open it, with every
      option run takes. To edit the demo, write it out with 'paywall-tui init --demo DIR'.
      """,
    options: RunCommand.spec.options,
    examples: [
      "paywall-tui demo                                   # the demo paywall: '?' lists the keys, 'd' the store",
      "paywall-tui demo --home                            # the home screen: register the demo's placements",
      "paywall-tui demo --controller ask                  # you pick each purchase's result",
      "paywall-tui init --demo acme && paywall-tui run acme --watch   # the demo, to edit",
    ]
  )

  package var command: RunCommand

  package init(_ arguments: Arguments) throws(CLIFailure) {
    command = try RunCommand(arguments)
    command.builtInDemo = true
  }

  package func run() async throws {
    try await command.run()
  }
}

/// The demo project built into the binary (`DemoFiles`, generated from paywalls/, and the schemas
/// its `$schema` keys name), for `demo`, `init --demo`, and `run` with no path where no paywalls/
/// folder is found (an installed binary).
package enum EmbeddedDemo {
  /// Every file of the demo project, relative to its directory, with its text.
  package static var files: [(path: String, text: String)] {
    DemoFiles.all.map { ($0.name, $0.text) } + Schemas.all.map { ("\($0.name).schema.json", $0.text + "\n") }
  }

  /// Where `demo` keeps its copy: `$XDG_CACHE_HOME/paywall-tui/demo`, else
  /// `~/.cache/paywall-tui/demo`; nil when neither is an absolute path. One fixed place, so the
  /// default state directory (named after the project's path) and a `--record`ing's project stay
  /// the same from run to run.
  package static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
      return (cache).appendingPathComponent("paywall-tui/demo")
    }
    if let home = environment["HOME"], home.hasPrefix("/") {
      return (home).appendingPathComponent(".cache/paywall-tui/demo")
    }
    return nil
  }

  /// The copy written before, for the completions' placements (which write nothing); nil if none.
  package static func existingCopy() -> String? {
    directory().flatMap { FileSystem.entryExists(($0).appendingPathComponent(ProjectLoader.projectFileName)) ? $0 : nil }
  }

  /// Writes the demo project into `directory()` (only the files that differ from the built-in
  /// ones, each whole: a temporary file renamed over it) and returns that directory. Other files
  /// there are left alone. A directory that is a link, or that another user owns or may write
  /// in, is refused: it would choose what the demo runs.
  package static func write(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CLIFailure) -> String {
    let fix = "set XDG_CACHE_HOME to a directory of your own, or write the demo out with 'paywall-tui init --demo DIR' and open it with 'paywall-tui run DIR'"
    guard let directory = directory(environment: environment) else {
      throw CLIFailure.usage("neither XDG_CACHE_HOME nor HOME is an absolute path, so the demo project has nowhere to go; \(fix)")
    }
    if let why = FileSystem.makeDirectories(directory) {
      throw CLIFailure.invalid("error: cannot make \(directory) for the demo project (\(why)); \(fix)")
    }
    var info = stat()
    guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw CLIFailure.invalid("error: \(directory) is not a directory (a symbolic link?); the demo project is written only into a directory of its own; \(fix)")
    }
    if info.st_uid != geteuid() || info.st_mode & 0o022 != 0 {
      throw CLIFailure.invalid("error: \(directory) belongs to another user or others may write in it (mode \(String(info.st_mode & 0o7777, radix: 8))); \(fix)")
    }
    for file in files {
      let path = (directory).appendingPathComponent(file.path)
      let data = Data(file.text.utf8)
      if AtomicFile.nonRegularKind(path) == nil, FileManager.default.contents(atPath: path) == data { continue }
      do {
        try AtomicFile.write(data, to: path)
      } catch {
        throw CLIFailure.invalid("error: cannot write the demo project: \(error.description); \(fix)")
      }
    }
    return directory
  }
}
