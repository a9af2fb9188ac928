import Foundation
import PaywallTesting
import Testing

/// Issue 17, item 11: `init` writes a small project that validates, plays and tests as written,
/// with JSON Schemas beside it that its files satisfy (checked by python's jsonschema, as an
/// editor would); `schema NAME` prints them; the schemas built into the binary are the files in
/// paywalls/.
@Suite("init and schema")
struct InitCommandTests {
  /// Runs `command` with sh in `directory`, the binary as $BIN.
  static func shell(_ command: String, in directory: String) throws -> PaywallBinary.Output {
    try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", "cd '\(directory)' && \(command)"],
                               environment: ["BIN": PaywallBinary.binary.path])
  }

  static func newDirectory() -> String {
    Scratch.root.appendingPathComponent("paywall-tui-init-\(UUID().uuidString)").path
  }

  @Test func aNewProjectValidatesPlaysAndTests() throws {
    let parent = Self.newDirectory()
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    let created = try Self.shell(#""$BIN" init shop-paywalls"#, in: parent)
    #expect(created.status == 0, "\(created.stderr)")
    #expect(created.stdout.contains("created Shop Paywalls in shop-paywalls") && created.stdout.contains("cd shop-paywalls"))
    let dir = parent + "/shop-paywalls"
    let validate = try Self.shell(#""$BIN" validate . --strict"#, in: dir)
    #expect(validate.status == 0 && validate.stdout.isEmpty, "no error, no warning: \(validate.stdout)\(validate.stderr)")
    let test = try Self.shell(#""$BIN" test"#, in: dir)
    #expect(test.status == 0 && test.stdout.contains("1 passed, 0 failed"), "\(test.stdout)\(test.stderr)")
  }

  @Test(.requires(.jsonschema)) func theFilesSatisfyTheSchemasTheyName() throws {
    let dir = Self.newDirectory()
    #expect(try PaywallBinary.run(["init", dir]).status == 0)
    let check = try Self.shell("""
      python3 -c '
      import json, os, sys, jsonschema
      checked = 0
      for name in ["app.json", "catalog.json", "main.json", "winback.json"]:
          document = json.load(open(name))
          schema = json.load(open(document["$schema"]))
          jsonschema.Draft202012Validator.check_schema(schema)
          jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)
          checked += 1
      bad = json.load(open("main.json")); bad["components"][0]["type"] = "buton"
      try:
          jsonschema.validate(bad, json.load(open("paywall.schema.json")), cls=jsonschema.Draft202012Validator)
          print("a bad component passed")
      except jsonschema.ValidationError:
          print(checked, "ok")
      '
      """, in: dir)
    #expect(check.status == 0, "python3 with jsonschema: \(check.stderr)")
    #expect(check.stdout == "4 ok\n", "\(check.stdout)")
  }

  @Test func anExistingFileStopsItAndNothingIsWritten() throws {
    let dir = try Fixtures.directory(["main.json": "mine"])
    let before = try FileManager.default.contentsOfDirectory(atPath: dir)
    let result = try PaywallBinary.run(["init", dir])
    #expect(result.status == 2)
    #expect(result.stderr.contains("already has 'main.json'") && result.stderr.contains("nothing was written"), "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == before)
    #expect(try String(contentsOfFile: dir + "/main.json", encoding: .utf8) == "mine")
  }

  /// A symbolic link to nothing is there all the same: `init` refuses it as any existing file,
  /// and the link is left as it was (a rename over it would have lost it).
  @Test(arguments: ["app.json", "catalog.schema.json", "scenarios", "scenarios/buy-annual.play"])
  func aDanglingLinkStopsItAndIsLeftAlone(path: String) throws {
    let dir = try Fixtures.directory([:])
    if path.contains("/") { try FileManager.default.createDirectory(atPath: dir + "/scenarios", withIntermediateDirectories: true) }
    try FileManager.default.createSymbolicLink(atPath: dir + "/" + path, withDestinationPath: dir + "/nowhere/target")
    let result = try PaywallBinary.run(["init", dir])
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("already has '\(path)'") && result.stderr.contains("nothing was written"), "\(result.stderr)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + path) == dir + "/nowhere/target")
    #expect(!FileManager.default.fileExists(atPath: dir + "/nowhere"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == (path.contains("/") ? ["scenarios"] : [path]))
  }

  @Test(arguments: ["app", "catalog", "paywall"])
  func theBuiltInSchemasAreTheFiles(name: String) throws {
    let printed = try PaywallBinary.run(["schema", name])
    #expect(printed.status == 0)
    let file = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("paywalls/\(name).schema.json"), encoding: .utf8)
    #expect(printed.stdout == file,
            "Sources/PaywallCLI/Embedded/Schema-\(name).swift is generated from paywalls/\(name).schema.json: run python3 scripts/embed-schemas.py")
  }

  @Test func anUnknownSchemaGetsDidYouMean() throws {
    let result = try PaywallBinary.run(["schema", "paywal"])
    #expect(result.status == 2 && result.stderr.contains("did you mean 'paywall'?"), "\(result.stderr)")
  }
}

/// Found by review: `init` into an impossible place printed Foundation's error dump.
@Suite("init into odd places")
struct InitOddPlacesTests {
  @Test func aFileInThePathOrADanglingLinkIsSaidPlainly() throws {
    let dir = try Fixtures.directory(["afile": "x"])
    try FileManager.default.createSymbolicLink(atPath: dir + "/dang", withDestinationPath: "/nonexistent/paywall-tui")
    let file = try InitCommandTests.shell(#""$BIN" init afile/sub"#, in: dir)
    #expect(file.status == 2 && file.stderr == "error: 'afile' is a file, so 'afile/sub' cannot be a directory; give another DIR\n", "\(file.stderr)")
    let link = try InitCommandTests.shell(#""$BIN" init dang/x"#, in: dir)
    #expect(link.status == 2 && link.stderr.contains("'dang' is a link to something that does not exist"), "\(link.stderr)")
    #expect(!file.stderr.contains("NSCocoaErrorDomain") && !link.stderr.contains("NSCocoaErrorDomain"))
    let spaced = try InitCommandTests.shell(#""$BIN" init "my paywalls""#, in: dir)
    #expect(spaced.status == 0 && spaced.stdout.contains("cd 'my paywalls'"), "\(spaced.stdout)")
  }
}
