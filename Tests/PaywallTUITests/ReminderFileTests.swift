import Foundation
import PaywallModel
@testable import PaywallCLI
import PaywallTesting
import Testing

/// A trial's reminders outlive the run that scheduled them, as the system keeps an app's pending
/// notifications while it is closed (`notifications.json` in the state directory), `store` lists
/// them, and a reinstall drops them.
@Suite("trial reminders across runs")
struct ReminderFileTests {
  static let project = "scenarios/projects/trial-reminders"
  static let reminderID = "com.superwall.ios-trial-TRIAL_STARTED"

  static func play(_ dir: String, _ script: String, _ extra: [String] = []) throws -> PaywallBinary.Output {
    let file = Scratch.root.appendingPathComponent("reminders-\(UUID().uuidString).play")
    try script.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try PaywallBinary.run(["play", project, "--state-dir", dir, "--script", file.path] + extra)
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    return result
  }

  /// The event lines named `name`, parsed.
  static func events(_ name: String, in output: String) -> [[String: Any]] {
    output.split(separator: "\n").compactMap { line in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            object["event"] as? String == name else { return nil }
      return object
    }
  }

  static func params(_ event: [String: Any]) -> [String: String] {
    (event["params"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
  }

  /// Bought on the first run, due on the second: the second run delivers it when the store's
  /// clock reaches it (five days after the purchase), not before, and `store` listed it between.
  @Test func aReminderOutlivesTheRunThatScheduledIt() throws {
    let dir = PlayCommandTests.stateDir()
    _ = try Self.play(dir, "placement trial\npress enter\nadvance 1d\n", ["--fresh"])
    let listed = try PaywallBinary.run(["store", Self.project, "--state-dir", dir])
    #expect(listed.stdout.contains("reminder: 'Your trial ends soon' from paywall trial, fires 2026-01-06 00:00:00 UTC · \(Self.reminderID)"),
            "\(listed.stdout)")
    let json = try PaywallBinary.run(["store", Self.project, "--state-dir", dir, "--json"])
    let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let reminders = try #require(root["reminders"] as? [[String: Any]])
    #expect(reminders.count == 1)
    #expect(reminders.first?["fireAt"] as? String == "2026-01-06T00:00:00Z")
    #expect(reminders.first?["subtitle"] as? String == "Acme Pro")
    #expect(reminders.first?["due"] as? Bool == false)

    let second = try Self.play(dir, "advance 3d\nexpect no event notification.deliver\nadvance 1d\n")
    let delivered = Self.events("notification.deliver", in: second.stdout)
    #expect(delivered.count == 1, "\(second.stdout)")
    #expect(delivered.first?["at"] as? String == "2026-01-06T00:00:00Z")
    #expect(delivered.first.map(Self.params)?["id"] == Self.reminderID)
    // Delivered once: the third run has nothing left to deliver, and `store` lists nothing.
    let third = try Self.play(dir, "advance 30d\n")
    #expect(Self.events("notification.deliver", in: third.stdout).isEmpty, "\(third.stdout)")
    #expect(!(try PaywallBinary.run(["store", Self.project, "--state-dir", dir]).stdout.contains("reminder:")))
  }

  /// The system shows a reminder whose time comes while the app is closed; the next launch
  /// shows it first, before `app_open`, with the time it was due.
  @Test func oneDueWhileTheAppWasClosedComesFirstAtTheNextLaunch() throws {
    let dir = PlayCommandTests.stateDir()
    _ = try Self.play(dir, "placement trial\npress enter\n", ["--fresh"])
    let listed = try PaywallBinary.run(["store", Self.project, "--state-dir", dir, "--at", "2026-01-20"])
    #expect(listed.stdout.contains("was due 2026-01-06 00:00:00 UTC (delivered at the next launch)"), "\(listed.stdout)")
    let later = try Self.play(dir, "", ["--clock", "2026-01-20"])
    let names = later.stdout.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String
    }
    #expect(names.prefix(2) == ["notification.deliver", "app_open"], "\(names)")
    let delivered = try #require(Self.events("notification.deliver", in: later.stdout).first)
    #expect(Self.params(delivered)["fire_at"] == "2026-01-06 00:00:00")
    #expect(delivered["at"] as? String == "2026-01-20T00:00:00Z")
  }

