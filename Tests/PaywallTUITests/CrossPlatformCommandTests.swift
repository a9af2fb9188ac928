import Foundation
import PaywallModel
import PaywallTesting
import Testing

/// A cross-platform project through the binary: `import superwall` with both stores' catalogs,
/// `validate` checking both, and a session choosing its store with `--platform`.
@Suite("Cross-platform commands")
struct CrossPlatformCommandTests {
  static let example = "Examples/cross-platform"
  static let playCatalog = "Examples/android/play-catalog.json"

  /// A new directory holding an app.json with the example's two catalogs, `paywalls` and `options`.
  static func project(paywalls: String, options: String) throws -> String {
    let dir = ImportCommandTests.temporary()
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let root = Fixtures.repositoryRoot.path
    try #"""
      {"name": "x", "catalog": {"ios": "\#(root)/paywalls/acme.storekit", "android": "\#(root)/\#(playCatalog)"},
       "paywalls": \#(paywalls), "options": \#(options)}
      """#.write(toFile: dir + "/app.json", atomically: true, encoding: .utf8)
    return dir
  }

  @Test func importWithBothCatalogsWritesAProjectEachPlatformRuns() throws {
    let parent = ImportCommandTests.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    let config = Fixtures.repositoryRoot.appendingPathComponent(CrossPlatformFixture.path).path
    let out = parent + "/qa"
    let result = try PaywallBinary.run(["import", "superwall", config, "--catalog", "paywalls/acme.storekit", "--catalog", Self.playCatalog, "--out", out])
    #expect(result.status == 0, "\(result.stderr)")
    // Only the web product, which neither SDK sells, is skipped.
    let skipped = result.stderr.split(separator: "\n").filter { $0.contains("product skipped") }
    #expect(skipped.count == 1 && skipped[0].contains("its store is 'STRIPE'"), "\(result.stderr)")
    let validate = try PaywallBinary.run(["validate", out])
    #expect(validate.status == 0 && validate.stderr.contains("1 paywall, 2 products on ios, 1 product on android"), "\(validate.stderr)")
    for (platform, product) in [("ios", "com.acme.pro.annual"), ("android", "acme_pro:annual:sw-auto")] {
      let play = try PaywallBinary.run(["play", out, "--platform", platform, "--controller", "simulated", "--status", "inactive", "--keys", "enter"])
      #expect(play.status == 0, "\(play.stderr)")
      #expect(play.stdout.contains(#""event":"transaction_complete""#) && play.stdout.contains(#""product_id":"\#(product)""#), "\(platform): \(play.stdout)")
      // The project has this store's catalog: app.json's platform gives way to nothing.
      #expect(!play.stderr.contains("this session follows"), "\(play.stderr)")
    }
  }

  @Test func twoCatalogsMustBeOnePerStore() throws {
    let parent = ImportCommandTests.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let both = try PaywallBinary.run(["import", "superwall", ImportCommandTests.config, "--catalog", Self.playCatalog, "--catalog", Self.playCatalog,
                                      "--out", parent])
    #expect(both.status == 2 && both.stderr.contains("the App Store's (.storekit or our catalog .json) and the Google Play catalog; both are Google Play catalogs"),
            "\(both.stderr)")
    let platform = try PaywallBinary.run(["import", "superwall", ImportCommandTests.config, "--catalog", ImportCommandTests.storekit,
                                          "--catalog", Self.playCatalog, "--platform", "android", "--out", parent])
    #expect(platform.status == 2 && platform.stderr.contains("--platform and --sdk choose one store's SDK"), "\(platform.stderr)")
    #expect(!FileManager.default.fileExists(atPath: parent), "nothing is written")
  }

  /// An iPhone's App Store account and an Android phone's Play account are two ledgers: each
  /// store's sessions go on from a default state directory of its own, and `store --platform`
  /// reads that store's.
  @Test func eachStoreKeepsItsOwnDefaultStateDirectory() throws {
    let home = ImportCommandTests.temporary()
    defer { try? FileManager.default.removeItem(atPath: home) }
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let project = Fixtures.repositoryRoot.appendingPathComponent(Self.example).path
    // Each store has a directory of its own, whichever app.json follows: no store reads the
    // other's ledger when options.platform changes.
    func directory(_ store: SDKPlatform?) throws -> String {
      try #require(StateDirectory.resolve(explicit: nil, projectName: "Acme (both stores)", projectPath: project, store: store,
                                          environment: ["XDG_STATE_HOME": home])).path
    }
    #expect(try directory(.ios).contains("-ios-") && directory(.android).contains("-android-"))
    // A Play purchase in the Android side's directory, as a run with --platform android keeps it.
    let bought = try PaywallBinary.run(["play", project, "--platform", "android", "--controller", "simulated", "--status", "inactive",
                                        "--state-dir", try directory(.android), "--keys", "enter"])
    #expect(bought.status == 0, "\(bought.stderr)")
    let environment = ["XDG_STATE_HOME": home]
    let android = try PaywallBinary.run(["store", project, "--platform", "android"], environment: environment)
    #expect(android.status == 0 && android.stdout.contains("acme_pro:annual:sw-auto"), "\(android.stdout)\(android.stderr)")
    let ios = try PaywallBinary.run(["store", project], environment: environment)
    #expect(!ios.stdout.contains("acme_pro"), "the App Store side has no Play purchase: \(ios.stdout)")
    let iosDirectory = try directory(.ios)
    #expect(ios.stderr.contains("no ledger yet") && ios.stderr.contains(iosDirectory), "\(ios.stderr)")
    // The state the project kept with one catalog is read by neither store (it may be either's),
    // and said where it is.
    let earlier = try directory(nil)
    let before = try PaywallBinary.run(["play", "paywalls", "--controller", "simulated", "--status", "inactive", "--state-dir", earlier, "--keys", "enter"])
    #expect(before.status == 0, "\(before.stderr)")
    let noted = try PaywallBinary.run(["store", project], environment: environment)
    #expect(noted.stderr.contains("note: each store of this cross-platform project keeps its own state (ios: \(iosDirectory)); what it kept with one catalog is in \(earlier): --state-dir \(earlier) goes on from it"),
            "\(noted.stderr)")
    // A store's empty directory says how to fill it, on that store.
    let empty = try PaywallBinary.run(["store", project, "--platform", "android"], environment: ["XDG_STATE_HOME": home + "/none"])
    #expect(empty.stderr.contains("(paywall-tui play \(project) --platform android --state-dir "), "\(empty.stderr)")
    // On a project of one store, --platform is said to change nothing but the reading.
    let single = try PaywallBinary.run(["store", "Examples/android", "--platform", "ios"], environment: ["XDG_STATE_HOME": home])
    #expect(single.stderr.contains("warning: --platform ios: the project follows Superwall-Android (app.json's options) and has one catalog"), "\(single.stderr)")
  }

  @Test func renderDrawsEachStoresSide() throws {
    let ios = try PaywallBinary.run(["render", Self.example])
    let android = try PaywallBinary.run(["render", Self.example, "--platform", "android"])
    #expect(ios.status == 0 && ios.stdout.contains("Weekly"), "\(ios.stdout)\(ios.stderr)")
    #expect(android.status == 0 && android.stdout.contains("Acme Lifetime") && !android.stdout.contains("Weekly"), "\(android.stdout)\(android.stderr)")
    // On a project of one store, the choice draws that store's catalog, and says so.
    let single = try PaywallBinary.run(["render", "paywalls", "--platform", "android"])
    #expect(single.stderr.contains("warning: --platform android: the project follows Superwall-iOS (app.json's options) and has one catalog"), "\(single.stderr)")
  }

  /// A paywall file given alone beside a cross-platform app.json is validated as its project:
  /// each store's warnings, and a store its app.json names no catalog for is refused as the
  /// project's session would be.
  @Test func aPaywallFileAloneIsCheckedForEachStore() throws {
    let dir = try Self.project(paywalls: #"["p.json"]"#, options: "{}")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try #"""
      {"id": "p", "name": "P", "products": {"primary": {"ios": "com.acme.pro.annual", "android": "acme_pro:annual:sw-auto"}, "weekly": {"ios": "com.acme.pro.weekly"}},
       "components": [{"type": "products"}, {"type": "button", "label": "Weekly", "action": "purchase", "slot": "weekly"},
                      {"type": "button", "label": "Restore", "action": "restore"}, {"type": "button", "label": "Close", "action": "close"}]}
      """#.write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
    let result = try PaywallBinary.run(["validate", dir + "/p.json"])
    #expect(result.stdout.contains("warning: on android (Superwall-Android): slot 'weekly' has no product on Google Play"), "\(result.stdout)")
    #expect(result.stderr.contains("1 paywall, 2 products on ios, 1 product on android"), "\(result.stderr)")
    let root = Fixtures.repositoryRoot.path
    try #"{"name": "x", "catalog": {"ios": "\#(root)/paywalls/acme.storekit"}, "paywalls": ["p.json"]}"#
      .write(toFile: dir + "/app.json", atomically: true, encoding: .utf8)
    let refused = try PaywallBinary.run(["render", dir + "/p.json", "--platform", "android"])
    #expect(refused.status == 1 && refused.stderr.contains("app.json's 'catalog' names a catalog for ios only, and this session follows android"), "\(refused.stderr)")
  }

  /// A release app.json pins is its own store's: a session of the other store says it gives way.
  @Test func aPinnedReleaseOfOneStoreIsSaidToGiveWay() throws {
    let dir = try Self.project(paywalls: #"["\#(Fixtures.repositoryRoot.path)/\#(Self.example)/plans.json"]"#,
                               options: #"{"platform": "android", "sdk": "2.5"}"#)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let ios = try PaywallBinary.run(["play", dir, "--platform", "ios", "--keys", "q", "--controller", "simulated", "--status", "inactive"])
    #expect(ios.stderr.contains("warning: --platform ios: the project follows Superwall-Android 2.5 (app.json's options); this session follows Superwall-iOS"), "\(ios.stderr)")
    let android = try PaywallBinary.run(["play", Self.example, "--platform", "android", "--keys", "q", "--controller", "simulated", "--status", "inactive"])
    #expect(!android.stderr.contains("gives way") && !android.stderr.contains("this session follows"), "\(android.stderr)")
  }

  /// An import's second catalog that cannot be read is said as the first would be; a Play
  /// catalog given alone to an import for iOS says what to give instead.
  @Test func anImportsCatalogsAreCheckedAsOneWouldBe() throws {
    let parent = ImportCommandTests.temporary()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    let config = CrossPlatformFixture.path
    let missing = try PaywallBinary.run(["import", "superwall", config, "--catalog", "paywalls/acme.storekit", "--catalog", parent + "/nope.json", "--out", parent + "/qa"])
    #expect(missing.status == 1 && missing.stderr.contains("nope.json:1:1: error: no such file") && missing.stderr.contains("--catalog \(parent)/nope.json cannot be read; nothing was written"),
            "\(missing.stderr)")
    let playAlone = try PaywallBinary.run(["import", "superwall", config, "--catalog", Self.playCatalog, "--out", parent + "/qa"])
    #expect(playAlone.status == 1 && playAlone.stderr.contains("it is a Google Play catalog, and an import for iOS reads the APP_STORE products: pass the app's .storekit with --catalog, add --platform android"),
            "\(playAlone.stderr)")
    #expect(!FileManager.default.fileExists(atPath: parent + "/qa"))
  }

  /// A warning one store's session gives and the other's does not names its store; with
  /// `--start`, each store's offers are checked, at the slot's own store entry.
  @Test func validateNamesTheStoreOfAWarningOnlyOneStoreGives() throws {
    let dir = try Self.project(paywalls: #"["p.json"]"#, options: #"{"platform": "android"}"#)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try #"""
      {"id": "p", "name": "P",
       "products": {"primary": {"ios": {"product": "com.acme.pro.annual", "offer": "annual.winback"}, "android": "acme_pro:annual:sw-auto"}},
       "components": [{"type": "products"}, {"type": "button", "label": "Buy", "action": "purchase"},
                      {"type": "button", "label": "Restore", "action": "restore"}, {"type": "button", "label": "Close", "action": "close"}]}
      """#.write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
    let result = try PaywallBinary.run(["validate", dir, "--start", "new"])
    let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("[offer-eligibility]") }, "\(result.stdout)\(result.stderr)")
    #expect(line.contains("warning: on ios (Superwall-iOS): slot 'primary' sells com.acme.pro.annual with win-back offer 'annual.winback'"), "\(line)")
    #expect(line.hasSuffix("($.products.primary.ios.offer) [offer-eligibility]"), "\(line)")
  }

  @Test func validateChecksBothStoresAndSaysSo() throws {
    let result = try PaywallBinary.run(["validate", Self.example])
    #expect(result.status == 0)
    #expect(result.stderr.contains("ok: \(Self.example): 1 paywall, 4 products on ios, 3 products on android"), "\(result.stderr)")
    let json = try PaywallBinary.run(["validate", Self.example, "--json"])
    #expect(json.stdout.contains(#""productsByStore":{"ios":4,"android":3}"#), "\(json.stdout)")
  }

  /// A script buying, or having the app buy, a product only the other store sells fails there
  /// naming the store that sells it and the option that follows it, not "no product".
  @Test func buyingTheOtherStoresProductSaysWhichStoreSellsIt() throws {
    let dir = ImportCommandTests.temporary()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    for (platform, step, product, store) in [("ios", "buy", "acme_pro:annual:sw-auto", "Google Play"),
                                             ("ios", "call purchase", "acme_pro:annual:sw-auto", "Google Play"),
                                             ("android", "buy", "com.acme.pro.annual", "the App Store"),
                                             ("android", "call purchase", "com.acme.pro.annual", "the App Store")] {
      let script = dir + "/\(platform)-\(step.count).play"
      try "\(step) \(product)\n".write(toFile: script, atomically: true, encoding: .utf8)
      let play = try PaywallBinary.run(["play", Self.example, "--platform", platform, "--script", script])
      let other: String = platform == "ios" ? "android" : "ios"
      let said: String = play.stderr
      let named = said.contains("'\(product)': only \(store) sells it (") && said.contains("--platform \(other) plays that store")
      #expect(play.status == 1, "\(platform) \(step): \(said)")
      #expect(named && !said.contains("no product"), "\(platform) \(step): \(said)")
    }
  }

  /// One --state-dir given to both stores' sessions: the second store's refuses the first's
  /// ledger, says how to go on, and leaves it as it was; --fresh starts it over as its own.
  @Test func aStateDirectoryKeepsOneStoresLedger() throws {
    let dir = ImportCommandTests.temporary()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let state = dir + "/state", ledger = dir + "/state/ledger.json"
    try "buy com.acme.pro.annual\n".write(toFile: dir + "/ios.play", atomically: true, encoding: .utf8)
    try "buy acme_pro:monthly:sw-none\n".write(toFile: dir + "/android.play", atomically: true, encoding: .utf8)
    let ios = try PaywallBinary.run(["play", Self.example, "--platform", "ios", "--state-dir", state, "--script", dir + "/ios.play"])
    #expect(ios.status == 0, "\(ios.stderr)")
    let before = try String(contentsOfFile: ledger, encoding: .utf8)
    let android = try PaywallBinary.run(["play", Self.example, "--platform", "android", "--state-dir", state, "--script", dir + "/android.play"])
    let said: String = android.stderr
    #expect(android.status == 2, "\(said)")
    #expect(said.contains("\(ledger) is the App Store's ledger, and this session buys from Google Play; give this store a state directory of its own")
            && said.contains("--fresh to start this one over as Google Play's (--platform ios goes on with it)"), "\(said)")
    #expect(try String(contentsOfFile: ledger, encoding: .utf8) == before, "the App Store's ledger is left as it was")
    // `store` shows it for its own store only.
    let shown = try PaywallBinary.run(["store", Self.example, "--platform", "ios", "--state-dir", state])
    #expect(shown.status == 0 && shown.stdout.contains("com.acme.pro.annual"), "\(shown.stderr)")
    let refused = try PaywallBinary.run(["store", Self.example, "--platform", "android", "--state-dir", state])
    #expect(refused.status == 1 && refused.stdout.isEmpty, "\(refused.stdout)")
    #expect(refused.stderr.contains("\(ledger) is the App Store's ledger, and this project's catalog is Google Play's; --platform ios reads it"), "\(refused.stderr)")
    let fresh = try PaywallBinary.run(["play", Self.example, "--platform", "android", "--state-dir", state, "--fresh", "--script", dir + "/android.play"])
    #expect(fresh.status == 0, "\(fresh.stderr)")
    let after = try String(contentsOfFile: ledger, encoding: .utf8)
    #expect(after.contains(#""store":"playStore""#) && after.contains("acme_pro:monthly:sw-none") && !after.contains("com.acme.pro.annual"), "\(after)")
  }
}

/// `scenarios/projects/superwall-config/cross-platform.json`: a config selling one plan on both
/// stores and one on the App Store alone.
enum CrossPlatformFixture {
  static let path = "scenarios/projects/superwall-config/cross-platform.json"
}
