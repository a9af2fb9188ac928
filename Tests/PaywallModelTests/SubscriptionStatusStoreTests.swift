import Foundation
import Testing
import PaywallModel
import Synchronization

@Suite struct SubscriptionStatusTests {
  @Test func activeWithNoEntitlementsIsInactive() {
    let empty = SubscriptionStatus.active([])
    #expect(empty == .inactive)
    #expect(SubscriptionStatus.inactive == empty)
    #expect(empty.hashValue == SubscriptionStatus.inactive.hashValue)
    #expect(Set<SubscriptionStatus>([empty, .inactive]).count == 1)
    #expect(!empty.isActive)
    #expect(empty.entitlements.isEmpty)
    #expect(empty.description == "inactive")
    #expect(empty.rawName == "INACTIVE")
    #expect(empty.normalized == .inactive)
    #expect(empty != .unknown)
  }

  @Test func equalityAndHashFollowTheEntitlements() {
    let pro = SubscriptionStatus.active(["pro"])
    #expect(pro == .active(["pro"]))
    #expect(pro != .active(["pro", "lifetime"]))
    #expect(pro != .inactive)
    #expect(SubscriptionStatus.unknown != .inactive)
    #expect(Set<SubscriptionStatus>([pro, .active(["pro"]), .unknown, .inactive, .active([])]).count == 3)
    #expect(pro.isActive)
    #expect(!SubscriptionStatus.unknown.isActive)
    #expect(pro.rawName == "ACTIVE")
    #expect(SubscriptionStatus.unknown.rawName == "UNKNOWN")
  }

  struct ParseCase: Sendable, CustomTestStringConvertible {
    var text: String
    var defaults: Set<Entitlement> = []
    var expected: SubscriptionStatus
    var testDescription: String { "\"\(text)\"" }
  }

  @Test(arguments: [
    ParseCase(text: "unknown", expected: .unknown),
    ParseCase(text: "inactive", expected: .inactive),
    ParseCase(text: "active:pro,lifetime", expected: .active(["pro", "lifetime"])),
    ParseCase(text: "active:pro", expected: .active(["pro"])),
    ParseCase(text: "  active:pro , lifetime ", expected: .active(["pro", "lifetime"])),
    ParseCase(text: "ACTIVE:pro", expected: .active(["pro"])),
    ParseCase(text: "Inactive", expected: .inactive),
    ParseCase(text: "active", defaults: ["pro"], expected: .active(["pro"])),
    ParseCase(text: "active", defaults: ["pro", "lifetime"], expected: .active(["pro", "lifetime"])),
    ParseCase(text: "active", expected: .inactive),
  ])
  func parses(_ c: ParseCase) {
    let parsed = SubscriptionStatus(parsing: c.text, defaultEntitlements: c.defaults)
    #expect(parsed == c.expected)
  }

  @Test(arguments: ["", "   ", "activ", "actives", "subscribed", "pending", "active:pro, ,lifetime", "active;pro",
                    "unknown:pro", "inactive:pro"])
  func rejectsBadStrings(_ text: String) {
    #expect(SubscriptionStatus(parsing: text) == nil)
  }

  /// `init(parsing:)` means to reject an empty entitlement name (it guards against one), but it
  /// splits with `omittingEmptySubsequences`, so only names made of spaces are caught: "active:"
  /// reads as inactive and "active:pro,,lifetime" as active:lifetime,pro.
  @Test(arguments: ["active:", "active:pro,", "active:,pro", "active:pro,,lifetime"])
  func rejectsEmptyEntitlementNames(_ text: String) {
    #expect(SubscriptionStatus(parsing: text) == nil, "parsed as \(String(describing: SubscriptionStatus(parsing: text)))")
  }

  @Test func descriptionSortsEntitlements() {
    #expect(SubscriptionStatus.active(["zeta", "pro", "lifetime", "alpha"]).description == "active:alpha,lifetime,pro,zeta")
    #expect(SubscriptionStatus.unknown.description == "unknown")
    #expect(SubscriptionStatus.inactive.description == "inactive")
  }

  @Test(arguments: [SubscriptionStatus.unknown, .inactive, .active(["pro"]), .active(["pro", "lifetime", "family"])])
  func descriptionParsesBack(_ status: SubscriptionStatus) {
    #expect(SubscriptionStatus(parsing: status.description) == status)
  }
}

/// Records what one observer receives: how many values, the last, and any value seen twice in a row.
final class ObserverLog: @unchecked Sendable {
  private let lock = NSLock()
  private var _values: [SubscriptionStatus] = []
  private var _count = 0
  private var _last: SubscriptionStatus?
  private var _first: SubscriptionStatus?
  private var _repeats: [SubscriptionStatus] = []
  private let keepsValues: Bool

