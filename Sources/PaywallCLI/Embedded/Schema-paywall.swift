// Generated from paywalls/*.schema.json by scripts/embed-schemas.py; InitCommandTests checks they
// are the same. Edit the .schema.json files, then run the script.

extension Schemas {
  /// paywalls/paywall.schema.json.
  static let paywallSchema = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "paywall.schema.json",
  "title": "paywall-tui paywall",
  "description": "A paywall drawn by paywall-tui: product slots, presentation settings and components drawn top to bottom. `paywall-tui validate` checks the same rules and more (catalog products, template variables).",
  "type": "object",
  "required": ["id", "name", "components"],
  "additionalProperties": false,
  "properties": {
    "$schema": { "type": "string" },
    "id": { "type": "string", "minLength": 1, "description": "Unique id of the paywall inside its project; campaigns refer to it." },
    "name": { "type": "string", "minLength": 1, "description": "Human name, shown in the status bar and events." },
    "products": {
      "type": "object",
      "description": "Slot name → product id from the catalog (in a cross-platform project, one per store: {\"ios\": ID, \"android\": ID}). Keys 1, 2, 3 select the slots in this order.",
      "propertyNames": { "not": { "const": "selected" } },
      "additionalProperties": {
        "oneOf": [
          { "$ref": "#/$defs/slotProduct" },
          { "type": "object", "minProperties": 1, "additionalProperties": false,
            "description": "A cross-platform project's slot: each store's product. A slot with none for the session's platform is left out there.",
            "properties": { "ios": { "$ref": "#/$defs/slotProduct" }, "android": { "$ref": "#/$defs/slotProduct" } } }
        ]
      },
      "examples": [{ "primary": "com.acme.pro.annual", "secondary": "com.acme.pro.monthly", "tertiary": "com.acme.pro.lifetime" }]
    },
    "selected": { "type": "string", "description": "The slot selected when the paywall opens (default: the first)." },
    "featureGating": { "enum": ["gated", "nonGated"], "default": "nonGated", "description": "gated: the feature runs only after a purchase or restore." },
    "presentationCondition": { "enum": ["checkUserSubscription", "always"], "default": "checkUserSubscription", "description": "always: present even to subscribers (the v3 rule)." },
    "components": { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/component" } },
    "surveys": {
      "type": "array",
      "description": "Surveys shown as the paywall closes (the SDK's SurveyManager): the first whose presentationCondition holds decides; a user sees one assignmentKey once.",
      "items": {
        "type": "object",
        "required": ["id", "title", "message", "options", "presentationCondition"],
        "additionalProperties": false,
        "properties": {
          "id": { "type": "string", "minLength": 1, "description": "survey_id in events." },
          "assignmentKey": { "type": "string", "minLength": 1, "description": "Saved for the user once drawn; a survey with the saved key is not shown. Default: id." },
          "title": { "type": "string", "minLength": 1 },
          "message": { "type": "string" },
          "options": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["id", "title"],
              "additionalProperties": false,
              "properties": { "id": { "type": "string", "minLength": 1 }, "title": { "type": "string", "minLength": 1 } }
            }
          },
          "presentationCondition": { "enum": ["onManualClose", "onPurchase"] },
          "presentationProbability": { "type": "number", "minimum": 0, "maximum": 1, "description": "Share of users who see it (default 1); the others are a holdout." },
          "includeOtherOption": { "type": "boolean", "description": "Offer \"Other\" with a free-text answer (default false)." },
          "includeCloseOption": { "type": "boolean", "description": "Offer \"Close\" (default true)." }
        }
      }
    },
    "localNotifications": {
      "type": "array",
      "description": "Notifications a free trial started from this paywall schedules (the SDK's NotificationScheduler); shown as written, no variables.",
      "items": {
        "type": "object",
        "required": ["type", "title", "body", "delay"],
        "additionalProperties": false,
        "properties": {
          "type": { "enum": ["trialStarted"] },
          "title": { "type": "string", "minLength": 1 },
          "subtitle": { "type": "string" },
          "body": { "type": "string", "minLength": 1 },
          "delay": {
            "description": "After the purchase: milliseconds, as the SDK's delay, or a duration such as \"5d\".",
            "oneOf": [{ "type": "number", "minimum": 1 }, { "type": "string", "pattern": "^[0-9.]+(ms|s|m|h|d|w)$" }]
          }
        }
      }
    }
  },
  "$defs": {
    "slotProduct": {
      "oneOf": [
        { "type": "string", "minLength": 1 },
        { "type": "object", "required": ["product"], "additionalProperties": false,
          "description": "A product with one of its promotional or win-back offers (the catalog's 'offers').",
          "properties": { "product": { "type": "string", "minLength": 1 }, "offer": { "type": "string", "minLength": 1 } } }
      ]
    },
    "template": {
      "type": "string",
      "description": "Text; may use {{ products.SLOT.ATTRIBUTE }}, {{ products.selected.ATTRIBUTE }}, the short form {{ primary.ATTRIBUTE }} (primary, secondary, tertiary only) and {{ user.KEY }}, e.g. {{ products.primary.price }}. Attributes (the SDK's): identifier, price, rawPrice, currencyCode, currencySymbol, locale, languageCode, period, periodAlt, periodly, localizedPeriod, periodDays, periodWeeks, periodMonths, periodYears, dailyPrice, weeklyPrice, monthlyPrice, yearlyPrice, trialPeriodDays, trialPeriodWeeks, trialPeriodMonths, trialPeriodYears, trialPeriodText, trialPeriodEndDate, trialPeriodPrice, rawTrialPeriodPrice, trialPeriodDailyPrice, trialPeriodWeeklyPrice, trialPeriodMonthlyPrice, trialPeriodYearlyPrice, billingPlanType, isBillingPlanAvailable, isSubscribed; the emulator's own (empty on a device): name, description, hasFreeTrial."
    },
    "component": {
      "type": "object",
      "required": ["type"],
      "properties": {
        "type": { "enum": ["title", "text", "features", "products", "button", "divider", "spacer", "art"] }
      },
      "allOf": [
        { "if": { "properties": { "type": { "const": "title" } } }, "then": {
            "required": ["text"], "additionalProperties": false,
            "properties": { "type": true, "text": { "$ref": "#/$defs/template" }, "freeTrialText": { "$ref": "#/$defs/template" } } } },
        { "if": { "properties": { "type": { "const": "text" } } }, "then": {
            "required": ["text"], "additionalProperties": false,
            "properties": { "type": true, "text": { "$ref": "#/$defs/template" }, "freeTrialText": { "$ref": "#/$defs/template", "description": "Shown instead of text when a product on the paywall has an eligible free trial." },
                            "style": { "enum": ["body", "muted", "accent"] } } } },
        { "if": { "properties": { "type": { "const": "features" } } }, "then": {
            "required": ["items"], "additionalProperties": false,
            "properties": { "type": true, "title": { "$ref": "#/$defs/template" }, "items": { "type": "array", "items": { "$ref": "#/$defs/template" } } } } },
        { "if": { "properties": { "type": { "const": "products" } } }, "then": {
            "additionalProperties": false,
            "properties": { "type": true,
                            "slots": { "type": "array", "items": { "type": "string" }, "description": "Which slots to show, in order (default: all)." },
                            "badges": { "type": "object", "additionalProperties": { "type": "string" }, "description": "Slot → badge text, e.g. {\"primary\": \"Best value\"}." },
                            "savings": { "type": "boolean", "default": true, "description": "Show a computed \"Save N%\" badge on the best-value card." } } } },
        { "if": { "properties": { "type": { "const": "button" } } }, "then": {
            "required": ["label", "action"], "additionalProperties": false,
            "properties": { "type": true, "label": { "$ref": "#/$defs/template" }, "freeTrialLabel": { "$ref": "#/$defs/template" },
                            "action": { "enum": ["purchase", "restore", "close", "select", "placement"] },
                            "slot": { "type": "string", "description": "purchase: buy this slot instead of the selected one; select: the slot to select." },
                            "placement": { "type": "string", "description": "placement: the placement to register." } },
            "allOf": [
              { "if": { "properties": { "action": { "const": "select" } } }, "then": { "required": ["slot"] } },
              { "if": { "properties": { "action": { "const": "placement" } } }, "then": { "required": ["placement"] } }
            ] } },
        { "if": { "properties": { "type": { "const": "divider" } } }, "then": { "additionalProperties": false, "properties": { "type": true } } },
        { "if": { "properties": { "type": { "const": "spacer" } } }, "then": {
            "additionalProperties": false, "properties": { "type": true, "lines": { "type": "integer", "minimum": 1, "maximum": 10 } } } },
        { "if": { "properties": { "type": { "const": "art" } } }, "then": {
            "required": ["lines"], "additionalProperties": false,
            "properties": { "type": true, "lines": { "type": "array", "items": { "type": "string" } } } } }
      ]
    }
  }
}
"""#
}
