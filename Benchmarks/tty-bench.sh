#!/usr/bin/env bash
# Terminal cost of the interactive mode against whiptail (the peer), measured in the same run:
# time to first paint, bytes written per selection change, idle CPU over 10 s, peak memory.
#   bash Benchmarks/tty-bench.sh        (needs: pip install pyte; apt-get install whiptail tmux)
set -euo pipefail
cd "$(dirname "$0")/.."
probe=../shared/tools/ttyprobe.py
runs=${RUNS:-7}
# The release build CONTRIBUTING.md gives, or BIN=path (an executable built elsewhere).
bin=$(bash Benchmarks/release-binary.sh)
state=$(mktemp -d)
trap 'rm -rf "$state"; tmux -L tty-bench kill-server 2>/dev/null || true' EXIT

# One figure beside its peer with the ratio (ours ÷ peer), in paywall-bench's form, which
# scripts/perf-table.py reads: = KEY | WHAT | OURS | PEER | PEER'S FIGURE | RATIO | TARGET
# A figure past its bar prints FAIL and the script ends with status 1 (as paywall-bench does).
failed=()
bar() {  # key holds(0/1)
  if [ "$2" != 1 ]; then echo "FAIL: $1 misses its bar"; failed+=("$1"); fi
}
figure() {  # key what ours peer-name peer unit target
  python3 -c 'import sys; k, w, o, pn, p, u, t = sys.argv[1:]; o, p = float(o), float(p)
r = "%.2f×" % (o / p) if p > 0 else "n/a"
f = lambda v: ("{:,.%df}" % (0 if v == int(v) else 1)).format(v) + " " + u
print("= %s | %s | %s | %s | %s | %s | %s" % (k, w, f(o), pn, f(p), r, t))' "$@"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# The floor: a static C program that writes the bytes of our first paint in one write(2) and waits,
# built here from what our binary printed. Whatever it takes to show that screen (fork, exec, the
# pty, the probe's reading and its terminal emulator) is this harness's own cost, no program's:
# the distance of ours and of whiptail above it is what each program spends.
probe_args=(--rows 24 --cols 80 --term xterm-256color)
raw="$state/first-paint.raw"
out=$(python3 "$probe" "${probe_args[@]}" --expect "Start my free trial" --raw-out "$raw" -- "$bin" run paywalls --controller scripted --state-dir "$state" --fresh)
startup=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["startup_bytes"])')
mkdir -p "$state/floor"
head -c "$startup" "$raw" > "$state/floor/frame"
(
  cd "$state/floor"
  xxd -i frame > frame.h
  cat > floor.c <<'C'
#include <signal.h>
#include <unistd.h>
#include "frame.h"
static void stop(int signal) { (void)signal; _exit(0); }
int main(void) {
  signal(SIGTERM, stop);
  signal(SIGHUP, stop);
  const unsigned char *bytes = frame;
  unsigned int left = frame_len;
  while (left > 0) {
    ssize_t n = write(1, bytes, left);
    if (n <= 0) return 1;
    bytes += n;
    left -= (unsigned int)n;
  }
  for (;;) pause();
}
C
  cc -O2 -static -o floor floor.c
)
floor=(); ours=(); peer=(); ours_bytes=""; ours_first=""; peer_bytes=""
for _ in $(seq "$runs"); do
  out=$(python3 "$probe" "${probe_args[@]}" --expect "Start my free trial" -- "$state/floor/floor")
  floor+=("$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["first_paint_ms"])')")
  out=$(python3 "$probe" --rows 24 --cols 80 --term xterm-256color --expect "Start my free trial" \
        --key right --wait "● Monthly" --key left --wait "● Annual" -- "$bin" run paywalls --controller scripted --state-dir "$state" --fresh)
  ours+=("$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["first_paint_ms"])')")
  ours_first=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["startup_bytes"])')
  ours_bytes=$(echo "$out" | python3 -c 'import json,sys; print(max(s["bytes"] for s in json.load(sys.stdin)["steps"]))')
  out=$(python3 "$probe" --rows 24 --cols 80 --term xterm-256color --expect "Lifetime" --key down --wait "" --key up --wait "" -- \
        whiptail --menu "Choose a plan" 15 50 3 a Annual b Monthly c Lifetime)
  peer+=("$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["first_paint_ms"])')")
  peer_bytes=$(echo "$out" | python3 -c 'import json,sys; print(max(s["bytes"] for s in json.load(sys.stdin)["steps"]))')