  init(keepsValues: Bool = true) {
    self.keepsValues = keepsValues
  }

  func record(_ value: SubscriptionStatus) {
    lock.lock()
    defer { lock.unlock() }
    if _first == nil { _first = value }
    if let last = _last, last == value { _repeats.append(value) }
    _last = value
    _count += 1
    if keepsValues { _values.append(value) }
  }

  var values: [SubscriptionStatus] { lock.lock(); defer { lock.unlock() }; return _values }
  var count: Int { lock.lock(); defer { lock.unlock() }; return _count }
  var last: SubscriptionStatus? { lock.lock(); defer { lock.unlock() }; return _last }
  var first: SubscriptionStatus? { lock.lock(); defer { lock.unlock() }; return _first }
  var repeats: [SubscriptionStatus] { lock.lock(); defer { lock.unlock() }; return _repeats }
}

@Suite struct SubscriptionStatusStoreTests {
  static let pro = SubscriptionStatus.active(["pro"])
  static let both = SubscriptionStatus.active(["pro", "lifetime"])

  /// Starts a task that records everything `store.updates()` yields until cancelled.
  static func observe(_ store: SubscriptionStatusStore, into log: ObserverLog) -> Task<Void, Never> {
    Task {
      for await status in store.updates() {
        log.record(status)
      }
    }
  }

  @Test func startsWithTheGivenStatusNormalized() {
    #expect(SubscriptionStatusStore().status == .unknown)
    #expect(SubscriptionStatusStore(.active([])).status == .inactive)
    #expect(SubscriptionStatusStore(Self.pro).status == Self.pro)
  }

  @Test func setReturnsTheChange() throws {
    let store = SubscriptionStatusStore(.unknown)
    let change = try #require(store.set(.inactive))
    #expect(change.from == .unknown)
    #expect(change.to == .inactive)
    let second = try #require(store.set(Self.pro))
    #expect(second.from == .inactive)
    #expect(second.to == Self.pro)
    #expect(store.status == Self.pro)
  }

  @Test func settingTheSameValueAgainChangesNothing() {
    let store = SubscriptionStatusStore(Self.pro)
    #expect(store.set(Self.pro) == nil)
    #expect(store.set(.active(["pro"])) == nil)
    let inactive = SubscriptionStatusStore(.inactive)
    #expect(inactive.set(.active([])) == nil, "active([]) is inactive")
    #expect(inactive.status == .inactive)
  }

  @Test func anObserverGetsTheCurrentValueFirstThenEachChange() async {
    let store = SubscriptionStatusStore(.inactive)
    let log = ObserverLog()
    let observer = Self.observe(store, into: log)
    defer { observer.cancel() }
    #expect(await eventually { log.count == 1 }, "the current value arrives without any change")
    #expect(log.values == [.inactive])

    store.set(Self.pro)
    #expect(await eventually { log.count == 2 })
    store.set(Self.both)
    #expect(await eventually { log.count == 3 })
    store.set(.unknown)
    #expect(await eventually { log.count == 4 })
    #expect(log.values == [.inactive, Self.pro, Self.both, .unknown])
  }

  @Test func settingTheSameValueTwiceYieldsNothingNew() async {
    let store = SubscriptionStatusStore(.unknown)
    let log = ObserverLog()
    let observer = Self.observe(store, into: log)
    defer { observer.cancel() }
    #expect(await eventually { log.count == 1 })

    #expect(store.set(Self.pro) != nil)
    #expect(await eventually { log.count == 2 })
    #expect(store.set(Self.pro) == nil)
    #expect(store.set(.active(["pro"])) == nil)
    // A marker change: had the repeated sets produced anything, it would come before this.
    #expect(store.set(.inactive) != nil)
    #expect(await eventually { log.last == .inactive })
    #expect(store.set(.active([])) == nil)
    #expect(store.set(.unknown) != nil)
    #expect(await eventually { log.last == .unknown })
    #expect(log.values == [.unknown, Self.pro, .inactive, .unknown])
  }

  @Test func aLateObserverStartsFromTheCurrentValue() async {
    let store = SubscriptionStatusStore(.unknown)
    store.set(.inactive)
    store.set(Self.both)
    let log = ObserverLog()
    let observer = Self.observe(store, into: log)
    defer { observer.cancel() }
    #expect(await eventually { log.count == 1 })
    #expect(log.values == [Self.both])
  }

