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

/// Products grouped so one can be upgraded or downgraded to another by level (1 is the top tier).
public struct SubscriptionGroup: Sendable, Hashable {
  /// The group's identifier in the catalog.
  public var id: String
  /// The group's display name (the `.storekit` reference name).
  public var name: String
  /// The products in the group, in catalog order.
  public var productIDs: [String]

  /// A group of `productIDs`.
  public init(id: String, name: String, productIDs: [String]) {
    self.id = id
    self.name = name
    self.productIDs = productIDs
  }
}

/// Store-wide settings, as a `.storekit` file's `settings` holds them.
public struct StoreSettings: Sendable, Hashable {
  /// ISO 3166 alpha-3 storefront ("USA"); decides the currency of a `.storekit` catalog.
  public var storefront: String?
  /// The locale prices are formatted for ("en_US"), when the catalog sets one.
  public var locale: String?
  /// StoreKit's `_timeRate` number (0 is real time); the simulated store maps it to a clock rate.
  public var timeRate: Int?
  /// Purchases wait for a parent's approval (`_askToBuyEnabled`).
  public var askToBuyEnabled: Bool
  /// A failed renewal gets a billing grace period before billing retry (`_billingGracePeriodEnabled`).
  public var billingGracePeriodEnabled: Bool
  /// Every renewal fails with a billing issue (`_renewalBillingIssuesEnabled`).
  public var renewalBillingIssuesEnabled: Bool
  /// Every purchase fails (`_failTransactionsEnabled`).
  public var failTransactionsEnabled: Bool

  /// Settings as given; every switch is off by default.
  public init(storefront: String? = nil, locale: String? = nil, timeRate: Int? = nil,
              askToBuyEnabled: Bool = false, billingGracePeriodEnabled: Bool = false,
              renewalBillingIssuesEnabled: Bool = false, failTransactionsEnabled: Bool = false) {
    self.storefront = storefront
    self.locale = locale
    self.timeRate = timeRate
    self.askToBuyEnabled = askToBuyEnabled
    self.billingGracePeriodEnabled = billingGracePeriodEnabled
    self.renewalBillingIssuesEnabled = renewalBillingIssuesEnabled
    self.failTransactionsEnabled = failTransactionsEnabled
  }
}

/// The products a project sells, in file order, from our JSON catalog or an Xcode `.storekit` file.
public struct Catalog: Sendable, Equatable {
  /// Every product, in file order.
  public var products: [StoreProduct]
  /// The subscription groups, in file order.
  public var groups: [SubscriptionGroup]
  /// Store-wide settings (defaults for the simulated store).
  public var settings: StoreSettings
  /// The file it was read from, for messages.
  public var file: String
  /// The store whose rules the simulated store follows for this catalog: Google Play's for a Play
  /// catalog (purchase tokens, order ids, acknowledgement, test cards), the App Store's otherwise.
  public var store: Store = .appStore
  /// Products the file defines (their id was read) that failed to load: a reference to one is a
  /// consequence of that error, not a product missing from the catalog.
  package var unloadedProductIDs: Set<String> = []
  /// Ids the file defines but sells nothing under (a Play catalog's plan not on sale in its
  /// region), each with why: a paywall naming one is told the cause, not a consequence.
  package var notSoldReasons: [String: String] = [:]
  /// A Play catalog's own data, from which each product is made again for a buyer with a history
  /// (`PlaySource`); nil for any other catalog.
  package var play: PlaySource?
  private var indexByID: [String: Int]

  /// A catalog built in code (tests, tools); the first product with a given id wins in `product(id:)`.
  public init(products: [StoreProduct], groups: [SubscriptionGroup] = [], settings: StoreSettings = StoreSettings(), file: String = "") {
    self.products = products
    self.groups = groups
    self.settings = settings
    self.file = file
    var index: [String: Int] = [:]
    for (i, product) in products.enumerated() where index[product.id] == nil {
      index[product.id] = i
    }
    self.indexByID = index
  }

  /// The product with identifier `id`, or nil when the catalog has none. A Play catalog also
  /// answers the spellings it does not list that the SDK reads (`acme_pro:sw-auto:sw-auto`).
  public func product(id: String) -> StoreProduct? {
    if let index = indexByID[id] { return products[index] }
    return play?.unlisted(id, locale: settings.locale)
  }

