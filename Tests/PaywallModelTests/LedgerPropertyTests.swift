import Foundation
import Testing
import PaywallModel

/// Random sequences of what testers do to the store, from a fixed seed: whatever happens, the
/// ledger stays consistent and the status the store shows is the one derived from scratch.
@Suite struct LedgerPropertyTests {
  typealias C = LifecycleCatalog

  enum Operation: CaseIterable {
    case purchase, advance, cancel, refund, approve, decline, upgrade, downgrade, askToBuy, billingIssue, resolve,
         priceIncrease, answerPrice, familyShare, familyRevoke, interrupt, resolveInterrupted
  }

  @Test(arguments: [UInt64(1), 2, 3])
  func tenThousandRandomOperationsKeepTheLedgerConsistent(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    // Line by line (no runs compacted): the shadow below is fed the new lines as they come.
    let rig = LifecycleRig(settings: SimulatedStore.Settings(rules: StoreRules(gracePeriodEnabled: seed == 2)), runThreshold: .max)
    var counts: [String: Int] = [:]
    var changes = 0
    // A replay fed the ledger line by line is a replay from scratch, kept up to date cheaply, so
    // every step can be compared (a copy moves to the clock's time; the replay itself never does,
    // or it would see the store's records of events it had already generated).
    var shadow = LedgerReplay(catalog: rig.catalog, rules: rig.store.settings.rules)
    var fed = 0
    for step in 0..<10_000 {
      let operation = Self.pick(&rng)
      counts["\(operation)", default: 0] += 1
      let before = rig.store.entries.count
      let draw = (rng.next(), rng.next())
      Self.perform(operation, draw, on: rig)
      if rig.store.entries.count != before { changes += 1 }
      let entries = rig.store.entries
      for entry in entries[fed...] { shadow.apply(entry) }
      fed = entries.count
      var probe = shadow
      probe.advance(to: rig.clock.now)
      let replayed = probe.snapshot(at: rig.clock.now)
      if replayed != rig.store.derived {
        Issue.record("step \(step) (\(operation)): the store differs from its ledger replayed: \(Self.difference(replayed, rig.store.derived))")
        return
      }
      // The next event comes from the replay's event queue: it must be the earliest of what every
      // subscription says of itself (every seventh step: the scan is what the queue saves, and a
      // queue gone wrong stays wrong for many steps).
      if step % 7 == 0 {
        let earliest = rig.store.derived.subscriptions.compactMap(\.nextEvent).min()
        if rig.store.derived.nextEvent != earliest {
          Issue.record("step \(step) (\(operation)): next event \(String(describing: rig.store.derived.nextEvent)), the subscriptions' earliest \(String(describing: earliest))")
          return
        }
      }
      // The status the app sees is always the derived one (nothing else sets it here).
      if rig.status.status != rig.store.derived.status {
        Issue.record("step \(step) (\(operation)): the status store has \(rig.status.status), the store derived \(rig.store.derived.status)")
        return
      }
      if step % 500 == 499 {
        let fromScratch = LedgerDerivation.derive(rig.store.entries, catalog: rig.catalog, rules: rig.store.settings.rules,
                                                  at: rig.clock.now)
        if fromScratch != rig.store.derived {
          Issue.record("step \(step): the store differs from a replay from scratch: \(Self.difference(fromScratch, rig.store.derived))")
          return
        }
      }
    }
    rig.expectConsistent()
    let entries = rig.store.entries
    #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.date <= $1.date && $0.id < $1.id })
    // Each subscription's history is its own: every line names a subscription bought before it.
    var bought: Set<UInt64> = []
    for entry in entries {
      if entry.kind == .purchase { bought.insert(entry.originalID) }
      #expect(bought.contains(entry.originalID), "line \(entry.id) names an unknown subscription")
    }
    // The run exercised the lifecycle, not just failed actions.
    let kinds = Set(entries.map(\.kind))
    for kind in [LedgerEntry.Kind.purchase, .renewal, .upgrade, .downgrade, .refund, .expiry, .autoRenewOff, .billingRetry,
                 .priceIncrease, .priceConsent, .revocation] {
      #expect(kinds.contains(kind), "no \(kind) in \(entries.count) lines")
    }
    #expect(changes > 3000, "only \(changes) of 10,000 operations changed the ledger: \(counts)")
  }

