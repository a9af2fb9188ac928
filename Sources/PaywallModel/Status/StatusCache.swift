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

/// The subscription status saved in the state directory between launches, written atomically.
/// A missing file means `unknown`; a damaged one is recovered from its last good copy, else it
/// gives a warning and `unknown`.
public struct StatusCache: Sendable {
  /// The cache's file name in the state directory.
  public static let fileName = "status.json"
  static let format = "paywall-tui.status"
  static let version = 1

  /// The cache file's full path.
  public var path: String

  /// The cache of the project whose state lives in `directory`.
  public init(directory: StateDirectory) {
    self.path = directory.file(Self.fileName)
  }

  /// The cached status, and a warning when the file was there but unusable. A damaged file is
  /// replaced by its last good copy (`repair`: when this session owns the state directory).
  public func load(repair: Bool = true) -> (SubscriptionStatus, warning: String?) {
    switch StateFile.load(path, repair: repair, decode: Self.decode) {
    case .missing: return (.unknown, nil)
    case .loaded(let status): return (status, nil)
    case .recovered(let status, let warning): return (status, warning)
    case .unusable(let why, let kept):
      return (.unknown, "\(path): ignoring the cached status (\(why))\(kept.map { ", kept as \($0)" } ?? ""); starting as unknown")
    }
  }

  static func decode(_ root: JSONNode) throws(StateFile.Problem) -> SubscriptionStatus {
    guard root["format"]?.stringValue == Self.format else {
      throw StateFile.Problem("not a paywall-tui status file")
    }
    guard case .number(let v)? = root["version"]?.value, Int(v) == Self.version else {
      throw StateFile.Problem("status file version is not \(Self.version)")
    }
    guard let text = root["status"]?.stringValue, let status = SubscriptionStatus(parsing: text) else {
      throw StateFile.Problem("the cached status is not unknown, inactive or active:ENTITLEMENTS")
    }
    return status
  }

  /// Saves `status` atomically, keeping the previous file as the last good copy.
  public func save(_ status: SubscriptionStatus) throws(AtomicFile.WriteError) {
    let json = "{\"format\": \"\(Self.format)\", \"version\": \(Self.version), \"status\": \(JSONText.quote(status.description))}\n"
    try AtomicFile.write(json, to: path, keepingPrevious: true)
  }
}
