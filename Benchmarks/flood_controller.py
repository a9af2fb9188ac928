#!/usr/bin/env python3
"""A `command` purchase controller that floods the app with status changes.

It sends FLOOD_RATE setSubscriptionStatus lines a second (default 1000), alternating
active:pro and inactive, for FLOOD_SECONDS (default 60), then sets active:done and writes
how many it sent to FLOOD_REPORT (if set). It answers every purchase with "purchased" and
every restore with "restored" all along, and exits when its stdin closes.
"""
import json
import os
import sys
import threading
import time

RATE = int(os.environ.get("FLOOD_RATE", "1000"))
SECONDS = float(os.environ.get("FLOOD_SECONDS", "60"))
REPORT = os.environ.get("FLOOD_REPORT")
lock = threading.Lock()


def send(obj):
    with lock:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()


def serve():
    for line in sys.stdin:
        request = json.loads(line)
        result = "purchased" if request.get("method") == "purchase" else "restored"
        send({"id": request["id"], "result": result})
    os._exit(0)


threading.Thread(target=serve, daemon=True).start()
start = time.monotonic()
sent = 0
while True:
    elapsed = time.monotonic() - start
    if elapsed >= SECONDS:
        break
    due = int(elapsed * RATE)
    while sent < due:
        if sent % 2 == 0:
            send({"method": "setSubscriptionStatus", "status": "active", "entitlements": ["pro"]})
        else:
            send({"method": "setSubscriptionStatus", "status": "inactive"})
        sent += 1
    time.sleep(0.002)
send({"method": "setSubscriptionStatus", "status": "active", "entitlements": ["done"]})
if REPORT:
    with open(REPORT + ".tmp", "w") as f:
        f.write(f"{sent} {time.monotonic() - start:.3f}\n")
    os.rename(REPORT + ".tmp", REPORT)
while True:
    time.sleep(3600)
