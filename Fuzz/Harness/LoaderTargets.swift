import Foundation
@testable import PaywallModel
@testable import TerminalCore
@testable import PaywallUI

/// Paywall JSON → the reader and validator `validate` runs, against the bundled catalog; a valid
/// paywall is then drawn. Property: no crash; `nil` exactly when there are errors; every
/// diagnostic on a real line and column of the input and free of control characters; the frame clean.
let paywallTarget = FuzzTarget(name: "paywall", setUp: loadBundledCatalog) { bytes in
  let file = "fuzz/paywall.json"
  guard let (root, diagnostics) = parseJSON(bytes, file: file) else { return }
  let paywall = PaywallReader.read(root, file: file, catalog: bundledCatalog, diagnostics: diagnostics)
  checkDiagnostics(diagnostics.diagnostics, bytes: bytes, file: file)
  require((paywall == nil) == diagnostics.hasErrors, "paywall \(paywall == nil ? "nil" : "read") but hasErrors \(diagnostics.hasErrors)")
  guard let paywall else { return }
  for slot in paywall.slots {
    require(bundledCatalog.product(id: slot.productID) != nil, "a valid paywall names '\(slot.productID)', not in the catalog")
  }
  let resolved = ResolvedPaywall(paywall, catalog: bundledCatalog, now: fixedNow)
  let size = bytes.count % 3 == 0 ? Size(width: 80, height: 24) : Size(width: 30 + bytes.count % 50, height: 10 + bytes.count % 20)
  checkFrame(PaywallRenderer.render(PaywallScreenState(paywall: resolved), size: size), what: "paywall")
}

/// Our JSON catalog format. Property: as for paywalls, and a catalog without errors has unique ids
/// whose every attribute formats without control characters.
let catalogTarget = FuzzTarget(name: "catalog") { bytes in
  catalogLoader(bytes, file: "fuzz/catalog.json", read: CatalogReader.read)
}

/// Xcode `.storekit` files (the file name has no side `.entitlements.json`).
let storeKitTarget = FuzzTarget(name: "storekit") { bytes in
  catalogLoader(bytes, file: "fuzz/none.storekit", read: StoreKitConfigurationReader.read)
}

let fixedNow = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01

/// Parses `bytes`; a syntax error must point into the input and then ends the input's run.
func parseJSON(_ bytes: [UInt8], file: String) -> (JSONNode, DiagnosticCollector)? {
  do {
    let root = try JSONParser.parse(bytes: bytes)
    return (root, DiagnosticCollector(file: file, source: bytes))
  } catch {
    checkDiagnostics([Diagnostic(file: file, location: error.location, severity: .error, message: error.message, path: nil)],
                     bytes: bytes, file: file)
    return nil
  }
}

func checkDiagnostics(_ diagnostics: [Diagnostic], bytes: [UInt8], file: String) {
  SourceShape(bytes).check(diagnostics, file: file)
  for d in diagnostics {
    let bad = controlScalars(in: d.description)
    require(bad.isEmpty, "diagnostic with control characters \(bad): \(d.description.debugDescription)")
  }
}

/// Formatters are cached per locale and currency (a catalog has a few); a fuzzer invents millions,
/// so past this many new pairs the rest are formatted in a known locale to keep memory flat.
nonisolated(unsafe) var formattedLocales: Set<String> = []

func catalogLoader(_ bytes: [UInt8], file: String,
                   read: (JSONNode, String, DiagnosticCollector) -> Catalog?) {
  guard let (root, diagnostics) = parseJSON(bytes, file: file) else { return }
  let catalog = read(root, file, diagnostics)
  checkDiagnostics(diagnostics.diagnostics, bytes: bytes, file: file)
  if catalog == nil {
    require(diagnostics.hasErrors, "no catalog and no error")
  }
  guard let catalog, !diagnostics.hasErrors else { return }
  require(Set(catalog.productIDs).count == catalog.products.count, "duplicate product ids in a valid catalog: \(catalog.productIDs)")
  for group in catalog.groups {
    for id in group.productIDs {
      require(catalog.product(id: id) != nil, "group '\(group.name)' lists '\(id)', which is not in the catalog")
    }
  }
  for var product in catalog.products.prefix(8) {
    require(catalog.product(id: product.id) == product, "product(id:) does not find '\(product.id)'")
    let key = product.locale + "|" + product.currencyCode
    if !formattedLocales.contains(key) {
      if formattedLocales.count < 2000 {
        formattedLocales.insert(key)
      } else {
        product.locale = "en_US"
        product.currencyCode = "USD"
      }
    }
    for attribute in ProductAttribute.allCases {
      let text = product.attribute(attribute, now: fixedNow)
      let bad = controlScalars(in: text)
      require(bad.isEmpty, "attribute \(attribute) of '\(product.id)' has control characters \(bad): \(text.debugDescription)")
    }
  }
}
