// paywall-bench: the project's performance figures, measured in one run.
//   .build/release/paywall-bench [--quick] [--render-only | --ledger-only | --test-only | --status-only | --superwall-only]
//   (built as CONTRIBUTING.md's Benchmarks section gives, with paywall-tui beside it)
// 1. parse + validate a generated 5,000-product .storekit file (target < 120 ms), with Foundation's
//    JSONSerialization parsing the same bytes as the peer (it keeps no positions and validates nothing);
// 2. render of the onboarding paywall at 80x24 and 200x60 (target >= 25,000 frames/s at 80x24), and
//    its 80x24 frame as an SVG (`render --format svg`): bytes and time;
// 3. subscription status changes delivered to 3 observers (target >= 1,200,000 changes/s; `--status-only`
//    runs just that);
// 4. `paywall-tui play` of 1,000 scripted purchase-restore cycles (target <= 300 ms, the release binary, its stdout a pipe read to the end, the median of 5 after one run not counted);
// 4b. `paywall-tui play` of 1,000 purchases each revoked at once, the ledger saved after every line
//    (target <= 3 s: LedgerSavesBench.swift);
// 5. the subscription status derived from a ledger of 100,000 transactions (target < 15 ms);
// 6. `paywall-tui play` of `advance 100y` and `advance 1000y` on a monthly subscription (target
//    < 80 ms for 1000y, linear in the years), beside the same run's `advance 1d` (start-up and the
//    purchase) and the store alone advancing 1000 years in process.
// 7. `paywall-tui test` of 1,000 scenarios (copies of the real ones in scenarios/) on all cores
//    (target < 3.5 s on 2 cores), beside the same with `--process-per-scenario`, with the cost per
//    scenario: wall time, CPU time, and the floor (one `play` of an empty script: process start and
//    project load). `--test-only` runs just that.
// Each figure is also printed beside its peer from the same run, with the ratio, as a `= …` line
// (Figure.swift) that scripts/perf-table.py turns into README.md's performance table. A figure that
// misses its bar prints FAIL and the run ends with status 1.
// 8. the import of a generated 5 MB Superwall config, 400 placements and 400 paywalls (target
//    <= 2.0× JSONSerialization's parse, goal 1.5×), beside JSONSerialization parsing it (`--superwall-only` runs just that one), and
//    its linearity: N and 4N placements and paywalls, the time ratio bound to 6 (linear: 4), and
//    again with paywall ids that all give one file name.
import Foundation
import PaywallModel
import PaywallScenarios
import TerminalCore
import PaywallUI

let quick = CommandLine.arguments.contains("--quick")
/// Runs only the ledger derivation benchmark.
let ledgerOnly = CommandLine.arguments.contains("--ledger-only")
/// Skips the parse benchmark, for profiling render alone.
let renderOnly = CommandLine.arguments.contains("--render-only")
/// Runs only the `paywall-tui test` benchmark.
let testOnly = CommandLine.arguments.contains("--test-only")
/// Runs only the Superwall config import benchmark.
let superwallOnly = CommandLine.arguments.contains("--superwall-only")
/// Runs only the status-changes benchmark (for profiling the store's delivery).
let statusOnly = CommandLine.arguments.contains("--status-only")

func seconds(_ body: () throws -> Void) rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

