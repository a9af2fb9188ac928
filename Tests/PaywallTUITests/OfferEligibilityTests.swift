import Foundation
import PaywallModel
@testable import TerminalCore
@testable import PaywallUI
@testable import PaywallCLI
import PaywallScenarios
import PaywallTesting
import Testing

/// What a paywall promises about an introductory offer is what the simulated store then charges:
/// the card, the offer's template variables, the free-trial flag and the purchase event follow one
/// eligibility (StoreKit's: a subscription group's intro offer only for a user who never
/// subscribed in the group), through the real app (session, presenter, store) as `play` runs it.
@Suite("Intro offer eligibility: the card says what the ledger charges")
struct OfferEligibilityTests {
  /// Where a user starts: `play`'s options and the script steps that lead there.
  struct Start: Sendable, CustomStringConvertible {
    var name: String
    var arguments: [String]
    var setup: String = ""
    var description: String { name }
  }

  static let starts: [Start] = [
    Start(name: "new user", arguments: ["--status", "inactive"]),
    Start(name: "in a free trial", arguments: ["--start", "pro=trial"]),
    Start(name: "trial used and ended", arguments: ["--start", "pro=trial"], setup: "cancel\nadvance 8d\nexpect status inactive\n"),
    Start(name: "lapsed subscriber", arguments: ["--start", "pro=expired"]),
    Start(name: "active subscriber in the group", arguments: ["--start", "pro=subscribed"]),
    Start(name: "in the grace period", arguments: ["--start", "pro=gracePeriod"]),
    Start(name: "in billing retry", arguments: ["--start", "pro=billingRetry"]),
    Start(name: "refunded", arguments: ["--start", "pro=revoked"]),
    Start(name: "owns the lifetime unlock", arguments: ["--start", "lifetime=subscribed"]),
  ]

  /// What one session showed for the product in the `primary` slot and what the store did when it
  /// was bought from there.
  struct Trip {
    var slot: SlotProduct
    var card: ProductCard
    var screen: String
    var charge: LedgerEntry?
    var events: [String]
    /// Whether the user held the product (a live subscription to it) when buying it.
    var heldAlready: Bool
  }

  /// Runs `start`, opens `paywall` with `productID` in its `primary` slot, reads the screen, buys
  /// the product from the paywall's focused purchase button, and finds the first line that
  /// charges for it (a change at renewal is followed to the renewal).
  static func trip(_ start: Start, productID: String, project: Project, path: String, paywall: String = "winback")
    async throws -> Trip {
    let options = try SessionConfiguration(Arguments([path, "--home", "--controller", "simulated"] + start.arguments, spec: PlayCommand.spec))
    let clock = SimulatedTimeSource()
    let events = EventRecorder()
    let app = try AppSession.make(project: project, path: path, options: options,
                                  overrides: [SlotOverride(slot: "primary", productID: productID)],
                                  clock: clock, simulatedClock: clock, animates: false, state: .commandLineOrMemory) { events.append($0) }
    defer { app.command?.stop() }
    let store = try #require(app.store)
    let size = Size(width: 80, height: 24)
    let player = Player(app: app, clock: clock, events: events, size: size)
    func play(_ text: String) async throws {
      let outcome = await player.play(try PlayScript.parse(text, file: "\(start.name).play"), placement: nil)
      if case .failed(let message) = outcome { throw FixtureError("\(start.name), \(productID): \(message)") }
    }
    try await play(start.setup + "open \(paywall)\n")
    let slot = try #require(app.runtime.state.session?.paywall.slot(named: "primary"))
    let card = ProductCard(product: slot, badge: nil, selected: true, focused: false)
    let screen = AppView.render(app.runtime.state, size: size).text
    let before = store.entries.count
    let held = store.derived.subscriptions.contains { $0.productID == productID && $0.ownership == .purchased && ($0.isLive || $0.kind == .nonConsumable) }
    let eventsBefore = events.all.count
    try await play("press enter\n")
    let bought = events.all.dropFirst(eventsBefore).map(\.name.rawValue)
    var lines = Array(store.entries.dropFirst(before))
    let kinds: Set<LedgerEntry.Kind> = [.purchase, .upgrade, .downgrade, .crossgrade]
    var charge = lines.first { kinds.contains($0.kind) && $0.productID == productID }
    if let change = charge, change.effect == .atRenewal {
      // Bought now, paid at the next renewal: that renewal is the charge.
      let seen = store.entries.count
      try await play("advance 1y\n")
      lines = Array(store.entries.dropFirst(seen))
      charge = lines.first { $0.kind == .renewal && $0.productID == productID }
    }
    return Trip(slot: slot, card: card, screen: screen, charge: charge, events: bought, heldAlready: held)
  }