  /// Deleting the app drops its pending notifications: a reinstall delivers nothing, ever.
  @Test func aReinstallDropsThePendingReminders() throws {
    let dir = PlayCommandTests.stateDir()
    _ = try Self.play(dir, "placement trial\npress enter\n", ["--fresh"])
    let reinstalled = try Self.play(dir, "advance 10d\n", ["--reinstall"])
    #expect(Self.events("notification.deliver", in: reinstalled.stdout).isEmpty, "\(reinstalled.stdout)")
    let after = try Self.play(dir, "advance 10d\n")
    #expect(Self.events("notification.deliver", in: after.stdout).isEmpty, "\(after.stdout)")
  }

  /// iOS before 4.11 names each request after a UUID (a number here): the numbers go on from
  /// run to run, so a second trial's reminder never takes the first one's id.
  @Test func numberedRemindersGoOnFromRunToRun() throws {
    let dir = PlayCommandTests.stateDir()
    let first = try Self.play(dir, "placement trial\npress enter\n", ["--fresh", "--sdk", "4.10", "--controller", "scripted", "--status", "inactive"])
    #expect(Self.events("notification.schedule", in: first.stdout).map(Self.params).map { $0["id"] } == ["com.superwall.ios-1"])
    let second = try Self.play(dir, "placement trial\npress enter\nadvance 5d\n",
                               ["--sdk", "4.10", "--controller", "scripted", "--status", "inactive"])
    #expect(Self.events("notification.schedule", in: second.stdout).map(Self.params).map { $0["id"] } == ["com.superwall.ios-2"])
    #expect(Self.events("notification.deliver", in: second.stdout).map(Self.params).map { $0["id"] }
            == ["com.superwall.ios-1", "com.superwall.ios-2"], "\(second.stdout)")
  }

  /// What the file holds reads back the same; a damaged one is reported and never trusted.
  @Test func theFileReadsBackAndADamagedOneIsReported() throws {
    let dir = StateDirectory(path: PlayCommandTests.stateDir())
    try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
    let file = ReminderFile(directory: dir)
    let text = LocalNotification(title: "Ends soon", subtitle: nil, body: "Cancel before it renews.", delayMs: 1_800_000)
    let pending = PendingReminders(reminders: [
      ScheduledNotification(id: "b", paywallID: "p", notification: text, fireAt: Date(timeIntervalSince1970: 2_000)),
      ScheduledNotification(id: "a", paywallID: "p", notification: text, fireAt: Date(timeIntervalSince1970: 1_000.25)),
    ], nextNumber: 7)
    try file.save(pending)
    let (loaded, warning) = file.load(repair: true)
    #expect(warning == nil)
    #expect(loaded == pending)
    #expect(loaded.reminders.map(\.id) == ["a", "b"], "soonest first")

    // A version this build does not know, with no last good copy: ignored, with the reason.
    try Data(#"{"format":"paywall-tui.notifications","version":2,"pending":[]}"#.utf8).write(to: URL(fileURLWithPath: file.path))
    try? FileManager.default.removeItem(atPath: file.path + ".bak")
    let (ignored, why) = file.load(repair: false)
    #expect(ignored == .none)
    #expect(why?.contains("ignoring the pending trial reminders (not a paywall-tui notifications file of version 1)") == true, "\(why ?? "")")
    // A reminder that lacks a field spoils the file: nothing half-read is delivered.
    try Data(#"{"format":"paywall-tui.notifications","version":1,"pending":[{"id":"x","paywallId":"p","title":"t","body":"b"}]}"#.utf8)
      .write(to: URL(fileURLWithPath: file.path))
    #expect(file.load(repair: false).warning?.contains("pending[0] lacks") == true)
    // A delay past what a paywall may give would overflow when written back (`inf` is no JSON):
    // refused when read.
    try Data(#"{"format":"paywall-tui.notifications","version":1,"pending":[{"id":"x","paywallId":"p","title":"t","body":"b","delayMs":1.7e308,"fireAt":1769000000}]}"#.utf8)
      .write(to: URL(fileURLWithPath: file.path))
    #expect(file.load(repair: false).warning?.contains("pending[0].delayMs 1.7e308 is not from 0 to 320000000000 (10 years") == true,
            "\(file.load(repair: false).warning ?? "")")
  }

  /// A hand-made file of more reminders than a device keeps is read up to the bound, each
  /// delivered once: what a session starts timers for, and writes back, stays bounded.
  @Test func aFileOfManyRemindersIsReadUpToItsBoundAndEachIsDeliveredOnce() throws {
    let dir = PlayCommandTests.stateDir()
    _ = try Self.play(dir, "placement trial\npress enter\n", ["--fresh"])
    let items = (0..<1_500).map { i in
      #"{"id":"r\#(i)","paywallId":"trial","title":"t\#(i)","body":"b","delayMs":1000,"fireAt":\#(1_767_657_600 + i)}"#
    }
    let text = #"{"format":"paywall-tui.notifications","version":1,"nextNumber":1,"pending":["# + items.joined(separator: ",") + "]}"
    try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/notifications.json"))
    let later = try Self.play(dir, "advance 10d\n")
    #expect(later.stderr.contains("holds 1500 pending reminders; the first 1000 are kept and the other 500 dropped"), "\(later.stderr)")
    let ids = Self.events("notification.deliver", in: later.stdout).compactMap { Self.params($0)["id"] }
    #expect(ids.count == 1_000 && Set(ids).count == 1_000, "\(ids.count) delivered")
    #expect(ids.first == "r0" && ids.last == "r999")
    let left = try String(contentsOfFile: dir + "/notifications.json", encoding: .utf8)
    #expect(left.contains(#""pending":[]"#), "\(left.prefix(200))")
  }

  /// A controller other than the simulated store keeps no ledger; `store` still lists the
  /// reminders the device holds, with no ids or titles that break the line.
  @Test func storeListsRemindersWithNoLedger() throws {
    let dir = PlayCommandTests.stateDir()
    _ = try Self.play(dir, "placement trial\npress enter\n", ["--fresh", "--controller", "scripted", "--status", "inactive"])
    let listed = try PaywallBinary.run(["store", Self.project, "--state-dir", dir, "--at", "2026-01-02"])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stderr.contains("no ledger (only the simulated store keeps one)"), "\(listed.stderr)")
    #expect(listed.stdout == "reminder: 'Your trial ends soon' from paywall trial, fires 2026-01-06 00:00:00 UTC · \(Self.reminderID)\n", "\(listed.stdout)")
    // With no store, no clock carries over: without --at nothing is called due.
    let undated = try PaywallBinary.run(["store", Self.project, "--state-dir", dir, "--json"])
    #expect(undated.stdout.contains(#""due":null"#), "\(undated.stdout)")
    let json = try PaywallBinary.run(["store", Self.project, "--state-dir", dir, "--json", "--at", "2026-01-07"])
    let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((root["reminders"] as? [[String: Any]])?.first?["due"] as? Bool == true)
    // A hand-edited id with line breaks stays on its line.
    let file = dir + "/notifications.json"
    let edited = try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: Self.reminderID, with: #"two\nlines"#)
    try edited.write(toFile: file, atomically: true, encoding: .utf8)
    let broken = try PaywallBinary.run(["store", Self.project, "--state-dir", dir])
    #expect(broken.stdout.split(separator: "\n").count == 1, "\(broken.stdout)")
  }
}