/// A .storekit file as Xcode writes it, with `count` products: a fifth one-time products, the rest
/// subscriptions in groups of 40, every third with a free trial and every seventh a paid intro.
func generateStoreKit(count: Int) -> String {
  func localizations(_ name: String) -> String {
    #"[ { "description" : "\#(name) for benchmarking", "displayName" : "\#(name)", "locale" : "en_US" } ]"#
  }
  let oneTime = count / 5
  var products: [String] = []
  for i in 0..<oneTime {
    products.append("""
        {
          "displayPrice" : "\(i % 50).99", "familyShareable" : false, "internalID" : "\(100_000 + i)",
          "localizations" : \(localizations("Item \(i)")),
          "productID" : "com.bench.item\(i)", "referenceName" : "Item \(i)",
          "type" : "\(i % 2 == 0 ? "Consumable" : "NonConsumable")"
        }
      """)
  }
  var groups: [String] = []
  let periods = ["P1W", "P1M", "P3M", "P6M", "P1Y"]
  var index = 0
  var group = 0
  while index < count - oneTime {
    var subscriptions: [String] = []
    for level in 1...40 where index < count - oneTime {
      var intro = ""
      if index % 3 == 0 {
        intro = #""introductoryOffer" : { "internalID" : "9\#(index)", "numberOfPeriods" : 1, "paymentMode" : "free", "subscriptionPeriod" : "P1W" },"#
      } else if index % 7 == 0 {
        intro = #""introductoryOffer" : { "displayPrice" : "0.99", "internalID" : "9\#(index)", "numberOfPeriods" : 3, "paymentMode" : "payAsYouGo", "subscriptionPeriod" : "P1M" },"#
      }
      subscriptions.append("""
            {
              "adHocOffers" : [ ], "codeOffers" : [ ], "displayPrice" : "\(index % 90 + 1).99", "familyShareable" : false,
              "groupNumber" : \(level), "internalID" : "\(200_000 + index)", \(intro)
              "localizations" : \(localizations("Plan \(index)")),
              "productID" : "com.bench.plan\(index)", "recurringSubscriptionPeriod" : "\(periods[index % periods.count])",
              "referenceName" : "Plan \(index)", "subscriptionGroupID" : "\(300_000 + group)", "type" : "RecurringSubscription"
            }
        """)
      index += 1
    }
    groups.append("""
        { "id" : "\(300_000 + group)", "localizations" : [ ], "name" : "Group \(group)", "subscriptions" : [
      \(subscriptions.joined(separator: ",\n"))
        ] }
      """)
    group += 1
  }
  return """
    {
      "identifier" : "BENCH",
      "nonRenewingSubscriptions" : [ ],
      "products" : [
    \(products.joined(separator: ",\n"))
      ],
      "settings" : { "_askToBuyEnabled" : false, "_locale" : "en_US", "_storefront" : "USA", "_timeRate" : 0 },
      "subscriptionGroups" : [
    \(groups.joined(separator: ",\n"))
      ],
      "version" : { "major" : 4, "minor" : 0 }
    }
    """
}

if statusOnly {
  benchmarkStatusChanges(changes: quick ? 200_000 : 1_000_000)
  finishFigures()
  exit(0)
}

