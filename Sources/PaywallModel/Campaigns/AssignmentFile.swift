import Foundation

/// The user id and the sticky audience assignments, kept in the state directory (`user.json`),
/// written atomically. A missing file starts a new anonymous user with a random id; a corrupt one
/// is reported and replaced on the next write, never silently trusted.
public struct AssignmentFile: Sendable {
  public static let fileName = "user.json"
  static let format = "paywall-tui.user"
  static let version = 1

  public var path: String

  public init(directory: StateDirectory) {
    self.path = directory.file(Self.fileName)
  }

  /// The saved book, or a new one for `userID` (or a fresh random id); `isNew` says which, so a
  /// new user is written once, not on every launch. An explicit `userID` that differs from the
  /// saved one starts that user's own, empty book.
  public func load(userID explicit: String?, fresh: Bool = false) -> (AssignmentBook, warning: String?, isNew: Bool) {
    let (book, warning) = read(userID: explicit, fresh: fresh)
    return (book ?? AssignmentBook(userID: explicit ?? "$anon:" + UUID().uuidString.lowercased()), warning, book == nil)
  }

  /// The saved book when it is usable for `explicit`, else nil (and why, when the file was bad).
  private func read(userID explicit: String?, fresh: Bool) -> (AssignmentBook?, warning: String?) {
    guard !fresh, FileManager.default.fileExists(atPath: path) else { return (nil, nil) }
    let root: JSONNode
    do {
      root = try SourceFile.parse(path: path).0
    } catch {
      let why = error.diagnostics.first.map { "\($0.location): \($0.message)" } ?? "unreadable"
      return (nil, "\(path): ignoring the saved user (\(why)); starting a new one")
    }
    guard root["format"]?.stringValue == Self.format, case .number(let v)? = root["version"]?.value, Int(v) == Self.version,
          let userID = root["userId"]?.stringValue, !userID.isEmpty else {
      return (nil, "\(path): not a paywall-tui user file of version \(Self.version); starting a new user")
    }
    if let explicit, explicit != userID { return (nil, nil) }
    var entries: [String: String] = [:]
    for member in root["assignments"]?.members ?? [] {
      if let value = member.value.stringValue { entries[member.key] = value }
    }
    return (AssignmentBook(userID: userID, entries: entries), nil)
  }

  public func save(_ book: AssignmentBook) throws(AtomicFile.WriteError) {
    let entries = book.entries.sorted { $0.key < $1.key }.map { (key: String, value: String) in
      (key, JSONOutput.string(value))
    }
    let json = JSONOutput.object([
      ("format", .string(Self.format)), ("version", .number("\(Self.version)")), ("userId", .string(book.userID)),
      ("assignments", .object(entries)),
    ]).text + "\n"
    try AtomicFile.write(Data(json.utf8), to: path)
  }
}