  /// The acceptance test: three observers, 100,000 sets from four concurrent tasks. Each
  /// observer ends on the final value and never sees the same value twice in a row.
  // A guard against a hang, not a bar on speed: 3 minutes. These tests wait on the test pool,
  // which a busy 2-core run can keep from them for over a minute (a CI run failed 28 so at 1).
  @Test(.timeLimit(.minutes(3)))
  func threeObserversFollowAHundredThousandConcurrentChanges() async {
    let store = SubscriptionStatusStore(.unknown)
    let cycle: [SubscriptionStatus] = [.inactive, Self.pro, Self.both, .active(["family"])]
    let final = SubscriptionStatus.active(["final"])
    let logs = (0..<3).map { _ in ObserverLog(keepsValues: false) }
    let observers = logs.map { Self.observe(store, into: $0) }

    #expect(await eventually { store.observerCount == 3 }, "all three observers attach")
    #expect(await eventually { logs.allSatisfy { $0.count >= 1 } }, "each gets the current value")
    for log in logs { #expect(log.first == .unknown) }

    let tasks = 4
    let perTask = 25_000
    let changes = await withTaskGroup(of: Int.self) { group in
      for t in 0..<tasks {
        group.addTask {
          var changed = 0
          for i in 0..<perTask where store.set(cycle[(i + t) % cycle.count]) != nil {
            changed += 1
          }
          return changed
        }
      }
      var total = 0
      for await count in group { total += count }
      return total
    }
    #expect(changes > 0)
    #expect(store.observerCount == 3, "observers stay attached while they run")

    // The very last change, after every task has finished, to a value none of them set.
    let last = store.set(final)
    #expect(last?.to == final)
    #expect(store.status == final)

    let settled = await eventually(within: 20) { logs.allSatisfy { $0.last == final } }
    #expect(settled, "every observer ends on the final value; they ended on \(logs.map { String(describing: $0.last) })")
    for (index, log) in logs.enumerated() {
      #expect(log.repeats.isEmpty, "observer \(index) saw a value twice in a row: \(log.repeats.prefix(5))")
      #expect(log.count >= 2, "observer \(index) saw the first value and at least the final one")
      #expect(log.count <= changes + 2, "observer \(index) saw more values than there were changes")
    }
    #expect(store.observerCount == 3)

    for observer in observers { observer.cancel() }
    let ended = await within(10, "the cancelled observers") {
      for observer in observers { await observer.value }
      return true
    }
    #expect(ended == true)
    #expect(await eventually { store.observerCount == 0 }, "cancelled observers detach; \(store.observerCount) left")
  }

  /// The same, but with no serial last set: when the concurrent writers stop, each observer must
  /// still end on the store's status. `set` updates the status and the mailboxes under its lock but
  /// resumes a waiting observer after unlocking, so an observer can be handed a value older than
  /// the one its mailbox already holds by then.
  @Test(.timeLimit(.minutes(3)))
  func observersEndOnTheStatusWhenConcurrentSetsRace() async {
    let rounds = 20_000
    let store = SubscriptionStatusStore(.unknown)
    let outcome = await within(50, "the racing rounds") { () -> [String] in
      var iterator = store.updates().makeAsyncIterator()
      _ = await iterator.next()
      var found: [String] = []
      for round in 0..<rounds {
        let a = SubscriptionStatus.active([Entitlement("a\(round)")])
        let b = SubscriptionStatus.active([Entitlement("b\(round)")])
        await withTaskGroup(of: Void.self) { group in
          group.addTask { store.set(a) }
          group.addTask { store.set(b) }
        }
        guard let observed = await iterator.next() else { break }
        if observed != store.status {
          found.append("round \(round): store is \(store.status), observer got \(observed)")
          if found.count >= 3 { break }
        }
      }
      return found
    }
    #expect(outcome?.isEmpty == true, "an observer ended on a stale value: \(outcome ?? [])")
  }

  /// An observer that does not read while 100,000 changes happen gets only the newest value next:
  /// nothing is buffered per change.
  @Test(.timeLimit(.minutes(3)))
  func aSlowObserverGetsOnlyTheNewestValue() async {
    let store = SubscriptionStatusStore(.inactive)
    let a = SubscriptionStatus.active(["a"])
    let b = SubscriptionStatus.active(["b"])
    let later = SubscriptionStatus.active(["later"])
    let seen = await within(30, "the slow observer") { () -> [SubscriptionStatus] in
      var iterator = store.updates().makeAsyncIterator()
      var seen: [SubscriptionStatus] = []
      if let first = await iterator.next() { seen.append(first) }
      var changes = 0
      for i in 0..<100_000 where store.set(i % 2 == 0 ? a : b) != nil { changes += 1 }
      #expect(changes == 100_000)
      #expect(store.status == b)
      if let newest = await iterator.next() { seen.append(newest) }
      // Had any of the 100,000 been queued, the next read would return one of them, not `later`.
      store.set(later)
      if let next = await iterator.next() { seen.append(next) }
      return seen
    }
    #expect(seen == [.inactive, b, later])
  }

  @Test func aBurstBackToTheDeliveredValueIsNotRepeated() async {
    let store = SubscriptionStatusStore(Self.pro)
    let c = SubscriptionStatus.active(["c"])
    let seen = await within(10, "the A→B→A observer") { () -> [SubscriptionStatus] in
      var iterator = store.updates().makeAsyncIterator()
      var seen: [SubscriptionStatus] = []
      if let first = await iterator.next() { seen.append(first) }  // A
      store.set(.inactive)  // B, unread
      store.set(Self.pro)   // back to A
      store.set(c)
      if let next = await iterator.next() { seen.append(next) }
      return seen
    }
    #expect(seen == [Self.pro, c], "A → B → A without reading must not deliver A again")
  }

  @Test func aBurstAwayAndBackWhileTheObserverWaitsDeliversNothing() async {
    let store = SubscriptionStatusStore(.inactive)
    let log = ObserverLog()
    let observer = Self.observe(store, into: log)
    defer { observer.cancel() }
    #expect(await eventually { log.count == 1 })
    // Bursts from another task; the observer may or may not catch the intermediate values, but
    // it must never see a value twice in a row and must end on the last.
    for _ in 0..<1000 {
      store.set(Self.pro)
      store.set(.inactive)
    }
    store.set(Self.both)
    #expect(await eventually { log.last == Self.both })
    #expect(log.repeats.isEmpty)
  }

  @Test func observerCountFollowsCancellation() async {
    let store = SubscriptionStatusStore()
    #expect(store.observerCount == 0)
    let logs = [ObserverLog(), ObserverLog()]
    let observers = logs.map { Self.observe(store, into: $0) }
    #expect(await eventually { store.observerCount == 2 })
    observers[0].cancel()
    #expect(await eventually { store.observerCount == 1 })
    store.set(.inactive)
    #expect(await eventually { logs[1].last == .inactive })
    observers[1].cancel()
    #expect(await eventually { store.observerCount == 0 })
  }

  /// An observer that stops iterating (`break`) and drops its stream should detach; with an
  /// `AsyncStream(unfolding:onCancel:)` only task cancellation removes the mailbox.
  @Test func anObserverThatStopsIteratingDetaches() async {
    let store = SubscriptionStatusStore(.inactive)
    let done = await within(10, "the breaking observer") { () -> Bool in
      for await status in store.updates() where status == .inactive {
        break
      }
      return true
    }
    #expect(done == true)
    #expect(await eventually(within: 2) { store.observerCount == 0 },
            "the stream was dropped but \(store.observerCount) observer(s) are still attached")
  }

