import Foundation
import Testing
import PaywallModel

@Suite struct StatusCacheTests {
  /// A cache in a fresh temporary state directory.
  static func withCache<T>(_ body: (StatusCache, TemporaryDirectory) throws -> T) throws -> T {
    try withTemporaryDirectory { directory in
      try body(StatusCache(directory: StateDirectory(path: directory.path)), directory)
    }
  }

  static func files(in directory: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }

  @Test(arguments: [SubscriptionStatus.unknown, .inactive, .active(["pro", "lifetime"]), .active(["pro"])])
  func roundTrips(_ status: SubscriptionStatus) throws {
    try Self.withCache { cache, directory in
      try cache.save(status)
      let (loaded, warning) = cache.load()
      #expect(loaded == status)
      #expect(warning == nil)
      #expect(cache.path == directory.file("status.json"))
      #expect(try Self.files(in: directory) == ["status.json"])
    }
  }

  @Test func aSecondSaveReplacesTheFirst() throws {
    try Self.withCache { cache, directory in
      try cache.save(.active(["pro", "lifetime"]))
      try cache.save(.inactive)
      #expect(cache.load() == (.inactive, nil))
      // The replaced contents stay beside it as the last good copy.
      #expect(try Self.files(in: directory) == ["status.json", "status.json.bak"])
      let previous = try String(contentsOfFile: directory.file("status.json.bak"), encoding: .utf8)
      #expect(previous.contains("\"active:lifetime,pro\""), "\(previous)")
      // A new cache on the same directory (the next launch) reads the same.
      let again = StatusCache(directory: StateDirectory(path: directory.path))
      #expect(again.load().0 == .inactive)
    }
  }

  @Test func theFileIsJSONWithFormatVersionAndStatus() throws {
    try Self.withCache { cache, _ in
      try cache.save(.active(["pro", "lifetime"]))
      let text = try String(contentsOfFile: cache.path, encoding: .utf8)
      let root = try #require(Fixture.parse(text))
      #expect(root["format"]?.stringValue == "paywall-tui.status")
      #expect(root["status"]?.stringValue == "active:lifetime,pro")
      if case .number(let version)? = root["version"]?.value {
        #expect(version == "1")
      } else {
        Issue.record("version is not a number in \(text)")
      }
    }
  }

  @Test func aMissingFileIsUnknownWithoutAWarning() throws {
    try Self.withCache { cache, _ in
      let (status, warning) = cache.load()
      #expect(status == .unknown)
      #expect(warning == nil)
    }
  }

  @Test func aMissingDirectoryIsUnknownAndSaveCreatesIt() throws {
    try withTemporaryDirectory { directory in
      let nested = StateDirectory(path: directory.file("a/b/c"))
      let cache = StatusCache(directory: nested)
      #expect(cache.load() == (.unknown, nil))
      try cache.save(.active(["pro"]))
      #expect(cache.load() == (.active(["pro"]), nil))
    }
  }

  struct BadFile: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    /// Words the warning must contain besides the path.
    var mentions: [String] = []
    var testDescription: String { name }

    init(_ name: String, _ text: String, mentions: [String] = []) {
      self.name = name
      self.bytes = Array(text.utf8)
      self.mentions = mentions
    }

