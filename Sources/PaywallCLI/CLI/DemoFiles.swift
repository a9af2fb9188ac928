// Generated from paywalls/ by scripts/embed-demo.py; DemoProjectTests checks they are the same.
// Edit the files in paywalls/, then run the script.

/// The demo project's files (paywalls/ of the source tree, its schemas aside), built into the
/// binary so `demo` and `init --demo` need no source tree.
package enum DemoFiles {
  /// Every file by name, with its text exactly as in paywalls/.
  package static let all: [(name: String, text: String)] = [
    ("acme.entitlements.json", #"""
{
  "$comment": "Entitlements for acme.storekit: the group grants pro, the lifetime unlock grants pro and lifetime.",
  "groups": {
    "Acme Pro": [
      "pro"
    ]
  },
  "products": {
    "com.acme.pro.lifetime": [
      "pro",
      "lifetime"
    ]
  }
}
"""#),
    ("acme.storekit", #"""
{
  "identifier" : "6F3A9C1E",
  "nonRenewingSubscriptions" : [],
  "products" : [
    {
      "displayPrice" : "149.99",
      "familyShareable" : false,
      "internalID" : "6502000006",
      "localizations" : [
        {
          "description" : "Acme Pro forever, one payment",
          "displayName" : "Lifetime",
          "locale" : "en_US"
        }
      ],
      "productID" : "com.acme.pro.lifetime",
      "referenceName" : "Acme Pro Lifetime",
      "type" : "NonConsumable"
    }
  ],
  "settings" : {
    "_applicationInternalID" : "6502000000",
    "_askToBuyEnabled" : false,
    "_billingGracePeriodEnabled" : false,
    "_billingIssuesEnabled" : false,
    "_developerTeamID" : "ACME123456",
    "_disableDialogs" : false,
    "_failTransactionsEnabled" : false,
    "_locale" : "en_US",
    "_renewalBillingIssuesEnabled" : false,
    "_storefront" : "USA",
    "_storeKitErrors" : [],
    "_timeRate" : 0
  },
  "subscriptionGroups" : [
    {
      "id" : "21482911",
      "localizations" : [],
      "name" : "Acme Pro",
      "subscriptions" : [
        {
          "adHocOffers" : [],
          "codeOffers" : [],
          "displayPrice" : "4.99",
          "familyShareable" : false,
          "groupNumber" : 3,
          "internalID" : "6502000001",
          "localizations" : [
            {
              "description" : "Acme Pro, billed every week",
              "displayName" : "Weekly",
              "locale" : "en_US"
            }
          ],
          "productID" : "com.acme.pro.weekly",
          "recurringSubscriptionPeriod" : "P1W",
          "referenceName" : "Acme Pro Weekly",
          "subscriptionGroupID" : "21482911",
          "type" : "RecurringSubscription"
        },
        {
          "adHocOffers" : [],
          "codeOffers" : [
            {
              "eligibility" : [ "expired", "new" ],
              "internalID" : "6502000022",
              "isStackable" : false,
              "numberOfPeriods" : 1,
              "offerID" : "ACMEFRIENDS",
              "paymentMode" : "free",
              "referenceName" : "Friends: 3 months free",
              "subscriptionPeriod" : "P3M"
            }
          ],
          "displayPrice" : "9.99",
          "familyShareable" : false,
          "groupNumber" : 2,
          "internalID" : "6502000002",
          "localizations" : [
            {
              "description" : "Acme Pro, billed every month",
              "displayName" : "Monthly",
              "locale" : "en_US"
            }
          ],
          "productID" : "com.acme.pro.monthly",
          "recurringSubscriptionPeriod" : "P1M",
          "referenceName" : "Acme Pro Monthly",
          "subscriptionGroupID" : "21482911",
          "type" : "RecurringSubscription"
        },
        {
          "adHocOffers" : [],
          "codeOffers" : [],
          "displayPrice" : "9.99",
          "familyShareable" : false,
          "groupNumber" : 2,
          "internalID" : "6502000003",
          "introductoryOffer" : {
            "displayPrice" : "0.99",
            "internalID" : "6502000013",
            "numberOfPeriods" : 3,
            "paymentMode" : "payAsYouGo",
            "subscriptionPeriod" : "P1M"
          },
          "localizations" : [
            {
              "description" : "Acme Pro, $0.99 a month for the first 3 months",
              "displayName" : "Monthly",
              "locale" : "en_US"
            }
          ],
          "productID" : "com.acme.pro.monthly.intro",
          "recurringSubscriptionPeriod" : "P1M",
          "referenceName" : "Acme Pro Monthly Intro",
          "subscriptionGroupID" : "21482911",
          "type" : "RecurringSubscription"
        },
        {
          "adHocOffers" : [
            {
              "displayPrice" : "39.99",
              "internalID" : "6502000024",
              "numberOfPeriods" : 1,
              "offerID" : "annual.stay",
              "paymentMode" : "payUpFront",
              "referenceName" : "Stay for 39.99",
              "subscriptionPeriod" : "P1Y"
            }
          ],
          "codeOffers" : [],
          "displayPrice" : "59.99",
          "familyShareable" : true,
          "groupNumber" : 1,
          "internalID" : "6502000004",
          "introductoryOffer" : {
            "internalID" : "6502000014",
            "numberOfPeriods" : 1,
            "paymentMode" : "free",
            "subscriptionPeriod" : "P1W"
          },
          "localizations" : [
            {
              "description" : "Acme Pro, billed every year after a 7-day free trial",
              "displayName" : "Annual",
              "locale" : "en_US"
            }
          ],
          "productID" : "com.acme.pro.annual",
          "recurringSubscriptionPeriod" : "P1Y",
          "referenceName" : "Acme Pro Annual",
          "subscriptionGroupID" : "21482911",
          "type" : "RecurringSubscription",
          "winbackOffers" : [
            {
              "customerEligibilityPaidSubscriptionDurationInMonths" : 1,
              "customerEligibilityTimeSinceLastSubscribedInMonths" : { "maximum" : 24, "minimum" : 0 },
              "displayPrice" : "29.99",
              "internalID" : "6502000034",
              "numberOfPeriods" : 1,
              "offerID" : "annual.winback",
              "paymentMode" : "payUpFront",
              "referenceName" : "Come back: half price",
              "subscriptionPeriod" : "P1Y"
            }
          ]
        },
        {
          "adHocOffers" : [],
          "codeOffers" : [],
          "displayPrice" : "59.99",
          "familyShareable" : false,
          "groupNumber" : 1,
          "internalID" : "6502000005",
          "introductoryOffer" : {
            "displayPrice" : "29.99",
            "internalID" : "6502000015",
            "numberOfPeriods" : 1,
            "paymentMode" : "payUpFront",
            "subscriptionPeriod" : "P1Y"
          },
          "localizations" : [
            {
              "description" : "Acme Pro for returning subscribers, half price for the first year",
              "displayName" : "Annual · 50% off",
              "locale" : "en_US"
            }
          ],
          "productID" : "com.acme.pro.annual.winback",
          "recurringSubscriptionPeriod" : "P1Y",
          "referenceName" : "Acme Pro Annual Winback",
          "subscriptionGroupID" : "21482911",
          "type" : "RecurringSubscription"
        }
      ]
    }
  ],
  "version" : {
    "major" : 3,
    "minor" : 0
  }
}

"""#),
    ("app.json", #"""
{
  "$schema": "app.schema.json",
  "name": "Acme Notes",
  "catalog": "catalog.json",
  "paywalls": ["onboarding.json", "winback.json", "plans.json"],
  "campaigns": [
    {
      "placement": "onboarding",
      "audiences": [
        { "filter": "device.subscriptionStatus == \"INACTIVE\"", "paywall": "onboarding" }
      ]
    },
    {
      "placement": "export_pdf",
      "audiences": [
        { "filter": "!(\"pro\" in device.activeEntitlements)", "paywall": "plans" }
      ]
    },
    {
      "placement": "settings_upgrade",
      "audiences": [
        {
          "filter": "params.source == \"banner\"",
          "variants": [{ "paywall": "onboarding", "percent": 50 }, { "paywall": "plans", "percent": 50 }],
          "holdout": 20
        },
        { "paywall": "plans" }
      ]
    },
    {
      "placement": "power_user_offer",
      "audiences": [
        { "filter": "user.should_display == true && user.some_value > 12", "paywall": "winback" }
      ]
    },
    {
      "placement": "beta_sync",
      "audiences": [{ "holdout": 100 }]
    },
    {
      "placement": "transaction_abandon",
      "audiences": [{ "paywall": "winback" }]
    }
  ]
}

"""#),
    ("catalog.json", #"""
{
  "$schema": "catalog.schema.json",
  "currency": "USD",
  "locale": "en_US",
  "storefront": "USA",
  "products": [
    {
      "id": "com.acme.pro.weekly",
      "name": "Weekly",
      "description": "Acme Pro, billed every week",
      "price": "4.99",
      "period": "P1W",
      "group": "pro",
      "level": 3,
      "entitlements": ["pro"]
    },
    {
      "id": "com.acme.pro.monthly",
      "name": "Monthly",
      "description": "Acme Pro, billed every month",
      "price": "9.99",
      "period": "P1M",
      "offers": [
        { "type": "code", "id": "ACMEFRIENDS", "mode": "freeTrial", "period": "P3M", "eligibility": ["new", "expired"] }
      ],
      "group": "pro",
      "level": 2,
      "entitlements": ["pro"]
    },
    {
      "id": "com.acme.pro.monthly.intro",
      "name": "Monthly",
      "description": "Acme Pro, $0.99 a month for the first 3 months",
      "price": "9.99",
      "period": "P1M",
      "intro": { "mode": "payAsYouGo", "price": "0.99", "period": "P1M", "periods": 3 },
      "group": "pro",
      "level": 2,
      "entitlements": ["pro"]
    },
    {
      "id": "com.acme.pro.annual",
      "name": "Annual",
      "description": "Acme Pro, billed every year after a 7-day free trial",
      "price": "59.99",
      "period": "P1Y",
      "trial": "P7D",
      "offers": [
        { "type": "winBack", "id": "annual.winback", "mode": "payUpFront", "price": "29.99", "period": "P1Y",
          "paidMonths": 1, "monthsSinceLapse": [0, 24] },
        { "type": "promotional", "id": "annual.stay", "mode": "payUpFront", "price": "39.99", "period": "P1Y" }
      ],
      "group": "pro",
      "level": 1,
      "entitlements": ["pro"],
      "familyShareable": true
    },
    {
      "id": "com.acme.pro.annual.winback",
      "name": "Annual · 50% off",
      "description": "Acme Pro for returning subscribers, half price for the first year",
      "price": "59.99",
      "period": "P1Y",
      "intro": { "mode": "payUpFront", "price": "29.99", "period": "P1Y" },
      "group": "pro",
      "level": 1,
      "entitlements": ["pro"]
    },
    {
      "id": "com.acme.pro.lifetime",
      "name": "Lifetime",
      "description": "Acme Pro forever, one payment",
      "price": "149.99",
      "type": "nonConsumable",
      "entitlements": ["pro", "lifetime"]
    }
  ]
}

"""#),
    ("onboarding.json", #"""
{
  "$schema": "paywall.schema.json",
  "id": "onboarding",
  "name": "Onboarding",
  "products": { "primary": "com.acme.pro.annual", "secondary": "com.acme.pro.monthly",
                "tertiary": "com.acme.pro.lifetime" },
  "selected": "primary",
  "featureGating": "nonGated",
  "components": [
    { "type": "title", "text": "Unlock Acme Pro" },
    { "type": "text", "text": "{{ products.selected.price }} per {{ products.selected.period }}",
      "freeTrialText": "Try {{ products.primary.trialPeriodText }} free, then {{ products.primary.price }}/{{ products.primary.period }}" },
    { "type": "features", "items": ["Unlimited notes", "Sync on every device", "Themes and custom fonts"] },
    { "type": "products" },
    { "type": "button", "label": "Continue", "freeTrialLabel": "Start my free trial", "action": "purchase" },
    { "type": "button", "label": "Restore purchases", "action": "restore" },
    { "type": "button", "label": "Not now", "action": "close" }
  ]
}

"""#),
    ("plans.json", #"""
{
  "$schema": "paywall.schema.json",
  "id": "plans",
  "name": "Plan picker",
  "products": { "primary": "com.acme.pro.weekly", "secondary": "com.acme.pro.monthly.intro",
                "tertiary": "com.acme.pro.annual" },
  "selected": "tertiary",
  "featureGating": "gated",
  "components": [
    { "type": "title", "text": "Choose your plan" },
    { "type": "text", "text": "Every plan includes all of Acme Pro. Cancel any time.",
      "freeTrialText": "Every plan includes all of Acme Pro. Annual starts with a {{ tertiary.trialPeriodText }} free trial." },
    { "type": "features", "title": "Acme Pro", "items": ["Unlimited notes and folders", "End-to-end encrypted sync", "Priority support"] },
    { "type": "spacer" },
    { "type": "products", "badges": { "secondary": "Intro price" } },
    { "type": "button", "label": "Subscribe for {{ products.selected.price }}/{{ products.selected.period }}", "action": "purchase" },
    { "type": "button", "label": "Restore purchases", "action": "restore" },
    { "type": "button", "label": "Maybe later", "action": "close" }
  ]
}

"""#),
    ("winback.json", #"""
{
  "$schema": "paywall.schema.json",
  "id": "winback",
  "name": "Win-back offer",
  "products": {
    "primary": { "product": "com.acme.pro.annual", "offer": "annual.winback" },
    "secondary": "com.acme.pro.monthly"
  },
  "selected": "primary",
  "featureGating": "gated",
  "presentationCondition": "always",
  "components": [
    { "type": "art", "lines": ["   .-\"\"\"-.   ", "  /  50%  \\  ", "  \\  OFF  /  ", "   '-...-'   "] },
    { "type": "title", "text": "We miss you. Come back for half price" },
    { "type": "text", "style": "muted",
      "text": "Your notes are still here. Get a full year of Acme Pro for {{ primary.trialPeriodPrice }}, then {{ primary.price }}/{{ primary.period }}." },
    { "type": "divider" },
    { "type": "products", "badges": { "primary": "50% off" }, "savings": false },
    { "type": "button", "label": "Claim {{ primary.trialPeriodPrice }} offer", "action": "purchase", "slot": "primary" },
    { "type": "button", "label": "Restore purchases", "action": "restore" },
    { "type": "button", "label": "No thanks", "action": "close" }
  ]
}

"""#),
  ]
}