/// Google Play keeps an offer's subscribers on the offer they bought when the developer changes
/// or ends it; the renewals inside the offer went to the catalog's new terms, or to the base
/// plan's price when the offer was gone.
@Suite("Play offers kept")
struct PlayOfferKeptTests {
  @Test(arguments: ["remove", "deepen"])
  func anOfferChangedMidwayKeepsItsSubscribersPrice(change: String) throws {
    let fm = FileManager.default
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("scenarios/projects/play-offer-three-months")
    let project = Scratch.root.appendingPathComponent("play-offer-\(UUID().uuidString)")
    try fm.createDirectory(at: project, withIntermediateDirectories: true)
    for name in ["app.json", "plans.json", "play-catalog.json"] {
      var text = try String(contentsOf: source.appendingPathComponent(name), encoding: .utf8)
      // The project's paths to the schemas are relative to the repository; the copy needs none.
      text = text.replacingOccurrences(of: #""$schema": "../../../paywalls/app.schema.json","#, with: "")
        .replacingOccurrences(of: #""$schema": "../../../paywalls/paywall.schema.json","#, with: "")
      try text.write(to: project.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    let dir = PlayCommandTests.stateDir()
    let script = Scratch.root.appendingPathComponent("offer-\(UUID().uuidString).play")
    try "placement plans\npress enter\ncancel acme_pro:monthly:sw-auto\nadvance 40d\nplacement plans\npress enter\n"
      .write(to: script, atomically: true, encoding: .utf8)
    let first = try PaywallBinary.run(["play", project.path, "--controller", "simulated", "--status", "inactive", "--state-dir", dir, "--fresh", "--script", script.path])
    #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
    // The developer ends the offer, or makes it deeper, while the subscriber is in its first month.
    let catalogURL = project.appendingPathComponent("play-catalog.json")
    var catalog = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: catalogURL)) as? [String: Any])
    var offers = try #require(catalog["subscriptionOffers"] as? [[String: Any]])
    if change == "remove" {
      offers.removeAll { $0["offerId"] as? String == "welcome-back" }
    } else {
      let text = String(data: try JSONSerialization.data(withJSONObject: offers), encoding: .utf8)!
        .replacingOccurrences(of: #""relativeDiscount":0.5"#, with: #""relativeDiscount":0.75"#)
      offers = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }
    catalog["subscriptionOffers"] = offers
    try JSONSerialization.data(withJSONObject: catalog).write(to: catalogURL)
    try "advance 1M\nadvance 1M\nadvance 1M\n".write(to: script, atomically: true, encoding: .utf8)
    let second = try PaywallBinary.run(["play", project.path, "--controller", "simulated", "--state-dir", dir, "--script", script.path])
    #expect(second.status == 0, "\(second.stdout)\n\(second.stderr)")
    let listed = try PaywallBinary.run(["store", project.path, "--state-dir", dir, "--json"])
    let root = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
    let renewals = (root["transactions"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "renewal" }
    #expect(renewals.map { $0["price"] as? String } == ["5", "5", "9.99"], "\(renewals)")
  }
}

/// The step `reinstall` and the flag `--reinstall` are one recipe in two forms: they keep the
/// same user and leave the device's notification permission the same.
@Suite("Reinstall, step and flag")
struct ReinstallStepAndFlagTests {
  /// A command controller's process is the app's: the step is refused as a usage error before
  /// anything runs (it used to run every step before it, and the controller's start, first).
  @Test func theStepIsRefusedBeforeAnythingRunsWithACommandController() throws {
    let file = Scratch.root.appendingPathComponent("reinstall-\(UUID().uuidString).play")
    try "press enter\nreinstall\n".write(to: file, atomically: true, encoding: .utf8)
    let result = try PaywallBinary.run(["play", "paywalls", "--controller", "command", "--controller-command", "sleep 30", "--script", file.path])
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains("\(file.path):2: 'reinstall' with --controller command would need the controller's process started again"), "\(result.stderr)")
    #expect(!result.stdout.contains("transaction_start"), "nothing ran: \(result.stdout)")
  }

  /// `--user-id` names the user the app signs in as: a reinstall keeps it, as the flag does.
  @Test func theStepKeepsTheUserIDGiven() throws {
    let dir = PlayCommandTests.stateDir()
    _ = try ReminderFileTests.play(dir, "reinstall\n", ["--fresh", "--user-id", "alice"])
    let user = try String(contentsOfFile: dir + "/user.json", encoding: .utf8)
    #expect(user.contains(#""userId":"alice""#), "\(user)")
  }

  /// Deleting an app drops its notification permission: after `--reinstall`, as after the step,
  /// a trial's reminders meet the system's prompt (unless `--notifications` says otherwise).
  @Test func theFlagLeavesNotificationsNeverAskedAsTheStepDoes() throws {
    let dir = PlayCommandTests.stateDir()
    _ = try ReminderFileTests.play(dir, "", ["--fresh"])
    let flag = try ReminderFileTests.play(dir, "placement trial\npress enter\n", ["--reinstall", "--screen"])
    #expect(flag.stdout.contains("Notifications"), "\(flag.stdout)")
    #expect(ReminderFileTests.events("notification.schedule", in: flag.stdout).isEmpty, "the prompt holds them")
    let allowed = try ReminderFileTests.play(PlayCommandTests.stateDir(), "placement trial\npress enter\n", ["--reinstall", "--notifications", "allow"])
    #expect(ReminderFileTests.events("notification.schedule", in: allowed.stdout).count == 1, "\(allowed.stdout)")
  }
}
