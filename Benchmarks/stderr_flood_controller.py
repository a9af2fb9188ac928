#!/usr/bin/env python3
"""A `command` purchase controller that floods stderr.

A thread writes 100-character lines to stderr as fast as the pipe takes them, for ever. The
main thread answers every purchase with setSubscriptionStatus active:pro and "purchased", and
every restore with "restored"; with FLOOD_ANSWER=0 it never answers at all. With FLOOD_PIDS
set, it starts `sleep 300` in the background (a child that must not outlive the app) and
writes "CONTROLLER_PID CHILD_PID" to that file. It exits when its stdin closes.
"""
import json
import os
import subprocess
import sys
import threading

PIDS = os.environ.get("FLOOD_PIDS")
ANSWER = os.environ.get("FLOOD_ANSWER", "1") != "0"


def flood():
    line = "x" * 100 + "\n"
    while True:
        sys.stderr.write(line)


if PIDS:
    child = subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    with open(PIDS + ".tmp", "w") as f:
        f.write(f"{os.getpid()} {child.pid}\n")
    os.rename(PIDS + ".tmp", PIDS)

threading.Thread(target=flood, daemon=True).start()
for request_line in sys.stdin:
    if not ANSWER:
        continue
    request = json.loads(request_line)
    if request.get("method") == "purchase":
        sys.stdout.write(json.dumps({"method": "setSubscriptionStatus", "status": "active", "entitlements": ["pro"]}) + "\n")
        sys.stdout.write(json.dumps({"id": request["id"], "result": "purchased"}) + "\n")
    else:
        sys.stdout.write(json.dumps({"id": request["id"], "result": "restored"}) + "\n")
    sys.stdout.flush()
os._exit(0)
