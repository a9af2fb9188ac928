import Foundation
import Testing
import PaywallModel

@Suite("Project loader")
struct ProjectLoaderTests {
  static let catalog = """
    {
      "products": [
        { "id": "com.acme.pro.annual", "name": "Annual", "price": "59.99", "period": "P1Y", "trial": "P7D", "group": "pro" },
        { "id": "com.acme.pro.monthly", "name": "Monthly", "price": "9.99", "period": "P1M", "group": "pro", "level": 2 }
      ]
    }
    """

  static func paywall(id: String, primary: String = "com.acme.pro.annual") -> String {
    """
    {
      "id": "\(id)",
      "name": "Paywall \(id)",
      "products": { "primary": "\(primary)", "secondary": "com.acme.pro.monthly" },
      "components": [
        { "type": "title", "text": "{{ primary.price }}" },
        { "type": "button", "label": "Buy", "action": "purchase" }
      ]
    }
    """
  }

  // MARK: - The bundled demo

  @Test func bundledProjectDirectory() throws {
    let result = ProjectLoader.load(path: Fixture.paywallsDirectory)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
    let project = try #require(result.project)
    #expect(project.name == "Acme Notes")
    #expect(project.paywalls.map(\.id) == ["onboarding", "winback", "plans"])
    #expect(project.catalog.products.count == 6)
    #expect(project.catalog.file.hasSuffix("catalog.json"))
    #expect(project.warnings.isEmpty)
    #expect(project.paywall(id: "winback")?.presentationCondition == .always)
    #expect(project.paywall(id: "plans")?.selectedSlot == "tertiary")
    #expect(project.paywall(id: "nope") == nil)
  }

  @Test func bundledAppJSONDirectly() throws {
    let result = ProjectLoader.load(path: Fixture.bundled("app.json"))
    #expect(result.errors.isEmpty, "\(result.diagnostics.map(\.description))")
    let project = try #require(result.project)
    #expect(project.name == "Acme Notes")
    #expect(project.paywalls.count == 3)
  }

  @Test func bundledSinglePaywall() throws {
    let result = ProjectLoader.load(path: Fixture.bundled("onboarding.json"))
    #expect(result.errors.isEmpty, "\(result.diagnostics.map(\.description))")
    let project = try #require(result.project)
    #expect(project.paywalls.map(\.id) == ["onboarding"])
    #expect(project.catalog.file.hasSuffix("catalog.json"))  // named by the app.json beside it
  }

  @Test func bundledPaywallWithTheStoreKitCatalog() throws {
    let result = ProjectLoader.load(path: Fixture.bundled("onboarding.json"), catalogPath: Fixture.bundled("acme.storekit"))
    #expect(result.errors.isEmpty, "\(result.diagnostics.map(\.description))")
    let project = try #require(result.project)
    #expect(project.catalog.file.hasSuffix("acme.storekit"))
    #expect(project.catalog.groups.map(\.name) == ["Acme Pro"])
    #expect(project.paywalls.first?.productID(forSlot: "primary") == "com.acme.pro.annual")
    // Entitlements come from acme.entitlements.json beside the .storekit file.
    #expect(project.catalog.product(id: "com.acme.pro.lifetime")?.entitlements == ["pro", "lifetime"])
  }

  // MARK: - Temporary projects

  @Test func singlePaywallFindsTheCatalogBesideIt() throws {
    try withTemporaryDirectory { dir in
      try dir.write("catalog.json", Self.catalog)
      let file = try dir.write("sale.json", Self.paywall(id: "sale"))
      let result = ProjectLoader.load(path: file)
      #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
      let project = try #require(result.project)
      #expect(project.name == "Paywall sale")
      #expect(project.paywalls.map(\.id) == ["sale"])
      #expect(project.catalog.productIDs == ["com.acme.pro.annual", "com.acme.pro.monthly"])
    }
  }

  @Test func singlePaywallFindsAStoreKitFileBesideIt() throws {
    try withTemporaryDirectory { dir in
      try dir.write("Shop.storekit", StoreKitFixtures.version1)
      let file = try dir.write("sale.json", Self.paywall(id: "sale", primary: "com.example.yearly")
        .replacingOccurrences(of: "com.acme.pro.monthly", with: "com.example.monthly"))
      let result = ProjectLoader.load(path: file)
      #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
      #expect(result.project?.catalog.file.hasSuffix("Shop.storekit") == true)
    }
  }