// MARK: 1. parse + validate

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("paywall-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let storekitURL = directory.appendingPathComponent("Bench.storekit")
let storekit = generateStoreKit(count: 5_000)
try storekit.write(to: storekitURL, atomically: true, encoding: .utf8)

if superwallOnly {
  try benchmarkSuperwallImport(directory: directory, runs: quick ? 5 : 15)
  try benchmarkSuperwallLinearity(directory: directory, n: quick ? 2_000 : 5_000, runs: 3)
  try benchmarkSuperwallLinearity(directory: directory, n: quick ? 1_000 : 2_500, runs: 3, idPrefix: String(repeating: "A", count: 80))
  try? FileManager.default.removeItem(at: directory)
  exit(0)
}

let runs = renderOnly || ledgerOnly || testOnly ? 0 : quick ? 5 : 25
var ours: [Double] = []
var peer: [Double] = []
var productCount = 0
for _ in 0..<runs {
  ours.append(seconds {
    let result = ProjectLoader.load(path: storekitURL.path)
    productCount = result.project?.catalog.products.count ?? -1
    precondition(result.errors.isEmpty, "\(result.errors.prefix(3))")
  })
  peer.append(try seconds {
    let data = try Data(contentsOf: storekitURL)
    _ = try JSONSerialization.jsonObject(with: data)
  })
}
if runs > 0 {
print("parse+validate .storekit, \(productCount) products, \(storekit.utf8.count / 1024) KiB (median of \(runs)):")
print(String(format: "  paywall-tui ProjectLoader   %7.1f ms   (target < 120 ms)", median(ours) * 1000))
print(String(format: "  peer: JSONSerialization     %7.1f ms   (parse only: no positions, no validation)", median(peer) * 1000))
figure("storekit-load", "load a 5,000-product .storekit (parse + validate)", ours: median(ours) * 1000, peer: median(peer) * 1000,
       unit: "ms", peerName: "Foundation JSONSerialization, parse only", target: "< 120 ms", bar: .atMost(120))
}

// MARK: 2. render

let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("paywalls").path
guard let project = ProjectLoader.load(path: demo).project, let onboarding = project.paywall(id: "onboarding") else {
  fatalError("cannot load the demo project at \(demo)")
}
let screen = PaywallScreenState(paywall: ResolvedPaywall(onboarding, catalog: project.catalog))
for size in ledgerOnly || testOnly ? [] : [Size(width: 80, height: 24), Size(width: 200, height: 60)] {
  var frames = 0
  var checksum = 0
  let budget = quick ? 0.3 : 1.5
  let elapsed = seconds {
    let start = DispatchTime.now().uptimeNanoseconds
    while Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < budget {
      for _ in 0..<100 {
        let frame = PaywallRenderer.render(screen, size: size)
        checksum &+= frame.cells.count
      }
      frames += 100
    }
  }
  let perSecond = Double(frames) / elapsed
  print(String(format: "render onboarding at %@: %9.0f frames/s  (%.1f µs a frame, %.3f%% of a 60 Hz frame)%@",
               size.description, perSecond, 1e6 / perSecond, 100 * (1 / perSecond) / (1.0 / 60),
               size.width == 80 ? "  (target >= 25,000)" : ""))
  precondition(checksum > 0)
  if size.width == 80 {
    figure("render-80x24", "render the onboarding paywall at 80x24, a frame", ours: 1e6 / perSecond, peer: 1e6 / 60, unit: "µs",
           peerName: "a 60 Hz display's frame (a budget, not measured)", target: ">= 25,000 frames/s (<= 40 µs)", bar: .atMost(40))
  }
}

// MARK: 2b. the same frame as a picture (`render --format svg`)

if !ledgerOnly && !testOnly {
  let frame = PaywallRenderer.render(screen, size: Size(width: 80, height: 24))
  var pictures = 0
  var bytes = 0
  let budget = quick ? 0.3 : 1.5
  let elapsed = seconds {
    let start = DispatchTime.now().uptimeNanoseconds
    while Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < budget {
      for _ in 0..<10 { bytes = FramePicture.svg(frame, title: "onboarding").utf8.count }
      pictures += 10
    }
  }
  print(String(format: "svg of onboarding at 80x24: %d bytes, %.1f µs a picture (the frame drawn, to SVG text)",
               bytes, 1e6 * elapsed / Double(pictures)))
}

// MARK: 3. status changes to 3 observers

if !renderOnly && !ledgerOnly && !testOnly {
  benchmarkStatusChanges(changes: quick ? 200_000 : 1_000_000)
}

// MARK: 4. play of 1,000 purchase-restore cycles

if !renderOnly && !ledgerOnly && !testOnly {
  let cycles = quick ? 200 : 1_000
  let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("paywall-tui")
  if FileManager.default.isExecutableFile(atPath: binary.path) {
    // Each cycle: buy (the paywall closes), open it again, restore (closes: the status is active), open again.
    // (`open`, not enter: on the closed screen enter registers a placement from the home screen.)
    var script = "expect event paywall_open\n"
    for _ in 0..<cycles {
      script += "press enter\nexpect event transaction_complete\nopen onboarding\npress r\nexpect event restore_complete\nopen onboarding\n"
    }
    let scriptURL = directory.appendingPathComponent("cycles.play")
    try script.write(to: scriptURL, atomically: true, encoding: .utf8)
    // The median of several runs, each from a fresh state: a shared machine's noise moves one
    // run by a third.
    var lines = 0
    var runs: [Double] = []
    // One run first, not counted: after the benchmarks before it, the median of the five was
    // 341–371 ms without it and 257–262 ms with it, and a harness of its own, alone, measured
    // 263–273 ms (this machine, the same hour). What the first run pays for was not found.
    _ = spawnReading(binary.path, ["play", demo, "--controller", "scripted", "--fresh", "--status", "inactive",
                                   "--state-dir", directory.appendingPathComponent("state-warm").path, "--script", scriptURL.path])
    for run in 0..<(quick ? 1 : 5) {
      // Its stdout is a pipe read to the end, as a consumer of the lines reads them (`| jq`), with
      // read(2) into one buffer: Foundation's Process and FileHandle cost this harness a third as
      // much again as the play itself.
      var status: Int32 = -1
      runs.append(seconds {
        (lines, status) = spawnReading(binary.path, ["play", demo, "--controller", "scripted", "--fresh", "--status", "inactive",
                                                     "--state-dir", directory.appendingPathComponent("state-\(run)").path,
                                                     "--script", scriptURL.path])
      })
      precondition(status == 0, "play failed with status \(status)")
    }
    let elapsed = median(runs)
    print(String(format: "play of %d scripted purchase-restore cycles: %7.1f ms  (median of %d; %d event lines; the whole process)  (target <= 300 ms for 1,000)",
                 cycles, elapsed * 1000, runs.count, lines))
    // The peer: the same play of an empty script (process start, project load, first paywall).
    let empty = directory.appendingPathComponent("cycles-empty.play")
    try "".write(to: empty, atomically: true, encoding: .utf8)
    var floors: [Double] = []
    for _ in 0..<(quick ? 3 : 11) {
      floors.append(seconds {
        _ = spawnQuietly(binary.path, ["play", demo, "--controller", "scripted", "--fresh", "--status", "inactive", "--script", empty.path])
      })
    }
    figure("play-cycles", "play of \(cycles) purchase-restore cycles, the whole process", ours: elapsed * 1000, peer: median(floors) * 1000,
           unit: "ms", peerName: "the same play of an empty script (start, load)", target: "<= 300 ms", bar: .atMost(300))
    benchmarkLedgerSaves(binary: binary, demo: demo, directory: directory, pairs: quick ? 200 : 1_000)
  } else {
    print("play benchmark skipped: build paywall-tui in release first, as CONTRIBUTING.md's Benchmarks section gives")
  }
}

// MARK: 5. the status derived from a ledger of 100,000 transactions

/// A ledger as the store writes it: 100 subscription groups renewing weekly for years, with
/// cancels and returns, billing issues with grace and their fixes, upgrades to an annual plan,
/// downgrades back at renewal and refunds mixed in, until it holds `transactions` transactions.
func benchmarkLedger(transactions: Int) -> (Catalog, [LedgerEntry], Date) {
  var products: [StoreProduct] = []
  for g in 0..<100 {
    let entitlement: Set<Entitlement> = [Entitlement("feature\(g % 10)")]
    products.append(StoreProduct(id: "bench.g\(g).weekly", displayName: "Weekly \(g)", price: Decimal(string: "4.99")!,
                                 kind: .autoRenewable, subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .week),
                                 subscriptionGroup: "g\(g)", groupLevel: 2, entitlements: entitlement))
    products.append(StoreProduct(id: "bench.g\(g).annual", displayName: "Annual \(g)", price: Decimal(string: "59.99")!,
                                 kind: .autoRenewable, subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .year),
                                 introductoryOffer: IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week)),
                                 subscriptionGroup: "g\(g)", groupLevel: 1, entitlements: entitlement))
  }
  let catalog = Catalog(products: products)
  let clock = SimulatedTimeSource()
  let store = SimulatedStore(catalog: catalog, status: SubscriptionStatusStore(), clock: clock, directory: nil)
  var seed: UInt64 = 0x2545_F491_4F6C_DD1D
  func random(_ n: Int) -> Int {
    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((seed >> 33) % UInt64(n))
  }
  for g in 0..<100 { store.purchaseNow(catalog.products[2 * g]) }
  while store.derived.transactionCount < transactions {
    clock.advance(by: 7 * 86_400)
    store.refreshStatus()
    for _ in 0..<4 {
      let g = random(100)
      let weekly = catalog.products[2 * g]
      switch random(12) {
      case 0: store.perform(.cancel(productID: nil))
      case 1, 2: store.purchaseNow(weekly)  // a return, or auto-renewal back on
      case 3: store.perform(.billingIssue(productID: nil, grace: true))
      case 4: store.perform(.resolveBilling(productID: nil))
      case 5: store.purchaseNow(catalog.products[2 * g + 1])  // an upgrade
      case 6: store.perform(.downgrade(productID: weekly.id))
      case 7: store.perform(.refund(productID: nil))
      default: break
      }
    }
  }
  // The lines up to the 100,000th transaction: a prefix of a ledger is a ledger. Runs of
  // renewals (one line each) count as the renewals they stand for.
  var count = 0
  let entries = Array(store.entries.prefix { entry in
    if count >= transactions { return false }
    if entry.kind.isTransaction { count += entry.occurrences }
    return true
  })
  return (catalog, entries, entries.last!.date)
}

