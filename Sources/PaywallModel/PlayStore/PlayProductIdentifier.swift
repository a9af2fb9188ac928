/// A Play product id as Superwall-Android splits it: `productId:basePlan:offer`
/// (`billing/DecomposedProductIds.kt`, `BasePlanType` and `OfferType` in
/// `store/abstractions/product/StoreProduct.kt`, release 2.7.19). A missing, empty or `sw-auto`
/// base plan lets the SDK choose; a missing, empty or `sw-auto` offer lets it choose one; `sw-none`
/// asks for the base plan alone. Parts after the third are ignored, as the SDK ignores them.
package struct PlayProductIdentifier: Sendable, Hashable, CustomStringConvertible {
  /// The base plan (or, for a one-time product, the purchase option) an id asks for.
  package enum BasePlan: Sendable, Hashable {
    case auto
    case specific(String)

    /// The SDK's `BasePlanType.from`: nil, "" and `sw-auto` are `auto`. Anything else, even
    /// blanks, is an id.
    package init(_ part: String?) {
      if let part, !part.isEmpty, part != PlayProductIdentifier.autoWord {
        self = .specific(part)
      } else {
        self = .auto
      }
    }

    package var specificID: String? {
      if case .specific(let id) = self { return id }
      return nil
    }
  }

  /// The offer an id asks for.
  package enum Offer: Sendable, Hashable {
    case auto
    /// `sw-none`: no offer, the base plan's own price.
    case noOffer
    case specific(String)

    /// The SDK's `OfferType.from`: nil, "" and `sw-auto` are `auto`, `sw-none` is `none`.
    package init(_ part: String?) {
      switch part {
      case nil, "", PlayProductIdentifier.autoWord?: self = .auto
      case PlayProductIdentifier.noneWord?: self = .noOffer
      case let id?: self = .specific(id)
      }
    }

    package var specificID: String? {
      if case .specific(let id) = self { return id }
      return nil
    }
  }

  package static let autoWord = "sw-auto"
  package static let noneWord = "sw-none"

  /// The Play product id (`subscriptionId` in the SDK).
  package var productId: String
  package var basePlan: BasePlan
  package var offer: Offer
  /// The id exactly as given.
  package var fullId: String

  /// Splits `id` on ':' as `DecomposedProductIds.from` does.
  package init(_ id: String) {
    let parts = id.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    productId = parts.first ?? ""
    basePlan = BasePlan(parts.count > 1 ? parts[1] : nil)
    offer = Offer(parts.count > 2 ? parts[2] : nil)
    fullId = id
  }

  package var basePlanID: String? { basePlan.specificID }

  package var description: String { fullId }
}
