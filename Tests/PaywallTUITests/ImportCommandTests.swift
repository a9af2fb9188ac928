import Foundation
import Testing

/// `paywall-tui import superwall`: what it writes, what it refuses, and a config as a project path.
@Suite("Import command")
struct ImportCommandTests {
  static let config = "scenarios/projects/superwall-config/config.json"
  static let storekit = "scenarios/projects/superwall-config/acme.storekit"

  static func temporary() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("paywall-tui-import-\(UUID().uuidString)").path
  }

  @Test func importWritesAProjectThatValidatesAndExplains() throws {
    let parent = Self.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let out = parent + "/project"
    let result = try CommandLineTests.run(["import", "superwall", Self.config, "--catalog", Self.storekit, "--out", out])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("wrote \(out): 4 placements, 3 paywalls"))
    let files = try FileManager.default.contentsOfDirectory(atPath: out + "/paywalls").sorted()
    #expect(files == ["pw_gated_annual.json", "pw_nongated_monthly.json", "pw_v3_products.json"])
    // Nothing is left beside it: the temporary directory was renamed into place.
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["project"])
    let app = try String(contentsOfFile: out + "/app.json", encoding: .utf8)
    #expect(app.contains("\"experimentId\": \"102\""))
    // The catalog is named relative to the project when they share a directory, else absolutely;
    // either way it leads to the .storekit given (the clone may live anywhere, /tmp too).
    let object = try JSONSerialization.jsonObject(with: Data(app.utf8)) as? [String: Any]
    let catalog = try #require(object?["catalog"] as? String)
    let resolved = catalog.hasPrefix("/") ? catalog : (out as NSString).appendingPathComponent(catalog)
    #expect(URL(fileURLWithPath: resolved).standardizedFileURL.resolvingSymlinksInPath().path
              == Fixtures.repositoryRoot.appendingPathComponent(Self.storekit).standardizedFileURL.resolvingSymlinksInPath().path, "\(catalog)")
    let validate = try CommandLineTests.run(["validate", out])
    #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
    let explain = try CommandLineTests.run(["explain", out, "campaign_trigger", "--user", "plan=pro", "--state-dir", parent + "/state"])
    #expect(explain.status == 0, "\(explain.stderr)")
    #expect(explain.stdout.contains("→ skipped (holdout)"))
    // getPresentationResult's experiment carries the dashboard's ids.
    let json = try CommandLineTests.run(["explain", out, "campaign_trigger", "--user", "plan=pro", "--json", "--state-dir", parent + "/state"])
    #expect(json.stdout.contains("\"experiment\":{\"id\":\"101\",\"groupId\":\"campaign_trigger\",\"variant\":{\"id\":\"1001\",\"type\":\"HOLDOUT\""), "\(json.stdout)")
  }

  @Test func aNonEmptyDirectoryIsRefusedUnlessForced() throws {
    let parent = Self.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let out = parent + "/project"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    try "keep me".write(toFile: out + "/notes.txt", atomically: true, encoding: .utf8)
    let refused = try CommandLineTests.run(["import", "superwall", Self.config, "--catalog", Self.storekit, "--out", out])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("\(out) is not empty; choose an empty or new directory, or pass --force to replace it"))
    #expect(FileManager.default.fileExists(atPath: out + "/notes.txt"))
    let forced = try CommandLineTests.run(["import", "superwall", Self.config, "--catalog", Self.storekit, "--out", out, "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out + "/notes.txt"))
    #expect(FileManager.default.fileExists(atPath: out + "/app.json"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["project"])
  }

  @Test func aBadConfigWritesNothingAndExitsOne() throws {
    let parent = Self.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    var text = try String(contentsOfFile: Fixtures.repositoryRoot.appendingPathComponent(Self.config).path, encoding: .utf8)
    text = text.replacingOccurrences(of: "\"paywall_identifier\": \"pw_v3_products\"", with: "\"paywall_identifier\": \"pw_v3_product\"")
    let file = parent + "/config.json"
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    let result = try CommandLineTests.run(["import", "superwall", file, "--catalog", Self.storekit, "--out", parent + "/project"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("error: no paywall 'pw_v3_product' in paywall_responses; did you mean 'pw_v3_products'? ($.trigger_options[1].rules[0].variants[0].paywall_identifier)"),
            "\(result.stderr)")
    #expect(result.stderr.contains("nothing was written"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["config.json"])
    let truncated = parent + "/truncated.json"
    try String(text.prefix(500)).write(toFile: truncated, atomically: true, encoding: .utf8)
    let syntax = try CommandLineTests.run(["validate", truncated, "--catalog", Self.storekit])
    #expect(syntax.status == 1)
    #expect(syntax.stdout.contains("error: invalid JSON"))
  }

  @Test func aLayoutChoosesTheSubstitutions() throws {
    let parent = Self.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    let layout = parent + "/layout.json"
    try #"{"title": "bullet-2", "texts": ["bullet-1", "missing-key"], "features": ["Subtitle"], "close": "Purchase Primary"}"#
      .write(toFile: layout, atomically: true, encoding: .utf8)
    let out = parent + "/project"
    let result = try CommandLineTests.run(["import", "superwall", Self.config, "--catalog", Self.storekit, "--out", out, "--layout", layout])
    #expect(result.status == 0, "\(result.stderr)")
    func components(_ file: String) throws -> [[String: Any]] {
      let data = try Data(contentsOf: URL(fileURLWithPath: out + "/paywalls/" + file))
      let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      return try #require(object["components"] as? [[String: Any]])
    }
    let gated = try components("pw_gated_annual.json")
    #expect(gated.first?["type"] as? String == "title")
    #expect(gated.first?["text"] as? String == "Sync on every device")
    #expect(gated[1]["text"] as? String == "Unlimited projects")
    #expect(gated.contains { $0["type"] as? String == "features" && ($0["items"] as? [String])?.first?.hasPrefix("Hey") == true })
    #expect(gated.contains { $0["action"] as? String == "close" && $0["label"] as? String == "Subscribe for {{ primary.price }}" })
    // The paywall without those keys keeps the guess.
    #expect(try components("pw_nongated_monthly.json").first?["text"] as? String == "Go monthly")

    try #"{"titel": "Heading"}"#.write(toFile: layout, atomically: true, encoding: .utf8)
    let bad = try CommandLineTests.run(["import", "superwall", Self.config, "--catalog", Self.storekit, "--out", parent + "/other", "--layout", layout])
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("error: unknown key 'titel'; did you mean 'title'? ($.titel)"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: parent + "/other"))
  }

  @Test func usageErrorsExitTwo() throws {
    let noOut = try CommandLineTests.run(["import", "superwall", Self.config])
    #expect(noOut.status == 2)
    #expect(noOut.stderr.contains("import needs --out DIR"))
    let source = try CommandLineTests.run(["import", "superwal", Self.config, "--out", Self.temporary()])
    #expect(source.status == 2)
    #expect(source.stderr.contains("did you mean 'superwall'?"))
  }

  /// A trigger's `event_name` becomes a placement: one no app could type (a line break, an outer
  /// space) is warned about at that key, by `import` and by a config given as a project, once;
  /// the project is still written, and its completion leaves the line-break name out.
  @Test func anEventNameNoAppCouldTypeIsWarnedAboutAtItsKey() throws {
    let parent = Self.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    var config = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.config))) as? [String: Any])
    var triggers = try #require(config["trigger_options"] as? [[String: Any]])
    triggers[0]["event_name"] = "campaign_trigger\n$(touch PWNED)"
    triggers[1]["event_name"] = "upgrade "
    config["trigger_options"] = triggers
    let file = parent + "/config.json"
    try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: file))
    let storekit = Fixtures.repositoryRoot.appendingPathComponent(Self.storekit).path
    let result = try CommandLineTests.run(["import", "superwall", file, "--catalog", storekit, "--out", parent + "/project"])
    #expect(result.status == 0, "\(result.stderr)")
    let said = result.stdout + result.stderr
    #expect(said.contains("placement 'campaign_trigger\\n$(touch PWNED)' has a line break in it") && said.contains("($.trigger_options[0].event_name)"), "\(said)")
    #expect(said.contains("placement 'upgrade ' begins or ends with a space") && said.contains("($.trigger_options[1].event_name)"), "\(said)")
    let validate = try CommandLineTests.run(["validate", file, "--catalog", storekit])
    let warnings = (validate.stdout + validate.stderr).split(separator: "\n").filter { $0.contains("no app") }
    #expect(warnings.count == 2 && warnings.allSatisfy { $0.hasPrefix(file + ":") && $0.contains(".event_name)") }, "\(warnings)")
    let placements = try CommandLineTests.run(["completions", "placements", parent + "/project"])
    #expect(placements.stdout.split(separator: "\n").sorted() == ["legacy_rule", "pro_feature", "upgrade "], "\(placements.stdout)")
  }

  @Test func aConfigIsAProjectPath() throws {
    let validate = try CommandLineTests.run(["validate", Self.config, "--catalog", Self.storekit])
    #expect(validate.status == 0, "\(validate.stdout)")
    #expect(validate.stderr.contains("ok: \(Self.config): 3 paywalls, 3 products"), "the paywalls' products: \(validate.stderr)")
    let render = try CommandLineTests.run(["render", Self.config, "--catalog", Self.storekit, "--paywall", "pw_gated_annual", "--color", "never"])
    #expect(render.status == 0, "\(render.stderr)")
    #expect(render.stdout.contains("Unlock Acme Pro"))
    #expect(render.stdout.contains("Start your 7-day free trial"))
  }
}
