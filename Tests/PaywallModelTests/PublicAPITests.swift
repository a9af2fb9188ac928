import Foundation
import Testing

/// Every `public` or `open` declaration of the libraries has a `///` comment: DocC reads them, and
/// Swift users plug their own controllers into PaywallModel and run or render paywalls with
/// PaywallTUI. What only the command line needs is `package`, which this check leaves alone.
@Suite("public API")
struct PublicAPITests {
  /// The source directories checked, from the package root: every module's, every file (a
  /// module's public declarations reach library users through the two libraries).
  static let checkedDirectories = ["Sources/PaywallModel", "Sources/TerminalCore", "Sources/CursesBackend", "Sources/PaywallUI",
                                   "Sources/PaywallTUI", "Sources/PaywallCLI"]

  /// The package root, found from this file (`Tests/PaywallModelTests/PublicAPITests.swift`).
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // PaywallModelTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  /// A `public` or `open` declaration, after indentation and attributes on the same line: the
  /// access level (with `(set)`), any modifiers, then the declaration's keyword. Enum cases take
  /// their enum's access level and are not matched; `open` as a name (`open = …`) is not either.
  static var declaration: Regex<Substring> { #/^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:public|open)(?:\(set\))?\s+(?:[\w()]+\s+)*?(?:func|var|let|init|deinit|struct|enum|class|actor|protocol|typealias|subscript|extension|associatedtype|macro)\b/# }

  /// The 1-based lines of `source` with a public declaration whose nearest line above, skipping
  /// attribute lines (`@discardableResult`), is not a `///` comment.
  static func undocumentedLines(in source: String) -> [Int] {
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    let declaration = declaration
    var found: [Int] = []
    for (index, line) in lines.enumerated() where line.prefixMatch(of: declaration) != nil {
      var above = index - 1
      while above >= 0, lines[above].drop(while: \.isWhitespace).hasPrefix("@") { above -= 1 }
      if above < 0 || !lines[above].drop(while: \.isWhitespace).hasPrefix("///") {
        found.append(index + 1)
      }
    }
    return found
  }

  /// The checked files, as paths relative to the package root, sorted.
  static func checkedFiles() -> [String] {
    var files: [String] = []
    for directory in checkedDirectories {
      let root = packageRoot.appendingPathComponent(directory)
      let walker = FileManager.default.enumerator(atPath: root.path)
      while let relative = walker?.nextObject() as? String {
        let path = directory + "/" + relative
        guard path.hasSuffix(".swift") else { continue }
        files.append(path)
      }
    }
    return files.sorted()
  }

  @Test func everyPublicDeclarationIsDocumented() throws {
    let files = Self.checkedFiles()
    #expect(files.count > 20, "the checked directories were not found under \(Self.packageRoot.path)")
    var undocumented: [String] = []
    var declarations = 0
    let declaration = Self.declaration
    for file in files {
      let source = try String(contentsOf: Self.packageRoot.appendingPathComponent(file), encoding: .utf8)
      let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
      declarations += lines.count { $0.prefixMatch(of: declaration) != nil }
      for line in Self.undocumentedLines(in: source) {
        undocumented.append("\(file):\(line): \(lines[line - 1].trimmingCharacters(in: .whitespaces))")
      }
    }
    #expect(declarations > 100, "found only \(declarations) public declarations: is the pattern still right?")
    #expect(undocumented.isEmpty, """
      \(undocumented.count) public declaration(s) without a /// comment (document it, or make it `package` \
      when only the command line uses it):
      \(undocumented.joined(separator: "\n"))
      """)
  }

  /// The scanner itself: what counts as a public declaration and as its documentation.
  @Test(arguments: [
    ("public func f() {}", [1]),
    ("/// Does f.\npublic func f() {}", []),
    ("/// Does f.\n@discardableResult\npublic func f() -> Int { 1 }", []),
    ("@discardableResult\n/// Misplaced, but a comment.\npublic func f() -> Int { 1 }", []),
    ("// Not a doc comment.\npublic var x = 1", [2]),
    ("  public private(set) var x = 1", [1]),
    ("public static let x = 1", [1]),
    ("open class C {}", [1]),
    ("public init() {}", [1]),
    ("public enum E {\n  case a, b\n}", [1]),
    ("package func f() {}", []),
    ("func f() {}", []),
    ("    open = open.mapValues { $0 }", []),
    ("/// E.\npublic enum E {\n  /// A.\n  public static let a = 1\n  public var b: Int { 1 }\n}", [5]),
  ])
  func scanner(_ source: String, expected: [Int]) {
    #expect(Self.undocumentedLines(in: source) == expected)
  }
}