  /// Every product of the demo in every starting state: the card's offer line, the offer
  /// variables (`trialPeriodPrice`, `rawTrialPeriodPrice`), the free-trial flag and the purchase
  /// event describe exactly the offer the ledger then gives (or none), and the first charge is
  /// the price on screen.
  @Test(arguments: starts)
  func theCardSaysWhatTheLedgerCharges(start: Start) async throws {
    let project = try Fixtures.demoProject()
    for product in project.catalog.products {
      let trip = try await Self.trip(start, productID: product.id, project: project, path: Fixtures.demoDirectory)
      let context = "\(start.name), \(product.id)"
      guard let charge = trip.charge else {
        // Nothing bought: only a product the user already holds is not sold again.
        #expect(trip.heldAlready, "\(context): the purchase charged nothing: \(trip.events)")
        continue
      }
      let paid = try #require(charge.price, "\(context): \(charge)")
      let offered = charge.offer != nil
      #expect(trip.slot.trialEligible == offered, "\(context): the paywall's trial flag says \(trip.slot.trialEligible), the store gave \(String(describing: charge.offer))")
      #expect(trip.card.offerText.isEmpty == !offered, "\(context): the card says '\(trip.card.offerText)', the store gave \(String(describing: charge.offer)) at \(paid)")
      #expect(trip.events.contains("freeTrial_start") == offered, "\(context): \(trip.events)")
      let money = product.formattedPrice(paid)
      if offered {
        if charge.offer == .freeTrial {
          #expect(paid == 0 && trip.card.offerText.hasSuffix("free trial"), "\(context): \(trip.card.offerText)")
        } else {
          #expect(trip.card.offerText.contains(money), "\(context): the card says '\(trip.card.offerText)', the store charged \(money)")
        }
      } else {
        #expect(paid == product.price, "\(context): charged \(paid) without an offer")
        #expect(trip.card.priceText.contains(money), "\(context): \(trip.card.priceText)")
        #expect(!trip.screen.contains("free trial"), "\(context): trial copy on screen:\n\(trip.screen)")
      }
      if let intro = product.introductoryOffer {
        // The offer's variables give what the first period costs this user.
        #expect(trip.slot[.trialPeriodPrice] == money, "\(context): trialPeriodPrice \(trip.slot[.trialPeriodPrice]), charged \(money)")
        #expect(trip.slot[.rawTrialPeriodPrice] == "\(paid)", "\(context): rawTrialPeriodPrice \(trip.slot[.rawTrialPeriodPrice])")
        if !offered && intro.price != product.price {
          let promise = product.formattedPrice(intro.price)
          #expect(!trip.screen.contains(promise), "\(context): the screen shows the intro price \(promise), the store charged \(money):\n\(trip.screen)")
        }
      }
    }
  }