  @Test func singlePaywallWithoutACatalog() throws {
    try withTemporaryDirectory { dir in
      let file = try dir.write("sale.json", Self.paywall(id: "sale"))
      let result = ProjectLoader.load(path: file)
      #expect(result.project == nil)
      #expect(result.diagnostics.map(\.description) == [
        "\(file):1:1: error: no catalog found beside the paywall; pass --catalog FILE (.json or .storekit)",
      ])
    }
  }

  @Test func catalogOptionPointsAtAStoreKitFile() throws {
    try withTemporaryDirectory { dir in
      // A catalog.json beside the paywall that lacks the products: --catalog must win over it.
      try dir.write("catalog.json", #"{"products": []}"#)
      let storekit = try dir.write("Shop.storekit", StoreKitFixtures.version1)
      let file = try dir.write("sale.json", Self.paywall(id: "sale", primary: "com.example.yearly")
        .replacingOccurrences(of: "com.acme.pro.monthly", with: "com.example.monthly"))
      let result = ProjectLoader.load(path: file, catalogPath: storekit)
      #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
      let project = try #require(result.project)
      #expect(project.catalog.file == storekit)
      #expect(project.catalog.product(id: "com.example.yearly")?.attribute(.price) == "$29.99")
    }
  }

  @Test func missingPathGivesOneClearError() {
    let path = "/nonexistent/paywall-tui-\(UUID().uuidString)/app.json"
    let result = ProjectLoader.load(path: path)
    #expect(result.project == nil)
    #expect(result.diagnostics.count == 1)
    let d = result.diagnostics[0]
    #expect(d.file == path)
    #expect(d.location == Position(line: 1, column: 1))
    #expect(d.path == nil)
    #expect(d.message.hasPrefix("no such file or directory"))
    #expect(d.description == "\(path):1:1: error: \(d.message)")
  }

  @Test func appJSONListingAMissingPaywall() throws {
    try withTemporaryDirectory { dir in
      try dir.write("catalog.json", Self.catalog)
      try dir.write("a.json", Self.paywall(id: "a"))
      let app = try dir.write("app.json", """
        {
          "name": "Demo",
          "catalog": "catalog.json",
          "paywalls": [
            "a.json",
            "missing.json"
          ]
        }
        """)
      let result = ProjectLoader.load(path: dir.path)
      #expect(result.project == nil)
      #expect(result.diagnostics.count == 1)
      let d = try #require(result.diagnostics.first)
      #expect(d.file == app)
      #expect(d.location == Position(line: 6, column: 5))
      #expect(d.path?.description == "$.paywalls[1]")
      #expect(d.message == "paywall file 'missing.json' does not exist (looked for \(dir.file("missing.json")))")
    }
  }

  @Test func appJSONWithErrorsInSeveralFilesReportsThemAllSorted() throws {
    try withTemporaryDirectory { dir in
      try dir.write("catalog.json", """
        {
          "products": [
            { "id": "com.acme.pro.annual", "name": "Annual", "price": "59.99", "period": "P1Y" },
            { "id": "com.acme.pro.monthli", "name": "Monthly", "price": "9.99", "period": "P1Q" }
          ]
        }
        """)
      try dir.write("b.json", Self.paywall(id: "b").replacingOccurrences(of: "\"purchase\"", with: "\"purchse\""))
      try dir.write("app.json", #"{"catalog": "catalog.json", "paywalls": ["b.json"], "nmae": "x"}"#)
      let result = ProjectLoader.load(path: dir.path)
      #expect(result.project == nil)
      let found = result.diagnostics.map { "\(($0.file as NSString).lastPathComponent):\($0.location)" }
      #expect(found == ["app.json:1:53", "b.json:4:64", "b.json:7:51", "catalog.json:4:83"])
    }
  }

  @Test func twoPaywallsSharingAnID() throws {
    try withTemporaryDirectory { dir in
      try dir.write("catalog.json", Self.catalog)
      let first = try dir.write("one.json", Self.paywall(id: "sale"))
      let second = try dir.write("two.json", Self.paywall(id: "sale"))
      try dir.write("app.json", #"{"catalog": "catalog.json", "paywalls": ["one.json", "two.json"]}"#)
      let result = ProjectLoader.load(path: dir.path)
      #expect(result.project == nil)
      #expect(result.errors.count == 1)
      let d = try #require(result.errors.first)
      #expect(d.file == second)
      #expect(d.path?.description == "$.id")
      #expect(d.message == "paywall id 'sale' is already used by \(first); ids must be unique")
      // The error points at the duplicate id's value in the second file.
      let lines = try String(contentsOfFile: second, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
      let line = Array(lines[d.location.line - 1].unicodeScalars)
      #expect(String(String.UnicodeScalarView(line[(d.location.column - 1)...])).hasPrefix("\"sale\""))
    }
  }

  @Test func directoryWithoutAppJSONLoadsEveryPaywall() throws {
    try withTemporaryDirectory { dir in
      try dir.write("catalog.json", Self.catalog)
      try dir.write("b.json", Self.paywall(id: "b"))
      try dir.write("a.json", Self.paywall(id: "a"))
      try dir.write("paywall.schema.json", #"{"components": "not a paywall"}"#)
      try dir.write("notes.json", #"{"text": "not a paywall either"}"#)
      let result = ProjectLoader.load(path: dir.path)
      #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
      let project = try #require(result.project)
      #expect(project.paywalls.map(\.id) == ["a", "b"])  // sorted by file name
      #expect(project.name == (dir.path as NSString).lastPathComponent)
    }
  }

  @Test func emptyDirectoryIsAnError() throws {
    try withTemporaryDirectory { dir in
      let result = ProjectLoader.load(path: dir.path)
      #expect(result.project == nil)
      #expect(result.errors.count == 1)
      #expect(result.errors.first?.message.hasPrefix("no app.json, catalog.json or .storekit file here") == true)
    }
  }

  @Test func malformedJSONIsReportedAsASyntaxError() throws {
    try withTemporaryDirectory { dir in
      try dir.write("catalog.json", Self.catalog)
      let file = try dir.write("broken.json", """
        {
          "id": "broken",
          "name": "Broken",
          "components": [
            { "type": "title", "text": "Hi" }
            { "type": "divider" }
          ]
        }
        """)
      let result = ProjectLoader.load(path: file)
      #expect(result.project == nil)
      #expect(result.diagnostics.map(\.description) == [
        "\(file):6:5: error: invalid JSON: expected ',' or ']' in the array, found '{'",
      ])
    }
  }

  /// Without an app.json every `.json` in the directory is tried as a paywall; one that does not
  /// parse reports its syntax error instead of silently vanishing from the project.
  @Test func malformedPaywallInADirectoryWithoutAppJSON() throws {
    try withTemporaryDirectory { dir in
      try dir.write("catalog.json", Self.catalog)
      try dir.write("a.json", Self.paywall(id: "a"))
      let broken = try dir.write("b.json", Self.paywall(id: "b").replacingOccurrences(of: "\"Buy\",", with: "\"Buy\""))
      let expected = "\(broken):7:40: error: invalid JSON: expected ',' or '}' after the value of \"label\", found '\"'"
      // Loaded on its own, the file gets its syntax error…
      #expect(ProjectLoader.load(path: broken).errors.map(\.description) == [expected])
      // …and so it does as part of the directory.
      let result = ProjectLoader.load(path: dir.path)
      #expect(result.project == nil)
      #expect(result.errors.map(\.description) == [expected])
    }
  }

  @Test func malformedJSONInAProjectsPaywall() throws {
    try withTemporaryDirectory { dir in
      try dir.write("catalog.json", Self.catalog)
      let broken = try dir.write("broken.json", "{\n  \"id\": \"x\",\n  \"name\": 'X'\n}\n")
      try dir.write("app.json", #"{"catalog": "catalog.json", "paywalls": ["broken.json"]}"#)
      let result = ProjectLoader.load(path: dir.path)
      #expect(result.project == nil)
      let d = try #require(result.diagnostics.first)
      #expect(result.diagnostics.count == 1)
      #expect(d.file == broken)
      #expect(d.location == Position(line: 3, column: 11))
      #expect(d.message == "invalid JSON: strings must use double quotes (\"), not single quotes")
      #expect(!d.description.contains("NSCocoaErrorDomain"))
      #expect(!d.description.contains("The data couldn"))
    }
  }

  @Test func aDirectoryGivenAsAFileIsAnError() throws {
    try withTemporaryDirectory { dir in
      try FileManager.default.createDirectory(atPath: dir.file("catalog.json"), withIntermediateDirectories: false)
      try dir.write("app.json", #"{"catalog": "catalog.json", "paywalls": []}"#)
      let result = ProjectLoader.load(path: dir.path)
      #expect(result.project == nil)
      #expect(result.errors.map(\.message) == ["is a directory, expected a JSON file"])
    }
  }

  /// Files are read with plain system calls; each failure names the file and says why in a few words.
  @Test func readingAFileSaysWhyItCannot() throws {
    try withTemporaryDirectory { dir in
      func message(_ path: String) -> String? {
        do {
          _ = try SourceFile.read(path: path)
          return nil
        } catch {
          #expect(error.diagnostics.first?.file == path)
          return error.diagnostics.first?.message
        }
      }
      #expect(message(dir.file("missing.json")) == "no such file; check the path")
      #expect(message(dir.file("missing/inside.json")) == "no such file; check the path")
      let notADirectory = try dir.write("plain.json", "{}")
      #expect(message(notADirectory + "/inside.json") == "no such file; check the path")
      #expect(message(dir.path) == "is a directory, expected a JSON file")
      // A sparse file: 65 MiB on paper, nothing on disk.
      let huge = dir.file("huge.json")
      let fd = open(huge, O_WRONLY | O_CREAT, 0o644)
      #expect(ftruncate(fd, 65 * 1_048_576) == 0)
      close(fd)
      #expect(message(huge) == "is 65 MiB, larger than the 64 MiB limit")
    }
  }

  /// Without read permission: root reads anyway, so this runs as anyone else.
  @Test(.enabled(if: geteuid() != 0, "root reads whatever the permissions say: run the tests as another user to check this"))
  func readingAFileWithoutPermissionSaysSo() throws {
    try withTemporaryDirectory { dir in
      let locked = try dir.write("locked.json", "{}")
      chmod(locked, 0)
      do {
        _ = try SourceFile.read(path: locked)
        Issue.record("a file without read permission was read")
      } catch let error as ValidationFailure {
        #expect(error.diagnostics.first?.message == "cannot be read (Permission denied); check its permissions")
      }
    }
  }

  /// A named pipe waits for a writer and a device never ends: neither is read, and the refusal
  /// comes at once, before any byte (`/dev/zero` used to be read to the 64 MiB limit).
  @Test func aFIFOOrADeviceIsRefusedAtOnce() throws {
    @Sendable func message(_ path: String) -> String? {
      do {
        _ = try SourceFile.read(path: path)
        return nil
      } catch {
        return error.diagnostics.first?.message
      }
    }
    try withTemporaryDirectory { dir in
      let fifo = dir.file("fifo.json")
      #expect(mkfifo(fifo, 0o644) == 0)
      let (said, blocked) = try unblockingFIFO(fifo) { message(fifo) }
      #expect(!blocked, "opening the FIFO waited for a writer")
      #expect(said == "is not a regular file (a named pipe); give the path of a JSON file")
      // The same through a link: the link is followed, the pipe still refused.
      #expect(symlink(fifo, dir.file("link.json")) == 0)
      let (linked, blockedAgain) = try unblockingFIFO(fifo) { message(dir.file("link.json")) }
      #expect(!blockedAgain && linked == said)
    }
    #expect(message("/dev/zero") == "is not a regular file (a character device); give the path of a JSON file")
    #expect(message("/dev/null") == "is not a regular file (a character device); give the path of a JSON file")
  }

  /// What reports a size of 0 (/proc, and pipes) is read to its end all the same.
  @Test func aFileThatReportsNoSizeIsReadWhole() throws {
    #if os(Linux)
    let bytes = try SourceFile.read(path: "/proc/self/status")
    #expect(String(decoding: bytes, as: UTF8.self).contains("VmRSS"))
    // Longer than the first chunks (1 byte, then 4 KiB, then doubling): read to its last line,
    // the kernel's vsyscall page, which x86-64 lists after every other mapping.
    let maps = String(decoding: try SourceFile.read(path: "/proc/self/maps"), as: UTF8.self)
    #expect(maps.utf8.count > 8192)
    #if arch(x86_64)
    #expect(maps.hasSuffix("[vsyscall]\n"))
    #endif
    #endif
    try withTemporaryDirectory { dir in
      let text = String(repeating: "0123456789abcdef", count: 5000)  // 80,000 bytes, several reads
      let file = try dir.write("many.json", text)
      #expect(try SourceFile.read(path: file) == Array(text.utf8))
      #expect(try SourceFile.read(path: try dir.write("empty.json", "")) == [])
    }
  }

  @Test func storeKitFileAloneLoadsAsACatalog() throws {
    try withTemporaryDirectory { dir in
      let file = try dir.write("Shop.storekit", StoreKitFixtures.version1)
      let result = ProjectLoader.load(path: file)
      #expect(result.diagnostics.isEmpty)
      #expect(result.project?.catalog.products.count == 5)
      #expect(result.project?.paywalls.isEmpty == true)
    }
  }

  @Test func warningsDoNotStopAProject() throws {
    try withTemporaryDirectory { dir in
      let storekit = try dir.write("Future.storekit",
                                   StoreKitFixtures.version1.replacingOccurrences(of: "\"major\" : 1", with: "\"major\" : 7"))
      let file = try dir.write("sale.json", Self.paywall(id: "sale", primary: "com.example.yearly")
        .replacingOccurrences(of: "com.acme.pro.monthly", with: "com.example.monthly"))
      let result = ProjectLoader.load(path: file, catalogPath: storekit)
      #expect(result.errors.isEmpty)
      #expect(result.warnings.count == 1)
      let project = try #require(result.project)
      #expect(project.warnings == result.warnings)
      #expect(project.warnings.first?.message.hasPrefix("format version 7.1 is outside") == true)
    }
  }
}

// MARK: - Issue 17 item 4: one error per cause

extension ProjectLoaderTests {
  /// A .storekit product that fails (no price) and a paywall naming it: the product's error is
  /// the cause; the slot, and the campaign naming that paywall, are consequences after it.
  /// Before: the slot said the product "is not in the catalog" and the campaign "no paywall 'a'
  /// in this project (paywalls: )", all three counted as causes and sorted by file name.
  @Test func referencesToWhatFailedToLoadAreConsequencesAfterTheirCause() throws {
    try withTemporaryDirectory { dir in
      let storekit = """
        {
          "identifier": "X", "nonRenewingSubscriptions": [], "settings": {}, "subscriptionGroups": [],
          "products": [{ "productID": "com.acme.lifetime", "referenceName": "Lifetime", "type": "NonConsumable",
                         "localizations": [{ "displayName": "Lifetime", "locale": "en_US" }] }],
          "version": { "major": 3, "minor": 0 }
        }
        """
      try dir.write("catalog.storekit", storekit)
      try dir.write("a.json", Self.paywall(id: "a", primary: "com.acme.lifetime").replacingOccurrences(
        of: ", \"secondary\": \"com.acme.pro.monthly\"", with: ""))
      try dir.write("app.json", """
        {"catalog": "catalog.storekit", "paywalls": ["a.json"], "campaigns": [{"placement": "go", "audiences": [{"paywall": "a"}]}]}
        """)
      let result = ProjectLoader.load(path: dir.path)
      #expect(result.project == nil)
      let found = result.diagnostics.map { "\(($0.file as NSString).lastPathComponent) \($0.isConsequence) \($0.message)" }
      #expect(found == [
        "catalog.storekit false missing 'displayPrice'",
        "a.json true slot 'primary' names 'com.acme.lifetime': its definition in \(dir.path)/catalog.storekit failed to load, see above",
        "app.json true no paywall 'a': a.json failed to load, see above",
      ], "\(found)")
    }
  }
}
