import Foundation

/// A small project for cascades: two paywalls, each named by a campaign, and an
/// override naming a product. Each test breaks one thing in it.
package enum CascadeProject {
  package static let catalog = """
    {
      "products": [
        { "id": "pro.annual", "name": "Annual", "price": "59.99", "period": "P1Y" },
        { "id": "pro.monthly", "name": "Monthly", "price": "9.99", "period": "P1M" }
      ]
    }
    """
  package static func paywall(_ id: String, product: String) -> String {
    """
    {
      "id": "\(id)",
      "name": "\(id.capitalized)",
      "products": { "primary": "\(product)" },
      "components": [
        { "type": "title", "text": "Go Pro" },
        { "type": "products" },
        { "type": "button", "label": "Continue", "action": "purchase" },
        { "type": "button", "label": "Restore", "action": "restore" },
        { "type": "button", "label": "Not now", "action": "close" }
      ]
    }
    """
  }
  package static let app = """
    {
      "name": "Cascade",
      "catalog": "catalog.json",
      "paywalls": ["main.json", "other.json"],
      "campaigns": [
        { "placement": "start", "audiences": [{ "paywall": "main" }] },
        { "placement": "later", "audiences": [{ "paywall": "other" }, { "paywall": "main" }] }
      ],
      "options": { "overrideProductsByName": { "primary": "pro.annual" } }
    }
    """

  /// The project's files, with `changes` (name → contents) in place of the good ones.
  package static func directory(_ changes: [String: String] = [:]) throws -> String {
    var files = ["app.json": app, "catalog.json": catalog, "main.json": paywall("main", product: "pro.annual"),
                 "other.json": paywall("other", product: "pro.monthly")]
    for (name, text) in changes { files[name] = text }
    return try Fixtures.directory(files)
  }
}