if !renderOnly && !testOnly {
  let (catalog, entries, end) = benchmarkLedger(transactions: 100_000)
  let rules = StoreRules()
  var derived: DerivedState?
  var times: [Double] = []
  for _ in 0..<(quick ? 5 : 21) {
    times.append(seconds { derived = LedgerDerivation.derive(entries, catalog: catalog, rules: rules, at: end) })
  }
  let state = derived!
  precondition(state.transactionCount >= 100_000 && state.issues.isEmpty, "\(state.transactionCount) \(state.issues.prefix(3))")
  let kinds = Dictionary(grouping: entries, by: \.kind).mapValues { $0.reduce(0) { $0 + $1.occurrences } }
  let mix = ["renewal", "upgrade", "downgrade", "refund", "billingRetry", "expiry"].map { name in
    "\(kinds[LedgerEntry.Kind(rawValue: name)!] ?? 0) \(name)"
  }.joined(separator: ", ")
  print(String(format: "derive the status from a ledger of 100,000 transactions (%d lines: %@): %6.2f ms median of %d, %@  (target < 15 ms)",
               entries.count, mix, median(times) * 1000, times.count, state.status.isActive ? "active" : "inactive"))
  // From actions alone the derivation generates every renewal itself (calendar arithmetic included).
  let actions = entries.filter { !$0.kind.isLifecycleRecord }
  let fromActions = seconds { _ = LedgerDerivation.derive(actions, catalog: catalog, rules: rules, at: end) }
  print(String(format: "  the same from its %d actions alone (every renewal generated):  %6.2f ms", actions.count, fromActions * 1000))
  figure("ledger-derive", "status derived from a 100,000-transaction ledger", ours: median(times) * 1000, peer: fromActions * 1000,
         unit: "ms", peerName: "the same from its actions alone (every renewal generated)", target: "< 15 ms", bar: .atMost(15), decimals: 2)
}