  /// Subscribers hear each change before `set` returns, in the order they subscribed (not in a
  /// dictionary's order, which changes from run to run), and one whose token is dropped hears
  /// nothing more while the others go on.
  @Test func subscribersHearEachChangeInTheOrderTheySubscribed() {
    let store = SubscriptionStatusStore(.inactive)
    let heard = Mutex<[String]>([])
    var tokens = (0..<12).map { index in
      store.subscribe { status in heard.withLock { $0.append("\(index):\(status)") } }
    }
    store.set(Self.pro)
    #expect(heard.withLock { $0 } == (0..<12).map { "\($0):\(Self.pro)" })
    heard.withLock { $0 = [] }
    tokens.remove(at: 5)
    store.set(.inactive)
    #expect(heard.withLock { $0 } == (0..<12).filter { $0 != 5 }.map { "\($0):\(SubscriptionStatus.inactive)" })
    heard.withLock { $0 = [] }
    tokens.removeAll()
    store.set(Self.both)
    #expect(heard.withLock { $0 }.isEmpty)
  }

  /// One task reads a stream at a time. A second task waiting on the same stream would take the
  /// first one's place and leave it waiting for ever, without a word; the program stops instead.
  /// The body waits a little for that, then ends: with nothing to stop it, it exits 0.
  @Test func twoTasksWaitingOnOneStreamStopTheProgram() async {
    await #expect(processExitsWith: .failure) {
      let store = SubscriptionStatusStore(.inactive)
      let stream = store.updates()
      for _ in 0..<2 {
        Task.detached {
          for await _ in stream {}
        }
      }
      try? await Task.sleep(for: .seconds(3))
    }
  }
}
