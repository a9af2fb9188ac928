import Foundation
import PaywallModel
@testable import PaywallCLI
import PaywallScenarios
import PaywallTesting
import Testing

/// What CI and a QA engineer meet first: a scenario's `# args:` paths read from its own folder,
/// a misspelt placement or entitlement in a script refused with a did-you-mean, warnings silenced
/// by name, `validate`'s JSON agreeing with its exit status and counting a catalog's products, and
/// `run --record` making its folder and naming its project relative to itself.
@Suite("CI ergonomics")
struct CIErgonomicsTests {
  static func temporaryDirectory() throws -> String {
    let path = Scratch.root.appendingPathComponent("paywall-tui-ci-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// `run` from `directory` (the other helpers run from the repository root).
  static func run(_ arguments: [String], in directory: String) throws -> PaywallBinary.Output {
    let quoted = ([PaywallBinary.binary.path] + arguments).map(ShellWord.quoted).joined(separator: " ")
    return try PaywallBinary.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", "cd \(ShellWord.quoted(directory)) && exec \(quoted)"])
  }

  // MARK: `# args:` from the scenario's folder

  /// What `init` writes runs from the project, from its parent and from the repository root.
  @Test func anInitProjectsScenarioRunsFromAnyDirectory() throws {
    let parent = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    #expect(try Self.run(["init", "shop"], in: parent).status == 0)
    let scenario = try String(contentsOfFile: parent + "/shop/scenarios/buy-annual.play", encoding: .utf8)
    #expect(scenario.hasPrefix("# args: .. "), "\(scenario)")
    for (directory, path) in [(parent + "/shop", "scenarios"), (parent, "shop/scenarios"), (parent + "/shop/scenarios", ".")] {
      let test = try Self.run(["test", path], in: directory)
      #expect(test.status == 0 && test.stdout.contains("1 passed, 0 failed"), "from \(directory): \(test.stdout)\(test.stderr)")
      #expect(test.stderr.isEmpty, "from \(directory): \(test.stderr)")
    }
    // From the repository root, as CI runs it: `play FILE.play` reads the line the same way.
    let fromRoot = try PaywallBinary.run(["test", parent + "/shop/scenarios"])
    #expect(fromRoot.status == 0 && fromRoot.stdout.contains("1 passed"), "\(fromRoot.stdout)\(fromRoot.stderr)")
    let play = try PaywallBinary.run(["play", parent + "/shop/scenarios/buy-annual.play"])
    #expect(play.status == 0, "\(play.stderr)")
  }

  /// This repository's scenarios run from inside their folder too.
  @Test func theRepositoryScenariosRunFromTheirOwnFolder() throws {
    let folder = Fixtures.repositoryRoot.appendingPathComponent("scenarios").path
    let test = try Self.run(["test", ".", "--filter", "^(purchase-trial|superwall-config-as-project|sdk-T35-purchased-result)\\.play$"], in: folder)
    #expect(test.status == 0 && test.stdout.contains("3 passed, 0 failed"), "\(test.stdout)\(test.stderr)")
    #expect(test.stderr.isEmpty, "\(test.stderr)")
  }

  /// A scenario written before the rule (its path from the current directory) still runs, with
  /// one warning that says how to write the path now.
  @Test func aPathFromTheCurrentDirectoryStillWorksWithAWarning() throws {
    let folder = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Fixtures.passingScenario.write(toFile: folder + "/old.play", atomically: true, encoding: .utf8)
    let test = try PaywallBinary.run(["test", folder + "/old.play"])
    #expect(test.status == 0 && test.stdout.contains("1 passed"), "\(test.stdout)\(test.stderr)")
    let written = ScenarioPaths.relative(Fixtures.demoDirectory, from: folder)
    #expect(test.stderr == "\(folder)/old.play:1: warning: the project 'paywalls' is read from the current directory; a path on the '# args:' line is relative to the file's folder (\(folder)): write '\(written)'\n",
            "\(test.stderr)")
    // Written that way, it runs with no warning.
    try Fixtures.passingScenario.replacingOccurrences(of: "# args: paywalls", with: "# args: \(written)")
      .write(toFile: folder + "/old.play", atomically: true, encoding: .utf8)
    let again = try PaywallBinary.run(["test", folder + "/old.play"])
    #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stdout)\(again.stderr)")
  }

  @Test(arguments: [
    ("/a/b/scenarios", "/a/b/paywalls", "../paywalls"),
    ("/a/b", "/a/b", "."),
    ("/a/b/", "/a/b/c/d.json", "c/d.json"),
    ("/x/y", "/a/b", "../../a/b"),
    ("/a/./b/../c", "/a/c/p", "p"),
  ])
  func relativePaths(folder: String, target: String, expected: String) {
    #expect(ScenarioPaths.relative(target, from: folder) == expected)
  }

  // MARK: names in scripts

  /// `redeem CODE`: a code the catalog lacks is an error at its column before anything runs; a
  /// code the user may not redeem stops the run at its line, saying why.
  @Test func anOfferCodeTheCatalogLacksOrTheUserMayNotRedeemIsAnErrorAtItsLine() throws {
    let folder = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let typo = folder + "/typo.play"
    try "advance 1d\nredeem ACMEFRIEND\n".write(toFile: typo, atomically: true, encoding: .utf8)
    let play = try PaywallBinary.run(["play", "paywalls", "--home", "--script", typo])
    #expect(play.status == 2, "\(play.stdout)\(play.stderr)")
    #expect(play.stderr.hasPrefix("\(typo):2:8: error: 'redeem ACMEFRIEND': no offer code 'ACMEFRIEND' in the catalog; did you mean 'ACMEFRIENDS'? (codes: ACMEFRIENDS)"),
            "\(play.stderr)")
    let subscriber = folder + "/subscriber.play"
    try "buy com.acme.pro.annual\nredeem ACMEFRIENDS\nexpect status active:pro\n".write(toFile: subscriber, atomically: true, encoding: .utf8)
    let refused = try PaywallBinary.run(["play", "paywalls", "--home", "--script", subscriber])
    #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
    #expect(refused.stderr.contains("\(subscriber):2: 'redeem ACMEFRIENDS' did nothing: offer code 'ACMEFRIENDS' (com.acme.pro.monthly) is for new, expired customers; this user is subscribed in its group now"),
            "\(refused.stderr)")
  }

  /// A redeemed code is a transaction on its offer: `store` shows its type and id, in text and JSON.
  @Test func aRedeemedOfferCodeShowsInTheStore() throws {
    let folder = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let script = folder + "/redeem.play"
    try "redeem ACMEFRIENDS\n".write(toFile: script, atomically: true, encoding: .utf8)
    let play = try PaywallBinary.run(["play", "paywalls", "--home", "--state-dir", folder + "/state", "--script", script])
    #expect(play.status == 0, "\(play.stderr)")
    let store = try PaywallBinary.run(["store", "paywalls", "--state-dir", folder + "/state"])
    #expect(store.stdout.contains("purchase  com.acme.pro.monthly  2026-01-01 00:00:00  2026-04-01 00:00:00  freeTrial · code offer ACMEFRIENDS · 0"),
            "\(store.stdout)")
    let json = try PaywallBinary.run(["store", "paywalls", "--state-dir", folder + "/state", "--json"])
    #expect(json.stdout.contains(#""offerType":"code","offerID":"ACMEFRIENDS""#), "\(json.stdout)")
  }

  @Test func aMisspeltPlacementInAScriptIsAnErrorWithADidYouMean() throws {
    let folder = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let script = folder + "/typo.play"
    try "user plan=free\nplacement onbaording\nexpect event paywall_open\n".write(toFile: script, atomically: true, encoding: .utf8)
    let play = try PaywallBinary.run(["play", "paywalls", "--script", script])
    #expect(play.status == 2, "\(play.stdout)\(play.stderr)")
    #expect(play.stderr.hasPrefix("\(script):2:11: error: 'placement onbaording': no campaign has the placement 'onbaording'; did you mean 'onboarding'? (placements: "),
            "\(play.stderr)")
    #expect(play.stderr.contains("write 'placement unknown onbaording'"))
    #expect(play.stdout.isEmpty, "nothing ran: \(play.stdout)")
    // Under test the scenario fails with that message; it never passes as a skip.
    try ("# args: \(Fixtures.demoDirectory) --home --controller scripted --status inactive\nplacement onbaording\n")
      .write(toFile: script, atomically: true, encoding: .utf8)
    let test = try PaywallBinary.run(["test", script])
    #expect(test.status == 1 && test.stdout.contains("did you mean 'onboarding'?"), "\(test.stdout)")
  }

  @Test func anUnknownEntitlementInAScriptIsAnErrorWithADidYouMean() throws {
    let folder = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let script = folder + "/typo.play"
    try "press enter\nexpect status active:prro\nstatus active:pro,lifetme\n".write(toFile: script, atomically: true, encoding: .utf8)
    let play = try PaywallBinary.run(["play", "paywalls", "--script", script])
    #expect(play.status == 2)
    let said: [String] = play.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }
    let expected: [String] = [
      "\(script):2:22: error: 'expect status active:prro': no product grants the entitlement 'prro'; did you mean 'pro'? (entitlements: lifetime, pro)",
      "\(script):3:19: error: 'status active:pro,lifetme': no product grants the entitlement 'lifetme'; did you mean 'lifetime'? (entitlements: lifetime, pro)",
    ]
    #expect(said == expected, "\(play.stderr)")
  }

  /// A placement no campaign has, registered on purpose, still gives the SDK's placementNotFound;
  /// naming one the project has that way is a mistake too.
  @Test func placementUnknownRegistersANameNoCampaignHas() throws {
    let folder = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let script = folder + "/unknown.play"
    try "placement unknown no_such_placement\nexpect event handler.onSkip placement=no_such_placement reason=placementNotFound\n"
      .write(toFile: script, atomically: true, encoding: .utf8)
    let play = try PaywallBinary.run(["play", "paywalls", "--home", "--script", script])
    #expect(play.status == 0, "\(play.stderr)")
    try "placement unknown onboarding\n".write(toFile: script, atomically: true, encoding: .utf8)
    let wrong = try PaywallBinary.run(["play", "paywalls", "--home", "--script", script])
    #expect(wrong.status == 2 && wrong.stderr.contains("the project has a campaign on 'onboarding'; write 'placement onboarding'"), "\(wrong.stderr)")
  }

  // MARK: validate

  /// A project whose one paywall has no close button: one warning, `no-close-button`.
  static func projectWithoutACloseButton(ignore: String? = nil) throws -> String {
    let app = """
      {"catalog": "catalog.json", "paywalls": ["main.json"]\(ignore.map { #", "ignore": [\#($0)]"# } ?? "")}
      """
    return try Fixtures.directory([
      "app.json": app,
      "catalog.json": acmeCatalogJSON,
      "main.json": """
        {"id": "main", "name": "Main", "products": {"primary": "com.acme.pro.monthly"},
         "components": [{"type": "products"}, {"type": "button", "label": "Buy", "action": "purchase"},
                        {"type": "button", "label": "Restore", "action": "restore"}]}
        """,
    ])
  }

  @Test func aWarningHasANameThatAllowSilences() throws {
    let project = try Self.projectWithoutACloseButton()
    defer { try? FileManager.default.removeItem(atPath: project) }
    let strict = try PaywallBinary.run(["validate", project, "--strict"])
    #expect(strict.status == 1)
    #expect(strict.stdout.hasSuffix(" ($.components) [no-close-button]\n") && strict.stdout.contains(": warning: paywall 'main' cannot be closed"), "\(strict.stdout)")
    let allowed = try PaywallBinary.run(["validate", project, "--strict", "--allow", "no-close-button"])
    #expect(allowed.status == 0 && allowed.stdout.isEmpty, "\(allowed.stdout)\(allowed.stderr)")
    let other = try PaywallBinary.run(["validate", project, "--strict", "--allow", "trial-copy"])
    #expect(other.status == 1, "another name silences nothing else")
    let typo = try PaywallBinary.run(["validate", project, "--allow", "no-close-buton"])
    #expect(typo.status == 2 && typo.stderr == "error: --allow 'no-close-buton' names no warning; did you mean 'no-close-button'?\n", "\(typo.stderr)")
    // In JSON and in GitHub's annotations the name is there too.
    let json = try PaywallBinary.run(["validate", project, "--format", "json"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.map { $0["name"] as? String } == ["no-close-button"])
    let github = try PaywallBinary.run(["validate", project, "--format", "github"])
    #expect(github.stdout.hasPrefix("::warning ") && github.stdout.hasSuffix("($.components) [no-close-button]\n"), "\(github.stdout)")
  }

  @Test func appJSONsIgnoreListSilencesAWarningByName() throws {
    let project = try Self.projectWithoutACloseButton(ignore: #""no-close-button""#)
    defer { try? FileManager.default.removeItem(atPath: project) }
    let strict = try PaywallBinary.run(["validate", project, "--strict"])
    #expect(strict.status == 0 && strict.stdout.isEmpty, "\(strict.stdout)\(strict.stderr)")
    let typo = try Self.projectWithoutACloseButton(ignore: #""no-close-buton""#)
    defer { try? FileManager.default.removeItem(atPath: typo) }
    let bad = try PaywallBinary.run(["validate", typo])
    #expect(bad.status == 1)
    #expect(bad.stdout.contains("/app.json:1:") && bad.stdout.contains("error: 'ignore' names no warning 'no-close-buton'; did you mean 'no-close-button'? ($.ignore[0])"),
            "\(bad.stdout)")
  }

  /// Every warning kind has a name app.json's schema accepts, and each name is different.
  @Test func theSchemaListsEveryWarningName() throws {
    let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("paywalls/app.schema.json"))) as? [String: Any]
    let ignore = (schema?["properties"] as? [String: Any])?["ignore"] as? [String: Any]
    #expect((ignore?["items"] as? [String: Any])?["enum"] as? [String] == WarningKind.names)
    #expect(Set(WarningKind.names).count == WarningKind.allCases.count)
  }

  @Test func jsonsOkAgreesWithTheExitStatus() throws {
    let project = try Self.projectWithoutACloseButton()
    defer { try? FileManager.default.removeItem(atPath: project) }
    for (extra, status, ok) in [([String](), Int32(0), true), (["--strict"], 1, false), (["--strict", "--allow", "no-close-button"], 0, true)] {
      let json = try PaywallBinary.run(["validate", project, "--format", "json"] + extra)
      let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
      #expect(json.status == status && document["ok"] as? Bool == ok, "\(extra): exit \(json.status), \(json.stdout)")
    }
  }

  @Test func validatingACatalogCountsItsProducts() throws {
    // Both hold the demo's six products (the same catalog, in our format and Xcode's).
    for (file, count) in [("paywalls/acme.storekit", 6), ("paywalls/catalog.json", 6)] {
      let validate = try PaywallBinary.run(["validate", file])
      #expect(validate.status == 0)
      #expect(validate.stderr == "ok: \(file): a catalog of \(count) products\n", "\(validate.stderr)")
    }
    let json = try PaywallBinary.run(["validate", "paywalls/acme.storekit", "--json"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let path = try #require((document["paths"] as? [[String: Any]])?.first)
    #expect(path["paywalls"] as? Int == 0 && path["products"] as? Int == 6, "\(json.stdout)")
  }

  // MARK: run --record

  /// The recording's folder is made, and the recording names the project from there: moved with
  /// the project to another place (another machine), it replays from any directory.
  @Test func runRecordMakesItsFolderAndTheRecordingTravelsWithTheProject() throws {
    let pane = try TmuxPane("""
      mkdir "$DIR/app" && cp -R paywalls "$DIR/app/paywalls" && cd "$DIR/app"
      "$BIN" run paywalls --fresh --status inactive --state-dir "$DIR/state" --record qa/bugs/session.play
      echo $? > "$DIR/exit"
      """)
    pane.wait(forText: "● Annual", within: 60)
    try pane.send("3")
    pane.wait(forText: "● Lifetime")
    try pane.send("q")
    pane.wait(forText: "Placements")
    try pane.send("q")
    #expect(pane.wait(forFile: "exit", within: 30) == "0")
    let recording = pane.directory + "/app/qa/bugs/session.play"
    let text = try String(contentsOfFile: recording, encoding: .utf8)
    #expect(text.hasPrefix("# args: ../../paywalls --user-id "), "\(text)")
    // Elsewhere, as another machine would have it.
    let moved = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: moved) }
    try FileManager.default.copyItem(atPath: pane.directory + "/app", toPath: moved + "/checkout")
    let replay = try PaywallBinary.run(["play", moved + "/checkout/qa/bugs/session.play", "--screen"])
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(replay.stdout.contains("Placements"), "\(replay.stdout)")
    #expect(replay.stderr.isEmpty, "\(replay.stderr)")
  }
}
