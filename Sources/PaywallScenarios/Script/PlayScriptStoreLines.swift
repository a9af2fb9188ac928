#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import PaywallModel

extension PlayScript {
  /// Google Play's store commands (`test-card`, `acknowledge`, `pause`, `resume`, `replace`,
  /// `replacement-mode`); nil for any other command.
  static func playStoreAction(_ name: String, _ args: [String], column: (Int) -> Int) throws(LineError) -> StoreAction? {
    switch name {
    case "test-card":
      let cards = PlayTestCard.allCases.map(\.rawValue)
      guard args.count == 1, let card = PlayTestCard(rawValue: args[0]) else {
        let hint = args.count == 1 ? Suggestions.hint(for: args[0], in: cards) : ""
        throw LineError(message: "'test-card' takes one of \(cards.joined(separator: ", "))\(hint) (Google Play's license-test cards)",
                        column: args.isEmpty ? 0 : column(args.count == 1 ? 0 : 1))
      }
      return .testCard(card)
    case "pause":
      let lengths = PlayPauseDuration.allCases.map(\.rawValue)
      guard (1...2).contains(args.count), let length = PlayPauseDuration(rawValue: args[args.count - 1]) else {
        throw LineError(message: "'pause' takes [PRODUCT_ID] and how long: one of \(lengths.joined(separator: ", ")) (Google Play allows a week to three months)",
                        column: args.isEmpty ? 0 : column(args.count - 1))
      }
      return .pause(productID: args.count == 2 ? args[0] : nil, length)
    case "replace", "replacement-mode":
      let modes = PlayReplacementMode.allCases.map(\.rawValue)
      func mode(_ text: String, at index: Int) throws(LineError) -> PlayReplacementMode {
        guard let mode = PlayReplacementMode(rawValue: text.uppercased()) else {
          throw LineError(message: "\(quoting: text) is not a replacement mode\(Suggestions.hint(for: text.uppercased(), in: modes)); use one of \(modes.joined(separator: ", "))",
                          column: column(index))
        }
        return mode
      }
      if name == "replacement-mode" {
        guard args.count == 1 else { throw LineError(message: "'replacement-mode' takes one of \(modes.joined(separator: ", ")) or default", column: 0) }
        return .replacementMode(args[0] == "default" ? nil : try mode(args[0], at: 0))
      }
      guard (1...2).contains(args.count) else {
        throw LineError(message: "'replace' takes a product id and optionally a replacement mode, e.g. 'replace acme_pro:annual:sw-none WITH_TIME_PRORATION'", column: 0)
      }
      return .replace(productID: args[0], mode: args.count == 2 ? try mode(args[1], at: 1) : nil)
    case "resume":
      guard args.count <= 1 else { throw LineError(message: "'resume' takes at most a product id", column: column(1)) }
      return .resume(productID: args.first)
    case "acknowledge":
      // `acknowledge off` / `on`: whether the app acknowledges purchases; else one purchase now.
      if args.count == 1, args[0] == "on" || args[0] == "off" { return .acknowledging(args[0] == "on") }
      guard args.count <= 1 else {
        throw LineError(message: "'acknowledge' takes on, off or [PRODUCT_ID], e.g. 'acknowledge off'", column: column(1))
      }
      return .acknowledge(productID: args.first)
    default:
      return nil
    }
  }
}