  /// The flow a team tests before a win-back campaign, as it was reported: a monthly plan with a
  /// free trial and, in the same group, an annual product with a $19.99 pay-up-front intro. A
  /// lapsed subscriber was shown "$19.99 for the first year" (card and text) and charged $39.99.
  @Test func aLapsedSubscribersWinBackPaywallShowsWhatTheStoreCharges() async throws {
    let dir = try Fixtures.directory([
      "app.json": #"{ "name": "Notes", "catalog": "catalog.json", "paywalls": ["winback.json"] }"#,
      "catalog.json": #"""
        { "currency": "USD", "locale": "en_US", "products": [
          { "id": "monthly", "name": "Monthly", "price": "4.99", "period": "P1M", "trial": "P1W",
            "group": "premium", "level": 2, "entitlements": ["premium"] },
          { "id": "annual.winback", "name": "Annual", "price": "39.99", "period": "P1Y",
            "intro": { "mode": "payUpFront", "price": "19.99", "period": "P1Y" },
            "group": "premium", "level": 1, "entitlements": ["premium"] } ] }
        """#,
      "winback.json": #"""
        { "id": "winback", "name": "Come back", "products": { "primary": "annual.winback", "secondary": "monthly" },
          "selected": "primary",
          "components": [
            { "type": "title", "text": "Come back" },
            { "type": "text", "text": "A year of Notes for {{ primary.trialPeriodPrice }}, then {{ primary.price }}/{{ primary.period }}." },
            { "type": "products" },
            { "type": "button", "label": "Get a year for {{ primary.trialPeriodPrice }}", "action": "purchase", "slot": "primary" },
            { "type": "button", "label": "Restore purchases", "action": "restore" },
            { "type": "button", "label": "No thanks", "action": "close" } ] }
        """#,
    ])
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let loaded = ProjectLoader.load(path: dir)
    let project = try #require(loaded.project, "\(loaded.diagnostics)")
    let lapsed = Start(name: "lapsed monthly subscriber", arguments: ["--start", "premium=expired"])
    let trip = try await Self.trip(lapsed, productID: "annual.winback", project: project, path: dir)
    #expect(!trip.screen.contains("$19.99"), "the paywall promises an intro the store will not give:\n\(trip.screen)")
    #expect(trip.screen.contains("A year of Notes for $39.99, then $39.99/year."), "\(trip.screen)")
    #expect(trip.screen.contains("Get a year for $39.99"), "\(trip.screen)")
    #expect(trip.card.offerText.isEmpty)
    let charge = try #require(trip.charge)
    #expect(charge.price == Decimal(string: "39.99") && charge.offer == nil)
    #expect(trip.events.contains("subscription_start") && !trip.events.contains("freeTrial_start"), "\(trip.events)")

    // A new user is still offered the intro, and gets it.
    let new = try await Self.trip(Start(name: "new user", arguments: ["--status", "inactive"]), productID: "annual.winback",
                                  project: project, path: dir)
    #expect(new.screen.contains("Get a year for $19.99") && new.card.offerText == "$19.99 for the first year", "\(new.screen)")
    #expect(new.charge?.price == Decimal(string: "19.99") && new.charge?.offer == .payUpFront)
  }

  /// `render --states`: the "trial not eligible" screen of every bundled paywall shows no
  /// introductory offer (a subscription that ended used the group's), pinned as a golden.
  @Test(arguments: ["onboarding", "winback", "plans"])
  func theNotEligibleStateShowsNoOffer(paywall: String) async throws {
    let project = try Fixtures.demoProject()
    let definition = try #require(project.paywall(id: paywall))
    let size = Size(width: 80, height: 24)
    let states = StateGallery.states(project: project, slots: definition.slots.map(\.name), size: size)
    let state = try #require(states.first { $0.label.hasPrefix("trial not eligible") })
    let frame = try await StateGallery.shoot(state, project: project, path: Fixtures.demoDirectory, paywall: paywall, overrides: [])
    let text = frame.text
    #expect(!text.contains("free trial"), "\(text)")
    for slot in definition.slots {
      guard let product = project.catalog.product(id: slot.productID), let intro = product.introductoryOffer,
            intro.price != product.price, intro.price != 0 else { continue }
      #expect(!text.contains(product.formattedPrice(intro.price)), "\(paywall): \(product.id)'s intro price on screen:\n\(text)")
    }
    try GoldenTests.check(frame, name: "states-\(paywall)-not-eligible")
  }
}
