#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PaywallModel
import TerminalCore
import PaywallUI

/// `paywall-tui store PATH`: the simulated store's ledger and what it means, as a table or JSON.
/// Read only: a corrupt ledger is reported, not moved aside.
package struct StoreCommand: CLICommand {
  package static let spec = CommandSpec(
    name: "store",
    abstract: "Print the simulated store's ledger and the state derived from it, as a table or JSON.",
    discussion: """
      The state is derived at the store's clock when the ledger was last written (or --at), with the rules \
      the last session ran with, exactly as the next session would see it; the status is the one the project's \
      SDK sets (app.json's options.sdk: Superwall-Android before 2.5.8 counts no one-time purchase). The trial reminders the device \
      still holds follow (a reminder line each; under --json, "reminders"), also when there is no ledger.
      """,
    positionals: [PositionalSpec(name: "path", help: "The project whose state directory holds the ledger.", count: .one)],
    options: StoreFlags.all,
    examples: [
      "paywall-tui store paywalls --state-dir /tmp/qa              # the ledger a run or play session left there",
      "paywall-tui store paywalls --state-dir /tmp/qa --at 2026-06-01 --json",
    ]
  )

  package var path: String
  package var stateDir: String?
  package var catalog: String?
  package var json: Bool
  package var at: String?
  /// `--platform`: a cross-platform project's store (its catalog and its ledger).
  package var platform: SDKPlatform?

  package init(_ arguments: Arguments) throws(CLIFailure) {
    path = arguments.positionals[0]
    stateDir = arguments[StoreFlags.stateDir]
    catalog = arguments[ProjectFlags.catalog]
    json = arguments[StoreFlags.json]
    at = arguments[StoreFlags.at]
    platform = try arguments[StoreFlags.platform]
  }

  package func run() async throws {
    let moment = try at.map(Self.parseDate)
    let project = try ProjectOptions.load(path, catalog: catalog, sdk: SDKChoice(platform: platform))
    // The project's own store keeps the directory a project of one store has; another its own.
    let store = project.stateStore(following: platform ?? project.options.sdk.platform)
    if let platform, project.stores.count < 2, platform != project.options.sdk.platform {
      try Console.error("warning: --platform \(platform.rawValue): the project follows \(project.options.sdk.platform.sdkName) (app.json's options) and has one catalog; the ledger is read with it")
    }
    let directory = try CLIFailure.reporting { () throws(SessionError) in
      try StateDirectoryOption.resolve(stateDir, projectName: project.name, projectPath: path, store: store)
    }
    let file = LedgerFile(directory: directory)
    // The device's trial reminders, read only as the ledger is.
    let (reminders, reminderWarning) = ReminderFile(directory: directory).load(repair: false)
    if let reminderWarning { try Console.error("warning: \(reminderWarning)") }
    guard file.exists else {
      // A controller other than the simulated store keeps no ledger, but the device its reminders.
      if !reminders.reminders.isEmpty {
        try Console.error("note: \(file.path): no ledger (only the simulated store keeps one); the trial reminders pending on the device:")
        // With no store, no clock carries over: which are due is said only for --at.
        try Console.out(json ? JSONOutput.object([("ledger", .null), ("at", moment.map { .string(Self.iso($0)) } ?? .null),
                                                  ("reminders", Self.remindersJSON(reminders, at: moment))]).text
                             : Self.reminderLines(reminders, at: moment).joined(separator: "\n"))
        return
      }
      let side = store.map { " --platform \($0.rawValue)" } ?? ""
      if stateDir == nil, let store, let earlier = StateDirectoryOption.earlierState(projectName: project.name, projectPath: path, store: store) {
        try Console.error("note: \(earlier)")
      }
      throw CLIFailure.invalid("error: \(file.path): no ledger yet; the simulated store writes it on the first purchase (paywall-tui play \(path)\(side) --state-dir \(directory.path) …)")
    }
    if let size = file.oversize {
      throw CLIFailure.invalid("error: \(file.path) is \(size / 1_048_576) MiB, more than the \(LedgerFile.maximumBytes / 1_048_576) MiB a ledger may hold, so it is not read; sessions leave it as it is (move it away to start a new ledger)")
    }
    // Read only: a damaged ledger is shown from its last good copy, as the next session would use it.
    let contents: LedgerFile.Contents
    switch StateFile.load(file.path, repair: false, decode: LedgerFile.decodeState) {
    case .loaded(let loaded):
      contents = loaded
    case .recovered(let loaded, let warning):
      contents = loaded
      try Console.error("warning: \(warning)")
    case .unusable(let why, _):
      throw CLIFailure.invalid("error: \(file.path): the ledger is unreadable (\(why)) and has no usable last good copy; the next run moves it aside")
    case .missing:
      throw CLIFailure.invalid("error: \(file.path): the ledger went away while being read")
    }
    // Another store's ledger read with this catalog would be a table of lines it cannot place.
    if let written = contents.store, written != project.catalog.store {
      throw CLIFailure.invalid("error: " + StoreChoice.foreignLedger(written, in: file.path, following: project.catalog.store,
                                                                    crossPlatform: project.stores.count > 1, reading: true))
    }
    let rules = contents.rules ?? SimulatedStore.Settings(catalog: project.catalog.settings).rules
    let when = moment ?? contents.clock ?? contents.entries.last?.date ?? Date()
    var derived = LedgerDerivation.derive(contents.entries, catalog: project.catalog, rules: rules, at: when)
    // The status as the project's SDK sets it (Superwall-Android before 2.5.8 counts no one-time purchase).
    derived.status = SimulatedStore.status(of: derived, grantsOneTimePurchases: project.options.sdk.oneTimePurchasesGrantWithoutController)
    for issue in derived.issues { try Console.error("warning: \(file.path): \(issue)") }
    if json {
      try Console.out(Self.json(contents, derived, file: file.path, rules: rules, store: project.catalog.store, reminders: reminders).text)
    } else {
      try Console.out(Self.tables(contents, derived, file: file.path, rules: rules, store: project.catalog.store, reminders: reminders))
    }
  }

  package static func parseDate(_ text: String) throws(CLIFailure) -> Date {
    if text == "now" { return Date() }
    // A time with its zone (2026-03-01T12:00:00Z, …+02:00), or a date (midnight UTC).
    if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
    if let date = try? Date.ISO8601FormatStyle().year().month().day().parse(text) { return date }
    throw CLIFailure.usage("--at \(quoting: text) must be now, a date such as 2026-03-01 or a time such as 2026-03-01T12:00:00Z")
  }

  package static func iso(_ date: Date) -> String {
    StoreDates.format(date).replacingOccurrences(of: " ", with: "T") + "Z"
  }

  /// The store's rules in a few words. On Google Play each base plan has its own grace period and
  /// account hold (the store's grace setting is the App Store's), so the line says so.
  package static func describe(_ rules: StoreRules, store: Store = .appStore) -> String {
    [rules.renewalInterval.map { "every period \(TimeRate.spell($0))" } ?? "calendar periods",
     store == .playStore ? "grace period and account hold as each base plan sets them"
       : rules.gracePeriodEnabled ? "grace period on" : "no grace period",
     rules.renewalBillingIssues ? "renewals fail" : nil].compactMap { $0 }.joined(separator: ", ")
  }

  /// The kind of offer a subscription's period runs on, for `--json`.
  package static func offerType(_ s: StoreSubscription) -> JSONOutput {
    guard s.offer != nil else { return .null }
    return .string((s.offerType ?? .introductory).rawValue)
  }

  package static func offerID(_ s: StoreSubscription) -> JSONOutput {
    guard let id = s.offerID else { return .null }
    return .string(id)
  }

  /// What a line says beyond its columns: price, offer, reason, effect.
  package static func details(_ entry: LedgerEntry) -> String {
    var parts: [String] = []
    if let offer = entry.offer { parts.append(offer.rawValue + (entry.offerPeriodsLeft > 0 ? " (\(entry.offerPeriodsLeft) more)" : "")) }
    if let type = entry.offerType, type != .introductory {
      parts.append("\(type.rawValue) offer" + (entry.offerID.map { " \($0)" } ?? ""))
    }
    if let price = entry.price { parts.append(entry.kind == .priceIncrease ? "to \(price)" : "\(price)") }
    if let credit = entry.proratedCredit { parts.append("credit \(credit)") }
    if let effect = entry.effect { parts.append(effect == .immediately ? "now" : "at renewal") }
    if let mode = entry.replacementMode { parts.append(mode.rawValue) }
    if entry.ownership == .familyShared { parts.append("family-shared") }
    if let reason = entry.reason { parts.append(reason.rawValue) }
    if let revoked = entry.revokedID {
      parts.append(entry.kind == .refundKeepingAccess ? "refunds \(revoked), access kept" : "takes back \(revoked)")
    }
    if let grace = entry.graceUntil { parts.append("grace until \(StoreDates.format(grace))") }
    if let retry = entry.retryUntil { parts.append("retry until \(StoreDates.format(retry))") }
    if let grace = entry.grace { parts.append(grace ? "with grace" : "no grace") }
    if let accepted = entry.accepted { parts.append(accepted ? "accepted" : "declined") }
    if let run = entry.run { parts.append("the last \(run.lastID) at \(StoreDates.format(run.lastDate))") }
    return parts.joined(separator: " · ")
  }

  /// `52 000`: thousands apart, as the table reads best.
  package static func grouped(_ number: Int) -> String {
    var digits = String(number)
    var groups: [String] = []
    while digits.count > 3 {
      groups.insert(String(digits.suffix(3)), at: 0)
      digits = String(digits.dropLast(3))
    }
    return ([digits] + groups).joined(separator: " ")
  }

  /// A purchase token shortened for a table column (`store --json` has it whole).
  package static func shortToken(_ token: String) -> String {
    token.count > 16 ? String(token.prefix(12)) + "…" : token
  }

  /// The ledger and the subscriptions as tables; a Play catalog's with Play's order ids, purchase
  /// tokens and acknowledgement. Then the trial reminders pending on the device.
  package static func tables(_ contents: LedgerFile.Contents, _ derived: DerivedState, file: String, rules: StoreRules,
                             store: Store = .appStore, reminders: PendingReminders = .none) -> String {
    let play = store == .playStore ? PlayLineTerms.of(contents.entries) : nil
    let events = contents.entries.reduce(0) { $0 + $1.occurrences }
    let runs = events == contents.entries.count ? "" : " (\(events) events, runs of renewals as one line)"
    var out = ["Ledger \(file): \(contents.entries.count) line\(contents.entries.count == 1 ? "" : "s")\(runs), \(describe(rules, store: store))", ""]
    let lines = contents.entries.map { entry in
      // A run of renewals: the first one's id and date, the last one's expiry, and the last one.
      var row = [String(entry.id), String(entry.originalID), entry.kind.rawValue + (entry.run.map { " ×" + grouped($0.count) } ?? ""),
                 entry.productID, StoreDates.format(entry.date), entry.lastExpirationDate.map(StoreDates.format) ?? "", details(entry)]
      if let terms = play?[entry.id] {
        row.insert([terms.orderID, terms.lastOrderID.map { "… \($0)" }].compactMap { $0 }.joined(separator: " "), at: 6)
        var extra: [String] = []
        if entry.kind.buysAProduct, let token = terms.purchaseToken {
          extra.append("token \(shortToken(token))")
        }
        if let linked = terms.linkedPurchaseToken { extra.append("linked \(shortToken(linked))") }
        row[7] = ([row[7]] + extra).filter { !$0.isEmpty }.joined(separator: " · ")
      }
      return row
    }
    let header = ["ID", "ORIGINAL", "TYPE", "PRODUCT", "DATE (UTC)", "EXPIRES (UTC)"] + (play == nil ? [] : ["ORDER ID"]) + ["DETAILS"]
    out += table(header, lines)
    out += ["", "At \(StoreDates.format(derived.date)) UTC:"]
    if derived.subscriptions.isEmpty {
      out.append("no subscriptions or purchases")
    } else {
      let rows = derived.subscriptions.map { s in
        var row = [String(s.originalID), s.productID, s.state.rawValue, s.isActive ? s.entitlements.map(\.id).sorted().joined(separator: ",") : "-",
                   s.summary]
        if play != nil {
          let acknowledged = s.play.map { $0.acknowledgedAt.map { "yes \(StoreDates.format($0))" } ?? "no" } ?? "-"
          row.insert(contentsOf: [s.play?.purchaseToken ?? "-", s.play?.orderID ?? "-", acknowledged], at: 4)
        }
        return row
      }
      let header = ["ORIGINAL", "PRODUCT", "STATE", "GRANTS"] + (play == nil ? [] : ["PURCHASE TOKEN", "LATEST ORDER", "ACKNOWLEDGED"]) + ["SUMMARY"]
      out += table(header, rows)
    }
    for pending in contents.pending {
      out.append("pending: \(pending.kind == .interrupted ? "interrupted purchase" : pending.waitsFor) of \(pending.productID), requested \(StoreDates.format(pending.requestDate))")
    }
    out += reminderLines(reminders, at: derived.date)
    out.append("")
    out.append("status: \(derived.status)" + (derived.nextEvent.map { " · next change \(StoreDates.format($0)) UTC" } ?? ""))
    return out.joined(separator: "\n")
  }

  package static func table(_ header: [String], _ rows: [[String]]) -> [String] {
    var widths = header.map(DisplayWidth.of)
    for row in rows {
      for (i, cell) in row.enumerated() { widths[i] = max(widths[i], DisplayWidth.of(cell)) }
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { i, cell in
        i == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - DisplayWidth.of(cell) + 2)
      }.joined().trimmingSpaces()
    }
    return [line(header)] + rows.map(line)
  }

  /// The ledger and the subscriptions as JSON; a Play catalog's lines and subscriptions carry
  /// Play's `orderId`, `purchaseToken`, `linkedPurchaseToken` and `acknowledgementState`.
  package static func json(_ contents: LedgerFile.Contents, _ derived: DerivedState, file: String, rules: StoreRules,
                           store: Store = .appStore, reminders: PendingReminders = .none) -> JSONOutput {
    let play = store == .playStore ? PlayLineTerms.of(contents.entries) : nil
    func date(_ d: Date?) -> JSONOutput { d.map { .string(iso($0)) } ?? .null }
    func price(_ p: Decimal?) -> JSONOutput { p.map { .string("\($0)") } ?? .null }
    func text(_ t: String?) -> JSONOutput { t.map { .string($0) } ?? .null }
    let transactions = contents.entries.map { entry -> JSONOutput in
      guard case .object(var members) = LedgerFile.json(entry) else { return .null }
      for (i, member) in members.enumerated()
      where ["date", "expirationDate", "graceUntil", "retryUntil", "lastDate", "lastExpirationDate"].contains(member.0) {
        let value: Date? = switch member.0 {
        case "date": entry.date
        case "expirationDate": entry.expirationDate
        case "graceUntil": entry.graceUntil
        case "lastDate": entry.run?.lastDate
        case "lastExpirationDate": entry.run?.lastExpirationDate
        default: entry.retryUntil
        }
        members[i].1 = date(value)
      }
      if let terms = play?[entry.id] {
        members += [("orderId", text(terms.orderID)), ("purchaseToken", text(terms.purchaseToken)),
                    ("linkedPurchaseToken", text(terms.linkedPurchaseToken))]
        if entry.run != nil { members.append(("lastOrderId", text(terms.lastOrderID))) }
      }
      return .object(members)
    }
    let subscriptions = derived.subscriptions.map { s -> JSONOutput in
      // Typed apart: as one literal this took seconds to type-check.
      let members: [(String, JSONOutput)] = [
        ("originalID", .string(String(s.originalID))), ("transactionID", .string(String(s.transactionID))),
        ("productID", .string(s.productID)), ("ownership", .string(s.ownership.rawValue)), ("state", .string(s.state.rawValue)),
        ("active", .bool(s.isActive)), ("entitlements", .array(s.entitlements.map(\.id).sorted().map(JSONOutput.string))),
        ("offer", text(s.offer?.rawValue)), ("offerType", offerType(s)), ("offerID", offerID(s)),
        ("expirationDate", date(s.expirationDate)),
        ("autoRenew", .bool(s.autoRenew)), ("renewalProductID", text(s.renewalProductID)),
        ("price", price(s.price)), ("priceIncrease", price(s.priceIncrease)),
        ("priceConsent", s.priceConsent.map(JSONOutput.bool) ?? .null), ("billingIssue", .bool(s.billingIssue)),
        ("gracePeriodEnd", date(s.gracePeriodEnd)), ("billingRetryEnd", date(s.billingRetryEnd)),
        ("endDate", date(s.endDate)), ("endReason", text(s.endReason?.rawValue)),
        ("summary", .string(s.summary)),
      ]
      guard let purchase = s.play else { return .object(members) }
      // Play's names (purchases.subscriptionsv2): the token, the latest order, acknowledgement.
      let state = purchase.isAcknowledged ? "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED" : "ACKNOWLEDGEMENT_STATE_PENDING"
      return .object(members + [
        ("purchaseToken", .string(purchase.purchaseToken)), ("linkedPurchaseToken", text(purchase.linkedPurchaseToken)),
        ("latestOrderId", .string(purchase.orderID)), ("acknowledgementState", .string(state)),
        ("acknowledgedAt", date(purchase.acknowledgedAt)), ("acknowledgeBy", date(purchase.acknowledgeBy)),
      ])
    }
    let pending = contents.pending.map { p -> JSONOutput in
      .object([("kind", .string(p.kind.rawValue)), ("productID", .string(p.productID)), ("requestDate", date(p.requestDate))]
              + (p.completesAt.map { [("completesAt", date($0))] } ?? []))
    }
    return .object([
      ("ledger", .string(file)), ("at", date(derived.date)), ("rules", LedgerFile.json(rules)),
      ("status", .string(derived.status.rawName.lowercased())),
      ("entitlements", .array(derived.status.entitlements.map(\.id).sorted().map { .string($0) })),
      ("nextEvent", date(derived.nextEvent)), ("subscriptions", .array(subscriptions)), ("pending", .array(pending)),
      ("transactions", .array(transactions)), ("issues", .array(derived.issues.map { .string($0) })),
      ("reminders", remindersJSON(reminders, at: derived.date)),
    ])
  }
}

