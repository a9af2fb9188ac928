import Foundation

/// The subscription status saved in the state directory between launches, written atomically.
/// A missing file means `unknown`; a corrupt or foreign one gives a warning and `unknown`.
public struct StatusCache: Sendable {
  public static let fileName = "status.json"
  static let format = "paywall-tui.status"
  static let version = 1

  public var path: String

  public init(directory: StateDirectory) {
    self.path = directory.file(Self.fileName)
  }

  /// The cached status, and a warning when the file was there but unusable.
  public func load() -> (SubscriptionStatus, warning: String?) {
    guard FileManager.default.fileExists(atPath: path) else { return (.unknown, nil) }
    let root: JSONNode
    do {
      root = try SourceFile.parse(path: path).0
    } catch {
      let why = error.diagnostics.first.map { "\($0.location): \($0.message)" } ?? "unreadable"
      return (.unknown, "\(path): ignoring the cached status (\(why)); starting as unknown")
    }
    guard root["format"]?.stringValue == Self.format else {
      return (.unknown, "\(path): not a paywall-tui status file; starting as unknown")
    }
    guard case .number(let v)? = root["version"]?.value, Int(v) == Self.version else {
      return (.unknown, "\(path): status file version is not \(Self.version); starting as unknown")
    }
    guard let text = root["status"]?.stringValue, let status = SubscriptionStatus(parsing: text) else {
      return (.unknown, "\(path): the cached status is not unknown, inactive or active:ENTITLEMENTS; starting as unknown")
    }
    return (status, nil)
  }

  public func save(_ status: SubscriptionStatus) throws(AtomicFile.WriteError) {
    let json = "{\"format\": \"\(Self.format)\", \"version\": \(Self.version), \"status\": \(JSONText.quote(status.description))}\n"
    try AtomicFile.write(Data(json.utf8), to: path)
  }
}
