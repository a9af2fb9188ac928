#!/bin/sh
# The smallest purchase controller for paywall-tui's `--controller command`, in POSIX sh: every
# purchase succeeds and every restore restores. Like an app's controller it sets the
# subscription status itself (the SDK does not when you bring a controller): after a purchase,
# active with the entitlements the request's product grants, sent before the answer.
#
#   paywall-tui paywalls --controller command --controller-command 'sh Examples/controllers/minimal.sh'
#
# The protocol is in docs/controllers.md. Requests come one JSON object a line on stdin, compact,
# with "id" first: {"id":1,"method":"purchase","product":{"id":"com.acme.pro.annual",…,"entitlements":["pro"]}}.
# Anything written to stderr is this controller's log.

status='{"method":"setSubscriptionStatus","status":"inactive"}'
printf '%s\n' "$status"

while IFS= read -r line; do
  id=$(printf '%s\n' "$line" | sed -n 's/^{"id":\([0-9][0-9]*\),.*/\1/p')
  [ -n "$id" ] || continue
  case $line in
    *'"method":"purchase"'*)
      # The product's entitlements, as the JSON list they are: ["pro"] gives "pro".
      entitlements=$(printf '%s\n' "$line" | sed -n 's/.*"entitlements":\[\([^]]*\)\].*/\1/p')
      printf 'purchase, request %s: granting [%s]\n' "$id" "$entitlements" >&2
      printf '{"method":"setSubscriptionStatus","status":"active","entitlements":[%s]}\n' "$entitlements"
      printf '{"id":%s,"result":"purchased"}\n' "$id"
      ;;
    *'"method":"restorePurchases"'*)
      printf '{"id":%s,"result":"restored"}\n' "$id"
      ;;
    *)
      printf '{"id":%s,"result":"failed","error":"unknown method"}\n' "$id"
      ;;
  esac
done