  /// Keeping runs of renewals as one line changes nothing a replay sees: two stores take the same
  /// random operations, one compacting (every run of 2 or more, or of the store's usual 24), one
  /// not. At every step their states are equal; the compacted ledger is the full one compacted,
  /// it is consistent (`problems`), derives the same from scratch and reads back the same from
  /// the file.
  @Test(arguments: [(UInt64(4), 2), (UInt64(5), LedgerCompactor.defaultThreshold)] as [(UInt64, Int)])
  func compactingRunsOfRenewalsChangesNothingAReplaySees(seed: UInt64, threshold: Int) throws {
    var rng = SplitMix64(seed: seed)
    let settings = SimulatedStore.Settings(rules: StoreRules(gracePeriodEnabled: seed == 4))
    let full = LifecycleRig(settings: settings, runThreshold: .max)
    let compact = LifecycleRig(settings: settings, runThreshold: threshold)
    var runs = 0
    for step in 0..<6_000 {
      let operation = Self.pick(&rng)
      let draw = (rng.next(), rng.next())
      Self.perform(operation, draw, on: full)
      Self.perform(operation, draw, on: compact)
      if full.store.derived != compact.store.derived {
        Issue.record("step \(step) (\(operation)): compacted \(Self.difference(compact.store.derived, full.store.derived))")
        return
      }
      if step % 250 == 249 {
        let entries = compact.store.entries
        #expect(entries == LedgerCompactor.compact(full.store.entries, threshold: threshold), "step \(step)")
        let fromScratch = LedgerDerivation.derive(entries, catalog: compact.catalog, rules: settings.rules, at: compact.clock.now)
        #expect(fromScratch == full.store.derived, "step \(step): \(Self.difference(fromScratch, full.store.derived))")
        runs = entries.filter { $0.run != nil }.count
      }
    }
    #expect(runs > 0, "the operations made no run of \(threshold) renewals")
    #expect(compact.store.entries.count < full.store.entries.count)
    compact.expectConsistent()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = LedgerFile(directory: StateDirectory(path: directory.path))
    let contents = LedgerFile.Contents(entries: compact.store.entries, clock: compact.clock.now, rules: settings.rules)
    try file.save(contents)
    #expect(try file.read() == contents)
  }

  /// A replay's next event is kept by its event queue, not found by a scan: when the subscription
  /// due first ends, the next event is at once the one due after it, with no move of the clock
  /// in between (a line applied, then asked).
  @Test func whenTheFirstDueSubscriptionEndsTheNextEventIsTheOneAfterIt() {
    let rig = LifecycleRig()
    rig.buy(C.music)
    rig.advance(days: 1)
    rig.buy(C.monthlyAnnualLevel)  // another group's monthly, due a day after music
    rig.advance(days: 1)
    #expect(rig.store.perform(.refund(productID: C.music.id)).failureMessage == nil)
    let plusRenews = rig.store.derived.subscription(productID: C.monthlyAnnualLevel.id)?.expirationDate
    #expect(plusRenews != nil && rig.store.nextEvent == plusRenews)
    var replay = LedgerReplay(catalog: rig.catalog, rules: rig.store.settings.rules)
    var nextEvents: [Date?] = []
    for entry in rig.store.entries {
      replay.apply(entry)
      nextEvents.append(replay.nextEvent)
    }
    let musicRenews = rig.store.entries.first?.expirationDate
    #expect(nextEvents == [musicRenews, musicRenews, plusRenews], "\(rig.store.entries.map(\.kind))")
  }