extension StoreCommand {
  /// The pending trial reminders, a line each; one due by `date` came while the app was closed.
  /// Ids and titles are printed as text, never as terminal controls or line breaks.
  static func reminderLines(_ reminders: PendingReminders, at date: Date?) -> [String] {
    reminders.reminders.map { reminder in
      let when = date.map { reminder.fireAt <= $0 } == true ? "was due \(StoreDates.format(reminder.fireAt)) UTC (delivered at the next launch)"
        : "fires \(StoreDates.format(reminder.fireAt)) UTC"
      return "reminder: \(quoting: UntrustedText.printable(reminder.notification.title)) from paywall "
        + "\(UntrustedText.printable(reminder.paywallID)), \(when) · \(UntrustedText.printable(reminder.id))"
    }
  }

  /// The pending trial reminders for `--json`; `due`: its time came by `date`, while the app was
  /// closed (null with no date to judge by).
  static func remindersJSON(_ reminders: PendingReminders, at date: Date?) -> JSONOutput {
    .array(reminders.reminders.map { reminder in
      let text = reminder.notification
      let members: [(String, JSONOutput)] = [
        ("id", .string(reminder.id)), ("paywallId", .string(reminder.paywallID)), ("title", .string(text.title)),
        ("subtitle", text.subtitle.map(JSONOutput.string) ?? .null), ("body", .string(text.body)),
        ("fireAt", .string(iso(reminder.fireAt))), ("due", date.map { .bool(reminder.fireAt <= $0) } ?? .null),
      ]
      return .object(members)
    })
  }
}

/// `store`'s own options (and `ProjectFlags.catalog`).
package enum StoreFlags {
  package static let stateDir = Flag.text("state-dir", "dir", "Where the ledger is (default: the project's, as for run and play).")
  package static let json = Flag.bool("json", "Print JSON instead of tables.")
  /// Read as written: `run()` reads it against the store's clock.
  package static let at = Flag.text("at", "date", "Derive the state at this time: now, 2026-03-01 or 2026-03-01T12:00:00Z (default: the store's clock).")

  /// In the order help lists them.
  /// In the order help lists them; --catalog is the one `run` and `play` take.
  package static let platform: Flag<SDKPlatform?, CLIFailure> = Flag.choice("platform", "os",
    "A cross-platform project's store: ios or android (default: the project's platform); its catalog, and its ledger when --state-dir is not given.")
  package static let all: [OptionInfo] = [stateDir.option, ProjectFlags.catalog.option, json.option, at.option, platform.option]
}
