import Foundation
import PaywallTesting
import Testing

/// The documentation holds together: the README opens with the two commands a fresh machine
/// needs and CI runs exactly the test one; every relative link in README.md, CONTRIBUTING.md,
/// CHANGELOG.md, ARCHITECTURE.md and docs/**/*.md reaches a file, and its `#anchor` a heading
/// there; the README's picture is what `render --states` draws today.
@Suite("the docs")
struct DocsTests {
  static let root = Fixtures.repositoryRoot.path

  /// The documents whose links are checked, relative to the repository root.
  static func documents(in root: String) -> [String] {
    var files = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "ARCHITECTURE.md"].filter {
      FileManager.default.fileExists(atPath: root + "/" + $0)
    }
    if let found = FileManager.default.enumerator(atPath: root + "/docs") {
      for case let path as String in found where path.hasSuffix(".md") { files.append("docs/" + path) }
    }
    return files.sorted()
  }

  /// GitHub's anchor for a heading: lower case, code marks and punctuation dropped (letters,
  /// digits, `_`, `-` and spaces stay), spaces as `-`; a repeated heading gets `-1`, `-2`, ….
  static func anchors(ofMarkdown text: String) -> Set<String> {
    var seen: [String: Int] = [:]
    var result: Set<String> = []
    for line in lines(outsideCode: text) where line.text.hasPrefix("#") {
      let level = line.text.prefix { $0 == "#" }.count
      guard level <= 6, line.text.dropFirst(level).hasPrefix(" ") else { continue }
      let title = line.text.dropFirst(level).trimmingCharacters(in: .whitespaces).lowercased()
      var slug = ""
      for scalar in title.unicodeScalars {
        if scalar == " " { slug.append("-") }
        else if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) { slug.unicodeScalars.append(scalar) }
      }
      let count = seen[slug, default: 0]
      seen[slug] = count + 1
      result.insert(count == 0 ? slug : "\(slug)-\(count)")
    }
    return result
  }

  /// The lines of a Markdown text outside fenced code blocks, with their numbers.
  static func lines(outsideCode text: String) -> [(number: Int, text: String)] {
    var inFence = false
    var result: [(Int, String)] = []
    for (index, line) in text.components(separatedBy: "\n").enumerated() {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle(); continue }
      if !inFence { result.append((index + 1, line)) }
    }
    return result
  }

  /// The targets of `[text](target)` links on a line, code spans left out.
  static func linkTargets(_ line: String) -> [String] {
    let prose = line.replacingOccurrences(of: "`[^`]*`", with: "", options: .regularExpression)
    guard let regex = try? NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#) else { return [] }
    let range = NSRange(prose.startIndex..., in: prose)
    return regex.matches(in: prose, range: range).compactMap { match in
      Range(match.range(at: 1), in: prose).map { String(prose[$0]) }
    }
  }

  /// Every relative link of the documents that reaches no file, or no heading in it, as
  /// `FILE:LINE: TARGET: why`.
  static func brokenLinks(in root: String) throws -> [String] {
    var problems: [String] = []
    for document in documents(in: root) {
      let text = try String(contentsOfFile: root + "/" + document, encoding: .utf8)
      let folder = (document as NSString).deletingLastPathComponent
      for line in lines(outsideCode: text) {
        for target in linkTargets(line.text) {
          if target.range(of: "^[a-z][a-z0-9+.-]*:", options: .regularExpression) != nil { continue }  // https:, mailto:
          let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
          let path = parts[0].removingPercentEncoding ?? parts[0]
          let file = path.isEmpty ? document : ((folder as NSString).appendingPathComponent(path) as NSString).standardizingPath
          var isDirectory: ObjCBool = false
          guard !file.hasPrefix(".."), FileManager.default.fileExists(atPath: root + "/" + file, isDirectory: &isDirectory) else {
            problems.append("\(document):\(line.number): \(target): no file \(file)")
            continue
          }
          guard parts.count == 2 else { continue }
          let anchor = parts[1]
          guard !isDirectory.boolValue, file.hasSuffix(".md"),
            anchors(ofMarkdown: try String(contentsOfFile: root + "/" + file, encoding: .utf8)).contains(anchor)
          else {
            problems.append("\(document):\(line.number): \(target): \(file) has no heading with the anchor #\(anchor)")
            continue
          }
        }
      }
    }
    return problems
  }

  @Test func everyRelativeLinkReachesAFileAndAHeading() throws {
    let broken = try Self.brokenLinks(in: Self.root)
    #expect(broken.isEmpty, "links that lead nowhere:\n\(broken.joined(separator: "\n"))")
  }

  /// The checker itself: a missing file, a missing anchor and a link out of the repository are
  /// found; a good link, a repeated heading's `-1`, an external link and a link in code are not.
  @Test func theLinkCheckerFindsWhatIsBroken() throws {
    let root = try Fixtures.directory([
      "README.md": """
        # Tool
        ## Install `it` (fast)
        ## Install `it` (fast)
        [ok](#install-it-fast) [again](#install-it-fast-1) [guide](docs/guide.md#for-qa) [web](https://example.com/x#y)
        [gone](docs/missing.md) [no anchor](docs/guide.md#for-ci) [out](../elsewhere.md)
        `[code](nowhere.md)`
        ```
        [fenced](nowhere.md)
        ```
        """,
    ])
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(atPath: root + "/docs", withIntermediateDirectories: true)
    try "# Guide\n\n## For QA\n\n[back](../README.md#tool)\n".write(toFile: root + "/docs/guide.md", atomically: true, encoding: .utf8)
    let broken = try Self.brokenLinks(in: root)
    #expect(broken == [
      "README.md:5: docs/missing.md: no file docs/missing.md",
      "README.md:5: docs/guide.md#for-ci: docs/guide.md has no heading with the anchor #for-ci",
      "README.md:5: ../elsewhere.md: no file ../elsewhere.md",
    ], "\(broken)")
  }

  /// A fresh machine's two commands come first, and `.ci/run` runs exactly the README's test command.
  @Test func theReadmeOpensWithTheDemoAndTheTestCommandCIRuns() throws {
    let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
    let lines = readme.components(separatedBy: "\n")
    #expect(lines.prefix(3) == ["# paywall-tui", "", "```sh"], "README.md opens with its title and a code block")
    let block = lines.dropFirst(3).prefix { $0 != "```" }.map { line in
      line.components(separatedBy: " #").first!.trimmingCharacters(in: .whitespaces)
    }
    #expect(block == ["swift run -debug-info-format none paywall-tui", "bash scripts/test.sh"], "\(block)")
    let ci = try String(contentsOfFile: Self.root + "/.ci/run", encoding: .utf8)
    let last = ci.components(separatedBy: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    #expect(last == block.last, ".ci/run ends with \(last ?? "nothing"), not the README's test command")
  }

  /// Each `paywall-tui test …` recipe the README gives (one with options, not a synopsis such as
  /// `paywall-tui test [PATH…]`) passes as written, from the repository's root.
  @Test func theReadmesTestRecipesPassAsWritten() throws {
    let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
    let recipes = readme.components(separatedBy: "`").filter { $0.hasPrefix("paywall-tui test --") }
    #expect(!recipes.isEmpty, "the README gives a test recipe")
    for recipe in recipes {
      // Words, a single-quoted one kept whole without its quotes (the README's shell syntax).
      var words: [String] = []
      var quoted = false
      var word = ""
      for character in recipe.dropFirst("paywall-tui ".count) {
        if character == "'" { quoted.toggle() } else if character == " " && !quoted {
          if !word.isEmpty { words.append(word) }
          word = ""
        } else { word.append(character) }
      }
      if !word.isEmpty { words.append(word) }
      let result = try PaywallBinary.run(words)
      #expect(result.status == 0, "`\(recipe)` failed:\n\(result.stdout.suffix(600))\(result.stderr)")
    }
  }

  /// docs/states.svg, the README's picture, is what `render --states` draws from the demo today.
  /// After a change to the pictures or the demo: `UPDATE_DOCS=1 swift test --filter DocsTests`.
  @Test func theReadmesPictureIsWhatRenderDrawsToday() throws {
    let sheet = Self.root + "/docs/states.svg"
    let work = try Fixtures.directory([:])
    defer { try? FileManager.default.removeItem(atPath: work) }
    let result = try PaywallBinary.run(["render", "paywalls", "--states", "--out", work + "/states.svg"])
    #expect(result.status == 0, "\(result.stderr)")
    let drawn = try Data(contentsOf: URL(fileURLWithPath: work + "/states.svg"))
    if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
      try drawn.write(to: URL(fileURLWithPath: sheet), options: .atomic)
    }
    let kept = try Data(contentsOf: URL(fileURLWithPath: sheet))
    #expect(kept == drawn, "docs/states.svg is not what render --states draws: UPDATE_DOCS=1 swift test --filter DocsTests")
    // A browser and GitHub read it as XML: an SVG document, whole.
    let parsed = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
      import sys, xml.etree.ElementTree as ET
      root = ET.parse(sys.argv[1]).getroot()
      print(root.tag)
      """, sheet])
    #expect(parsed.status == 0 && parsed.stdout == "{http://www.w3.org/2000/svg}svg\n", "\(parsed.stderr)")
  }
}