  /// Why an id the file defines sells nothing, or only another store of the project sells it
  /// (`ProjectLoader.notingOtherStores`), for a reference to it; nil when it sells, or nothing
  /// defines it.
  package func notSoldReason(_ id: String) -> String? {
    guard product(id: id) == nil, !failedToLoad(id) else { return nil }
    return notSoldReasons[id] ?? play?.unsoldReason(id)
  }

  /// The line a reference to `id` that names no product here gets: the id with its
  /// `notSoldReason`, else that the catalog has none, with a did-you-mean.
  package func missingProductLine(_ id: String) -> String {
    if let reason = notSoldReason(id) { return "\(quoting: id): \(reason)" }
    return "no product \(quoting: id) in the catalog\(Suggestions.hint(for: id, in: productIDs))"
  }

  /// Whether `id` is missing because its definition had an error (reported where it is).
  private func failedToLoad(_ id: String) -> Bool {
    unloadedProductIDs.contains(id) || play?.catalog.failedProducts.contains(PlayProductIdentifier(id).productId) == true
  }

  /// This catalog as `sdk` reads its ids: a Play catalog's products made again when the release
  /// reads Play ids otherwise than the one it was made for (`PlayProductIdentifier.Reading`), the
  /// locale it is sold in kept. Any other catalog is itself.
  package func following(_ sdk: SDKVersion) -> Catalog {
    let reading = PlayProductIdentifier.Reading(sdk)
    guard let play, play.reading != reading else { return self }
    var catalog = play.catalog.catalog(region: play.region, entitlements: play.entitlements, reading: reading)
    catalog.settings = settings
    catalog.unloadedProductIDs = unloadedProductIDs
    return catalog.localized(storefront: nil, locale: settings.locale)
  }

  /// Why a product the catalog lacks is missing, for a reference to it: nil when the file does not
  /// define it, else that its definition failed to load (reported already, so the reference is a
  /// consequence).
  package func unloadedReason(_ id: String) -> String? {
    guard product(id: id) == nil, notSoldReason(id) == nil else { return nil }
    return failedToLoad(id) ? "its definition in \(file) failed to load, see above" : nil
  }

  /// Every product's identifier, in file order.
  public var productIDs: [String] { products.map(\.id) }

  /// Every entitlement a product of the catalog grants: what `--status active` alone and
  /// `status active` give, what a script and a filter may name. The one place it is computed.
  public var entitlements: Set<Entitlement> { Set(products.flatMap(\.entitlements)) }

  /// Their ids, sorted, for messages and lists.
  public var entitlementIDs: [String] { entitlements.map(\.id).sorted() }

  /// Loads a catalog file, choosing the reader by extension (`.storekit`) or content.
  public static func load(path: String) throws(ValidationFailure) -> Catalog {
    let (root, diagnostics) = try SourceFile.parse(path: path)
    guard let catalog = read(root, file: path, diagnostics: diagnostics), !diagnostics.hasErrors else {
      throw ValidationFailure(diagnostics.diagnostics)
    }
    return catalog
  }

  /// Reads a parsed catalog file with the reader its extension calls for.
  static func read(_ root: JSONNode, file: String, diagnostics: DiagnosticCollector) -> Catalog? {
    if file.hasSuffix(".storekit") { return StoreKitConfigurationReader.read(root, file: file, diagnostics: diagnostics) }
    // A Play catalog is told by its keys, as a `.json` name is all it has: what a buyer in its
    // region is offered, each id as Superwall-Android sells it (docs/android.md).
    if root["products"] != nil, let key = PlayCatalogReader.topLevelKeys.first(where: { root[$0] != nil }), let node = root[key] {
      // Read as ours, the Play lists would be ignored without a word.
      diagnostics.error("a catalog has our 'products' list or a Play catalog's lists (\(PlayCatalogReader.topLevelKeys.map { "'\($0)'" }.joined(separator: ", "))), not both: keep one",
                        at: node.location, path: JSONPath.root.appending(key))
      return nil
    }
    if PlayCatalogReader.isPlayCatalog(root) {
      guard let play = PlayCatalogReader.read(root, file: file, diagnostics: diagnostics) else { return nil }
      let map = EntitlementMap.load(besides: file, diagnostics: diagnostics)
      let subscriptions = Set(play.subscriptions.map(\.productId))
      diagnostics.append(map.unknownNames(products: subscriptions.union(play.oneTimeProducts.map(\.productId)), groups: subscriptions,
                                          catalog: file, products: "a Play product id (without base plan or offer, e.g. 'acme_pro')",
                                          groups: "a subscription's product id"))
      // Play has no groups beyond the subscription itself: a "groups" entry names a subscription.
      var granted = map.products
      for (subscription, entitlements) in map.groups { granted[subscription, default: []].formUnion(entitlements) }
      return play.catalog(region: play.region, entitlements: granted)
    }
    return CatalogReader.read(root, file: file, diagnostics: diagnostics)
  }
}