// MARK: 6. play: advance through centuries of renewals

/// Runs a program with its output to /dev/null and waits for it: its wait status (0 for exit 0).
/// posix_spawn and waitpid, not Process, whose wait on Linux polls (it would round these to 50 ms).
/// Runs `path` with `arguments`, stdout a pipe read here to its end with read(2), stderr
/// /dev/null: the lines read, and the wait status.
func spawnReading(_ path: String, _ arguments: [String]) -> (lines: Int, status: Int32) {
  var ends: [Int32] = [-1, -1]
  guard pipe(&ends) == 0 else { return (0, -1) }
  var actions = SpawnPlatform.emptyFileActions()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
  posix_spawn_file_actions_addclose(&actions, ends[0])
  posix_spawn_file_actions_addclose(&actions, ends[1])
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, path, &actions, nil, argv, SpawnPlatform.environment) == 0
  close(ends[1])
  defer { close(ends[0]) }
  guard spawned else { return (0, -1) }
  var lines = 0
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
    if count > 0 {
      for byte in buffer[0..<count] where byte == 0x0A { lines += 1 }
    } else if count < 0 && errno == EINTR {
      continue
    } else {
      break
    }
  }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  return (lines, status)
}

func spawnQuietly(_ path: String, _ arguments: [String]) -> Int32 {
  var actions = SpawnPlatform.emptyFileActions()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  var pid: pid_t = 0
  guard posix_spawn(&pid, path, &actions, nil, argv, SpawnPlatform.environment) == 0 else { return -1 }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  return status
}

