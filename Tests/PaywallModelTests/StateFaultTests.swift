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
    #expect(!rig.files().contains { $0.contains("tmp-") }, "no half-written file left: \(rig.files())")
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
      try directory.write(".paywall-tui-tmp-status.json-4242-abcdef12", "{\"format\": \"paywall-tui.st")
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

  // MARK: - A hostile state directory

  /// A file of the user's that a link in the state directory points at: never to be touched.
  static let precious = "line one\nline two\nline three\n"

  /// A state directory of our own (0755) inside a scratch directory.
  static func stateDirectory(in directory: TemporaryDirectory) throws -> String {
    let state = directory.file("state")
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
    chmod(state, 0o755)
    return state
  }

  @Test func aLockThatIsASymbolicLinkIsRefusedAndItsTargetKept() throws {
    try withTemporaryDirectory { directory in
      let target = try directory.write("precious.txt", Self.precious)
      let state = try Self.stateDirectory(in: directory)
      #expect(symlink(target, state + "/lock") == 0)
      let access = StateAccess.open(StateDirectory(path: state))
      #expect(!access.canWrite)
      #expect(access.warning?.contains("\(state)/lock is a symbolic link") == true, "\(access.warning ?? "nil")")
      #expect(try String(contentsOfFile: target, encoding: .utf8) == Self.precious, "the link's target is untouched")
    }
  }

  @Test func aLockThatIsAHardLinkIsRefusedAndTheOtherNameKept() throws {
    try withTemporaryDirectory { directory in
      let state = try Self.stateDirectory(in: directory)
      let target = state + "/notes.txt"
      try Self.precious.write(toFile: target, atomically: false, encoding: .utf8)
      #expect(link(target, state + "/lock") == 0)
      let access = StateAccess.open(StateDirectory(path: state))
      #expect(!access.canWrite)
      #expect(access.warning?.contains("\(state)/lock has other names") == true, "\(access.warning ?? "nil")")
      #expect(try String(contentsOfFile: target, encoding: .utf8) == Self.precious)
    }
  }

  @Test func aStatusFileThatIsASymbolicLinkIsNeitherReadNorWrittenThrough() throws {
    try withTemporaryDirectory { directory in
      let outside = try directory.write("elsewhere.json", #"{"format": "paywall-tui.status", "version": 1, "status": "active:pro"}"#)
      let before = Self.bytes(outside)
      let state = try Self.stateDirectory(in: directory)
      #expect(symlink(outside, state + "/status.json") == 0)
      let cache = StatusCache(directory: StateDirectory(path: state))
      let (status, warning) = cache.load(repair: true)
      #expect(status == .unknown, "not read through the link")
      #expect(warning?.contains("is a symbolic link") == true, "\(warning ?? "nil")")
      try cache.save(.inactive)
      #expect(Self.bytes(outside) == before, "not written through the link")
      var info = stat()
      #expect(lstat(state + "/status.json", &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    }
  }

  @Test func aLastGoodCopyThatIsASymbolicLinkIsNotRecoveredFrom() throws {
    try withTemporaryDirectory { directory in
      let ledger = #"{"format":"paywall-tui.ledger","version":2,"transactions":[],"pending":[]}"#
      let outside = try directory.write("elsewhere.json", ledger)
      let state = try Self.stateDirectory(in: directory)
      try "{\"format\": \"paywall-tui.led".write(toFile: state + "/ledger.json", atomically: false, encoding: .utf8)
      #expect(symlink(outside, state + "/ledger.json.bak") == 0)
      let (_, warning) = LedgerFile(directory: StateDirectory(path: state)).load(repair: true)
      #expect(warning?.contains("recovered") == false, "\(warning ?? "nil")")
      #expect(Self.bytes(state + "/ledger.json") != Array(ledger.utf8), "the link's target was not copied in")
      #expect(Self.bytes(outside) == Array(ledger.utf8))
    }
  }

  @Test func aStateFileThatIsAFIFOIsSetAsideAtOnce() throws {
    try withTemporaryDirectory { directory in
      let state = try Self.stateDirectory(in: directory)
      #expect(mkfifo(state + "/ledger.json", 0o644) == 0)
      let ((contents, warning), blocked) = try unblockingFIFO(state + "/ledger.json") {
        LedgerFile(directory: StateDirectory(path: state)).load(repair: true)
      }
      #expect(!blocked, "reading the ledger waited for a writer")
      #expect(contents.entries.isEmpty)
      #expect(warning?.contains("is not a regular file (a named pipe)") == true, "\(warning ?? "nil")")
    }
  }

  @Test(arguments: [0o777, 0o1777, 0o775, 0o757])
  func aStateDirectoryOthersCanWriteIsRefused(mode: Int) throws {
    try withTemporaryDirectory { directory in
      let state = try Self.stateDirectory(in: directory)
      chmod(state, mode_t(mode))
      let access = StateAccess.open(StateDirectory(path: state))
      #expect(!access.canWrite)
      let octal = String(mode, radix: 8)
      #expect(access.warning?.contains("\(state) can be written by other users (mode \(octal))") == true, "\(access.warning ?? "nil")")
      #expect(access.warning?.contains("chmod go-w \(state)") == true)
      #expect(try FileManager.default.contentsOfDirectory(atPath: state).isEmpty, "nothing created in it")
    }
  }

  @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
  func aStateDirectoryOfAnotherUserIsRefused() throws {
    try withTemporaryDirectory { directory in
      let state = try Self.stateDirectory(in: directory)
      #expect(chown(state, 65534, 65534) == 0)
      let access = StateAccess.open(StateDirectory(path: state))
      #expect(!access.canWrite)
      #expect(access.warning?.contains("\(state) belongs to another user (uid 65534)") == true, "\(access.warning ?? "nil")")
      #expect(try FileManager.default.contentsOfDirectory(atPath: state).isEmpty, "nothing created in it")
      // A link another user made, to a directory of ours, is refused as well: it chose where our state goes.
      let own = directory.file("own")
      #expect(mkdir(own, 0o755) == 0)
      let link = directory.file("link")
      #expect(symlink(own, link) == 0 && lchown(link, 65534, 65534) == 0)
      let linked = StateAccess.open(StateDirectory(path: link))
      #expect(!linked.canWrite)
      #expect(linked.warning?.contains("\(link) is a symbolic link of another user's (uid 65534)") == true, "\(linked.warning ?? "nil")")
      #expect(try FileManager.default.contentsOfDirectory(atPath: own).isEmpty, "nothing created in it")
    }
  }

  // MARK: - Every component of the path (as ssh's safe_path)

  static func entries(_ directory: String) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
  }

  /// `DIR/shared` (1777, like /tmp) holding `qa`, a link another user made to `DIR/target` (which
  /// stands for /etc): a state directory under `qa` is refused, and nothing is made in the target.
  @Test(.enabled(if: geteuid() == 0, "only root can give a link to another user"))
  func aPathThroughAnotherUsersLinkInAStickyDirectoryIsRefused() throws {
    try withTemporaryDirectory { directory in
      let shared = directory.file("shared"), target = directory.file("target")
      #expect(mkdir(shared, 0o755) == 0 && chmod(shared, 0o1777) == 0 && mkdir(target, 0o755) == 0)
      #expect(symlink(target, shared + "/qa") == 0 && lchown(shared + "/qa", 65534, 65534) == 0)
      for state in [shared + "/qa/paywall-state", shared + "/qa"] {
        let access = StateAccess.open(StateDirectory(path: state))
        #expect(!access.canWrite)
        #expect(access.refusal?.hasPrefix("\(shared)/qa is a symbolic link of another user's (uid 65534)") == true,
                "\(access.warning ?? "nil")")
        #expect(access.refusal?.contains("give --state-dir a directory of your own") == true)
        #expect(Self.entries(target).isEmpty, "nothing made through the link")
      }
      // A name that does not exist yet, then `..`, cannot lead past the check either.
      let around = StateAccess.open(StateDirectory(path: shared + "/new/../qa/paywall-state"))
      #expect(around.refusal?.hasPrefix("\(shared)/qa is a symbolic link of another user's") == true, "\(around.warning ?? "nil")")
      #expect(Self.entries(target).isEmpty)
    }
  }

  /// A parent that others can write without the sticky bit: they could rename our directory away
  /// and put a link in its place.
  @Test(arguments: [0o777, 0o775, 0o757])
  func aPathThroughAParentOthersCanWriteIsRefused(mode: Int) throws {
    try withTemporaryDirectory { directory in
      let parent = directory.file("d")
      #expect(mkdir(parent, 0o755) == 0 && chmod(parent, mode_t(mode)) == 0)
      for state in [parent + "/sub", parent + "/sub/state", parent + "/../d/sub"] {
        let access = StateAccess.open(StateDirectory(path: state))
        #expect(!access.canWrite)
        let octal = String(mode, radix: 8)
        #expect(access.refusal?.hasPrefix("\(parent) can be written by other users (mode \(octal)) and is not sticky, on the way to \(state)") == true,
                "\(access.warning ?? "nil")")
        #expect(access.refusal?.contains("chmod go-w \(parent)") == true)
        #expect(Self.entries(parent).isEmpty, "nothing made in it")
      }
    }
  }

  @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
  func aPathThroughAParentOfAnotherUserIsRefused() throws {
    try withTemporaryDirectory { directory in
      let parent = directory.file("d")
      #expect(mkdir(parent, 0o755) == 0 && chmod(parent, 0o755) == 0 && chown(parent, 65534, 65534) == 0)
      // Sticky or not: its owner can rename anything in it.
      for mode in [0o755, 0o1777] as [mode_t] {
        chmod(parent, mode)
        let access = StateAccess.open(StateDirectory(path: parent + "/sub"))
        #expect(!access.canWrite)
        #expect(access.refusal?.hasPrefix("\(parent) belongs to another user (uid 65534), on the way to \(parent)/sub") == true,
                "\(access.warning ?? "nil")")
        #expect(Self.entries(parent).isEmpty, "nothing made in it")
      }
    }
  }

  /// Links of this user's (or root's) are followed, relative ones too, and the walk goes on at
  /// their target; sticky directories on the way, like /tmp, are fine.
  @Test func aPathThroughOwnLinksAndStickyParentsIsUsed() throws {
    try withTemporaryDirectory { directory in
      let shared = directory.file("shared"), real = directory.file("real")
      #expect(mkdir(shared, 0o755) == 0 && chmod(shared, 0o1777) == 0 && mkdir(real, 0o755) == 0 && chmod(real, 0o755) == 0)
      #expect(symlink(real, shared + "/absolute") == 0)
      #expect(symlink("../real", shared + "/relative") == 0)
      #expect(symlink("relative", shared + "/chained") == 0)
      for (state, made) in [(shared + "/absolute/a", real + "/a"), (shared + "/relative/b", real + "/b"),
                            (shared + "/chained/./c/", real + "/c"), (shared + "/d", shared + "/d")] {
        #expect(StateDirectory(path: state).refusal() == nil, "\(state)")
        let access = StateAccess.open(StateDirectory(path: state))
        #expect(access.canWrite, "\(state): \(access.warning ?? "nil")")
        #expect(FileManager.default.fileExists(atPath: made + "/lock"), "\(made)")
      }
      #expect(StateDirectory(path: "/tmp/\(UUID().uuidString)/state").refusal() == nil, "/tmp itself is sticky")
    }
  }

  /// A loop of links is refused after as many links as the kernel follows, not walked forever.
  @Test func aLoopOfLinksIsRefused() throws {
    try withTemporaryDirectory { directory in
      #expect(symlink("b", directory.file("a")) == 0 && symlink("a", directory.file("b")) == 0)
      #expect(symlink(directory.file("self"), directory.file("self")) == 0)
      for state in [directory.file("a/state"), directory.file("self")] {
        let access = StateAccess.open(StateDirectory(path: state))
        #expect(access.refusal == "\(state) goes through more than 40 symbolic links (a loop?); give --state-dir a directory of your own",
                "\(access.warning ?? "nil")")
      }
    }
  }

  @Test func theOwnerNeverRemovesFilesItDidNotMake() throws {
    try withTemporaryDirectory { directory in
      let state = try Self.stateDirectory(in: directory)
      for name in ["draft.tmp-keepme", "notes.txt.tmp-1-2", ".paywall-tui-tmp-ledger.json-4242-abcdef12"] {
        try "the user's".write(toFile: state + "/" + name, atomically: false, encoding: .utf8)
      }
      let access = StateAccess.open(StateDirectory(path: state))
      #expect(access.canWrite, "a directory with files of the user's is used")
      let files = try FileManager.default.contentsOfDirectory(atPath: state).sorted()
      #expect(files == [".paywall-tui-tmp-ledger.json-4242-abcdef12", "draft.tmp-keepme", "lock", "notes.txt.tmp-1-2"],
              "nothing removed from a directory that is not only ours: \(files)")
      #expect(access.warning?.contains("holds files paywall-tui did not make (draft.tmp-keepme, notes.txt.tmp-1-2)") == true,
              "\(access.warning ?? "nil")")
    }
  }
}
