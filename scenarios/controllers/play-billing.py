# A JSON-lines purchase controller for scenarios, shaped as Superwall-Android's
# PurchaseController.purchase(activity, productDetails, basePlanId, offerId): it launches no billing
# flow, and answers each purchase with a failure whose message is what it received, so a scenario
# can check the request: "PLATFORM|STORE|productId|basePlanId|offerId|phases=N".
# Every restore fails. It exits when the emulator closes its stdin.
import json
import sys

for line in iter(sys.stdin.readline, ""):
    request = json.loads(line)
    if request.get("method") == "purchase":
        details = request.get("productDetails") or {}
        offers = details.get("subscriptionOfferDetails") or []
        chosen = [o for o in offers if o.get("basePlanId") == request.get("basePlanId") and o.get("offerId") == request.get("offerId")]
        phases = len(chosen[0].get("pricingPhases", [])) if chosen else 0
        got = "|".join(str(x) for x in [request.get("platform"), request["product"].get("store"), details.get("productId"),
                                        request.get("basePlanId"), request.get("offerId"), "phases=%d" % phases])
        answer = {"id": request["id"], "result": "failed", "error": got}
    else:
        answer = {"id": request["id"], "result": "failed", "error": "no purchases"}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
