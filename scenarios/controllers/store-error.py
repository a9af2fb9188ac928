# A JSON-lines purchase controller for scenarios: every purchase fails with the StoreKit error
# named on the command line, sent typed ({"code": NAME}), or as a plain message with --message;
# every restore succeeds. It exits when the emulator closes its stdin.
import json
import sys

args = sys.argv[1:]
as_message = "--message" in args
names = [a for a in args if a != "--message"]
name = names[0] if names else "userCancelled"

for line in iter(sys.stdin.readline, ""):
    request = json.loads(line)
    if request.get("method") == "purchase":
        error = name if as_message else {"code": name}
        answer = {"id": request["id"], "result": "failed", "error": error}
    else:
        answer = {"id": request["id"], "result": "restored"}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
