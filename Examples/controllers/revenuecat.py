#!/usr/bin/env python3
"""A purchase controller shaped like an app's RevenueCat-backed one, for paywall-tui's
`--controller command`.

In the app, a Superwall PurchaseController backed by RevenueCat does three things, and so does
this file, with a local stand-in for RevenueCat's servers (a JSON file of the customer's
purchases, or memory):

1. purchase(product): buy through RevenueCat (`Purchases.shared.purchase(product:)`); a user
   who cancels is `.cancelled`, any other error is `.failed(error)` with StoreKit's error;
   otherwise `.purchased`.
2. restorePurchases(): `Purchases.shared.restorePurchases()`; `.restored`, or `.failed(error)`.
   The SDK then checks the status: a restore that finds no active entitlement is "No
   Subscription Found", whatever the controller answered.
3. The subscription status: the SDK never sets it when you bring a purchase controller, so the
   app does, from RevenueCat's customer info (`Purchases.shared.customerInfoStream`):
   `Superwall.shared.subscriptionStatus = .active(entitlements)` or `.inactive`. Here that is a
   `setSubscriptionStatus` line, sent at launch and after every change, before the answer.

The protocol (JSON lines: a request a line on stdin, answers and status lines on stdout) is
described in docs/controllers.md. Run it with the demo project:

    paywall-tui paywalls --controller command --controller-command 'python3 Examples/controllers/revenuecat.py'

Options, to reproduce what a real store does:

    --customer FILE        keep the customer's purchases in FILE (RevenueCat's servers: they
                           survive a reinstall, so a restore finds them); default: memory
    --cancel PRODUCT_ID    the user cancels the purchase of this product
    --fail PRODUCT_ID=CODE the purchase fails with StoreKit's error CODE (networkError,
                           paymentNotAllowed, …: the names paywall-tui's `fail` takes)
    --delay SECONDS        each answer waits this long, as a network would

It logs each request on stderr: `paywall-tui` shows a controller's stderr as its log.
"""
import json
import os
import sys
import time


def options(argv):
    parsed = {"customer": None, "cancel": set(), "fail": {}, "delay": 0.0}
    args = list(argv)
    while args:
        name = args.pop(0)
        if name in ("--customer", "--cancel", "--fail", "--delay") and not args:
            sys.exit(f"revenuecat.py: {name} needs a value")
        if name == "--customer":
            parsed["customer"] = args.pop(0)
        elif name == "--cancel":
            parsed["cancel"].add(args.pop(0))
        elif name == "--fail":
            product, _, code = args.pop(0).partition("=")
            if not code:
                sys.exit("revenuecat.py: --fail takes PRODUCT_ID=CODE, e.g. --fail com.acme.pro.monthly=networkError")
            parsed["fail"][product] = code
        elif name == "--delay":
            parsed["delay"] = float(args.pop(0))
        else:
            sys.exit(f"revenuecat.py: unknown option {name!r} (see the top of the file)")
    return parsed


class Customer:
    """RevenueCat's CustomerInfo, reduced to what a paywall needs: the entitlements each
    purchase granted. Kept in a file when given one (written whole, then renamed)."""

    def __init__(self, path):
        self.path = path
        self.purchases = []
        if path and os.path.exists(path):
            with open(path) as f:
                self.purchases = json.load(f).get("purchases", [])

    def add(self, product):
        self.purchases.append({"product_id": product["id"], "entitlements": product.get("entitlements", [])})
        if self.path:
            temporary = self.path + ".tmp"
            with open(temporary, "w") as f:
                json.dump({"purchases": self.purchases}, f)
            os.replace(temporary, self.path)

    def active_entitlements(self):
        return sorted({e for p in self.purchases for e in p["entitlements"]})


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(f"revenuecat: {text}\n")
    sys.stderr.flush()


def send_status(customer):
    """What the app's customerInfoStream listener does: the status follows the entitlements."""
    entitlements = customer.active_entitlements()
    if entitlements:
        send({"method": "setSubscriptionStatus", "status": "active", "entitlements": entitlements})
    else:
        send({"method": "setSubscriptionStatus", "status": "inactive"})


def purchase(request, customer, settings):
    product = request["product"]
    log(f"purchase {product['id']} ({product.get('price')} {product.get('currency')})")
    if product["id"] in settings["cancel"]:
        # RevenueCat's purchase reports userCancelled; the app's controller returns .cancelled.
        return {"id": request["id"], "result": "cancelled"}
    if product["id"] in settings["fail"]:
        # Any other error goes back as it is: StoreKit's error, typed, as the SDK reads it.
        return {"id": request["id"], "result": "failed", "error": {"code": settings["fail"][product["id"]]}}
    customer.add(product)
    send_status(customer)   # the status first: the SDK reads it when the purchase returns
    return {"id": request["id"], "result": "purchased"}


def restore(request, customer):
    log(f"restore: {len(customer.purchases)} purchase(s) on record")
    send_status(customer)
    return {"id": request["id"], "result": "restored"}


def main():
    settings = options(sys.argv[1:])
    customer = Customer(settings["customer"])
    send_status(customer)   # at launch, as the first customer info arrives
    for line in iter(sys.stdin.readline, ""):   # stdin closes when paywall-tui ends
        if not line.strip():
            continue
        request = json.loads(line)
        time.sleep(settings["delay"])
        if request.get("method") == "purchase":
            send(purchase(request, customer, settings))
        elif request.get("method") == "restorePurchases":
            send(restore(request, customer))
        else:
            send({"id": request.get("id"), "result": "failed", "error": f"unknown method {request.get('method')!r}"})


if __name__ == "__main__":
    main()