if !renderOnly && !ledgerOnly && !testOnly {
  let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("paywall-tui")
  if FileManager.default.isExecutableFile(atPath: binary.path) {
    /// Runs `play` of a monthly purchase and one advance, on a fresh state directory: the whole
    /// process, median of `runs`, and the size of the ledger it leaves.
    func play(advance duration: String, runs: Int) throws -> (Double, Int) {
      let script = directory.appendingPathComponent("advance-\(duration).play")
      try "buy com.acme.pro.monthly\nadvance \(duration)\nexpect status active:pro\n".write(to: script, atomically: true, encoding: .utf8)
      var times: [Double] = []
      var size = 0
      for run in 0..<runs {
        let state = directory.appendingPathComponent("advance-\(duration)-\(run)")
        var status: Int32 = -1
        times.append(seconds {
          status = spawnQuietly(binary.path, ["play", demo, "--controller", "simulated", "--fresh", "--status", "inactive",
                                              "--state-dir", state.path, "--script", script.path])
        })
        precondition(status == 0, "play advance \(duration) failed with wait status \(status)")
        size = (try? FileManager.default.attributesOfItem(atPath: state.appendingPathComponent("ledger.json").path)[.size] as? Int) ?? -1
      }
      return (median(times), size)
    }
    let runs = quick ? 3 : 7
    let (floor, _) = try play(advance: "1d", runs: runs)
    let (century, centurySize) = try play(advance: "100y", runs: runs)
    let (millennium, millenniumSize) = try play(advance: "1000y", runs: runs)
    print("play: advance on a monthly subscription (the whole process, median of \(runs)):")
    print(String(format: "  advance 1000y   %7.1f ms   (11,992 renewals; ledger %d bytes)  (target < 80 ms)", millennium * 1000, millenniumSize))
    print(String(format: "  advance 100y    %7.1f ms   (1,199 renewals; ledger %d bytes)", century * 1000, centurySize))
    print(String(format: "  advance 1d      %7.1f ms   (start-up and the purchase: the floor)", floor * 1000))
    print(String(format: "  above the floor: 1000y %.1f ms, 100y %.1f ms (%.1f× for 10× the years)",
                 (millennium - floor) * 1000, (century - floor) * 1000, (millennium - floor) / max(century - floor, 1e-6)))
    // The store's part of that advance, in process: what play's loop asks of it (the next status
    // change ahead, then one catch-up and one ledger write), for 100 and 1000 years.
    let catalog = try Catalog.load(path: demo + "/catalog.json")
    let monthly = catalog.product(id: "com.acme.pro.monthly")!
    func storeAdvance(years: Double) -> Double {
      var times: [Double] = []
      for run in 0..<runs {
        let state = StateDirectory(path: directory.appendingPathComponent("store-\(Int(years))y-\(run)").path)
        let clock = SimulatedTimeSource()
        let store = SimulatedStore(catalog: catalog, status: SubscriptionStatusStore(), clock: clock, directory: state, fresh: true)
        store.purchaseNow(monthly)
        let end = clock.now.addingTimeInterval(years * 365 * 86_400)
        times.append(seconds {
          while let change = store.nextStatusChange(through: end) {
            clock.advance(by: max(0, change.timeIntervalSince(clock.now)))
            store.refreshStatus()
          }
          clock.advance(by: end.timeIntervalSince(clock.now))
          store.refreshStatus()
        })
        precondition(store.derived.status.isActive && store.ledgerWrites == 2, "\(store.derived.status) \(store.ledgerWrites)")
      }
      return median(times)
    }
    let store100 = storeAdvance(years: 100)
    let store1000 = storeAdvance(years: 1000)
    print(String(format: "  peer: the store's part, in process: 1000y %.2f ms, 100y %.2f ms (%.1f× for 10× the years; one ledger write each)",
                 store1000 * 1000, store100 * 1000, store1000 / store100))
    figure("advance-1000y", "play: advance 1000y on a monthly subscription, the whole process", ours: millennium * 1000, peer: floor * 1000,
           unit: "ms", peerName: "the same play advancing 1d (start-up and the purchase)", target: "< 80 ms", bar: .atMost(80))
  } else {
    print("advance benchmark skipped: build paywall-tui in release first, as CONTRIBUTING.md's Benchmarks section gives")
  }
}

// MARK: 7. test: 1,000 scenarios

