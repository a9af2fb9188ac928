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

/// The user id and the sticky audience assignments, kept in the state directory (`user.json`),
/// written atomically. A missing file starts a new anonymous user with a random id; a corrupt one
/// is reported and replaced on the next write, never silently trusted.
public struct AssignmentFile: Sendable {
  /// The file's name in the state directory.
  public static let fileName = "user.json"
  static let format = "paywall-tui.user"
  static let version = 1
  /// The most occurrences kept per audience (the newest): more than any limit needs to count.
  static let occurrenceLimit = 100_000

  /// The file's full path.
  public var path: String

  /// The assignment file of the project whose state lives in `directory`.
  public init(directory: StateDirectory) {
    self.path = directory.file(Self.fileName)
  }

  /// The saved book, or a new one for `userID` (or a fresh random id); `isNew` says which, so a
  /// new user is written once, not on every launch. An explicit `userID` that differs from the
  /// saved one starts that user's own, empty book.
  public func load(userID explicit: String?, fresh: Bool = false, repair: Bool = true) -> (AssignmentBook, warning: String?, isNew: Bool) {
    let (book, warning) = read(userID: explicit, fresh: fresh, repair: repair)
    return (book ?? AssignmentBook(userID: explicit ?? Self.newAnonymousUserID()), warning, book == nil)
  }

  /// A new anonymous user's id, as the SDK makes one: `$anon:` and a random UUID.
  package static func newAnonymousUserID() -> String { "$anon:" + UUID().uuidString.lowercased() }

  /// The saved book when it is usable for `explicit`, else nil (and why, when the file was bad).
  private func read(userID explicit: String?, fresh: Bool, repair: Bool) -> (AssignmentBook?, warning: String?) {
    guard !fresh else { return (nil, nil) }
    var warning: String?
    let book: AssignmentBook
    switch StateFile.load(path, repair: repair, decode: Self.decode) {
    case .missing: return (nil, nil)
    case .loaded(let saved): book = saved
    case .recovered(let saved, let why):
      book = saved
      warning = why
    case .unusable(let why, let kept):
      return (nil, "\(path): ignoring the saved user (\(why))\(kept.map { ", kept as \($0)" } ?? ""); starting a new one")
    }
    if let explicit, explicit != book.userID { return (nil, warning) }
    return (book, warning)
  }

  static func decode(_ root: JSONNode) throws(StateFile.Problem) -> AssignmentBook {
    guard root["format"]?.stringValue == Self.format, case .number(let v)? = root["version"]?.value, Int(v) == Self.version,
          let userID = root["userId"]?.stringValue, !userID.isEmpty else {
      throw StateFile.Problem("not a paywall-tui user file of version \(Self.version)")
    }
    var entries: [String: String] = [:]
    for member in root["assignments"]?.members ?? [] {
      if let value = member.value.stringValue { entries[member.key] = value }
    }
    // Each occurrence's time in seconds since 1970 (as the ledger's dates); a file written before
    // intervals existed holds a count, read as that many occurrences at 1970: they count against
    // an all-time limit and fall outside every interval.
    var occurrences: [String: [Date]] = [:]
    for member in root["occurrences"]?.members ?? [] {
      switch member.value.value {
      case .number(let text):
        if let count = Int(text), count > 0 {
          occurrences[member.key] = Array(repeating: Date(timeIntervalSince1970: 0), count: min(count, Self.occurrenceLimit))
        }
      case .array(let items):
        var times: [Date] = []
        for item in items.suffix(Self.occurrenceLimit) {
          if case .number(let text) = item.value, let seconds = Double(text), LedgerFile.dateRange.contains(seconds) {
            times.append(Date(timeIntervalSince1970: seconds))
          }
        }
        if !times.isEmpty { occurrences[member.key] = times.sorted() }
      default:
        break
      }
    }
    var book = AssignmentBook(userID: userID, entries: entries, occurrences: occurrences)
    // Optional: a file written before surveys has none (and an older reader ignores the key).
    book.surveyAssignmentKey = root["surveyAssignmentKey"]?.stringValue
    if case .number(let text)? = root["installedAt"]?.value, let seconds = Double(text), LedgerFile.dateRange.contains(seconds) {
      book.installedAt = Date(timeIntervalSince1970: seconds)
    }
    return book
  }

  /// Saves `book` atomically, keeping the previous file as the last good copy.
  public func save(_ book: AssignmentBook) throws(AtomicFile.WriteError) {
    let entries = book.entries.sorted { $0.key < $1.key }.map { (key: String, value: String) in
      (key, JSONOutput.string(value))
    }
    var members: [(String, JSONOutput)] = [
      ("format", .string(Self.format)), ("version", .number("\(Self.version)")), ("userId", .string(book.userID)),
      ("assignments", .object(entries)),
      ("occurrences", .object(book.occurrences.sorted { $0.key < $1.key }.map { (key: String, times: [Date]) in
        (key, JSONOutput.array(times.suffix(Self.occurrenceLimit).map(LedgerFile.date)))
      })),
    ]
    if let key = book.surveyAssignmentKey { members.append(("surveyAssignmentKey", .string(key))) }
    if let installed = book.installedAt { members.append(("installedAt", LedgerFile.date(installed))) }
    let json = JSONOutput.object(members).text + "\n"
    try AtomicFile.write(json, to: path, keepingPrevious: true)
  }
}
