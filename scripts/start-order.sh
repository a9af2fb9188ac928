#!/usr/bin/env bash
# Writes scripts/start-order.txt: the functions paywall-tui runs from launch to its first frame,
# which the Linux release build lays out side by side (scripts/link-order.sh). Run it after a
# change to what the start does; a stale list still builds, it only helps less.
#   bash scripts/start-order.sh          # builds the release binary in .build-order/ (a few minutes)
#   BIN=path bash scripts/start-order.sh # uses an unstripped release build of this tree instead
# It runs the demo (`run paywalls`) once under callgrind in a real terminal (tmux) and keeps every
# function of the binary that ran before the first frame's doupdate returned: callgrind writes
# that part of the run to a file of its own (--dump-after=doupdate). Needs valgrind and tmux.
# The list is sorted by name, so a change to it reads as the functions a start gained or lost.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in valgrind tmux nm; do
  command -v "$tool" >/dev/null 2>&1 || { echo "start-order.sh: needs $tool (apt-get install valgrind tmux binutils)" >&2; exit 1; }
done
[ "$(uname -s)" = Linux ] || { echo "start-order.sh: the list is for the Linux link (lld); on $(uname -s) nothing uses it" >&2; exit 2; }
work=$(mktemp -d)
server="start-order-$$"
cleanup() {
  tmux -L "$server" kill-server 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

if [ -n "${BIN:-}" ]; then
  [ -f "$BIN" ] && [ -x "$BIN" ] || { echo "start-order.sh: BIN=$BIN is not an executable file; build one or unset BIN" >&2; exit 1; }
  bin=$BIN
else
  SCRATCH=.build-order bash scripts/release.sh "$work/stripped" >&2
  bin=$(swift build -c release --scratch-path .build-order --show-bin-path)/paywall-tui
fi
nm --defined-only "$bin" | awk '$2 == "T" || $2 == "t" { print $3 }' | LC_ALL=C sort -u > "$work/defined"
[ -s "$work/defined" ] || { echo "start-order.sh: $bin has no symbols (scripts/release.sh strips its copy); give the unstripped build" >&2; exit 1; }

# The paths are quoted for the shell tmux runs the command with: they stay data.
tmux -L "$server" -f /dev/null new-session -d -x 80 -y 24 \
  "exec valgrind -q --tool=callgrind --demangle=no --dump-after=doupdate --callgrind-out-file=$(printf '%q' "$work/cg.out") \
     $(printf '%q' "$bin") run paywalls --controller scripted --state-dir $(printf '%q' "$work/state") --fresh"
# Under callgrind a start takes seconds, not milliseconds: 60 s at most for the first frame.
for _ in $(seq 600); do
  [ -s "$work/cg.out.1" ] && break
  sleep 0.1
done
[ -s "$work/cg.out.1" ] || { echo "start-order.sh: no first frame within 60 s under callgrind; the screen was:" >&2; tmux -L "$server" capture-pane -p >&2 || true; exit 1; }
tmux -L "$server" send-keys q 2>/dev/null || true
sleep 1
tmux -L "$server" send-keys q 2>/dev/null || true
for _ in $(seq 300); do
  tmux -L "$server" has-session 2>/dev/null || break
  sleep 0.1
done

# Callgrind writes a function's name once, where it first names it (`fn=(id) name`, or as a callee,
# `cfn=(id) name`), and its id alone after that; a function that ran has a `fn=` block of its own.
awk '
  match($0, /^c?fn=\([0-9]+\)/) {
    id = substr($0, index($0, "(") + 1, RLENGTH - index($0, "(") - 1)
    if (length($0) > RLENGTH + 1) name[id] = substr($0, RLENGTH + 2)
    if ($0 ~ /^fn=/) ran[id] = 1
  }
  END { for (id in ran) if (id in name) print name[id] }
' "$work/cg.out.1" | LC_ALL=C sort -u > "$work/ran"
LC_ALL=C comm -12 "$work/ran" "$work/defined" > "$work/order"
count=$(wc -l < "$work/order")
[ "$count" -ge 100 ] || { echo "start-order.sh: only $count functions of $bin ran before the first frame; the list is left as it was" >&2; exit 1; }
cp "$work/order" "scripts/start-order.txt.tmp.$$"
mv -f "scripts/start-order.txt.tmp.$$" scripts/start-order.txt
echo "start-order.sh: scripts/start-order.txt lists the $count functions that ran before the first frame" >&2
