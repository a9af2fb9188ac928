import Foundation
import PaywallTesting
import Testing

/// The package's targets depend on each other in one direction only, as `ARCHITECTURE.md` draws
/// them: the model knows no terminal, the terminal core no ncurses and no app, the app no command
/// line, and only the curses backend links ncurses. Read from `Package.swift` and from every
/// `import` in the sources, so a new dependency is a decision made here, not an accident.
@Suite struct ModuleGraphTests {
  /// What each target may depend on. A target missing here is a failure: say where it belongs.
  static let allowed: [String: Set<String>] = [
    "CNCurses": [],
    "CTerminalGuard": [],
    "PaywallModel": [],
    "TerminalCore": ["PaywallModel"],
    "CursesBackend": ["TerminalCore", "PaywallModel", "CNCurses", "CTerminalGuard"],
    "PaywallUI": ["TerminalCore", "PaywallModel", "CTerminalGuard"],
    "PaywallTUI": ["PaywallUI", "CursesBackend", "TerminalCore", "PaywallModel"],
    // The script language, the player and the scenario runner: no command-line type (it is
    // handed how `play` reads its arguments, `PlayCommandLine`).
    "PaywallScenarios": ["PaywallUI", "CursesBackend", "TerminalCore", "PaywallModel"],
    "PaywallCLI": ["PaywallScenarios", "PaywallTUI", "PaywallUI", "CursesBackend", "TerminalCore", "PaywallModel", "CTerminalGuard"],
    "paywall-tui": ["PaywallCLI"],
    "custom-controller-example": ["PaywallTUI", "PaywallModel"],
    "headless-register-example": ["PaywallModel"],
    "paywall-bench": ["PaywallCLI", "PaywallScenarios", "PaywallUI", "TerminalCore", "PaywallModel"],
    // Test support (Tests/PaywallTesting), for the test targets only: no product ships it.
    "PaywallTesting": ["PaywallCLI", "PaywallScenarios", "PaywallUI", "PaywallModel"],
  ]