  /// The store saves after every change, encoding again only the lines that changed since its
  /// last save: what it writes is still the whole ledger as it is, runs of renewals that grew in
  /// place and lines that compaction moved included.
  @Test func everySaveWritesTheLedgerAsItIs() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = LedgerFile(directory: StateDirectory(path: directory.path))
    let rig = LifecycleRig(runThreshold: 3, file: file)
    rig.buy(C.monthly)
    var rng = SplitMix64(seed: 7)
    var grownRuns = 0
    // A month at a time first (a run forms, then grows by a renewal each step), then at random.
    for step in 0..<420 {
      let operation = step < 20 ? .advance : Self.pick(&rng)
      let runs = rig.store.entries.compactMap(\.run?.count).reduce(0, +)
      if step < 20 { rig.advance(days: 31) } else { Self.perform(operation, (rng.next(), rng.next()), on: rig) }
      if rig.store.entries.compactMap(\.run?.count).reduce(0, +) > runs { grownRuns += 1 }
      let saved = try file.read()
      if saved.entries != rig.store.entries || saved.pending != rig.store.pendingPurchases {
        Issue.record("step \(step) (\(operation)): the file holds \(saved.entries.count) lines, the store \(rig.store.entries.count)")
        return
      }
    }
    #expect(grownRuns > 10, "runs grew in place \(grownRuns) times")
  }

  /// Carries out one operation, with the random numbers drawn for it.
  static func perform(_ operation: Operation, _ draw: (UInt64, UInt64), on rig: LifecycleRig) {
    switch operation {
    case .purchase:
      rig.store.purchaseNow(C.catalog.products[Int(draw.0 % UInt64(C.catalog.products.count))])
    case .advance:
      // From an hour to about two months, often landing exactly on a renewal.
      if draw.0 % 4 == 0, let next = rig.store.nextEvent {
        rig.clock.advance(by: max(0, next.timeIntervalSince(rig.clock.now)))
      } else {
        rig.clock.advance(by: Double(draw.1 % (60 * 24)) * 3600 + 3600)
      }
      rig.store.refreshStatus()
    case .cancel: rig.store.perform(.cancel(productID: nil))
    case .refund: rig.store.perform(.refund(productID: nil))
    case .approve: rig.store.perform(.approve)
    case .decline: rig.store.perform(.decline)
    case .upgrade: rig.store.perform(.upgrade(productID: nil))
    case .downgrade: rig.store.perform(.downgrade(productID: nil))
    case .askToBuy: rig.store.setAskToBuy(!rig.store.settings.askToBuy)
    case .billingIssue: rig.store.perform(.billingIssue(productID: nil, grace: draw.0 % 2 == 0 ? nil : true))
    case .resolve: rig.store.perform(.resolveBilling(productID: nil))
    case .priceIncrease: rig.store.perform(.priceIncrease(productID: nil, price: nil))
    case .answerPrice:
      rig.store.perform(draw.0 % 2 == 0 ? .acceptPrice(productID: nil) : .declinePrice(productID: nil))
    case .familyShare: rig.store.perform(.familyShare(productID: nil))
    case .familyRevoke: rig.store.perform(.familyRevoke(productID: nil))
    case .interrupt: rig.store.perform(.interruptNextPurchase)
    case .resolveInterrupted: rig.store.perform(.resolveInterrupted)
    }
  }

  /// The first thing that differs, in a line.
  static func difference(_ replayed: DerivedState, _ store: DerivedState) -> String {
    if replayed.status != store.status { return "status \(replayed.status) replayed, \(store.status) in the store" }
    for (a, b) in zip(replayed.subscriptions, store.subscriptions) where a != b {
      return "\(a.productID) (\(a.originalID)): replayed \(a.summary) [\(a.state.rawValue)], in the store \(b.summary) [\(b.state.rawValue)]"
    }
    if replayed.subscriptions.count != store.subscriptions.count {
      return "\(replayed.subscriptions.count) subscriptions replayed, \(store.subscriptions.count) in the store"
    }
    return "next event \(replayed.nextEvent.map(StoreDates.format) ?? "none") replayed, \(store.nextEvent.map(StoreDates.format) ?? "none") in the store; issues \(replayed.issues) / \(store.issues)"
  }

  /// Purchases, advances and cancels most often, as testers do.
  static func pick(_ rng: inout SplitMix64) -> Operation {
    let roll = rng.next() % 100
    switch roll {
    case 0..<22: return .purchase
    case 22..<44: return .advance
    case 44..<52: return .cancel
    case 52..<57: return .refund
    case 57..<61: return .approve
    case 61..<63: return .decline
    case 63..<68: return .upgrade
    case 68..<72: return .downgrade
    case 72..<75: return .askToBuy
    case 75..<80: return .billingIssue
    case 80..<85: return .resolve
    case 85..<88: return .priceIncrease
    case 88..<91: return .answerPrice
    case 91..<94: return .familyShare
    case 94..<96: return .familyRevoke
    case 96..<98: return .interrupt
    default: return .resolveInterrupted
    }
  }
}
