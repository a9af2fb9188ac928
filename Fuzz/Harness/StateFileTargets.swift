import Foundation
@testable import PaywallModel

/// The state files are read the way the app reads them, from a real file in a scratch state
/// directory, so the targets cover reading as well as decoding.
let scratchState = StateDirectory(path: scratchDirectory)

func writeScratch(_ name: String, _ bytes: [UInt8]) {
  // Each input starts from an empty directory: no last good copy (`NAME.bak`) or damaged file set
  // aside (`NAME.corrupt-…`) from an earlier input, so what a load returns depends on these bytes.
  for leftover in (try? FileManager.default.contentsOfDirectory(atPath: scratchState.path)) ?? [] {
    unlink(scratchState.file(leftover))
  }
  let path = scratchState.file(name)
  require(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write \(path)")
}

func checkWarning(_ warning: String?) {
  guard let warning else { return }
  require(controlScalars(in: warning, allowNewline: false).isEmpty, "warning with control characters: \(warning.debugDescription)")
}

/// ledger.json. Property: it reads or fails with a message; what reads saves to a file that reads
/// back (dates are kept to the millisecond, so the second save is the fixed point); the replay the
/// store starts with does not crash, nor does moving its clock on to now, which generates the
/// renewals, billing retries and expiries due. A ledger that replays without an issue means the
/// same with its runs of renewals compacted (at the store's threshold and at 2), and the
/// compacted ledger saves and reads back.
let ledgerTarget = FuzzTarget(name: "ledger", setUp: loadBundledCatalog) { bytes in
  writeScratch("ledger.json", bytes)
  let file = LedgerFile(directory: scratchState)
  let contents: LedgerFile.Contents
  do throws(PurchaseError) {
    contents = try file.read()
  } catch {
    checkWarning(error.message)
    return
  }
  // The store replays with the session's rules (from the catalog and --time-rate), never the file's.
  var replay = LedgerReplay(catalog: bundledCatalog, rules: StoreRules())
  var full: [LedgerEntry] = []
  for entry in contents.entries.prefix(64) {
    full += replay.apply(entry)
    full.append(entry)
  }
  // A store started later moves the clock on: to two years after the fixed "now" or to the
  // file's clock, at most 20 years after the first line (so one input stays fast).
  let year = 365.0 * 86_400
  let first = contents.entries.first?.date ?? fixedNow
  let now = min(max(fixedNow.addingTimeInterval(2 * year), contents.clock ?? fixedNow, replay.date), first.addingTimeInterval(20 * year))
  let due = replay.advance(to: now)
  full += due
  require(zip(due, due.dropFirst()).allSatisfy { $0.date <= $1.date && $0.id < $1.id }, "generated lines out of order: \(due.prefix(4))")
  let state = replay.snapshot(at: max(now, replay.date))
  checkCompaction(full, state: state, at: max(now, replay.date), file: file)
  func roundTrip(_ contents: LedgerFile.Contents) -> LedgerFile.Contents {
    do {
      try file.save(contents)
    } catch {
      require(false, "cannot save the ledger: \(error)")
    }
    do throws(PurchaseError) {
      return try file.read()
    } catch {
      let text = (try? String(contentsOfFile: file.path, encoding: .utf8)) ?? ""
      require(false, "a saved ledger does not read back (\(error.message)): \(text.prefix(600))")
      fatalError()
    }
  }
  let once = roundTrip(contents)
  require(once.entries.count == contents.entries.count && once.pending.count == contents.pending.count,
          "saving changed the number of lines")
  let twice = roundTrip(once)
  require(twice == once, "a saved ledger reads back different: \(once) then \(twice)")
}

/// Compacting `full` (a replay's lines with what it generated) changes nothing a replay sees,
/// when the replay saw nothing amiss; the compacted ledger saves and reads back.
func checkCompaction(_ full: [LedgerEntry], state: DerivedState, at now: Date, file: LedgerFile) {
  guard state.issues.isEmpty else { return }
  let whole = LedgerDerivation.derive(full, catalog: bundledCatalog, rules: StoreRules(), at: now)
  guard whole.issues.isEmpty else { return }
  require(whole == state, "the lines replayed from scratch differ from the replay that generated them")
  for threshold in [2, LedgerCompactor.defaultThreshold] {
    let compacted = LedgerCompactor.compact(full, threshold: threshold)
    require(compacted.reduce(0) { $0 + $1.occurrences } == full.reduce(0) { $0 + $1.occurrences }, "compacting lost or added events")
    require(LedgerCompactor.compact(compacted, threshold: threshold) == compacted, "compacting twice changed the ledger")
    let derived = LedgerDerivation.derive(compacted, catalog: bundledCatalog, rules: StoreRules(), at: now)
    require(derived == whole, "compacted at \(threshold), the ledger derives \(derived.status) / \(derived.transactionCount) transactions / next \(String(describing: derived.nextEvent)); in full \(whole.status) / \(whole.transactionCount) / \(String(describing: whole.nextEvent)); issues \(derived.issues.prefix(2))")
    let contents = LedgerFile.Contents(entries: compacted, clock: now)
    do {
      try file.save(contents)
    } catch {
      // Only a date a ledger cannot hold (a period ending after 9999) stops a save.
      require(LedgerFile.datesOutOfRange(contents) != nil, "cannot save the compacted ledger: \(error)")
      continue
    }
    do throws(PurchaseError) {
      let read = try file.read()
      require(read.entries.count == compacted.count && zip(read.entries, compacted).allSatisfy { $0.run?.count == $1.run?.count },
              "a compacted ledger reads back different")
    } catch {
      require(false, "a compacted ledger does not read back (\(error.message))")
    }
  }
}

/// status.json. Property: it gives a status and at most a warning; a status without a warning
/// saves and reads back the same, without a warning.
let statusTarget = FuzzTarget(name: "status") { bytes in
  writeScratch(StatusCache.fileName, bytes)
  let cache = StatusCache(directory: scratchState)
  let (status, warning) = cache.load()
  checkWarning(warning)
  if warning != nil {
    require(status == .unknown, "a warning but status \(status)")
    return
  }
  do {
    try cache.save(status)
  } catch {
    require(false, "cannot save the status: \(error)")
  }
  let (again, warningAgain) = cache.load()
  require(warningAgain == nil && again == status, "status \(status) saved reads back as \(again) (\(warningAgain ?? "no warning"))")
}

/// user.json. Property: as for the status: a book read without a warning saves and reads back the same.
let userTarget = FuzzTarget(name: "user") { bytes in
  writeScratch(AssignmentFile.fileName, bytes)
  let file = AssignmentFile(directory: scratchState)
  let (book, warning, isNew) = file.load(userID: nil)
  checkWarning(warning)
  require(!book.userID.isEmpty, "an empty user id")
  guard !isNew else { return }
  require(warning == nil, "a saved book read with a warning")
  do {
    try file.save(book)
  } catch {
    require(false, "cannot save the user file: \(error)")
  }
  let (again, warningAgain, isNewAgain) = file.load(userID: nil)
  require(!isNewAgain && warningAgain == nil && again == book, "user \(book) saved reads back as \(again)")
}

/// notifications.json. Property: as for the status: reminders read without a warning save and
/// read back the same, soonest first.
let notificationsTarget = FuzzTarget(name: "notifications") { bytes in
  writeScratch(ReminderFile.fileName, bytes)
  let file = ReminderFile(directory: scratchState)
  let (pending, warning) = file.load(repair: false)
  checkWarning(warning)
  if warning != nil {
    require(pending == .none, "a warning but reminders \(pending)")
    return
  }
  require(zip(pending.reminders, pending.reminders.dropFirst()).allSatisfy { $0.fireAt <= $1.fireAt }, "reminders out of order")
  do {
    try file.save(pending)
  } catch {
    require(false, "cannot save the reminders: \(error)")
  }
  let (again, warningAgain) = file.load(repair: false)
  require(warningAgain == nil && again == pending, "reminders \(pending) saved read back as \(again) (\(warningAgain ?? "no warning"))")
}