  @Test func thePackageAndEveryImportFollowTheGraph() throws {
    let root = Fixtures.repositoryRoot
    let problems = try ModuleGraph.problems(root: root, allowed: Self.allowed)
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test func theAllowedGraphHasNoCycle() {
    #expect(ModuleGraph.cycle(in: Self.allowed) == nil)
  }

  /// The check itself: a tree that breaks each rule once is reported once per break.
  @Test func aDependencyAgainstTheGraphIsReported() throws {
    let root = Scratch.root.appendingPathComponent("graph-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let files = [
      "Package.swift": """
        let package = Package(name: "x", targets: [
          .systemLibrary(name: "CNCurses"),
          .target(name: "PaywallModel"),
          .target(name: "CursesBackend", dependencies: ["TerminalCore", "CNCurses"]),
          .target(name: "TerminalCore", dependencies: ["PaywallModel", "PaywallUI"]),
          .target(name: "PaywallUI", dependencies: ["TerminalCore", "PaywallModel"]),
          .testTarget(name: "PaywallUITests", dependencies: ["PaywallUI", "CursesBackend"]),
        ])
        """,
      "Sources/PaywallModel/A.swift": "import Foundation\n",
      "Sources/TerminalCore/B.swift": "import PaywallModel\n",
      "Sources/PaywallUI/C.swift": "import TerminalCore // the frames\n@testable import CursesBackend\npackage import CNCurses; import PaywallModel\n",
      "Sources/Stray/D.swift": "import PaywallModel\n",
      "Sources/.DS_Store": "",
      "Sources/NOTES.txt": "not a module\n",
    ]
    for (path, text) in files {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    let problems = try ModuleGraph.problems(root: root, allowed: Self.allowed)
    #expect(problems.contains("Package.swift: TerminalCore depends on PaywallUI, which the graph does not allow (allowed: PaywallModel)"))
    #expect(problems.contains("Sources/PaywallUI/C.swift: imports CursesBackend, which PaywallUI does not declare in Package.swift"))
    #expect(problems.contains("Sources/PaywallUI/C.swift: imports CNCurses, which PaywallUI does not declare in Package.swift"))
    #expect(problems.contains("Sources/Stray: a folder no target of Package.swift builds"))
    #expect(problems.count == 4, "\(problems)")
    #expect(ModuleGraph.cycle(in: ["A": ["B"], "B": ["C"], "C": ["A"]]) != nil)
  }
}

/// Reads the targets of `Package.swift` (name, dependencies, path) without running SwiftPM, which
/// would wait for the build's lock while `swift test` holds it.
enum ModuleGraph {
  struct Target {
    var name: String
    var kind: String
    var dependencies: [String]
    var path: String?
  }

  static func targets(inManifest text: String) -> [Target] {
    var found: [Target] = []
    let kinds = ["target", "executableTarget", "testTarget", "systemLibrary"]
    var index = text.startIndex
    while let range = text.range(of: ".", range: index..<text.endIndex) {
      index = range.upperBound
      guard let kind = kinds.first(where: { text[index...].hasPrefix($0 + "(") }) else { continue }
      let open = text.index(index, offsetBy: kind.count)
      guard let close = matching(text, open: open) else { break }
      let body = String(text[text.index(after: open)..<close])
      index = close
      guard let name = quoted(after: "name:", in: body) else { continue }
      var dependencies: [String] = []
      if let list = body.range(of: "dependencies:"), let start = body[list.upperBound...].firstIndex(of: "["),
         let end = matching(body, open: start) {
        dependencies = body[body.index(after: start)..<end].split(separator: "\"", omittingEmptySubsequences: false)
          .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
      }
      found.append(Target(name: name, kind: kind, dependencies: dependencies, path: quoted(after: "path:", in: body)))
    }
    return found
  }

  /// Every break of the graph in the tree at `root`, one line each, naming the file and the fix.
  static func problems(root: URL, allowed: [String: Set<String>]) throws -> [String] {
    let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let targets = targets(inManifest: manifest)
    let names = Set(targets.map(\.name))
    var problems: [String] = []
    for target in targets where target.kind != "testTarget" {
      guard let permitted = allowed[target.name] else {
        problems.append("Package.swift: \(target.name) is not in ModuleGraphTests.allowed; add it with what it may depend on")
        continue
      }
      for dependency in target.dependencies where !permitted.contains(dependency) {
        problems.append("Package.swift: \(target.name) depends on \(dependency), which the graph does not allow (allowed: \(permitted.sorted().joined(separator: ", ")))")
      }
    }
    for target in targets where target.kind != "systemLibrary" {
      let folder = target.path ?? (target.kind == "testTarget" ? "Tests/\(target.name)" : "Sources/\(target.name)")
      let declared = Set(target.dependencies)
      for file in swiftFiles(under: root.appendingPathComponent(folder)) {
        let relative = folder + "/" + file.path.dropFirst(root.appendingPathComponent(folder).path.count + 1)
        for module in imports(in: try String(contentsOf: file, encoding: .utf8)) where names.contains(module) && !declared.contains(module) {
          problems.append("\(relative): imports \(module), which \(target.name) does not declare in Package.swift")
        }
      }
    }
    let sources = root.appendingPathComponent("Sources")
    for folder in (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
    where !folder.hasPrefix(".") && !names.contains(folder) && isDirectory(sources.appendingPathComponent(folder)) {
      problems.append("Sources/\(folder): a folder no target of Package.swift builds")
    }
    return problems.sorted()
  }

  /// The modules a Swift file imports: `import X`, `@testable import X`, `import enum X.Y`,
  /// `package import X` (an access level), `import X; …` and `import X // why`.
  static func imports(in text: String) -> [String] {
    let accessLevels: Set<String> = ["public", "package", "internal", "fileprivate", "private"]
    return text.split(separator: "\n").compactMap { line in
      let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
      var words = code.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ";" }).map(String.init)
      while let first = words.first, first.hasPrefix("@") || accessLevels.contains(first) { words.removeFirst() }
      guard words.first == "import", words.count >= 2 else { return nil }
      let kinds: Set<String> = ["enum", "struct", "class", "protocol", "func", "var", "let", "typealias"]
      let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
      return String(path.split(separator: ".").first ?? "")
    }
  }

  /// A cycle of `graph` as a path, or nil when it has none.
  static func cycle(in graph: [String: Set<String>]) -> [String]? {
    var state: [String: Bool] = [:]  // false: on the path, true: done
    func visit(_ node: String, _ path: [String]) -> [String]? {
      if state[node] == true { return nil }
      if state[node] == false { return path + [node] }
      state[node] = false
      for next in (graph[node] ?? []).sorted() {
        if let found = visit(next, path + [node]) { return found }
      }
      state[node] = true
      return nil
    }
    for node in graph.keys.sorted() {
      if let found = visit(node, []) { return found }
    }
    return nil
  }

  /// Paths built from `folder` itself, not the walker's URLs (which may resolve `/tmp` to
  /// `/private/tmp` on macOS and no longer start with the root's path).
  private static func swiftFiles(under folder: URL) -> [URL] {
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0) }
  }

  private static func isDirectory(_ url: URL) -> Bool {
    var directory: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
  }

  private static func quoted(after key: String, in body: String) -> String? {
    guard let range = body.range(of: key), let open = body[range.upperBound...].firstIndex(of: "\"") else { return nil }
    let rest = body[body.index(after: open)...]
    return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
  }

  private static func matching(_ text: String, open: String.Index) -> String.Index? {
    let opener = text[open]
    let closer: Character = opener == "(" ? ")" : "]"
    var depth = 0
    var index = open
    var inString = false
    while index < text.endIndex {
      let character = text[index]
      if character == "\"" { inString.toggle() }
      if !inString {
        if character == opener { depth += 1 }
        if character == closer {
          depth -= 1
          if depth == 0 { return index }
        }
      }
      index = text.index(after: index)
    }
    return nil
  }
}

