// Generated from paywalls/*.schema.json by scripts/embed-schemas.py; InitCommandTests checks they
// are the same. Edit the .schema.json files, then run the script.

extension Schemas {
  /// paywalls/app.schema.json.
  static let appSchema = #"""
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
      "oneOf": [
        { "type": "string", "minLength": 1 },
        { "type": "object", "minProperties": 1, "additionalProperties": false,
          "description": "A cross-platform project: each store's catalog; --platform (or options.platform) picks the one a session reads.",
          "properties": { "ios": { "type": "string", "minLength": 1 }, "android": { "type": "string", "minLength": 1 } } }
      ],
      "description": "Catalog file: our JSON format, an Xcode .storekit file, or a Google Play catalog (docs/android.md); or one per store, {\"ios\": FILE, \"android\": FILE}."
    },
    "paywalls": {
      "type": "array",
      "items": {
        "type": "string"
      },
      "description": "Paywall files, relative to this file."
    },
    "appSessionTimeoutMs": {
      "type": "integer",
      "minimum": 0,
      "description": "How long (ms) the app may stay in the background before coming back starts a new session (session_start): the config's app_session_timeout_ms. Default 3600000 (1 hour)."
    },
    "ignore": {
      "type": "array",
      "uniqueItems": true,
      "items": {
        "enum": ["trial-copy", "no-products", "no-price", "no-purchase-button", "no-restore-button", "no-close-button", "currency-decimals", "audience-filter", "unevaluable-rule", "placement-name", "template", "storekit-version", "storekit-key", "offer-eligibility", "unknown-storefront", "superwall-import", "option-no-effect", "custom-product-call", "not-fired-here", "unreachable-survey", "other-store-slot"]
      },
      "description": "Warnings this project accepts, by the name printed after each ([no-close-button]): no command reports them, and validate --strict does not fail on them."
    },
    "options": {
      "type": "object",
      "additionalProperties": false,
      "description": "The SDK's SuperwallOptions and PaywallOptions keys side by side, for the chosen sdk: those the emulator follows, and the others accepted with a warning that they change nothing here.",
      "properties": {
        "platform": {
          "enum": ["ios", "android"],
          "default": "ios",
          "description": "Whose Superwall SDK the app is built with: \"ios\" (Superwall-iOS on the App Store) or \"android\" (Superwall-Android on Google Play: its purchase controller, events and chaining; docs/android.md). 'sdk' then names a release of that SDK."
        },
        "sdk": {
          "type": "string",
          "pattern": "^(3|4|4\\.([0-9]|1[0-6])|2|2\\.[0-7])$",
          "default": "4",
          "description": "Which release of the platform's SDK to follow where releases differ. iOS: \"3\" (an active user is skipped, userIsSubscribed, unless the paywall's presentationCondition is \"always\"), \"4\" (the latest 4.x, no subscriber rule) or \"4.N\". Android: \"2\" (the latest 2.x, the default there) or \"2.N\"."
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
          "description": "PaywallOptions.notificationPermissionsDenied (iOS, SDK 3.12 and later; 3.x is followed as one version): the alert shown over the paywall when a free trial's reminders cannot be scheduled because notifications are refused (--notifications deny, or Don't Allow at the prompt); the paywall closes after it. Absent: no alert.",
          "additionalProperties": false,
          "properties": {
            "title": {
              "type": "string",
              "default": "Notification Permissions Denied"
            },
            "message": {
              "type": "string",
              "default": "Please enable notification permissions from the Settings app so we can notify you when your free trial ends."
            },
            "actionButtonTitle": {
              "type": "string",
              "default": "Open Settings"
            },
            "closeButtonTitle": {
              "type": "string",
              "default": "Not now"
            }
          }
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
        },
        "passIdentifiersToPlayStore": {
          "type": "boolean",
          "description": "SuperwallOptions.passIdentifiersToPlayStore (Android only). Accepted; it has no effect here (validate says why)."
        },
        "useMockReviews": {
          "type": "boolean",
          "description": "SuperwallOptions.useMockReviews (Android only). Accepted; it has no effect here (validate says why)."
        },
        "preloadDeviceOverrides": {
          "type": "object",
          "description": "PaywallOptions.preloadDeviceOverrides (Android only). Accepted; it has no effect here (validate says why)."
        },
        "useCachedTemplates": {
          "type": "boolean",
          "description": "PaywallOptions.useCachedTemplates (Android only). Accepted; it has no effect here (validate says why)."
        },
        "optimisticLoading": {
          "type": "boolean",
          "description": "PaywallOptions.optimisticLoading (Android only). Accepted; it has no effect here (validate says why)."
        },
        "timeoutAfter": {
          "type": "string",
          "description": "PaywallOptions.timeoutAfter (Android only). Accepted; it has no effect here (validate says why)."
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
"""#
}
