import PaywallModel
import TerminalCore

/// One product of the picker, as a bordered card (wide terminals) or a one- or two-line row.
package struct ProductCard {
  package static let minimumWidth = 20
  package static let height = 6

  package let product: SlotProduct
  package let badge: String?
  package let selected: Bool
  package let focused: Bool

  private var item: StoreProduct { product.product }
  private var radio: String { selected ? "●" : "○" }

  /// The card's words in the storefront's language (nil: English, the wording below).
  private var words: CardWords? { CardWords.of(item.locale) }

  /// "$59.99/year", "$149.99 once"; "59,99 € pro Jahr" in German.
  package var priceText: String {
    let price = product[.price]
    if let words {
      switch item.kind {
      case .autoRenewable, .nonRenewing: return item.subscriptionPeriod.map { words.periods.per(price, $0) } ?? price
      case .nonConsumable: return CardWords.fill(words.once, price)
      case .consumable: return price
      }
    }
    switch item.kind {
    case .autoRenewable, .nonRenewing:
      guard let period = item.subscriptionPeriod else { return price }
      // "$2.99/2 weeks": the SDK's `period` names the unit alone (P7D is its "week").
      return Self.isSeveralUnits(period) ? "\(price)/\(period.spelledOut)" : "\(price)/\(product[.period])"
    case .nonConsumable: return "\(price) once"
    case .consumable: return price
    }
  }

  /// "$4.99/month" for long periods, "billed monthly" otherwise ("every 2 weeks"), "lifetime access" for unlocks,
  /// "3-day rental" for a Play rental.
  package var detailText: String {
    if let words { return detailText(words) }
    switch item.kind {
    case .nonConsumable:
      // A Play rental is held for its period, not for life.
      if let rental = item.play?.rentalPeriod {
        let parts = [(rental.years, "year"), (rental.months, "month"), (rental.weeks, "week"), (rental.days, "day")].filter { $0.0 != 0 }
        guard parts.count > 1 else { return "\(rental.spelledAsLength) rental" }
        return "rental: " + parts.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: " ")
      }
      return "lifetime access"
    case .consumable: return "one-time purchase"
    case .autoRenewable, .nonRenewing:
      guard let period = item.subscriptionPeriod else { return "" }
      if item.periodCount(in: .month) >= 2 { return "\(product[.monthlyPrice])/month" }
      // "every 2 weeks" (short enough for a card), "billed every 1 day": the SDK's word for a
      // day is "dayly".
      if Self.isSeveralUnits(period) { return "every \(period.spelledOut)" }
      return period.unit == .day && period.value != 7 ? "billed every \(period.spelledOut)" : "billed \(product[.periodly])"
    }
  }

  /// A period the SDK's `period` word misnames ("2 weeks" is its "week", "3 days" its "day"):
  /// several of a unit, but for those it has a word of (seven days a "week", two, three and six
  /// months "2 months", "quarter", "6 months").
  private static func isSeveralUnits(_ period: SubscriptionPeriod) -> Bool {
    guard period.value > 1 else { return false }
    switch period.unit {
    case .day: return period.value != 7
    case .month: return ![2, 3, 6].contains(period.value)
    case .week, .year: return true
    }
  }

  /// "7-day free trial", "3 months at $0.99", "$29.99 for the first year", or "": the offer this
  /// user gets when buying now (none once the group's was used), which the store then charges.
  package var offerText: String {
    guard let offer = product.introOffer else { return "" }
    if let words {
      let span = words.periods.length(offer.totalPeriod)
      switch offer.paymentMode {
      case .freeTrial: return CardWords.fill(words.trial, span)
      case .payAsYouGo: return CardWords.fill(words.during, words.periods.per(item.formattedPrice(offer.price), offer.period), span)
      case .payUpFront: return CardWords.fill(words.during, item.formattedPrice(offer.price), span)
      }
    }
    switch offer.paymentMode {
    case .freeTrial:
      return "\(product[.trialPeriodText]) free trial"
    case .payAsYouGo:
      return "\(offer.totalPeriod.spelledOut) at \(item.formattedPrice(offer.price))"
    case .payUpFront:
      let total = offer.totalPeriod
      let span = total.value == 1 ? total.unit.rawValue : total.spelledOut
      return "\(item.formattedPrice(offer.price)) for the first \(span)"
    }
  }

  /// `detailText` in another language: the same facts, in `words`.
  private func detailText(_ words: CardWords) -> String {
    switch item.kind {
    case .nonConsumable:
      if let rental = item.play?.rentalPeriod {
        let parts = [(rental.years, SubscriptionPeriod.Unit.year), (rental.months, .month), (rental.weeks, .week), (rental.days, .day)]
        return CardWords.fill(words.rental, parts.filter { $0.0 != 0 }.map { words.periods.count($0.0, $0.1) }.joined(separator: " "))
      }
      return words.lifetime
    case .consumable: return words.oneTime
    case .autoRenewable, .nonRenewing:
      guard let period = item.subscriptionPeriod else { return "" }
      if item.periodCount(in: .month) >= 2 { return words.periods.per(product[.monthlyPrice], .month) }
      return CardWords.fill(words.billing, words.periods.length(period))
    }
  }

  /// "● Annual", or "▸ ● Annual ◂" with the focus (as a focused button is marked), cut to `width`
  /// with the focus marks kept.
  package func name(width: Int) -> String {
    let plain = "\(radio) \(item.displayName)"
    guard focused else { return TextLayout.truncate(plain, width: width) }
    return "▸ " + TextLayout.truncate(plain, width: max(1, width - 4)) + " ◂"
  }

  package func draw(width: Int) -> Frame {
    var frame = Frame(width: width, height: Self.height)
    // The border is the same for every card: the selection is the radio and the highlighted name,
    // so changing it rewrites a few cells, not two whole outlines (bytes per key press).
    let border = CellStyle.border
    let (h, v, tl, tr, bl, br): (Unicode.Scalar, Unicode.Scalar, Unicode.Scalar, Unicode.Scalar, Unicode.Scalar, Unicode.Scalar) =
      ("─", "│", "╭", "╮", "╰", "╯")
    frame.fill(h, x: 1, y: 0, count: width - 2, style: border)
    frame.fill(h, x: 1, y: Self.height - 1, count: width - 2, style: border)
    frame.put(String(tl), x: 0, y: 0, style: border)
    frame.put(String(tr), x: width - 1, y: 0, style: border)
    frame.put(String(bl), x: 0, y: Self.height - 1, style: border)
    frame.put(String(br), x: width - 1, y: Self.height - 1, style: border)
    for row in 1..<(Self.height - 1) {
      frame.put(String(v), x: 0, y: row, style: border)
      frame.put(String(v), x: width - 1, y: row, style: border)
    }
    // A badge shows whole or not at all: "Save 5…" would read as 5%.
    if let badge, DisplayWidth.of(badge) <= width - 6 {
      frame.put(" " + badge + " ", x: 2, y: 0, style: .badge)
    }
    let inner = width - 4
    let nameStyle: CellStyle = focused ? .focusedButton : (selected ? .selected : .plain)
    frame.put(name(width: inner), x: 2, y: 1, style: nameStyle)
    frame.put(TextLayout.truncate(priceText, width: inner), x: 2, y: 2, style: .price)
    frame.put(TextLayout.truncate(detailText, width: inner), x: 2, y: 3, style: .muted)
    frame.put(TextLayout.truncate(offerText, width: inner), x: 2, y: 4, style: .accent)
    return frame
  }

  /// A row: "● Annual · 7-day free trial · Save 76%   $59.99/year" when it fits on one line,
  /// else the name and price, then the offer and badge indented below.
  package func drawRow(width: Int) -> Frame {
    let name = name(width: .max)
    let extras = [offerText, badge ?? ""].filter { !$0.isEmpty }
    let nameStyle: CellStyle = focused ? .focusedButton : (selected ? .selected : .plain)
    let price = priceText
    let priceWidth = DisplayWidth.of(price)
    let oneLine = ([name] + extras).joined(separator: " · ")
    if DisplayWidth.of(oneLine) + 2 + priceWidth <= width || extras.isEmpty {
      var frame = Frame(width: width, height: 1)
      var x = frame.put(self.name(width: max(1, width - priceWidth - 1)), x: 0, y: 0, style: nameStyle)
      for extra in extras {
        x += frame.put(" · ", x: x, y: 0, style: .muted)
        x += frame.put(extra, x: x, y: 0, style: extra == badge ? .badge : .accent)
      }
      frame.put(price, x: max(0, width - priceWidth), y: 0, style: .price)
      return frame
    }
    var frame = Frame(width: width, height: 2)
    frame.put(self.name(width: max(1, width - priceWidth - 1)), x: 0, y: 0, style: nameStyle)
    frame.put(price, x: max(0, width - priceWidth), y: 0, style: .price)
    var x = 2
    for (i, extra) in extras.enumerated() {
      let isBadge = extra == badge
      // The badge goes whole or not at all ("Save 5…" reads as 5%).
      if isBadge && x + (i > 0 ? 3 : 0) + DisplayWidth.of(extra) > width { break }
      if i > 0 { x += frame.put(" · ", x: x, y: 1, style: .muted) }
      x += frame.put(TextLayout.truncate(extra, width: max(1, width - x)), x: x, y: 1, style: isBadge ? .badge : .accent)
    }
    return frame
  }
}