/// Every source file fits what a reader pages through: a file past `longest` lines holds more
/// than one concern and is split by concern (a type's parts as extensions in files named for
/// them); the app's update function stays small because the presenter, the keys and the dialogs
/// are its children. Generated files are split the same way, by their scripts.
@Suite struct SourceLayoutTests {
  static let longest = 400
  static let appModelLongest = 250

  static func lineCounts(under root: URL) throws -> [(path: String, lines: Int)] {
    let sources = root.appendingPathComponent("Sources")
    guard let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
    var counts: [(String, Int)] = []
    for case let url as URL in walker where url.pathExtension == "swift" {
      let text = try String(contentsOf: url, encoding: .utf8)
      let relative = String(url.path.dropFirst(root.path.count + 1))
      counts.append((relative, text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)))
    }
    return counts.sorted { $0.0 < $1.0 }
  }

  @Test func noSourceFileIsLongerThanAPageThrough() throws {
    let long = try Self.lineCounts(under: Fixtures.repositoryRoot).filter { $0.lines > Self.longest }
    #expect(long.isEmpty, """
      \(long.map { "\($0.path): \($0.lines) lines, over \(Self.longest); split it by concern (a type's parts as extensions in files named for them)" }.joined(separator: "\n"))
      """)
  }

  @Test func theAppModelStaysSmall() throws {
    let model = try #require(try Self.lineCounts(under: Fixtures.repositoryRoot).first { $0.path == "Sources/PaywallUI/App/AppModel.swift" })
    #expect(model.lines < Self.appModelLongest,
            "Sources/PaywallUI/App/AppModel.swift: \(model.lines) lines, \(Self.appModelLongest) at most; keys, dialogs and the presenter's scope belong in their own files")
  }

  /// The count itself: a file of 401 lines is reported with its path, one of 400 is not.
  @Test func aLongFileIsReportedWithItsPath() throws {
    let root = Scratch.root.appendingPathComponent("layout-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources/A"), withIntermediateDirectories: true)
    try String(repeating: "let x = 1\n", count: 401).write(to: root.appendingPathComponent("Sources/A/Long.swift"), atomically: true, encoding: .utf8)
    try String(repeating: "let y = 1\n", count: 400).write(to: root.appendingPathComponent("Sources/A/Fits.swift"), atomically: true, encoding: .utf8)
    let counts = try Self.lineCounts(under: root)
    #expect(counts.map(\.path) == ["Sources/A/Fits.swift", "Sources/A/Long.swift"])
    #expect(counts.filter { $0.lines > Self.longest }.map(\.path) == ["Sources/A/Long.swift"])
  }

  /// The ways the sources wait for one another: `Mutex` (and `Condition`, with the `Semaphore`
  /// built on it, for a thread of ours that blocks), `DetachedThread` for blocking work, and
  /// async tasks. Any other (Dispatch's queues and semaphores, Foundation's locks, threads and
  /// operation queues) is named with its file and line.
  static let otherConcurrency = ["import Dispatch", "DispatchQueue", "DispatchSemaphore", "DispatchGroup", "NSLock", "NSRecursiveLock",
                                 "NSCondition", "Thread(", "Thread.detachNewThread", "OperationQueue", "pthread_mutex_t", "pthread_create("]
  /// Where each may be: the primitives themselves.
  static let concurrencyHomes = ["Sources/PaywallModel/Platform/Essentials.swift", "Sources/PaywallModel/Platform/DetachedThread.swift"]

  static func otherConcurrencyUses(under root: URL) throws -> [String] {
    let sources = root.appendingPathComponent("Sources")
    guard let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
    var found: [String] = []
    for case let url as URL in walker where url.pathExtension == "swift" {
      let relative = String(url.path.dropFirst(root.path.count + 1))
      guard !concurrencyHomes.contains(relative) else { continue }
      let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
      for (index, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
        if let name = otherConcurrency.first(where: { line.contains($0) }) { found.append("\(relative):\(index + 1): \(name)") }
      }
    }
    return found.sorted()
  }

  @Test func threeWaysToWaitAndNoOther() throws {
    let found = try Self.otherConcurrencyUses(under: Fixtures.repositoryRoot)
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))\nuse Mutex, Condition or Semaphore (PaywallModel/Platform), DetachedThread, or a task")
  }

  /// The scan itself: a queue in a file is reported at its line; a comment that names one is not.
  @Test func aDispatchQueueIsReportedAtItsLine() throws {
    let root = Scratch.root.appendingPathComponent("waits-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources/A"), withIntermediateDirectories: true)
    try "// DispatchQueue is not used here\nlet q = DispatchQueue(label: \"x\")\n".write(
      to: root.appendingPathComponent("Sources/A/Q.swift"), atomically: true, encoding: .utf8)
    #expect(try Self.otherConcurrencyUses(under: root) == ["Sources/A/Q.swift:2: DispatchQueue"])
  }
}
