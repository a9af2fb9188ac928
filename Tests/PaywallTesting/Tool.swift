import Foundation
import Testing

/// A program or Python module some tests need that a machine may lack (the README's test command
/// must pass where only Swift, ncurses, python3 and tmux are installed). A test says what it needs
/// with `@Test(.requires(.asciinema))`:
/// - outside CI, without the tool, the test is skipped and the skip names the install command;
/// - where `CI` is set (`.ci/run` installs every tool listed here), it fails instead, naming the
///   missing tool, so a CI run never passes by skipping what it was meant to check.
/// A test never returns early as a pass: this trait is the one way to depend on such a tool.
package struct Tool: Sendable, CustomStringConvertible {
  package enum Kind: Sendable {
    /// An executable: the first of these names found on PATH, or of these absolute paths.
    case program([String])
    /// A module `python3 -c 'import NAME'` finds.
    case pythonModule(String)
  }

  package let name: String
  /// The command that installs it, shown in the skip and in the CI failure.
  package let install: String
  package let kind: Kind
  /// Where the program is (its path), or the module's name; nil when it is missing. Looked up once.
  package let location: String?

  package init(_ name: String, _ kind: Kind, install: String) {
    self.name = name
    self.install = install
    self.kind = kind
    location = Self.locate(kind)
  }

  package var isAvailable: Bool { location != nil }
  package var description: String { name }

  /// The program's path, for a test that runs it by path (`.requires` has made sure it exists).
  package var path: String { location ?? name }

  /// `CI` is set to anything but "", "0" or "false" (GitHub Actions and most CI services set `CI=true`).
  package static var inCI: Bool {
    guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
    return !["", "0", "false"].contains(value)
  }

  // MARK: the tools the suites use (.ci/run installs each one)

  package static let pyte = Tool("pyte", .pythonModule("pyte"), install: "python3 -m pip install pyte")
  package static let asciinema = Tool("asciinema", .pythonModule("asciinema"), install: "python3 -m pip install asciinema")
  package static let jsonschema = Tool("jsonschema", .pythonModule("jsonschema"), install: "apt-get install python3-jsonschema, or python3 -m pip install jsonschema")
  package static let zsh = Tool("zsh", .program(["zsh"]), install: "apt-get install zsh")
  package static let fish = Tool("fish", .program(["fish"]), install: "apt-get install fish")
  package static let groff = Tool("groff", .program(["groff"]), install: "apt-get install groff-base")
  package static let mandoc = Tool("mandoc", .program(["mandoc"]), install: "apt-get install mandoc")
  package static let man = Tool("man", .program(["man"]), install: "apt-get install man-db")
  /// The Swift toolchain brings clang; a machine without it still has a `cc`.
  package static let cCompiler = Tool("a C compiler", .program(["clang", "cc"]), install: "apt-get install clang (the Swift toolchain has one)")
  package static let chromium = Tool("chromium-headless-shell",
                             .program(["chromium-headless-shell", "/usr/lib/chromium/chromium-headless-shell", "chromium"]),
                             install: "apt-get install chromium-headless-shell")

  /// The message of a test that needs tools the machine lacks.
  package static func missingMessage(_ tools: [Tool]) -> String {
    tools.map { "\($0.name) is not installed (\($0.install))" }.joined(separator: "; ")
  }

  package struct Missing: Error, CustomStringConvertible {
    package var description: String
  }

  private static func locate(_ kind: Kind) -> String? {
    switch kind {
    case .program(let names):
      let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
      for name in names {
        if name.hasPrefix("/") {
          if FileManager.default.isExecutableFile(atPath: name) { return name }
          continue
        }
        for directory in path.split(separator: ":") where !directory.isEmpty {
          let candidate = "\(directory)/\(name)"
          if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
      }
      return nil
    case .pythonModule(let module):
      let check = try? PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import \(module)"])
      return check?.status == 0 ? module : nil
    }
  }
}

extension Trait where Self == ConditionTrait {
  /// The test runs only where every one of `tools` is installed; outside CI it is skipped without
  /// one (the skip names the install command), under CI it fails saying which is missing.
  package static func requires(_ tools: Tool..., sourceLocation: SourceLocation = #_sourceLocation) -> Self {
    let names = tools.map { "\($0.name) (\($0.install))" }.joined(separator: ", ")
    return .enabled("needs \(names)", sourceLocation: sourceLocation) {
      let missing = tools.filter { !$0.isAvailable }
      guard !missing.isEmpty else { return true }
      if Tool.inCI { throw Tool.Missing(description: "CI is set, and " + Tool.missingMessage(missing) + "; .ci/run installs it") }
      return false
    }
  }
}
