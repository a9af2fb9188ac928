// Generated from paywalls/ by scripts/embed-demo.py; DemoProjectTests checks they are the same.
// Edit the files in paywalls/, then run the script.

extension DemoFiles {
  /// paywalls/catalog.json.
  static let demoCatalogJson = #"""
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

"""#
}