done
floor_paint=$(printf '%s\n' "${floor[@]}" | median)
ours_paint=$(printf '%s\n' "${ours[@]}" | median)
peer_paint=$(printf '%s\n' "${peer[@]}" | median)
echo "time to first paint (median of $runs, 80x24): paywall-tui ${ours_paint} ms, whiptail ${peer_paint} ms, ratio $(python3 -c "print(round($ours_paint/$peer_paint, 2))") (target <= 1.5, goal 0.8)"
echo "bytes per selection change: paywall-tui ${ours_bytes} (first paint ${ours_first}: $(python3 -c "print(round(100*$ours_bytes/$ours_first, 1))")%), whiptail ${peer_bytes} (target <= 100 and < 10%)"
echo "the floor (a static C program writing our first paint's $startup bytes at once): ${floor_paint} ms; above it: paywall-tui $(python3 -c "print(round($ours_paint - $floor_paint, 2))") ms, whiptail $(python3 -c "print(round($peer_paint - $floor_paint, 2))") ms"
figure first-paint "time to first paint, 80x24 (median of $runs)" "$ours_paint" "whiptail --menu, 3 items" "$peer_paint" ms "<= 1.5× whiptail (goal 0.8×)"
bar first-paint "$(python3 -c "print(int($ours_paint <= 1.5 * $peer_paint))")"
figure first-paint-floor "time to first paint, 80x24, against this harness's floor (median of $runs)" "$ours_paint" "a static C program writing the same bytes" "$floor_paint" ms "the floor: fork, exec, pty, probe"
figure selection-bytes "bytes written per selection change" "$ours_bytes" "whiptail --menu, 3 items" "$peer_bytes" B "<= 100 B"
bar selection-bytes "$(python3 -c "print(int($ours_bytes <= 100))")"

# Idle: CPU used over 10 s with nothing happening; peak RSS after some keys.
measure() {  # $1 session, $2 pattern of the process to watch
  local pid u1 s1 u2 s2
  pid=$(pgrep -f "$2" | head -1)
  read -r u1 s1 < <(awk '{print $14, $15}' "/proc/$pid/stat")
  sleep 10
  read -r u2 s2 < <(awk '{print $14, $15}' "/proc/$pid/stat")
  local ticks; ticks=$(getconf CLK_TCK)
  for k in Right Left Down Up; do tmux -L tty-bench send-keys -t "$1" "$k"; sleep 0.1; done
  echo "$(( (u2 - u1 + s2 - s1) * 1000 / ticks )) $(awk '/VmHWM/ {print $2}' "/proc/$pid/status")"
}
tmux -L tty-bench -f /dev/null new-session -d -s ours -x 80 -y 24 "exec $bin run paywalls --controller scripted --state-dir $state --fresh"
tmux -L tty-bench new-session -d -s peer -x 80 -y 24 "exec whiptail --menu 'Choose a plan' 15 50 3 a Annual b Monthly c Lifetime"
sleep 1
read -r ours_cpu ours_rss < <(measure ours "^$bin run")
read -r peer_cpu peer_rss < <(measure peer "^whiptail --menu")
echo "idle CPU over 10 s: paywall-tui ${ours_cpu} ms, whiptail ${peer_cpu} ms (target < 20 ms)"
echo "peak RSS: paywall-tui $((ours_rss / 1024)) MB, whiptail $((peer_rss / 1024)) MB (target < 20 MB)"
figure idle-cpu "CPU used over 10 s idle" "$ours_cpu" "whiptail --menu, 3 items" "$peer_cpu" ms "< 20 ms"
figure peak-rss "peak RSS" "$(python3 -c "print(round($ours_rss / 1024, 1))")" "whiptail --menu, 3 items" "$(python3 -c "print(round($peer_rss / 1024, 1))")" MB "< 20 MB"
bar idle-cpu "$(python3 -c "print(int($ours_cpu < 20))")"
bar peak-rss "$(python3 -c "print(int($ours_rss / 1024 < 20))")"
if [ "${#failed[@]}" -gt 0 ]; then echo "FAIL: ${#failed[@]} figure(s) missed their bar: ${failed[*]}"; exit 1; fi
