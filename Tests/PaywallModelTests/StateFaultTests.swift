import Foundation
import Testing
import PaywallModel

/// What happens to the state directory when things go wrong: files cut short, a full disk, a
/// directory that cannot be written, two sessions at once. Each test checks the exact files and
/// contents left afterwards.
@Suite struct StateFaultTests {
  static func bytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
  }

  static func cut(_ path: String, to length: Int) throws {
    let data = try #require(FileManager.default.contents(atPath: path))
    try data.prefix(length).write(to: URL(fileURLWithPath: path))
  }

  /// A store with three saved changes: a purchase, a cancellation, a purchase of another product;
  /// and the entries as of the second, which `ledger.json.bak` holds after the third.
  static func storeWithHistory(_ rig: SimulatedStoreRig) async -> (SimulatedStore, beforeLast: [LedgerEntry]) {
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.monthly)
    _ = store.cancel(productID: TestCatalog.monthly.id)
    let beforeLast = store.entries
    _ = await store.purchase(product: TestCatalog.lifetime)
    return (store, beforeLast)
  }

  // MARK: - Files cut short

  /// Where a write can be cut: nothing written, one byte, half, all but the closing bytes.
  static let cuts: [Double] = [0, 0.001, 0.5, 0.98]

  @Test(arguments: cuts)
  func aLedgerCutShortIsRecoveredFromItsLastGoodCopy(fraction: Double) async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let (store, lastGoodEntries) = await Self.storeWithHistory(rig)
    let lastGood = try #require(Self.bytes(rig.ledgerPath + ".bak"))
    #expect(lastGoodEntries.count == 2 && store.entries.count == 3)
    let full = try #require(Self.bytes(rig.ledgerPath))
    try Self.cut(rig.ledgerPath, to: Int(Double(full.count) * fraction))

    let next = rig.makeStore(status: SubscriptionStatusStore())
    let warning = try #require(next.takeWarnings().first)
    #expect(warning.contains("damaged") && warning.contains("recovered its last good copy from ledger.json.bak"), "\(warning)")
    #expect(next.entries == lastGoodEntries)
    #expect(LedgerDerivation.problems(in: next.entries, catalog: rig.catalog, rules: next.settings.rules, at: rig.clock.now).isEmpty)
    // On disk: the last good copy is back in place, the damaged file is kept, nothing else.
    #expect(Self.bytes(rig.ledgerPath) == lastGood)
    let files = rig.files()
    #expect(files.count == 3 && files.contains("ledger.json.bak"), "\(files)")
    let kept = try #require(files.first { $0.hasPrefix("ledger.json.corrupt-") })
    #expect(Self.bytes(rig.state.file(kept)) == Array(full.prefix(Int(Double(full.count) * fraction))))
  }

  @Test func aLedgerWithNoUsableCopyIsSetAsideAndTheStoreStartsEmpty() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    _ = await Self.storeWithHistory(rig)
    try Self.cut(rig.ledgerPath, to: 10)
    try Self.cut(rig.ledgerPath + ".bak", to: 10)
    let next = rig.makeStore(status: SubscriptionStatusStore())
    let warning = try #require(next.takeWarnings().first)
    #expect(warning.contains("the ledger is unreadable") && warning.contains("moved to"), "\(warning)")
    #expect(next.entries.isEmpty)
    #expect(rig.files().contains { $0.hasPrefix("ledger.json.corrupt-") })
    #expect(!rig.files().contains("ledger.json"))
  }

  @Test func aReadOnlySessionUsesTheLastGoodCopyAndChangesNothingOnDisk() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let (_, lastGood) = await Self.storeWithHistory(rig)
    try Self.cut(rig.ledgerPath, to: 40)
    let before = rig.files().map { ($0, Self.bytes(rig.state.file($0))) }

    let reader = rig.makeStore(status: SubscriptionStatusStore(), writable: false)
    let warning = try #require(reader.takeWarnings().first)
    #expect(warning.contains("using its last good copy"), "\(warning)")
    #expect(reader.entries == lastGood && !lastGood.isEmpty)
    _ = await reader.purchase(product: TestCatalog.annual)
    #expect(reader.entries.count > lastGood.count, "the session itself goes on, in memory")
    let after = rig.files().map { ($0, Self.bytes(rig.state.file($0))) }
    #expect(after.map(\.0) == before.map(\.0) && zip(after, before).allSatisfy { $0.1 == $1.1 }, "nothing written")
  }

  @Test(arguments: cuts)
  func aStatusFileCutShortIsRecovered(fraction: Double) throws {
    try withTemporaryDirectory { directory in
      let cache = StatusCache(directory: StateDirectory(path: directory.path))
      try cache.save(.active(["pro"]))
      try cache.save(.inactive)
      let full = try #require(Self.bytes(cache.path))
      try Self.cut(cache.path, to: Int(Double(full.count) * fraction))
      let (status, warning) = cache.load()
      #expect(status == .active(["pro"]), "the save before the damaged one")
      #expect(warning?.contains("recovered its last good copy") == true, "\(warning ?? "nil")")
      #expect(cache.load() == (.active(["pro"]), nil), "repaired on disk: the next launch reads it cleanly")
    }
  }

  @Test func aUserFileCutShortKeepsTheUserAndTheirAssignments() throws {
    try withTemporaryDirectory { directory in
      let file = AssignmentFile(directory: StateDirectory(path: directory.path))
      var book = AssignmentBook(userID: "ada")
      try file.save(book)
      book.entries["settings_upgrade/0"] = "variant-b"
      try file.save(book)
      try Self.cut(file.path, to: 30)
      let (loaded, warning, isNew) = file.load(userID: nil)
      #expect(loaded.userID == "ada" && !isNew)
      #expect(loaded.entries.isEmpty, "the last good copy is the save before")
      #expect(warning?.contains("recovered") == true, "\(warning ?? "nil")")
    }
  }

  /// Found by the kill test: a writer killed between its two renames leaves NAME and NAME.bak as
  /// one file, and the next save's rename onto NAME.bak did nothing, leaving its temporary link.
  @Test func aSaveAfterAKillBetweenTheTwoRenamesLeavesNoTemporaryFile() throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("status.json")
      try AtomicFile.write(Data("old".utf8), to: path)
      #expect(link(path, path + ".bak") == 0)
      try AtomicFile.write(Data("new".utf8), to: path, keepingPrevious: true)
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
      #expect(files == ["status.json", "status.json.bak"], "\(files)")
      #expect(Self.bytes(path) == Array("new".utf8) && Self.bytes(path + ".bak") == Array("old".utf8))
    }
  }

  // MARK: - A full disk

  @Test func aFullDiskKeepsTheLedgerInMemoryAndTheFileOnDiskWhole() async throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    let store = rig.makeStore()
    _ = await store.purchase(product: TestCatalog.monthly)
    let saved = try #require(Self.bytes(rig.ledgerPath))
    let warnings = Locked<[String]>([])
    store.setWarningHandler { warnings.append($0) }

    AtomicFile.SimulatedFault.install(.init(code: ENOSPC, afterBytes: 100), under: rig.state.path)
    _ = store.cancel(productID: TestCatalog.monthly.id)
    _ = await store.purchase(product: TestCatalog.lifetime)
    AtomicFile.SimulatedFault.remove(under: rig.state.path)
    #expect(warnings.value.count == 1, "one warning for the whole outage: \(warnings.value)")
    #expect(warnings.value.first == "ledger not saved: No space left on device (\(rig.ledgerPath)); it is kept in memory and saved whole at the next change",
            "\(warnings.value)")
    #expect(Self.bytes(rig.ledgerPath) == saved, "the file on disk is the last complete save")
    #expect(!rig.files().contains { $0.contains(".tmp-") }, "no half-written file left: \(rig.files())")
    #expect(rig.status.status == .active(["pro", "lifetime"]), "the session goes on")

    // Space again: the next change saves everything, and says so.
    rig.advance(store, by: 60)
    _ = store.refund(productID: TestCatalog.lifetime.id)
    #expect(warnings.value.count == 2 && warnings.value[1] == "ledger saved again: \(rig.ledgerPath) is complete", "\(warnings.value)")
    #expect(try LedgerFile(directory: rig.state).read().entries == store.entries)
  }

  @Test func aFullDiskFailsTheStatusSaveAndLeavesTheOldFile() throws {
    try withTemporaryDirectory { directory in
      let cache = StatusCache(directory: StateDirectory(path: directory.path))
      try cache.save(.active(["pro"]))
      AtomicFile.SimulatedFault.install(.init(code: ENOSPC, afterBytes: 7), under: directory.path)
      defer { AtomicFile.SimulatedFault.remove(under: directory.path) }
      #expect(throws: AtomicFile.WriteError.self) { try cache.save(.inactive) }
      #expect(cache.load() == (.active(["pro"]), nil))
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
      #expect(files == ["status.json"], "no temporary file, no .bak from the failed save: \(files)")
    }
  }

  // MARK: - The lock

  @Test func oneSessionOwnsTheDirectoryAndASecondOneReadsOnly() throws {
    try withTemporaryDirectory { directory in
      let state = StateDirectory(path: directory.file("state"))
      func firstSession() {
        let first = StateAccess.open(state)
        #expect(first.canWrite && first.warning == nil)
        let second = StateAccess.open(state)
        #expect(!second.canWrite)
        #expect(second.warning?.contains("in use by another paywall-tui (pid \(getpid()))") == true, "\(second.warning ?? "nil")")
        #expect(second.warning?.contains("saves nothing") == true)
        withExtendedLifetime(first) {}
      }
      firstSession()
      // The first session ends: the next one owns the directory.
      let third = StateAccess.open(state)
      #expect(third.canWrite, "\(third.warning ?? "")")
    }
  }

  @Test func theLockNamesItsOwnerOverWhateverAnEarlierOwnerWrote() throws {
    for earlier in ["99\n", "not a pid but a long line someone wrote here\n", ""] {
      try withTemporaryDirectory { directory in
        try directory.write("lock", earlier)
        let first = StateAccess.open(StateDirectory(path: directory.path))
        #expect(first.canWrite)
        let text = try String(contentsOfFile: directory.file("lock"), encoding: .utf8)
        #expect(text == "\(getpid())" + String(repeating: " ", count: 10 - "\(getpid())".count) + "\n", "after \(earlier.debugDescription)")
        let second = StateAccess.open(StateDirectory(path: directory.path))
        #expect(second.warning?.contains("(pid \(getpid()))") == true, "\(second.warning ?? "nil")")
        withExtendedLifetime(first) {}
      }
    }
  }

  @Test func theOwnerRemovesFilesLeftHalfWrittenByAKilledSession() throws {
    try withTemporaryDirectory { directory in
      let state = StateDirectory(path: directory.path)
      try directory.write("ledger.json.tmp-4242-abcdef12", "{\"format\": \"paywall-tui.ledger\", \"ver")
      try directory.write("status.json", "{}")
      let access = StateAccess.open(state)
      #expect(access.canWrite)
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
      #expect(files == ["lock", "status.json"], "\(files)")
    }
  }

  @Test func aDirectoryThatCannotBeCreatedIsReadOnlyWithTheReason() throws {
    try withTemporaryDirectory { directory in
      try directory.write("not-a-directory", "a file where the state directory should be")
      let access = StateAccess.open(StateDirectory(path: directory.file("not-a-directory/state")))
      #expect(!access.canWrite)
      #expect(access.warning?.contains("cannot write the state directory") == true, "\(access.warning ?? "nil")")
      #expect(access.warning?.contains("Not a directory") == true, "\(access.warning ?? "nil")")
    }
  }
}
