// Generated from paywalls/*.schema.json by scripts/embed-schemas.py; InitCommandTests checks they
// are the same. Edit the .schema.json files, then run the script.

extension Schemas {
  /// paywalls/catalog.schema.json.
  static let catalogSchema = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "catalog.schema.json",
  "title": "paywall-tui catalog",
  "type": "object",
  "required": ["products"],
  "additionalProperties": false,
  "properties": {
    "$schema": { "type": "string" },
    "currency": { "type": "string", "pattern": "^[A-Z]{3}$", "default": "USD" },
    "locale": { "type": "string", "default": "en_US", "description": "Locale prices are formatted for." },
    "storefront": { "type": "string" },
    "products": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["id", "name", "price"],
        "additionalProperties": false,
        "properties": {
          "id": { "type": "string", "minLength": 1 },
          "name": { "type": "string", "minLength": 1 },
          "description": { "type": "string" },
          "price": { "type": ["string", "number"], "pattern": "^[0-9]+(\\.[0-9]+)?$", "description": "A decimal; a string keeps it exact: \"59.99\"." },
          "currency": { "type": "string", "pattern": "^[A-Z]{3}$" },
          "period": { "type": "string", "pattern": "^P[0-9]+[DWMY]$", "description": "ISO 8601: P1W, P1M, P3M, P6M, P1Y. None: a one-time product." },
          "trial": { "type": "string", "pattern": "^P[0-9]+[DWMY]$", "description": "A free trial, e.g. P7D." },
          "intro": {
            "type": "object", "required": ["mode", "price", "period"], "additionalProperties": false,
            "properties": {
              "mode": { "enum": ["payAsYouGo", "payUpFront"] },
              "price": { "type": ["string", "number"] },
              "period": { "type": "string", "pattern": "^P[0-9]+[DWMY]$" },
              "periods": { "type": "integer", "minimum": 1, "maximum": 120 }
            }
          },
          "offers": {
            "type": "array", "description": "Promotional, offer-code and win-back offers of an auto-renewable subscription.",
            "items": {
              "type": "object", "required": ["type", "id", "mode", "period"], "additionalProperties": false,
              "properties": {
                "type": { "enum": ["promotional", "winBack", "code"] },
                "id": { "type": "string", "minLength": 1, "description": "The offer id (a code offer's code)." },
                "mode": { "enum": ["freeTrial", "payAsYouGo", "payUpFront"] },
                "price": { "type": ["string", "number"] },
                "period": { "type": "string", "pattern": "^P[0-9]+[DWMY]$" },
                "periods": { "type": "integer", "minimum": 1, "maximum": 120 },
                "paidMonths": { "type": "integer", "minimum": 0, "description": "Win-back: months paid in the group, at least." },
                "monthsSinceLapse": { "type": "array", "items": { "type": "integer", "minimum": 0 }, "minItems": 2, "maxItems": 2,
                                      "description": "Win-back: [minimum, maximum] months since the subscription expired." },
                "waitMonths": { "type": "integer", "minimum": 0, "description": "Win-back: months after this offer's period before it is offered again; absent: once." },
                "eligibility": { "type": "array", "items": { "enum": ["new", "existing", "expired"] }, "minItems": 1, "uniqueItems": true,
                                 "description": "Offer code: who may redeem it (never subscribed in the group, subscribed now, subscription ended); absent: everyone." }
              }
            }
          },
          "group": { "type": "string", "description": "Subscription group for upgrades and downgrades." },
          "level": { "type": "integer", "minimum": 1, "description": "Level in the group; 1 is the highest tier." },
          "entitlements": { "type": "array", "items": { "type": "string" } },
          "store": { "enum": ["appStore", "playStore", "stripe", "custom"] },
          "familyShareable": { "type": "boolean", "description": "Family Sharing can share it (the simulated store's family-share)." },
          "type": { "enum": ["autoRenewable", "nonRenewing", "consumable", "nonConsumable"] }
        }
      }
    }
  }
}
"""#
}