/// Reading a file and parsing it as JSON, with read and syntax errors as diagnostics.
package enum SourceFile {
  /// Files larger than this are refused rather than read into memory.
  package static let maximumBytes = 64 * 1024 * 1024

  /// The file's bytes, read with plain system calls: Foundation's `Data(contentsOf:)` builds a URL
  /// and an error domain first, a good part of loading a small project.
  ///
  /// Only a regular file is read. A named pipe would wait for a writer (in `open` itself) and a
  /// device may never end, so both are refused at once: the file is opened with `O_NONBLOCK` and
  /// what was opened (not what the name pointed at a moment before) is checked with `fstat`.
  /// - Parameter followingLinks: false for files of the state directory: a symbolic link there is
  ///   refused, never read through (`O_NOFOLLOW`).
  /// - Parameter allowingStreams: true for a file the user names to be read once to its end (a
  ///   play script): a pipe is read too (`/dev/stdin` in a pipeline, `<(…)`, a named pipe), until
  ///   its writers close it; one that nothing writes to is refused at once, never waited on. So is
  ///   the terminal standard input is (`/dev/stdin` typed at, to Ctrl-D, as `-`). Other devices
  ///   are refused.
  package static func read(path: String, followingLinks: Bool = true, allowingStreams: Bool = false) throws(ValidationFailure) -> [UInt8] {
    // A look before opening spares a device the side effects of `open` (a tape rewinds).
    var before = stat()
    if (followingLinks ? stat(path, &before) : lstat(path, &before)) == 0 {
      let type = before.st_mode & S_IFMT
      if type == S_IFLNK { throw linkRefused(path) }
      if type != S_IFREG && type != S_IFDIR && !(allowingStreams && isStream(before)) {
        throw notRegular(path, before.st_mode, followingLinks, streams: allowingStreams)
      }
    }
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (followingLinks ? 0 : O_NOFOLLOW))
    guard fd >= 0 else {
      if errno == ELOOP && !followingLinks { throw linkRefused(path) }
      if errno == ENOENT || errno == ENOTDIR { throw failure(path, "no such file; check the path") }
      throw failure(path, "cannot be read (\(String(cString: strerror(errno)))); check its permissions")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw failure(path, "cannot be read (\(String(cString: strerror(errno)))); check its permissions")
    }
    if info.st_mode & S_IFMT == S_IFDIR { throw failure(path, "is a directory, expected \(allowingStreams ? "a file" : "a JSON file")") }
    if allowingStreams && isStream(info) {
      var start: [UInt8] = []
      if info.st_mode & S_IFMT == S_IFIFO {
        // Still non-blocking: a pipe nothing writes to is at its end (0) at once, one with a
        // writer that has not written yet is EAGAIN. A named pipe's writer may still be on its
        // way (started just before this command): it gets up to 2 s to write, then the pipe is refused.
        start = [UInt8](repeating: 0, count: 4096)
        func readSome() -> Int {
          var n: Int
          repeat { n = start.withUnsafeMutableBytes { POSIX.read(fd, $0.baseAddress!, $0.count) } } while n < 0 && errno == EINTR
          return n
        }
        var n = readSome()
        if n == 0 {
          var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
          if poll(&ready, 1, 2000) > 0 && ready.revents & Int16(POLLIN) != 0 { n = readSome() }
        }
        if n == 0 {
          throw failure(path, "is not a regular file (a named pipe) and nothing writes to it; start the writer first, or give a file or - for standard input")
        }
        if n < 0 && errno != EAGAIN {
          throw failure(path, "cannot be read (\(String(cString: strerror(errno)))); check its permissions")
        }
        start.removeSubrange(max(n, 0)...)
      }
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
      return try readToEnd(fd, path: path, sizeHint: 0, start: start)
    }
    if info.st_mode & S_IFMT != S_IFREG { throw notRegular(path, info.st_mode, followingLinks, streams: allowingStreams) }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    if info.st_size > maximumBytes {
      throw failure(path, "is \(Int(info.st_size) / 1_048_576) MiB, larger than the \(maximumBytes / 1_048_576) MiB limit")
    }
    return try readToEnd(fd, path: path, sizeHint: Int(info.st_size))
  }

  /// A pipe, or the terminal standard input is (the only device a script may be read from).
  private static func isStream(_ info: stat) -> Bool {
    switch info.st_mode & S_IFMT {
    case S_IFIFO: return true
    case S_IFCHR:
      var input = stat()
      return isatty(STDIN_FILENO) == 1 && fstat(STDIN_FILENO, &input) == 0 && input.st_mode & S_IFMT == S_IFCHR
        && input.st_rdev == info.st_rdev
    default: return false
    }
  }

  /// Standard input read to its end (a script given as `-`), within the same limit as a file.
  package static func readStandardInput(name: String = "<stdin>") throws(ValidationFailure) -> [UInt8] {
    try readToEnd(STDIN_FILENO, path: name, sizeHint: 0)
  }

  /// Reads `fd` until end of file. `sizeHint` is only a hint (0 for /proc and pipes).
  ///
  /// Each chunk is read into memory left uninitialised, and a file of the size hinted is one
  /// chunk (its size and a byte more, to see its end) returned as it is: zeroing the buffer first
  /// and copying it after `start` touched every page of a large file twice before `read` wrote it
  /// (parsing a 5 MB config alone: 1,300 of its 5,500 page faults).
  private static func readToEnd(_ fd: Int32, path: String, sizeHint: Int, start: [UInt8] = []) throws(ValidationFailure) -> [UInt8] {
    var bytes = start
    var room = max(sizeHint, 0) + 1
    while true {
      var readError: Int32 = 0
      var ended = false
      let chunk = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
        count = 0
        while count < buffer.count {
          let n = POSIX.read(fd, buffer.baseAddress! + count, buffer.count - count)
          if n < 0 {
            if errno == EINTR { continue }
            readError = errno
            return
          }
          if n == 0 {
            ended = true
            return
          }
          count += n
        }
      }
      if readError != 0 {
        throw failure(path, "cannot be read (\(String(cString: strerror(readError)))); check its permissions")
      }
      if bytes.isEmpty && ended { return chunk }
      bytes += chunk
      if ended { return bytes }
      guard bytes.count <= maximumBytes else {
        throw failure(path, "is more than \(maximumBytes / 1_048_576) MiB, larger than the limit")
      }
      room = max(bytes.count, 4096)
    }
  }

  private static func linkRefused(_ path: String) -> ValidationFailure {
    failure(path, "is a symbolic link; paywall-tui never follows links in its state directory")
  }

  /// A file the user named gets a hint; one of the state directory does not (it is set aside).
  private static func notRegular(_ path: String, _ mode: mode_t, _ named: Bool, streams: Bool = false) -> ValidationFailure {
    let hint = streams ? "; give a file, a pipe, or - for standard input" : "; give the path of a JSON file"
    return failure(path, "is not a regular file (\(FileSystem.kind(of: mode)))" + (named ? hint : ""))
  }

  /// Reads and parses a JSON file; `followingLinks` as for `read(path:followingLinks:)`.
  package static func parse(path: String, followingLinks: Bool = true) throws(ValidationFailure) -> (JSONNode, DiagnosticCollector) {
    let bytes = try read(path: path, followingLinks: followingLinks)
    do {
      let root = try JSONParser.parseSplitting(bytes: bytes)
      return (root, DiagnosticCollector(file: path, source: bytes))
    } catch {
      throw ValidationFailure([Diagnostic(file: path, location: error.location, severity: .error,
                                          message: "invalid JSON: \(error.message)", path: nil)])
    }
  }

  static func failure(_ path: String, _ message: String) -> ValidationFailure {
    ValidationFailure([Diagnostic(file: path, location: .start, severity: .error, message: message, path: nil)])
  }
}
