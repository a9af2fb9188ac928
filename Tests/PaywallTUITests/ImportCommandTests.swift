import Foundation
import PaywallTesting
import Testing

/// `paywall-tui import superwall`: what it writes, what it refuses, and a config as a project path.
@Suite("Import command")
struct ImportCommandTests {
  static let config = "scenarios/projects/superwall-config/config.json"
  static let storekit = "scenarios/projects/superwall-config/acme.storekit"

  static func temporary() -> String {
    Scratch.root.appendingPathComponent("paywall-tui-import-\(UUID().uuidString)").path
  }

  @Test func importWritesAProjectThatValidatesAndExplains() throws {
    let parent = Self.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let out = parent + "/project"
    let result = try PaywallBinary.run(["import", "superwall", Self.config, "--catalog", Self.storekit, "--out", out])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("wrote \(out): 5 placements, 3 paywalls"), "\(result.stdout)")
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
    let validate = try PaywallBinary.run(["validate", out])
    #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
    let explain = try PaywallBinary.run(["explain", out, "campaign_trigger", "--user", "plan=pro", "--state-dir", parent + "/state"])
    #expect(explain.status == 0, "\(explain.stderr)")
    #expect(explain.stdout.contains("→ skipped (holdout)"))
    // getPresentationResult's experiment carries the dashboard's ids.
    let json = try PaywallBinary.run(["explain", out, "campaign_trigger", "--user", "plan=pro", "--json", "--state-dir", parent + "/state"])
    #expect(json.stdout.contains("\"experiment\":{\"id\":\"101\",\"groupId\":\"campaign_trigger\",\"variant\":{\"id\":\"1001\",\"type\":\"HOLDOUT\""), "\(json.stdout)")
  }

  static func importing(_ config: String = config, into out: String, force: Bool = false) throws -> PaywallBinary.Output {
    try PaywallBinary.run(["import", "superwall", config, "--catalog", Self.storekit, "--out", out] + (force ? ["--force"] : []))
  }

  /// A directory import did not write (a checkout, the user's notes) is refused, with --force
  /// too, and nothing in it is touched.
  @Test func aDirectoryHoldingOtherFilesIsRefusedEvenWithForce() throws {
    let parent = Self.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let out = parent + "/project"
    try FileManager.default.createDirectory(atPath: out + "/.git", withIntermediateDirectories: true)
    try "keep me".write(toFile: out + "/notes.txt", atomically: true, encoding: .utf8)
    try "[core]".write(toFile: out + "/.git/config", atomically: true, encoding: .utf8)
    let refused = try Self.importing(into: out)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("\(out) is not empty (.git, notes.txt); choose an empty or new directory"), "\(refused.stderr)")
    let forced = try Self.importing(into: out, force: true)
    #expect(forced.status == 1)
    #expect(forced.stderr.contains("\(out) holds files import did not write (.git, notes.txt); --force replaces only what import wrote"), "\(forced.stderr)")
    #expect(try String(contentsOfFile: out + "/notes.txt", encoding: .utf8) == "keep me")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [".git", "notes.txt"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["project"], "no temporary directory left")
  }

  /// Imported again with --force, a project import wrote has its files replaced (and listed),
  /// a paywall no longer in the config removed, and everything else in it kept: the checkout,
  /// the notes, the config itself.
  @Test func forceReplacesOnlyWhatImportWroteAndListsIt() throws {
    let parent = Self.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let out = parent + "/project"
    #expect(try Self.importing(into: out).status == 0)
    try FileManager.default.createDirectory(atPath: out + "/.git", withIntermediateDirectories: true)
    try "[core]".write(toFile: out + "/.git/config", atomically: true, encoding: .utf8)
    try "keep me".write(toFile: out + "/notes.txt", atomically: true, encoding: .utf8)
    // The config kept beside the project it makes, and imported from there.
    let config = out + "/config.json"
    try FileManager.default.copyItem(atPath: Fixtures.repositoryRoot.appendingPathComponent(Self.config).path, toPath: config)
    // A paywall an older import wrote that the config no longer has.
    let manifest = out + "/.paywall-tui-import"
    let listed = try String(contentsOfFile: manifest, encoding: .utf8)
    #expect(listed.contains("\"paywalls/pw_gated_annual.json\""), "\(listed)")
    try listed.replacingOccurrences(of: "\"app.json\",", with: "\"app.json\", \"paywalls/pw_gone.json\",")
      .write(toFile: manifest, atomically: true, encoding: .utf8)
    try "{}".write(toFile: out + "/paywalls/pw_gone.json", atomically: true, encoding: .utf8)
    try "edited".write(toFile: out + "/app.json", atomically: true, encoding: .utf8)

    let forced = try Self.importing(config, into: out, force: true)
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(forced.stdout.contains("replaced: app.json, paywalls/pw_gated_annual.json, paywalls/pw_nongated_monthly.json, paywalls/pw_v3_products.json"), "\(forced.stdout)")
    #expect(forced.stdout.contains("removed: paywalls/pw_gone.json (no longer in the config)"), "\(forced.stdout)")
    #expect(forced.stdout.contains("kept: .git, config.json, notes.txt (not written by import)"), "\(forced.stdout)")
    #expect(try String(contentsOfFile: out + "/notes.txt", encoding: .utf8) == "keep me")
    #expect(try String(contentsOfFile: out + "/.git/config", encoding: .utf8) == "[core]")
    #expect(FileManager.default.fileExists(atPath: config))
    #expect(!FileManager.default.fileExists(atPath: out + "/paywalls/pw_gone.json"))
    #expect(try String(contentsOfFile: out + "/app.json", encoding: .utf8).contains("\"experimentId\""))
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["project"], "no temporary directory left")
    #expect(try PaywallBinary.run(["validate", out]).status == 0)
  }

  /// A paywall file import would write that the user made (not in the list of what import wrote),
  /// a list naming a path out of the project, and a config that is one of the files import would
  /// replace are each refused with --force, and nothing is touched.
  @Test func forceRefusesToReplaceWhatItDidNotWriteOrIsReading() throws {
    let parent = Self.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let out = parent + "/project"
    #expect(try Self.importing(into: out).status == 0)
    let manifest = out + "/.paywall-tui-import"
    let listed = try String(contentsOfFile: manifest, encoding: .utf8)

    // The user's own file where an import would write.
    try listed.replacingOccurrences(of: "\"paywalls/pw_v3_products.json\"", with: "\"paywalls/other.json\"")
      .write(toFile: manifest, atomically: true, encoding: .utf8)
    try "mine".write(toFile: out + "/paywalls/pw_v3_products.json", atomically: true, encoding: .utf8)
    let theirs = try Self.importing(into: out, force: true)
    #expect(theirs.status == 1)
    #expect(theirs.stderr.contains("would replace \(out)/paywalls/pw_v3_products.json, which import did not write"), "\(theirs.stderr)")
    #expect(try String(contentsOfFile: out + "/paywalls/pw_v3_products.json", encoding: .utf8) == "mine")

    // A list that names a file out of the project (a hostile or damaged one).
    try "victim".write(toFile: parent + "/victim.txt", atomically: true, encoding: .utf8)
    try #"{"written_by": "paywall-tui import", "files": ["app.json", "../victim.txt"]}"#.write(toFile: manifest, atomically: true, encoding: .utf8)
    let hostile = try Self.importing(into: out, force: true)
    #expect(hostile.status == 1)
    #expect(hostile.stderr.contains("\(manifest): '../victim.txt' is not a file import writes"), "\(hostile.stderr)")
    #expect(FileManager.default.fileExists(atPath: parent + "/victim.txt"))

    // The config being imported is one of the files import would replace.
    try listed.write(toFile: manifest, atomically: true, encoding: .utf8)
    try FileManager.default.removeItem(atPath: out + "/paywalls/pw_v3_products.json")
    try FileManager.default.removeItem(atPath: out + "/app.json")
    try FileManager.default.copyItem(atPath: Fixtures.repositoryRoot.appendingPathComponent(Self.config).path, toPath: out + "/app.json")
    let reading = try Self.importing(out + "/app.json", into: out, force: true)
    #expect(reading.status == 1)
    #expect(reading.stderr.contains("would replace \(out)/app.json, the config being imported; import into another directory"), "\(reading.stderr)")
    #expect(try String(contentsOfFile: out + "/app.json", encoding: .utf8).contains("trigger_options"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent).sorted() == ["project", "victim.txt"], "no temporary directory left")
  }

  /// A file the last import wrote that is now something else (a directory, a link) is refused
  /// before the first file is replaced: files were renamed one at a time, so a directory at the
  /// last paywall's name left app.json and the first paywalls new and the rest old.
  @Test func forceRefusesAListedFileThatIsNoLongerAFileAndChangesNothing() throws {
    let parent = Self.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let out = parent + "/project"
    #expect(try Self.importing(into: out).status == 0)
    try "edited".write(toFile: out + "/app.json", atomically: true, encoding: .utf8)
    try "old".write(toFile: out + "/paywalls/pw_gated_annual.json", atomically: true, encoding: .utf8)
    let last = out + "/paywalls/pw_v3_products.json"
    try FileManager.default.removeItem(atPath: last)
    try FileManager.default.createDirectory(atPath: last, withIntermediateDirectories: true)
    try "inside".write(toFile: last + "/note.txt", atomically: true, encoding: .utf8)
    let manifest = try String(contentsOfFile: out + "/.paywall-tui-import", encoding: .utf8)

    let forced = try Self.importing(into: out, force: true)
    #expect(forced.status == 1, "\(forced.stdout)\(forced.stderr)")
    #expect(forced.stderr.contains("--force would replace \(last), which is a directory, not a file import wrote"), "\(forced.stderr)")
    #expect(try String(contentsOfFile: out + "/app.json", encoding: .utf8) == "edited")
    #expect(try String(contentsOfFile: out + "/paywalls/pw_gated_annual.json", encoding: .utf8) == "old")
    #expect(try String(contentsOfFile: last + "/note.txt", encoding: .utf8) == "inside")
    #expect(try String(contentsOfFile: out + "/.paywall-tui-import", encoding: .utf8) == manifest)
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["project"], "no temporary directory left")

    // A link there is refused the same way (renaming over it would leave the link's target stale).
    try FileManager.default.removeItem(atPath: last)
    #expect(symlink(parent + "/elsewhere.json", last) == 0)
    let linked = try Self.importing(into: out, force: true)
    #expect(linked.status == 1, "\(linked.stdout)\(linked.stderr)")
    #expect(linked.stderr.contains("--force would replace \(last), which is a symbolic link, not a file import wrote"), "\(linked.stderr)")
    #expect(try String(contentsOfFile: out + "/app.json", encoding: .utf8) == "edited")
  }

  @Test func aBadConfigWritesNothingAndExitsOne() throws {
    let parent = Self.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    var text = try String(contentsOfFile: Fixtures.repositoryRoot.appendingPathComponent(Self.config).path, encoding: .utf8)
    text = text.replacingOccurrences(of: "\"paywall_identifier\": \"pw_v3_products\"", with: "\"paywall_identifier\": \"pw_v3_product\"")
    let file = parent + "/config.json"
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    let result = try PaywallBinary.run(["import", "superwall", file, "--catalog", Self.storekit, "--out", parent + "/project"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("error: no paywall 'pw_v3_product' in paywall_responses; did you mean 'pw_v3_products'? ($.trigger_options[1].rules[0].variants[0].paywall_identifier)"),
            "\(result.stderr)")
    #expect(result.stderr.contains("nothing was written"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["config.json"])
    let truncated = parent + "/truncated.json"
    try String(text.prefix(500)).write(toFile: truncated, atomically: true, encoding: .utf8)
    let syntax = try PaywallBinary.run(["validate", truncated, "--catalog", Self.storekit])
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
    let result = try PaywallBinary.run(["import", "superwall", Self.config, "--catalog", Self.storekit, "--out", out, "--layout", layout])
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
    let bad = try PaywallBinary.run(["import", "superwall", Self.config, "--catalog", Self.storekit, "--out", parent + "/other", "--layout", layout])
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("error: unknown key 'titel'; did you mean 'title'? ($.titel)"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: parent + "/other"))
  }

  @Test func usageErrorsExitTwo() throws {
    let noOut = try PaywallBinary.run(["import", "superwall", Self.config])
    #expect(noOut.status == 2)
    #expect(noOut.stderr.contains("import needs --out DIR"))
    let source = try PaywallBinary.run(["import", "superwal", Self.config, "--out", Self.temporary()])
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
    let result = try PaywallBinary.run(["import", "superwall", file, "--catalog", storekit, "--out", parent + "/project"])
    #expect(result.status == 0, "\(result.stderr)")
    let said = result.stdout + result.stderr
    #expect(said.contains("placement 'campaign_trigger\\n$(touch PWNED)' has a line break in it") && said.contains("($.trigger_options[0].event_name)"), "\(said)")
    #expect(said.contains("placement 'upgrade ' begins or ends with a space") && said.contains("($.trigger_options[1].event_name)"), "\(said)")
    let validate = try PaywallBinary.run(["validate", file, "--catalog", storekit])
    let warnings = (validate.stdout + validate.stderr).split(separator: "\n").filter { $0.contains("no app") }
    #expect(warnings.count == 2 && warnings.allSatisfy { $0.hasPrefix(file + ":") && $0.contains(".event_name)") }, "\(warnings)")
    let placements = try PaywallBinary.run(["completions", "placements", parent + "/project"])
    #expect(placements.stdout.split(separator: "\n").sorted() == ["app_launch", "legacy_rule", "pro_feature", "upgrade "], "\(placements.stdout)")
  }

  @Test func aConfigIsAProjectPath() throws {
    let validate = try PaywallBinary.run(["validate", Self.config, "--catalog", Self.storekit])
    #expect(validate.status == 0, "\(validate.stdout)")
    #expect(validate.stderr.contains("ok: \(Self.config): 3 paywalls, 3 products"), "the paywalls' products: \(validate.stderr)")
    let render = try PaywallBinary.run(["render", Self.config, "--catalog", Self.storekit, "--paywall", "pw_gated_annual", "--color", "never"])
    #expect(render.status == 0, "\(render.stderr)")
    #expect(render.stdout.contains("Unlock Acme Pro"))
    #expect(render.stdout.contains("Start your 7-day free trial"))
  }
}