if !renderOnly && !ledgerOnly || testOnly {
  let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("paywall-tui")
  if FileManager.default.isExecutableFile(atPath: binary.path) {
    let count = quick ? 200 : 1_000
    let scenarios = URL(fileURLWithPath: demo).deletingLastPathComponent().appendingPathComponent("scenarios")
    // The real scenarios, with their project's path (relative to the scenario's folder) made
    // absolute; copied round-robin.
    let originals = try FileManager.default.contentsOfDirectory(atPath: scenarios.path).filter { $0.hasSuffix(".play") }.sorted()
      .compactMap { name -> String? in
        guard let text = try? String(contentsOf: scenarios.appendingPathComponent(name), encoding: .utf8),
              text.hasPrefix("# args: "), !text.hasPrefix("# args: /") else { return nil }
        // Every word of the line that names a file or folder beside the scenario (the project,
        // `--catalog`) made absolute; the rest as written (controller commands run from the
        // repository root, where the benchmark runs).
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let words = lines[0].dropFirst("# args: ".count).split(separator: " ", omittingEmptySubsequences: false).map { word in
          !word.isEmpty && FileManager.default.fileExists(atPath: scenarios.appendingPathComponent(String(word)).path)
            ? scenarios.appendingPathComponent(String(word)).path : String(word)
        }
        return (["# args: " + words.joined(separator: " ")] + lines.dropFirst().map(String.init)).joined(separator: "\n")
      }
    precondition(!originals.isEmpty, "no scenarios in \(scenarios.path)")
    let suite = directory.appendingPathComponent("suite")
    try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
    for i in 0..<count {
      try originals[i % originals.count].write(to: suite.appendingPathComponent(String(format: "s%04d.play", i)), atomically: true, encoding: .utf8)
    }
    func childCPU() -> Double {
      var usage = rusage()
      getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
      return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
    let cpuBefore = childCPU()
    var status: Int32 = -1
    let elapsed = seconds { status = spawnQuietly(binary.path, ["test", suite.path, "--allow-commands"]) }
    let cpu = childCPU() - cpuBefore
    precondition(status == 0, "test of \(count) scenarios failed with wait status \(status)")
    // The peer: the same scenarios, a play process each (as before the worker).
    let perProcessCPUBefore = childCPU()
    let perProcess = seconds { status = spawnQuietly(binary.path, ["test", suite.path, "--process-per-scenario", "--allow-commands"]) }
    let perProcessCPU = childCPU() - perProcessCPUBefore
    precondition(status == 0, "test --process-per-scenario of \(count) scenarios failed with wait status \(status)")
    // The floor: one play of an empty script on the demo (start, load, open the first paywall),
    // its state where `test` puts it ($TMPDIR if set, else /dev/shm: memory, so no fsync waits).
    let scratch = PlayProcessExecutor.scratchDirectory()
    let empty = directory.appendingPathComponent("empty.play")
    try "".write(to: empty, atomically: true, encoding: .utf8)
    var floors: [Double] = []
    for run in 0..<(quick ? 5 : 21) {
      let state = (scratch as NSString).appendingPathComponent("paywall-bench-floor-\(getpid())-\(run)")
      floors.append(seconds {
        _ = spawnQuietly(binary.path, ["play", demo, "--controller", "simulated", "--status", "inactive",
                                       "--state-dir", state, "--script", empty.path])
      })
      try? FileManager.default.removeItem(atPath: state)
    }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    print(String(format: "test of %d scenarios (%d distinct, from scenarios/) on %d cores: %6.2f s, a worker per job  (target < 3.5 s for 1,000 on 2 cores)",
                 count, originals.count, cores, elapsed))
    print(String(format: "  per scenario: %.2f ms wall, %.2f ms CPU (play and test together); the floor, one play of an empty script: %.2f ms (median)",
                 elapsed * 1000 / Double(count), cpu * 1000 / Double(count), median(floors) * 1000))
    print(String(format: "  --process-per-scenario: %.2f s, %.2f ms CPU a scenario", perProcess, perProcessCPU * 1000 / Double(count)))
    figure("test-scenarios", "test of \(count) scenarios on \(cores) cores, a worker per job", ours: elapsed, peer: perProcess, unit: "s",
           peerName: "the same, a play process per scenario", target: "< 3.5 s (1,000 on 2 cores)", bar: .atMost(3.5), decimals: 2)
  } else {
    print("test benchmark skipped: build paywall-tui in release first, as CONTRIBUTING.md's Benchmarks section gives")
  }
}

// MARK: 8. Superwall config import

if !renderOnly && !ledgerOnly && !testOnly {
  try benchmarkSuperwallImport(directory: directory, runs: quick ? 5 : 15)
  try benchmarkSuperwallLinearity(directory: directory, n: quick ? 2_000 : 5_000, runs: 3)
  try benchmarkSuperwallLinearity(directory: directory, n: quick ? 1_000 : 2_500, runs: 3, idPrefix: String(repeating: "A", count: 80))
}

try? FileManager.default.removeItem(at: directory)
finishFigures()