    init(_ name: String, bytes: [UInt8], mentions: [String] = []) {
      self.name = name
      self.bytes = bytes
      self.mentions = mentions
    }
  }

  @Test(arguments: [
    BadFile("garbage bytes", bytes: [0xFF, 0xFE, 0x00, 0x13, 0x80, 0x81, 0xC3, 0x28, 0x7B, 0x00, 0x01, 0xFA]),
    BadFile("random binary", bytes: (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }),
    BadFile("empty file", ""),
    BadFile("plain text", "active:pro\n"),
    BadFile("truncated JSON", "{\"format\": \"paywall-tui.status\", \"version\": 1, \"sta"),
    BadFile("truncated string", "{\"format\": \"paywall-tui.status\", \"version\": 1, \"status\": \"active:p"),
    BadFile("foreign JSON object", "{\"format\": \"someone-else.cache\", \"version\": 1, \"status\": \"inactive\"}",
            mentions: ["not a paywall-tui status file"]),
    BadFile("JSON without format", "{\"name\": \"Acme\", \"status\": \"active:pro\"}",
            mentions: ["not a paywall-tui status file"]),
    BadFile("JSON array", "[1, 2, 3]", mentions: ["not a paywall-tui status file"]),
    BadFile("JSON string", "\"inactive\"", mentions: ["not a paywall-tui status file"]),
    BadFile("ledger instead of status", "{\"format\": \"paywall-tui.ledger\", \"version\": 1, \"transactions\": []}",
            mentions: ["not a paywall-tui status file"]),
    BadFile("wrong version", "{\"format\": \"paywall-tui.status\", \"version\": 2, \"status\": \"inactive\"}",
            mentions: ["version"]),
    BadFile("version as a string", "{\"format\": \"paywall-tui.status\", \"version\": \"1\", \"status\": \"inactive\"}",
            mentions: ["version"]),
    BadFile("missing version", "{\"format\": \"paywall-tui.status\", \"status\": \"inactive\"}", mentions: ["version"]),
    BadFile("bad status string", "{\"format\": \"paywall-tui.status\", \"version\": 1, \"status\": \"subscribed\"}",
            mentions: ["status"]),
    BadFile("status not a string", "{\"format\": \"paywall-tui.status\", \"version\": 1, \"status\": 42}",
            mentions: ["status"]),
    BadFile("missing status", "{\"format\": \"paywall-tui.status\", \"version\": 1}", mentions: ["status"]),
  ])
  func anUnusableFileIsUnknownWithAWarningNamingIt(_ bad: BadFile) throws {
    try Self.withCache { cache, _ in
      #expect(FileManager.default.createFile(atPath: cache.path, contents: Data(bad.bytes)))
      let (status, warning) = cache.load()
      #expect(status == .unknown)
      let text = try #require(warning, "a \(bad.name) must give a warning")
      #expect(text.contains(cache.path), "the warning names the file: \(text)")
      #expect(text.contains("unknown"), "the warning says what happens: \(text)")
      for word in bad.mentions {
        #expect(text.contains(word), "the warning mentions '\(word)': \(text)")
      }
      // Saving over the bad file works and the next load is clean.
      try cache.save(.active(["pro"]))
      #expect(cache.load() == (.active(["pro"]), nil))
    }
  }

  @Test func aDirectoryWhereTheFileShouldBeIsAWarning() throws {
    try Self.withCache { cache, _ in
      try FileManager.default.createDirectory(atPath: cache.path, withIntermediateDirectories: true)
      let (status, warning) = cache.load()
      #expect(status == .unknown)
      #expect(warning?.contains(cache.path) == true)
    }
  }

  @Test func saveLeavesNoTemporaryFile() throws {
    try Self.withCache { cache, directory in
      for status in [SubscriptionStatus.inactive, .active(["pro"]), .unknown, .active(["pro", "lifetime"])] {
        try cache.save(status)
      }
      let files = try Self.files(in: directory)
      #expect(!files.contains { $0.contains("tmp-") }, "left behind: \(files)")
      #expect(files == ["status.json", "status.json.bak"])
    }
  }

  @Test func saveIntoAnUnwritablePlaceThrowsNamingThePath() throws {
    try withTemporaryDirectory { directory in
      // The state "directory" is a regular file, so nothing can be created inside it.
      let blocker = try directory.write("blocker", "not a directory")
      let cache = StatusCache(directory: StateDirectory(path: blocker))
      do throws(AtomicFile.WriteError) {
        try cache.save(.inactive)
        Issue.record("saving inside a regular file succeeded")
      } catch {
        #expect(error.path == cache.path)
        #expect(error.description.contains(cache.path))
      }
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(files == ["blocker"])
    }
  }
}

