import Foundation
import Testing
@testable import PaywallModel

/// A ledger names the store whose sessions wrote it (its catalog's): an iPhone's App Store account
/// and an Android phone's Play account are two ledgers, so a session of the other store on the same
/// state directory neither reads nor writes it (`SimulatedStore.foreignLedger`; the session then
/// refuses to start, `AppSession`).
@Suite("A ledger's store")
struct LedgerStoreTests {
  static func text(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }

  @Test func aLedgerAnotherStoreWroteIsNeitherReadNorWritten() throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    _ = rig.makeStore().purchaseNow(TestCatalog.annual)
    let written = try Self.text(rig.ledgerPath)
    #expect(written.contains(#""store":"appStore""#), "\(written)")

    let play = try PlayAlreadyOwnedTests.catalog()
    let monthly = try PlayAlreadyOwnedTests.product("acme_pro:monthly:sw-none", in: play)
    let other = SimulatedStore(catalog: play, status: SubscriptionStatusStore(), clock: rig.clock, directory: rig.state)
    #expect(other.foreignLedger == .appStore)
    #expect(other.entries.isEmpty)
    _ = other.purchaseNow(monthly)
    #expect(try Self.text(rig.ledgerPath) == written, "the App Store's ledger is left as it was")

    // Its own store goes on with it.
    let again = rig.makeStore()
    #expect(again.foreignLedger == nil && again.entries.count == written.components(separatedBy: "\"type\":").count - 1)

    // --fresh starts the directory over as the new store's.
    let fresh = SimulatedStore(catalog: play, status: SubscriptionStatusStore(), clock: rig.clock, directory: rig.state, fresh: true)
    #expect(fresh.foreignLedger == nil)
    _ = fresh.purchaseNow(monthly)
    let replaced = try Self.text(rig.ledgerPath)
    #expect(replaced.contains(#""store":"playStore""#) && replaced.contains("acme_pro:monthly:sw-none") && !replaced.contains(TestCatalog.annual.id),
            "\(replaced)")
  }

  /// A ledger written before it named its store is either store's: read as it is, and named from
  /// its next save on.
  @Test func aLedgerThatNamesNoStoreIsReadAndNamedAtItsNextSave() throws {
    let rig = try SimulatedStoreRig()
    defer { rig.remove() }
    try FileManager.default.createDirectory(atPath: rig.state.path, withIntermediateDirectories: true)
    try #"{"format":"paywall-tui.ledger","version":2,"transactions":[],"pending":[]}"#.write(toFile: rig.ledgerPath, atomically: true, encoding: .utf8)
    let play = try PlayAlreadyOwnedTests.catalog()
    let store = SimulatedStore(catalog: play, status: SubscriptionStatusStore(), clock: rig.clock, directory: rig.state)
    #expect(store.foreignLedger == nil)
    _ = store.purchaseNow(try PlayAlreadyOwnedTests.product("acme_pro:monthly:sw-none", in: play))
    #expect(try Self.text(rig.ledgerPath).contains(#""store":"playStore""#))
  }

  /// The store is a field of the format: it reads back as written, and a value no store has is
  /// damage, which the ledger's last good copy repairs.
  @Test func theStoreReadsBackAndAnUnknownOneIsDamage() throws {
    for store in [Store.appStore, .playStore] {
      let text = LedgerFile.encode(LedgerFile.Contents(store: store))
      #expect(try LedgerFile.decode(JSONParser.parse(text)).store == store, "\(text)")
    }
    #expect(try LedgerFile.decode(JSONParser.parse(LedgerFile.encode(LedgerFile.Contents()))).store == nil)
    let unknown = #"{"format":"paywall-tui.ledger","version":2,"store":"nokia","transactions":[],"pending":[]}"#
    #expect(throws: PurchaseError.self) { try LedgerFile.decode(JSONParser.parse(unknown)) }
  }
}
