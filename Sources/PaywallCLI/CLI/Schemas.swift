// Generated from paywalls/*.schema.json by scripts/embed-schemas.py; InitCommandTests checks they
// are the same. Edit the .schema.json files, then run the script.

/// The JSON Schemas of the project files, built into the binary so `init` and `schema` can write
/// them wherever a project lives.
package enum Schemas {
  /// Every schema by name (`app`, `catalog`, `paywall`), written as `NAME.schema.json`.
  package static let all: [(name: String, text: String)] = [
    ("app", #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "app.schema.json",
  "title": "paywall-tui project",
  "type": "object",
  "required": [
    "paywalls"
  ],
  "additionalProperties": false,
  "properties": {
    "$schema": {
      "type": "string"
    },
    "name": {
      "type": "string"
    },
    "catalog": {
      "type": "string",
      "description": "Catalog file: our JSON format or an Xcode .storekit file."
    },
    "paywalls": {
      "type": "array",
      "items": {
        "type": "string"
      },
      "description": "Paywall files, relative to this file."
    },
    "ignore": {
      "type": "array",
      "uniqueItems": true,
      "items": {
        "enum": ["trial-copy", "no-products", "no-price", "no-purchase-button", "no-restore-button", "no-close-button", "currency-decimals", "audience-filter", "unevaluable-rule", "placement-name", "template", "storekit-version", "storekit-key", "offer-eligibility", "unknown-storefront", "superwall-import", "option-no-effect", "custom-product-call", "not-fired-here"]
      },
      "description": "Warnings this project accepts, by the name printed after each ([no-close-button]): no command reports them, and validate --strict does not fail on them."
    },
    "options": {
      "type": "object",
      "additionalProperties": false,
      "description": "The SDK's SuperwallOptions and PaywallOptions keys side by side, for the chosen sdk: those the emulator follows, and the others accepted with a warning that they change nothing here.",
      "properties": {
        "sdk": {
          "type": "string",
          "pattern": "^(3|4|4\\.([0-9]|1[0-6]))$",
          "default": "4",
          "description": "Which Superwall iOS SDK to follow where versions differ: \"3\" (an active user is skipped, userIsSubscribed, unless the paywall's presentationCondition is \"always\"), \"4\" (the latest 4.x, no subscriber rule) or \"4.N\"."
        },
        "automaticallyDismiss": {
          "type": "boolean",
          "default": true,
          "description": "Dismiss the paywall after a purchase or restore succeeds."
        },
        "shouldShowPurchaseFailureAlert": {
          "type": "boolean",
          "default": true,
          "description": "Show 'An error occurred' with the error when a purchase fails."
        },
        "restoreFailed": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "title": {
              "type": "string",
              "default": "No Subscription Found"
            },
            "message": {
              "type": "string",
              "default": "We couldn't find an active subscription for your account."
            },
            "closeButtonTitle": {
              "type": "string",
              "default": "Okay"
            }
          }
        },
        "overrideProductsByName": {
          "type": "object",
          "additionalProperties": {
            "type": "string"
          },
          "description": "Slot name → product id, applied to every paywall before it is shown (the SDK's overrideProductsByName, SDK 4.6 and later)."
        },
        "storeKitVersion": {
          "enum": ["storeKit1", "storeKit2"],
          "default": "storeKit2",
          "description": "SuperwallOptions.storeKitVersion (SDK 4): which StoreKit the SDK's own purchaser uses. Decides what Superwall.shared.purchase(product) answers for a custom store product with a purchase controller: storeKit2 cancelled, storeKit1 the noSk1Product failure."
        },
        "shouldObservePurchases": {
          "type": "boolean",
          "default": false,
          "description": "SuperwallOptions.shouldObservePurchases: from SDK 4.1 Superwall.shared.purchase(product) (a script's 'call purchase') returns cancelled at once and tracks nothing while it is on."
        },
        "localResources": {
          "type": "object",
          "description": "SuperwallOptions.localResources (SDK 4.13 and later). Accepted; it has no effect here (validate says why)."
        },
        "networkEnvironment": {
          "enum": ["release", "releaseCandidate", "developer", "local"],
          "description": "SuperwallOptions.networkEnvironment (SDK 3 and later). Accepted; it has no effect here (validate says why)."
        },
        "eventTrackingBehavior": {
          "enum": ["all", "superwallOnly", "none"],
          "description": "SuperwallOptions.eventTrackingBehavior (SDK 4.16 and later). Accepted; it has no effect here (validate says why)."
        },
        "isExternalDataCollectionEnabled": {
          "type": "boolean",
          "description": "SuperwallOptions.isExternalDataCollectionEnabled (SDK 3 and later). Accepted; it has no effect here (validate says why)."
        },
        "localeIdentifier": {
          "type": "string",
          "description": "SuperwallOptions.localeIdentifier (SDK 3 and later). Accepted; it has no effect here (validate says why)."
        },
        "isGameControllerEnabled": {
          "type": "boolean",
          "description": "SuperwallOptions.isGameControllerEnabled (SDK 3 and later). Accepted; it has no effect here (validate says why)."
        },
        "collectAdServicesAttribution": {
          "type": "boolean",
          "description": "SuperwallOptions.collectAdServicesAttribution (SDK 3 only). Accepted; it has no effect here (validate says why)."
        },
        "enableExperimentalDeviceVariables": {
          "type": "boolean",
          "description": "SuperwallOptions.enableExperimentalDeviceVariables (SDK 4.3 and later). Accepted; it has no effect here (validate says why)."
        },
        "shouldBypassAppTransactionCheck": {
          "type": "boolean",
          "description": "SuperwallOptions.shouldBypassAppTransactionCheck (SDK 4.9 and later). Accepted; it has no effect here (validate says why)."
        },
        "testModeBehavior": {
          "enum": ["automatic", "whenEnabledForUser", "never", "always"],
          "description": "SuperwallOptions.testModeBehavior (SDK 4.14 and later). Accepted; it has no effect here (validate says why)."
        },
        "maxConfigRetryCount": {
          "type": "integer",
          "minimum": 0,
          "description": "SuperwallOptions.maxConfigRetryCount (SDK 3 and later). Accepted; it has no effect here (validate says why)."
        },
        "logging": {
          "type": "object",
          "description": "SuperwallOptions.logging (SDK 3 and later). Accepted; it has no effect here (validate says why)."
        },
        "isHapticFeedbackEnabled": {
          "type": "boolean",
          "description": "PaywallOptions.isHapticFeedbackEnabled (SDK 3 and later). Accepted; it has no effect here (validate says why)."
        },
        "shouldShowWebRestorationAlert": {
          "type": "boolean",
          "description": "PaywallOptions.shouldShowWebRestorationAlert (SDK 4.3 and later). Accepted; it has no effect here (validate says why)."
        },
        "notificationPermissionsDenied": {
          "type": "object",
          "description": "PaywallOptions.notificationPermissionsDenied (SDK 3 and later). Accepted; it has no effect here (validate says why)."
        },
        "shouldPreload": {
          "type": "boolean",
          "description": "PaywallOptions.shouldPreload (SDK 3 and later). Accepted; it has no effect here (validate says why)."
        },
        "shouldShowWebPurchaseConfirmationAlert": {
          "type": "boolean",
          "description": "PaywallOptions.shouldShowWebPurchaseConfirmationAlert (SDK 4.6 and later). Accepted; it has no effect here (validate says why)."
        },
        "transactionBackgroundView": {
          "enum": ["spinner", "none"],
          "description": "PaywallOptions.transactionBackgroundView (SDK 3 and later). Accepted; it has no effect here (validate says why)."
        }
      }
    },
    "campaigns": {
      "type": "array",
      "description": "Placements and their audiences, tried in order; the first audience whose filter matches decides.",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "placement",
          "audiences"
        ],
        "properties": {
          "$comment": {
            "type": "string"
          },
          "placement": {
            "type": "string",
            "minLength": 1,
            "description": "The name register() is called with, or an implicit one: transaction_abandon, transaction_fail, paywall_decline."
          },
          "audiences": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "object",
              "additionalProperties": false,
              "properties": {
                "$comment": {
                  "type": "string"
                },
                "filter": {
                  "type": "string",
                  "description": "A CEL expression, as the SDK's expression_cel, over user.*, params.* and device.* (subscriptionStatus, activeEntitlements, activeProducts, platform, isMac): literals, == != < <= > >= in && || ! ?:, has(), size(), contains, startsWith, endsWith, matches, all/exists. Only true matches. No filter matches everyone."
                },
                "paywall": {
                  "type": "string",
                  "description": "The paywall id matched users see."
                },
                "variants": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": [
                      "paywall",
                      "percent"
                    ],
                    "properties": {
                      "paywall": {
                        "type": "string"
                      },
                      "percent": {
                        "type": "integer",
                        "minimum": 0,
                        "maximum": 100
                      }
                    }
                  },
                  "description": "A/B variants; percentages add up to 100."
                },
                "holdout": {
                  "type": "integer",
                  "minimum": 0,
                  "maximum": 100,
                  "description": "Percent of matched users who see nothing (skipped: holdout)."
                },
                "occurrence": {
                  "type": "object",
                  "additionalProperties": false,
                  "required": ["maxCount"],
                  "properties": {
                    "maxCount": { "type": "integer", "minimum": 1 },
                    "interval": {
                      "type": "object",
                      "additionalProperties": false,
                      "required": ["minutes"],
                      "properties": { "minutes": { "type": "integer", "minimum": 1 } },
                      "description": "Count only the last N minutes ({\"minutes\": 1440}: once a day); leave it out for all time."
                    }
                  },
                  "description": "The SDK's audience occurrence limit: the audience matches a user at most maxCount times within the interval (each presentation or holdout counts, kept with its time in the state directory); after that the next audience is tried."
                },
                "unsupportedRule": {
                  "type": "object",
                  "additionalProperties": false,
                  "required": ["kind", "text"],
                  "properties": {
                    "kind": { "type": "string", "description": "The rule's language: expression (the SDK's v3 language) or expression_js." },
                    "text": { "type": "string" }
                  },
                  "description": "A rule the emulator cannot evaluate (instead of filter): play and explain need --assume-rule PLACEMENT#N=match|nomatch, run asks."
                }
              }
            }
          }
        }
      }
    }
  }
}
"""#),
    ("catalog", #"""
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
"""#),
    ("paywall", #"""
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
      "description": "Slot name → product id from the catalog. Keys 1, 2, 3 select the slots in this order.",
      "propertyNames": { "not": { "const": "selected" } },
      "additionalProperties": {
        "oneOf": [
          { "type": "string", "minLength": 1 },
          { "type": "object", "required": ["product"], "additionalProperties": false,
            "description": "A product with one of its promotional or win-back offers (the catalog's 'offers').",
            "properties": { "product": { "type": "string", "minLength": 1 }, "offer": { "type": "string", "minLength": 1 } } }
        ]
      },
      "examples": [{ "primary": "com.acme.pro.annual", "secondary": "com.acme.pro.monthly", "tertiary": "com.acme.pro.lifetime" }]
    },
    "selected": { "type": "string", "description": "The slot selected when the paywall opens (default: the first)." },
    "featureGating": { "enum": ["gated", "nonGated"], "default": "nonGated", "description": "gated: the feature runs only after a purchase or restore." },
    "presentationCondition": { "enum": ["checkUserSubscription", "always"], "default": "checkUserSubscription", "description": "always: present even to subscribers (the v3 rule)." },
    "components": { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/component" } }
  },
  "$defs": {
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
"""#),
  ]
}