@Suite struct AtomicFileTests {
  /// A text goes to disk as its UTF-8, whatever it holds.
  @Test func aTextIsWrittenAsItsUTF8() throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("text.json")
      for text in ["", "{\"status\": \"active\"}\n", "é 漢字 🎉\u{0}\r\n", String(repeating: "x", count: 100_000)] {
        try AtomicFile.write(text, to: path)
        #expect(FileManager.default.contents(atPath: path) == Data(text.utf8))
      }
    }
  }

  @Test func writesAndReplacesWithoutLeavingATemporaryFile() throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("data.json")
      try AtomicFile.write(Data("first\n".utf8), to: path)
      try AtomicFile.write(Data("second\n".utf8), to: path)
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "second\n")
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["data.json"])
    }
  }

  /// Writers on several threads of one process, to the same path: each must succeed and the file
  /// must always hold one writer's whole payload. The temporary name is `PATH.tmp-PID`, the same
  /// for every writer in the process, so they truncate and rename each other's file.
  @Test func concurrentWritersInOneProcessDoNotCollide() throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("ledger.json")
      let errors = Locked<[String]>([])
      let torn = Locked<Int>(0)
      DispatchQueue.concurrentPerform(iterations: 8) { writer in
        let payload = Data(repeating: UInt8(ascii: "a") + UInt8(writer), count: 64 * 1024)
        for _ in 0..<25 {
          do throws(AtomicFile.WriteError) {
            try AtomicFile.write(payload, to: path)
          } catch {
            errors.append(error.description)
          }
          if let now = FileManager.default.contents(atPath: path),
             now.count != 64 * 1024 || Set(now).count != 1 {
            torn.withLock { $0 += 1 }
          }
        }
      }
      let failed = errors.value.count
      #expect(failed == 0, "\(failed) of 200 writes failed, e.g. \(errors.value.first ?? "")")
      #expect(torn.value == 0, "a reader saw a half-written file \(torn.value) times")
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(files == ["ledger.json"], "\(files)")
    }
  }

  @Test func writesAnEmptyFile() throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("empty")
      try AtomicFile.write(Data(), to: path)
      #expect(FileManager.default.contents(atPath: path) == Data())
    }
  }
}

@Suite struct StateDirectoryTests {
  static let environment = ["XDG_STATE_HOME": "/xdg/state", "HOME": "/home/tester"]

