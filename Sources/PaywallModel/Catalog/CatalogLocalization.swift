#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// Switching a catalog to another locale or App Store storefront, as Xcode's StoreKit
/// configuration editor does: a storefront sets every product's currency and its formatting
/// locale (`StoreKitConfigurationReader.storefronts`), a locale sets how prices are written
/// ("4,99 €" for de_DE); the amounts stay as the catalog gives them.
extension Catalog {
  /// The storefronts a catalog can switch to (ISO 3166 alpha-3), sorted.
  package static var storefrontCodes: [String] { StoreKitConfigurationReader.storefronts.keys.sorted() }

  /// The locales whose price formats are known (`CurrencyFormats.swift`), sorted.
  package static var formatLocales: [String] {
    Set(CurrencyFormat.keys.map { String($0.split(separator: "|")[0]) }).sorted()
  }

  /// Why a storefront or locale cannot be switched to, for `--storefront`/`--locale`; nil when it can.
  package static func refusal(storefront: String?, locale: String?) -> String? {
    if let storefront, StoreKitConfigurationReader.storefronts[storefront.uppercased()] == nil {
      return "--storefront \(quoting: storefront) is not an App Store storefront this emulator knows\(Suggestions.hint(for: storefront.uppercased(), in: storefrontCodes)) (storefronts: \(storefrontCodes.joined(separator: ", ")))"
    }
    if let locale, !formatLocales.contains(locale) {
      return "--locale \(quoting: locale) has no price format here\(Suggestions.hint(for: locale, in: formatLocales)); use a locale such as en_US, de_DE, fr_FR or ja_JP"
    }
    return nil
  }

  /// This catalog seen from `storefront` and/or in `locale` (nil leaves that side as it is). A
  /// locale given with a storefront wins over the storefront's own, as `_locale` does in a
  /// `.storekit` file. Check the values with `refusal` first: unknown ones change nothing.
  package func localized(storefront: String?, locale: String?) -> Catalog {
    guard storefront != nil || locale != nil else { return self }
    let known = storefront.flatMap { StoreKitConfigurationReader.storefronts[$0.uppercased()] }
    var settings = self.settings
    if let storefront, known != nil { settings.storefront = storefront.uppercased() }
    if let formatting = locale ?? known?.locale { settings.locale = formatting }
    let products = self.products.map { product in
      var product = product
      // A Play product's currency is its catalog region's, with the amount Play set for it: an
      // App Store storefront does not re-label it (the catalog's "region" chooses).
      if let known, product.store != .playStore { product.currencyCode = known.currency }
      if let formatting = locale ?? known?.locale { product.locale = formatting }
      return product
    }
    var catalog = Catalog(products: products, groups: groups, settings: settings, file: file)
    catalog.unloadedProductIDs = unloadedProductIDs
    catalog.notSoldReasons = notSoldReasons
    catalog.store = store
    // The Play catalog stays beside its products: a returning buyer's offers are made from it.
    catalog.play = play
    return catalog
  }
}
