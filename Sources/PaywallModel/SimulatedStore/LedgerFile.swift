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

/// The ledger file: `ledger.json` in the state directory, written atomically, one line per
/// ledger line so it diffs and reads well. Every save keeps the previous file as `ledger.json.bak`;
/// a damaged ledger is recovered from it, and set aside as `ledger.json.corrupt-TIMESTAMP`, never
/// silently dropped.
package struct LedgerFile: Sendable {
  package struct Contents: Sendable, Hashable {
    package var entries: [LedgerEntry] = []
    package var pending: [PendingPurchase] = []
    /// The store's clock when the file was written: the next session continues from there.
    package var clock: Date?
    /// The rules the last session ran with (for `paywall-tui store`).
    package var rules: StoreRules?
    /// The store whose sessions wrote it (its catalog's): a session of another store refuses it.
    /// nil in a ledger written before paywall-tui said so.
    package var store: Store?

    package init(entries: [LedgerEntry] = [], pending: [PendingPurchase] = [], clock: Date? = nil, rules: StoreRules? = nil,
                 store: Store? = nil) {
      self.entries = entries
      self.pending = pending
      self.clock = clock
      self.rules = rules
      self.store = store
    }
  }

  package static let format = "paywall-tui.ledger"
  /// Version 3 adds runs of renewals kept as one line (`LedgerEntry.run`). A ledger without one
  /// is still written as version 2, which earlier paywall-tui read; both are read.
  package static let version = 3
  static let versionWithoutRuns = 2
  static let readableVersions = 2...3

  /// The largest ledger written or read: the limit every file paywall-tui reads has
  /// (`SourceFile.maximumBytes`), so a ledger the store writes is always one it reads back.
  package static let maximumBytes = SourceFile.maximumBytes

  /// Its name in the state directory.
  package static let fileName = "ledger.json"

  package let path: String
  /// `maximumBytes`, smaller in tests.
  let limit: Int

  package init(directory: StateDirectory) {
    self.init(directory: directory, maximumBytes: Self.maximumBytes)
  }

  /// With a smaller size limit than `maximumBytes`, for tests.
  init(directory: StateDirectory, maximumBytes: Int) {
    path = directory.file(Self.fileName)
    limit = min(maximumBytes, Self.maximumBytes)
  }

  package var exists: Bool { FileSystem.entryExists(path) }

  /// Reads the ledger without touching it: for `paywall-tui store`.
  package func read() throws(PurchaseError) -> Contents {
    let root: JSONNode
    do {
      root = try SourceFile.parse(path: path, followingLinks: false).0
    } catch {
      throw PurchaseError(error.diagnostics.first.map { "\($0.location): \($0.message)" } ?? "\(error)")
    }
    return try Self.decode(root)
  }

  /// Reads the ledger; a missing one is empty. A damaged one is replaced by its last good copy;
  /// with none, it is moved aside with a warning. One larger than `maximumBytes` (from an earlier
  /// paywall-tui, which had no limit) is neither read nor touched: the store starts empty and the
  /// warning says what to do (a session must then not save over it: see `oversize`). Without
  /// `repair` (a session that does not own the state directory) nothing on disk changes.
  package func load(repair: Bool = true) -> (Contents, String?) {
    if let size = oversize { return (Contents(), Self.oversizeWarning(path, size: size)) }
    switch StateFile.load(path, repair: repair, decode: Self.decodeState) {
    case .missing: return (Contents(), nil)
    case .loaded(let contents): return (contents, nil)
    case .recovered(let contents, let warning): return (contents, warning)
    case .unusable(let why, let kept?):
      return (Contents(), "\(path): the ledger is unreadable (\(why)); it was moved to \(kept) and the store starts empty")
    case .unusable(let why, nil):
      return (Contents(), "\(path): the ledger is unreadable (\(why)); the store starts empty\(repair ? " and will replace it" : "")")
    }
  }

  /// The ledger's size when it is larger than a ledger may be.
  package var oversize: Int? {
    var info = stat()
    // lstat: a link is not a ledger this looks into (the state directory's checks refuse it).
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) > limit else { return nil }
    return Int(info.st_size)
  }

  static func oversizeWarning(_ path: String, size: Int) -> String {
    "\(path) is \(mebibytes(size)), more than the \(mebibytes(maximumBytes)) a ledger may hold, so it is not read; it is left as it is and this session keeps its purchases in memory only (move it away, or pass --fresh, to start a new ledger)"
  }

  static func mebibytes(_ bytes: Int) -> String {
    bytes >= 1_048_576 ? "\(bytes / 1_048_576) MiB" : "\(bytes) bytes"
  }

  package static func decodeState(_ root: JSONNode) throws(StateFile.Problem) -> Contents {
    do {
      return try decode(root)
    } catch {
      throw StateFile.Problem(error.message)
    }
  }

  /// Writes the ledger, unless it would not read back: larger than `maximumBytes`, or holding a
  /// date outside `dateRange` (a clock run past 9999). Then nothing is written and the error says
  /// why; the file on disk keeps its last good contents.
  package func save(_ contents: Contents) throws(AtomicFile.WriteError) {
    var lines = EncodedLines()
    try save(contents, lines: &lines)
  }

  /// `save`, encoding again only the lines `lines` does not hold already: for the one writer of
  /// a ledger, which saves after every change.
  package func save(_ contents: Contents, lines: inout EncodedLines) throws(AtomicFile.WriteError) {
    if let date = Self.datesOutOfRange(contents) {
      throw AtomicFile.WriteError(path: path, reason: "it would hold the date \(date), and a ledger holds dates from 1970 to 9999 only")
    }
    let text = Self.encode(contents, lines: &lines)
    guard text.count <= limit else {
      throw AtomicFile.WriteError(path: path, reason: "it would be \(Self.mebibytes(text.count)), more than the \(Self.mebibytes(limit)) a ledger may hold")
    }
    try AtomicFile.write(Data(text), to: path, keepingPrevious: true)
  }

  /// The first date in `contents` a reader would refuse, spelled out.
  static func datesOutOfRange(_ contents: Contents) -> String? {
    var found: Date?
    func check(_ date: Date?) {
      if found == nil, let date, !dateRange.contains(date.timeIntervalSince1970) { found = date }
    }
    check(contents.clock)
    for pending in contents.pending { check(pending.requestDate) }
    for entry in contents.entries {
      check(entry.date)
      check(entry.expirationDate)
      check(entry.graceUntil)
      check(entry.retryUntil)
      check(entry.run?.lastDate)
      check(entry.run?.lastExpirationDate)
    }
    guard let found else { return nil }
    let seconds = found.timeIntervalSince1970
    // StoreDates formats years up to the ones a Date can hold; past them, the seconds say enough.
    return seconds.isFinite && abs(seconds) < 1e15 ? StoreDates.format(found) : "\(seconds) s after 1970"
  }

  // MARK: - Encoding

  static func date(_ date: Date) -> JSONOutput { .number(fixedPoint(date.timeIntervalSince1970, places: 3)) }

  static func decimal(_ value: Decimal) -> JSONOutput { .string("\(value)") }

  package static func json(_ entry: LedgerEntry) -> JSONOutput {
    var members: [(String, JSONOutput)] = [
      ("id", .string(String(entry.id))), ("type", .string(entry.kind.rawValue)), ("date", date(entry.date)),
      ("originalID", .string(String(entry.originalID))), ("productID", .string(entry.productID)),
    ]
    if let expiration = entry.expirationDate { members.append(("expirationDate", date(expiration))) }
    if let offer = entry.offer { members.append(("offer", .string(offer.rawValue))) }
    if let type = entry.offerType, type != .introductory { members.append(("offerType", .string(type.rawValue))) }
    if let offerID = entry.offerID { members.append(("offerID", .string(offerID))) }
    if entry.offerPeriodsLeft > 0 { members.append(("offerPeriodsLeft", .number(String(entry.offerPeriodsLeft)))) }
    if let price = entry.price { members.append(("price", decimal(price))) }
    if let regular = entry.regularPrice { members.append(("regularPrice", decimal(regular))) }
    if let credit = entry.proratedCredit { members.append(("proratedCredit", decimal(credit))) }
    if entry.ownership != .purchased { members.append(("ownership", .string(entry.ownership.rawValue))) }
    if let reason = entry.reason { members.append(("reason", .string(reason.rawValue))) }
    if let revoked = entry.revokedID { members.append(("revokedID", .string(String(revoked)))) }
    if let grace = entry.graceUntil { members.append(("graceUntil", date(grace))) }
    if let retry = entry.retryUntil { members.append(("retryUntil", date(retry))) }
    if let grace = entry.grace { members.append(("grace", .bool(grace))) }
    if let accepted = entry.accepted { members.append(("accepted", .bool(accepted))) }
    if let effect = entry.effect { members.append(("effect", .string(effect.rawValue))) }
    if let mode = entry.replacementMode { members.append(("replacementMode", .string(mode.rawValue))) }
    if let reading = entry.playIDReading { members.append(("playIDReading", .string(reading.rawValue))) }
    if let run = entry.run {
      members.append(("count", .number(String(run.count))))
      members.append(("lastID", .string(String(run.lastID))))
      members.append(("lastDate", date(run.lastDate)))
      if let expiration = run.lastExpirationDate { members.append(("lastExpirationDate", date(expiration))) }
    }
    return .object(members)
  }

  package static func json(_ rules: StoreRules) -> JSONOutput {
    .object([("renewalInterval", rules.renewalInterval.map { .number(String($0)) } ?? .null),
             ("gracePeriod", .bool(rules.gracePeriodEnabled)), ("renewalBillingIssues", .bool(rules.renewalBillingIssues))])
  }

  /// The ledger's lines as last encoded. A save after a change encodes again only the lines
  /// that differ from the last save's (new ones; a run of renewals that grew, wherever its first
  /// line is) and copies the others. Encoding every line on every change made a session's saves
  /// quadratic in its ledger: 2,000 purchase-and-revoke pairs in one `play` took 27 s, three
  /// quarters of it in encoding.
  package struct EncodedLines: Sendable {
    /// The entries encoded, in an array of its own (sharing the store's would make its next
    /// append copy the whole ledger).
    private var entries: [LedgerEntry] = []
    /// Each entry's line, `\n{…}`.
    private var lines: [[UInt8]] = []
    /// The transactions array's contents: the lines separated by commas.
    private(set) var bytes: [UInt8] = []
    /// Where each line ends in `bytes`.
    private var ends: [Int] = []

    package init() {}

    mutating func update(to current: [LedgerEntry]) {
      var first: Int?
      if entries.count > current.count {
        entries.removeLast(entries.count - current.count)
        lines.removeLast(lines.count - current.count)
        first = current.count
      }
      for index in current.indices where index >= entries.count || entries[index] != current[index] {
        var line = [UInt8(ascii: "\n")]
        LedgerFile.json(current[index]).write(into: &line)
        if index < entries.count {
          entries[index] = current[index]
          lines[index] = line
        } else {
          entries.append(current[index])
          lines.append(line)
        }
        first = min(first ?? index, index)
      }
      // The bytes up to the first line that changed stay; the rest are copied again.
      guard let first else { return }
      bytes.removeSubrange((first == 0 ? 0 : ends[first - 1])...)
      ends.removeSubrange(first...)
      for index in first..<lines.count {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: lines[index])
        ends.append(bytes.count)
      }
    }
  }

  static func encode(_ contents: Contents) -> String {
    var lines = EncodedLines()
    return String(decoding: encode(contents, lines: &lines), as: UTF8.self)
  }

  static func encode(_ contents: Contents, lines: inout EncodedLines) -> [UInt8] {
    let pending = contents.pending.map { p -> String in
      var fields: [(String, JSONOutput)] = [("kind", .string(p.kind.rawValue)), ("productID", .string(p.productID)),
                                            ("requestDate", date(p.requestDate))]
      if let offerID = p.offerID { fields.append(("offerID", .string(offerID))) }
      return JSONOutput.object(fields).text
    }
    let version = contents.entries.contains { $0.run != nil } ? version : versionWithoutRuns
    var head = "{\"format\":\"\(format)\",\"version\":\(version)"
    if let clock = contents.clock { head += ",\"clock\":\(date(clock).text)" }
    if let rules = contents.rules { head += ",\"rules\":\(json(rules).text)" }
    if let store = contents.store { head += ",\"store\":\"\(store.rawValue)\"" }
    head += ",\n\"transactions\":["
    let tail = "],\n\"pending\":[" + pending.map { "\n" + $0 }.joined(separator: ",") + "]}\n"
    lines.update(to: contents.entries)
    var text: [UInt8] = []
    text.reserveCapacity(head.utf8.count + lines.bytes.count + tail.utf8.count)
    text.append(contentsOf: head.utf8)
    text.append(contentsOf: lines.bytes)
    text.append(contentsOf: tail.utf8)
    return text
  }

  // MARK: - Decoding

  static func decode(_ root: JSONNode) throws(PurchaseError) -> Contents {
    guard root["format"]?.stringValue == format else { throw PurchaseError("not a paywall-tui ledger") }
    guard case .number(let v)? = root["version"]?.value, let number = Int(v) else { throw PurchaseError("the ledger has no version") }
    guard readableVersions.contains(number) else {
      throw PurchaseError("ledger version \(number) is not a version this paywall-tui reads (\(readableVersions.map(String.init).joined(separator: " or ")))")
    }
    var contents = Contents()
    contents.clock = try date(root["clock"])
    if let store = root["store"] {
      guard let name = store.stringValue, let known = Store(rawValue: name) else { throw PurchaseError("'store' at \(store.location) has an unknown value") }
      contents.store = known
    }
    if let rules = root["rules"] {
      var interval: Double?
      // Finite only: `inf` (from 1e999) would be saved as text JSON cannot read back.
      if case .number(let text)? = rules["renewalInterval"]?.value { interval = Double(text).flatMap { $0.isFinite ? $0 : nil } }
      contents.rules = StoreRules(renewalInterval: interval, gracePeriodEnabled: bool(rules["gracePeriod"]) ?? false,
                                  renewalBillingIssues: bool(rules["renewalBillingIssues"]) ?? false)
    }
    for node in root["transactions"]?.elements ?? [] {
      contents.entries.append(try entry(node))
    }
    for node in root["pending"]?.elements ?? [] {
      guard let productID = node["productID"]?.stringValue, let requested = try date(node["requestDate"]) else {
        throw PurchaseError("a pending purchase at \(node.location) lacks its productID or requestDate")
      }
      let kind = node["kind"]?.stringValue.flatMap(PendingPurchase.Kind.init(rawValue:)) ?? .askToBuy
      contents.pending.append(PendingPurchase(kind: kind, productID: productID, requestDate: requested,
                                              offerID: node["offerID"]?.stringValue))
    }
    return contents
  }

  static func entry(_ node: JSONNode) throws(PurchaseError) -> LedgerEntry {
    func choice<T: RawRepresentable>(_ key: String, _: T.Type) throws(PurchaseError) -> T? where T.RawValue == String {
      guard let value = node[key] else { return nil }
      guard let text = value.stringValue, let choice = T(rawValue: text) else {
        throw PurchaseError("'\(key)' at \(value.location) has an unknown value")
      }
      return choice
    }
    func price(_ key: String) throws(PurchaseError) -> Decimal? {
      guard let value = node[key] else { return nil }
      guard let text = value.stringValue, let decimal = DecimalParsing.parse(text) else {
        throw PurchaseError("'\(key)' at \(value.location) must be a price such as \"9.99\"")
      }
      return decimal
    }
    guard let id = try Self.id(node, "id"), let kind = try choice("type", LedgerEntry.Kind.self), let when = try date(node["date"]),
          let productID = node["productID"]?.stringValue else {
      throw PurchaseError("the line at \(node.location) lacks its id, type, date or productID")
    }
    var periodsLeft = 0
    if case .number(let text)? = node["offerPeriodsLeft"]?.value, let n = Int(text) { periodsLeft = n }
    var run: LedgerEntry.Run?
    if let countNode = node["count"] {
      guard kind == .renewal, case .number(let text) = countNode.value, let count = Int(text), count >= 2,
            let lastID = try Self.id(node, "lastID"), let lastDate = try date(node["lastDate"]) else {
        throw PurchaseError("the run of renewals at \(countNode.location) needs a count of 2 or more, a lastID and a lastDate")
      }
      run = LedgerEntry.Run(count: count, lastID: lastID, lastDate: lastDate, lastExpirationDate: try date(node["lastExpirationDate"]))
    }
    var entry = LedgerEntry(
      id: id, kind: kind, date: when, originalID: try Self.id(node, "originalID") ?? id, productID: productID,
      expirationDate: try date(node["expirationDate"]), offer: try choice("offer", IntroductoryOffer.PaymentMode.self),
      offerPeriodsLeft: periodsLeft, price: try price("price"), proratedCredit: try price("proratedCredit"),
      ownership: try choice("ownership", LedgerEntry.Ownership.self) ?? .purchased,
      reason: try choice("reason", LedgerEntry.Reason.self), revokedID: try Self.id(node, "revokedID"),
      graceUntil: try date(node["graceUntil"]), retryUntil: try date(node["retryUntil"]), grace: bool(node["grace"]),
      accepted: bool(node["accepted"]), effect: try choice("effect", LedgerEntry.Effect.self), run: run,
      offerType: try choice("offerType", LedgerEntry.OfferType.self), offerID: node["offerID"]?.stringValue,
      regularPrice: try price("regularPrice"))
    entry.replacementMode = try choice("replacementMode", PlayReplacementMode.self)
    entry.playIDReading = try choice("playIDReading", PlayProductIdentifier.Reading.self)
    return entry
  }

  private static func id(_ node: JSONNode, _ key: String) throws(PurchaseError) -> UInt64? {
    guard let value = node[key] else { return nil }
    guard let text = value.stringValue, let id = UInt64(text) else { throw PurchaseError("'\(key)' at \(value.location) must be a transaction id") }
    return id
  }

  static func bool(_ node: JSONNode?) -> Bool? {
    if case .bool(let b)? = node?.value { return b }
    return nil
  }

  /// Seconds since 1970 a ledger date may hold: from 1970-01-01 to 9999-12-31 (an accelerated
  /// clock runs years ahead, never millennia).
  package static let dateRange: ClosedRange<Double> = 0...253_402_300_799

  /// 9999-12-31 23:59:59 UTC, the last date a ledger holds: no clock may be moved past it.
  package static let latestDate = Date(timeIntervalSince1970: dateRange.upperBound)

  static func date(_ node: JSONNode?) throws(PurchaseError) -> Date? {
    guard let node else { return nil }
    switch node.value {
    case .null: return nil
    case .number(let text):
      // 1e999 reads as infinity, which would be saved as `inf` and make the whole file unreadable;
      // a line dated millions of years on would have the replay renew the subscription until then.
      guard let seconds = Double(text), dateRange.contains(seconds) else {
        throw PurchaseError("bad date at \(node.location): dates lie between 1970 and 9999")
      }
      return Date(timeIntervalSince1970: seconds)
    default: throw PurchaseError("bad date at \(node.location)")
    }
  }
}
