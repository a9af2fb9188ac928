import Foundation
import Synchronization
import Testing
import PaywallModel

/// Shared helpers for the PaywallModel suites: fixtures are Swift string literals, written to a
/// fresh temporary directory only when a loader needs a path.
enum Fixture {
  /// The repository's `paywalls/` directory, found from this source file.
  static var paywallsDirectory: String {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()  // PaywallModelTests
      .deletingLastPathComponent()  // Tests
      .deletingLastPathComponent()  // package root
      .appendingPathComponent("paywalls").path
  }

  static func bundled(_ name: String) -> String {
    (paywallsDirectory as NSString).appendingPathComponent(name)
  }

  /// Parses `text`, failing the test (and returning nil) on a syntax error.
  static func parse(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> JSONNode? {
    do {
      return try JSONParser.parse(text)
    } catch {
      Issue.record("fixture is not valid JSON: \(error.message) at \(error.location)", sourceLocation: sourceLocation)
      return nil
    }
  }

  /// The syntax error `text` produces, or nil when it parses.
  static func syntaxError(_ text: String) -> JSONSyntaxError? {
    syntaxError(bytes: Array(text.utf8))
  }

  static func syntaxError(bytes: [UInt8]) -> JSONSyntaxError? {
    do {
      _ = try JSONParser.parse(bytes: bytes)
      return nil
    } catch {
      return error
    }
  }

  static func decimal(_ text: String) -> Decimal {
    Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
  }
}

typealias Position = PaywallModel.SourceLocation

/// A directory under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory {
  let path: String

  init() throws {
    path = (NSTemporaryDirectory() as NSString).appendingPathComponent("PaywallModelTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Writes `text` to `name` inside the directory and returns the file's path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let file = (path as NSString).appendingPathComponent(name)
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  func file(_ name: String) -> String {
    (path as NSString).appendingPathComponent(name)
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// Runs `body` with a fresh temporary directory and removes it afterwards.
func withTemporaryDirectory<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
  let directory = try TemporaryDirectory()
  defer { directory.remove() }
  return try body(directory)
}

extension IntroOfferEligibility {
  /// A user who has subscribed in every group of `catalog`: no introductory offer left.
  static func everyGroupUsed(in catalog: Catalog) -> IntroOfferEligibility {
    IntroOfferEligibility(usedGroups: Set(catalog.products.map(IntroOfferEligibility.group(of:))))
  }
}

/// A small catalog like the demo's, built in code: annual (7-day trial), monthly, lifetime.
enum TestCatalog {
  static let annual = StoreProduct(
    id: "com.acme.pro.annual", displayName: "Annual", price: Fixture.decimal("59.99"), kind: .autoRenewable,
    subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .year),
    introductoryOffer: IntroductoryOffer(paymentMode: .freeTrial, period: SubscriptionPeriod(value: 7, unit: .day)),
    subscriptionGroup: "pro", groupLevel: 1, entitlements: ["pro"])
  static let monthly = StoreProduct(
    id: "com.acme.pro.monthly", displayName: "Monthly", price: Fixture.decimal("9.99"), kind: .autoRenewable,
    subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .month), subscriptionGroup: "pro", groupLevel: 2,
    entitlements: ["pro"])
  static let lifetime = StoreProduct(
    id: "com.acme.pro.lifetime", displayName: "Lifetime", price: Fixture.decimal("149.99"), kind: .nonConsumable,
    entitlements: ["pro", "lifetime"])
  static let weekly = StoreProduct(
    id: "com.acme.pro.weekly", displayName: "Weekly", price: Fixture.decimal("4.99"), kind: .autoRenewable,
    subscriptionPeriod: SubscriptionPeriod(value: 1, unit: .week), subscriptionGroup: "pro", groupLevel: 3,
    entitlements: ["pro"])

  static let catalog = Catalog(products: [annual, monthly, lifetime, weekly], file: "catalog.json")
}

extension Array where Element == Diagnostic {
  var errors: [Diagnostic] { filter { $0.severity == .error } }
  var warnings: [Diagnostic] { filter { $0.severity == .warning } }
}

/// One validation mistake and the diagnostic it must produce, for parameterised error tables.
struct ErrorCase: Sendable, CustomTestStringConvertible {
  var name: String
  var json: String
  var line: Int
  var column: Int
  var path: String
  var message: String
  var testDescription: String { name }
}

/// Runs `body`, which may open the FIFO at `fifo`, on its own thread. Code that waits in `open`
/// for a writer (as plain `O_RDONLY` does) is freed after 5 s by opening the FIFO for writing
/// and closing it, so the test reports `blocked` instead of hanging.
func unblockingFIFO<T: Sendable>(_ fifo: String, _ body: @escaping @Sendable () -> T) throws -> (T, blocked: Bool) {
  let result = Mutex<T?>(nil)
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    let value = body()
    result.withLock { $0 = value }
    done.signal()
  }
  thread.start()
  var blocked = false
  if done.wait(timeout: .now() + 5) == .timedOut {
    blocked = true
    // Repeated: the reader may reopen (a .bak, a second read) after the first is freed.
    while done.wait(timeout: .now() + 0.2) == .timedOut {
      let writer = open(fifo, O_WRONLY | O_NONBLOCK)
      if writer >= 0 { close(writer) }
    }
  }
  return (try #require(result.withLock { $0 }), blocked)
}
