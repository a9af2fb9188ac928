// Generated from paywalls/ by scripts/embed-demo.py; DemoProjectTests checks they are the same.
// Edit the files in paywalls/, then run the script.

extension DemoFiles {
  /// paywalls/acme.storekit.
  static let demoAcmeStorekit = #"""
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

"""#
}