/// A config that sells nothing needs no prices; a rule that cannot be read is reported as itself.
@Suite("Import without a catalog")
struct ImportWithoutCatalogTests {
  /// The scenario project's config with every paywall's products taken out: holdouts and
  /// paywalls that sell nothing, as a team's first config often is.
  static func configWithoutProducts(in directory: String) throws -> String {
    let data = try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(ImportCommandTests.config))
    var config = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    config["paywall_responses"] = try #require(config["paywall_responses"] as? [[String: Any]]).map { paywall in
      var paywall = paywall
      for key in ["products", "products_v2"] where paywall[key] != nil { paywall[key] = [] as [Any] }
      return paywall
    }
    let path = directory + "/config.json"
    try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func aConfigThatNamesNoProductImportsWithoutACatalog() throws {
    let parent = try Fixtures.directory([:])
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let config = try Self.configWithoutProducts(in: parent)
    let out = parent + "/project"
    let result = try PaywallBinary.run(["import", "superwall", config, "--out", out])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!result.stderr.contains("--catalog"), "\(result.stderr)")
    #expect(result.stdout.contains("wrote \(out): 5 placements, 3 paywalls"), "\(result.stdout)")
    // The project points at a catalog the import wrote, listed with its other files.
    let catalog = try String(contentsOfFile: out + "/catalog.json", encoding: .utf8)
    #expect(catalog.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\n", with: "") == #"{"products":[]}"#)
    let manifest = try String(contentsOfFile: out + "/.paywall-tui-import", encoding: .utf8)
    #expect(manifest.contains("\"catalog.json\""), "\(manifest)")
    let validate = try PaywallBinary.run(["validate", out])
    #expect(validate.status == 0 && validate.stderr.contains("ok: \(out): 3 paywalls, 0 products"), "\(validate.stdout)\(validate.stderr)")
    // Imported again, with or without a catalog: the import's own catalog.json is replaced or
    // removed like its other files.
    let again = try PaywallBinary.run(["import", "superwall", config, "--out", out, "--force"])
    #expect(again.status == 0, "\(again.stderr)")
    let storekit = Fixtures.repositoryRoot.appendingPathComponent(ImportCommandTests.storekit).path
    let priced = try PaywallBinary.run(["import", "superwall", config, "--catalog", storekit, "--out", out, "--force"])
    #expect(priced.status == 0, "\(priced.stderr)")
    #expect(priced.stdout.contains("removed: catalog.json (no longer in the config)"), "\(priced.stdout)")
    #expect(!FileManager.default.fileExists(atPath: out + "/catalog.json"))
    let back = try PaywallBinary.run(["import", "superwall", config, "--out", out, "--force"])
    #expect(back.status == 0 && FileManager.default.fileExists(atPath: out + "/catalog.json"), "\(back.stderr)")
    // Given where a project is expected, the config needs no catalog either.
    let direct = try PaywallBinary.run(["explain", config, "campaign_trigger"])
    #expect(direct.status == 0 && direct.stdout.hasPrefix("placement 'campaign_trigger'"), "\(direct.stdout)\(direct.stderr)")
  }

  /// A config of holdouts only (no paywall at all) is a project of placements, not a catalog.
  @Test func aConfigOfHoldoutsValidatesAsItsPlacements() throws {
    let parent = try Fixtures.directory([:])
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let path = try Self.configWithoutProducts(in: parent)
    var config = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    config["paywall_responses"] = [] as [Any]
    config["trigger_options"] = try #require(config["trigger_options"] as? [[String: Any]]).map { trigger in
      var trigger = trigger
      trigger["rules"] = try #require(trigger["rules"] as? [[String: Any]]).map { rule in
        var rule = rule
        rule["variants"] = [["variant_type": "HOLDOUT", "variant_id": "h\(rule["experiment_id"] ?? "")", "percentage": 100]]
        return rule
      }
      return trigger
    }
    try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
    let validate = try PaywallBinary.run(["validate", path])
    #expect(validate.status == 0, "\(validate.stderr)")
    #expect(validate.stderr.hasSuffix("ok: \(path): 5 placements, no paywall, 0 products\n"), "\(validate.stderr)")
  }

  @Test func aConfigThatSellsSomethingStillAsksForItsPrices() throws {
    let parent = try Fixtures.directory([:])
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let config = parent + "/config.json"
    try FileManager.default.copyItem(atPath: Fixtures.repositoryRoot.appendingPathComponent(ImportCommandTests.config).path, toPath: config)
    let result = try PaywallBinary.run(["import", "superwall", config, "--out", parent + "/project"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("\(config):1:1: error: a Superwall config names product ids, not prices: pass --catalog FILE"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: parent + "/project"))
  }

  /// A trigger whose only rule lacks a key the SDK requires: the error names the key at the rule;
  /// "has no rules" would name the consequence as the cause.
  @Test func anUnreadableRuleIsTheErrorNotANoRulesWarning() throws {
    let parent = try Fixtures.directory([:])
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let path = try Self.configWithoutProducts(in: parent)
    var config = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    var triggers = try #require(config["trigger_options"] as? [[String: Any]])
    var rules = try #require(triggers[0]["rules"] as? [[String: Any]])
    rules = [rules[0]]
    rules[0]["preload"] = nil
    triggers[0]["rules"] = rules
    config["trigger_options"] = triggers
    try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
    let result = try PaywallBinary.run(["import", "superwall", path, "--out", parent + "/project"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("error: missing required key 'preload' (the SDK requires it) ($.trigger_options[0].rules[0])"), "\(result.stderr)")
    #expect(!result.stderr.contains("has no rules"), "\(result.stderr)")
  }
}
