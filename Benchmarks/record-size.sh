#!/bin/bash
# The size of a run --record recording of a 2-minute session; run from the repository root:
#   BIN=.build/debug/paywall-tui Benchmarks/record-size.sh
BIN=${BIN:-.build/release/paywall-tui}
T=${TMPDIR:-/tmp}/rec-2min; rm -rf $T; mkdir -p $T
tmux -L rec2min kill-server 2>/dev/null
tmux -L rec2min -f /dev/null new-session -d -s main -x 80 -y 24 "TERM=xterm-256color SWIFT_BACKTRACE=enable=no LANG=C.UTF-8 $BIN run paywalls --fresh --status inactive --state-dir $T/state --record $T/s.play; sleep 600"
sleep 2
keys=(2 3 1 Right Left Tab Tab BTab l l d h a f d 2 Enter d a m f d ? Escape 3 Right Left 1 Tab BTab l l d s s d 2 3 1 Right)
for k in "${keys[@]}"; do tmux -L rec2min send-keys -t main "$k"; sleep 2.95; done
tmux -L rec2min send-keys -t main q; sleep 0.5; tmux -L rec2min send-keys -t main q; sleep 1
tmux -L rec2min kill-server
wc -c $T/s.play; grep -c '^press' $T/s.play; grep -c '^advance' $T/s.play
$BIN play $T/s.play --screen > $T/replay.out; echo "replay exit $?"