  @Test func anExplicitPathWins() throws {
    let directory = try #require(StateDirectory.resolve(explicit: "/tmp/my-state", projectName: "Acme", projectPath: "/work/acme",
                                                        environment: Self.environment))
    #expect(directory.path == "/tmp/my-state")
    #expect(directory.file("status.json") == "/tmp/my-state/status.json")
  }

  @Test func anAbsoluteXDGStateHomeIsUsed() throws {
    let directory = try #require(StateDirectory.resolve(explicit: nil, projectName: "Acme", projectPath: "/work/acme",
                                                        environment: Self.environment))
    #expect(directory.path.hasPrefix("/xdg/state/paywall-tui/acme-"), "\(directory.path)")
    let parent = (directory.path as NSString).deletingLastPathComponent
    #expect(parent == "/xdg/state/paywall-tui")
  }

  @Test(arguments: ["relative/state", "", "~/state"])
  func aRelativeXDGStateHomeFallsBackToHome(_ xdg: String) throws {
    let directory = try #require(StateDirectory.resolve(explicit: nil, projectName: "Acme", projectPath: "/work/acme",
                                                        environment: ["XDG_STATE_HOME": xdg, "HOME": "/home/tester"]))
    #expect(directory.path.hasPrefix("/home/tester/.local/state/paywall-tui/acme-"), "\(directory.path)")
  }

  @Test func withoutXDGStateHomeHomeLocalStateIsUsed() throws {
    let directory = try #require(StateDirectory.resolve(explicit: nil, projectName: "Acme", projectPath: "/work/acme",
                                                        environment: ["HOME": "/home/tester"]))
    #expect((directory.path as NSString).deletingLastPathComponent == "/home/tester/.local/state/paywall-tui")
  }

  /// An empty or relative HOME would put the state under the current directory: like a relative
  /// XDG_STATE_HOME it is ignored, and with neither there is no default (the caller asks for --state-dir).
  @Test(arguments: ["", "relative/home", "~", "."])
  func aRelativeHomeGivesNoDefault(_ home: String) {
    for xdg in [nil, "", "relative/state"] as [String?] {
      var environment = ["HOME": home]
      environment["XDG_STATE_HOME"] = xdg
      let directory = StateDirectory.resolve(explicit: nil, projectName: "Acme", projectPath: "/work/acme", environment: environment)
      #expect(directory == nil, "HOME=\(home) XDG_STATE_HOME=\(xdg ?? "unset"): \(String(describing: directory))")
    }
    let xdg = StateDirectory.resolve(explicit: nil, projectName: "Acme", projectPath: "/work/acme",
                                     environment: ["HOME": home, "XDG_STATE_HOME": "/xdg/state"])
    #expect(xdg.map { ($0.path as NSString).deletingLastPathComponent } == "/xdg/state/paywall-tui")
    let explicit = StateDirectory.resolve(explicit: "my-state", projectName: "Acme", projectPath: "/work/acme", environment: ["HOME": home])
    #expect(explicit == StateDirectory(path: "my-state"), "--state-dir needs no HOME")
  }

  @Test func theKeyIsTheProjectNameAndAHashOfItsPath() throws {
    let directory = try #require(StateDirectory.resolve(explicit: nil, projectName: "Acme Notes!", projectPath: "/work/acme",
                                                        environment: Self.environment))
    let key = (directory.path as NSString).lastPathComponent
    #expect(key.hasPrefix("acme-notes--"), "\(key)")
    let hash = key.dropFirst("acme-notes--".count)
    #expect(!hash.isEmpty && hash.allSatisfy(\.isHexDigit), "\(key)")
    #expect(!key.contains("/"))
  }

  @Test func aLongNameIsCutShort() throws {
    let name = String(repeating: "x", count: 200)
    let directory = try #require(StateDirectory.resolve(explicit: nil, projectName: name, projectPath: "/work/acme",
                                                        environment: Self.environment))
    let key = (directory.path as NSString).lastPathComponent
    #expect(key.hasPrefix(String(repeating: "x", count: 40) + "-"), "\(key)")
    #expect(key.count < 60)
  }

  @Test func twoProjectPathsGetTwoDirectories() throws {
    let a = try #require(StateDirectory.resolve(explicit: nil, projectName: "Acme", projectPath: "/work/acme",
                                                environment: Self.environment))
    let b = try #require(StateDirectory.resolve(explicit: nil, projectName: "Acme", projectPath: "/work/other/acme",
                                                environment: Self.environment))
    #expect(a != b)
    #expect(a.path != b.path)
  }

  @Test func theSamePathGetsTheSameDirectory() throws {
    let a = try #require(StateDirectory.resolve(explicit: nil, projectName: "Acme", projectPath: "/work/acme",
                                                environment: Self.environment))
    let b = try #require(StateDirectory.resolve(explicit: nil, projectName: "Acme", projectPath: "/work/acme",
                                                environment: Self.environment))
    let c = try #require(StateDirectory.resolve(explicit: nil, projectName: "Acme", projectPath: "/work/./acme",
                                                environment: Self.environment))
    #expect(a == b)
    #expect(a == c, "a path spelt differently is the same project")
  }

  @Test func theDirectoryIsStableAcrossRuns() throws {
    // FNV-1a of the path, not `hashValue`, which changes from run to run.
    let directory = try #require(StateDirectory.resolve(explicit: nil, projectName: "Acme", projectPath: "/work/acme",
                                                        environment: Self.environment))
    var hash: UInt32 = 2_166_136_261
    for byte in "/work/acme".utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    #expect(directory.path == "/xdg/state/paywall-tui/acme-" + String(hash, radix: 16))
  }
}
