#!/usr/bin/env bash
# Where the first paint's time goes: each step of `run` from exec to the first frame's doupdate,
# timed with uprobes on the release binary in a real terminal (tmux), the median of RUNS launches.
#   sudo bash Benchmarks/first-paint-phases.sh     (needs: perf with uprobes, as root; tmux)
# BIN=path times an executable built elsewhere; it needs its symbols (scripts/release.sh strips them).
# The probes are recorded system-wide (perf record -a). Recording the process itself makes perf
# copy its events into each thread the program starts: that added about 0.5 ms to starting the
# terminal thread alone, and a second thread in the load looked 0.4 ms dearer than it is.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-21}
for tool in perf tmux python3 nm swift; do
  command -v "$tool" >/dev/null 2>&1 || { echo "first-paint-phases.sh: needs $tool" >&2; exit 1; }
done
if [ "$(id -u)" -ne 0 ]; then echo "first-paint-phases.sh: uprobes need root: sudo bash $0" >&2; exit 1; fi
bin=$(bash Benchmarks/release-binary.sh)

group="pwtphase$$"
work=$(mktemp -d)
cleanup() {
  tmux -L first-paint-phases kill-server 2>/dev/null || true
  perf probe -q -d "$group:*" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# Each probe by its Swift name, found in the binary's symbols, so a signature that changes shows
# here as a probe not found instead of a wrong figure.
nm "$bin" | awk '$2 == "T" { print $3 }' > "$work/mangled"
[ -s "$work/mangled" ] || { echo "first-paint-phases.sh: $bin has no symbols (scripts/release.sh strips them); build it as CONTRIBUTING.md says" >&2; exit 1; }
swift demangle --compact < "$work/mangled" > "$work/demangled"
symbol() {  # a regular expression a demangled name matches whole
  paste "$work/demangled" "$work/mangled" | NAME="^($1)\$" awk -F '\t' '!found && $1 ~ ENVIRON["NAME"] { print $2; found = 1 }'
}
probe() {  # name, symbol, [%return]
  [ -n "$2" ] || { echo "first-paint-phases.sh: no symbol for the '$1' probe in $bin" >&2; exit 1; }
  perf probe -q -x "$bin" -a "$group:$1=$2${3:-}" >/dev/null 2>&1 || { echo "first-paint-phases.sh: perf probe refused '$1' ($2)" >&2; exit 1; }
}
load=$(symbol 'static PaywallModel\.ProjectLoader\.load\(path: Swift\.String, catalogPath: Swift\.String\?, sdk: .*')
render=$(symbol 'static PaywallUI\.AppView\.render\(_: PaywallUI\.AppState, size: TerminalCore\.Size\) -> TerminalCore\.Frame')
probe load_in "$load"
probe load_out "$load" %return
probe opened "$(symbol 'CursesBackend\.CursesTerminal\.open\(\) -> \(\)')"
probe render_in "$render"
# The first frame's render is inlined where it is called; the call after it ends it.
probe rendered "$(symbol 'CursesBackend\.CursesTerminal\.waitUntilStarted\(\) throws\(TerminalCore\.TerminalUnavailable\) -> \(\)')"
probe newterm_out newterm %return
probe doupdate_out doupdate %return

state="$work/state"
for i in $(seq "$runs"); do
  rm -rf "$state"
  perf record -q -a -o "$work/run-$i.data" -e "$group:*" -e sched:sched_process_exec -- sleep 1.5 >/dev/null 2>&1 &
  recorder=$!
  sleep 0.4
  # The paths are quoted for the shell tmux runs the command with: they stay data.
  tmux -L first-paint-phases -f /dev/null new-session -d -x 80 -y 24 \
    "exec $(printf '%q' "$bin") run paywalls --controller scripted --state-dir $(printf '%q' "$state") --fresh"
  sleep 0.8
  tmux -L first-paint-phases kill-server 2>/dev/null || true
  wait "$recorder" || true
done

python3 - "$bin" "$runs" "$work"/run-*.data <<'PY'
import statistics, subprocess, sys
binary, runs, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
marks = ["load_in", "load_out", "opened", "render_in", "rendered", "doupdate_out", "newterm_out"]
times = {m: [] for m in marks}
for path in files:
    lines = subprocess.run(["perf", "script", "-i", path, "-F", "time,event,trace"], capture_output=True, text=True).stdout.splitlines()
    start, first = None, {}
    for line in lines:
        fields = line.split()
        if len(fields) < 2:
            continue
        at, event = float(fields[0].rstrip(":")), fields[1].rstrip(":")
        if event == "sched:sched_process_exec" and start is None and f"filename={binary} " in line + " ":
            start = at
        elif start is not None and ":" in event:
            name = event.split(":", 1)[1].replace("__return", "")
            first.setdefault(name, (at - start) * 1000)
    if start is not None and all(m in first for m in marks):
        for m in marks:
            times[m].append(first[m])
n = len(times["load_in"])
if n == 0:
    sys.exit("first-paint-phases.sh: no launch reached its first frame with every probe")
med = {m: statistics.median(v) for m, v in times.items()}
steps = [
    ("exec → load", 0, med["load_in"], "process start: the runtime, the command line, the terminal thread started"),
    ("load", med["load_in"], med["load_out"], "ProjectLoader.load"),
    ("loaded → terminal opened", med["load_out"], med["opened"], "the session (AppSession.make: state directory, controller, runtime)"),
    ("opened → first render", med["opened"], med["render_in"], "the launch and the paywall's opening, through the presenter"),
    ("first render", med["render_in"], med["rendered"], "AppView.render"),
    ("rendered → frame out", med["rendered"], med["doupdate_out"], "handed to the terminal thread, painted, doupdate returned"),
]
print(f"first paint, step by step (medians of {n} of {runs} launches, ms after exec; 80x24, the demo):")
for name, a, b, what in steps:
    print(f"  {name:26} {b - a:6.2f} ms   {what}")
print(f"  {'exec → frame out':26} {med['doupdate_out']:6.2f} ms")
print(f"  beside them, the terminal thread: terminal opened → newterm returned {med['newterm_out'] - med['opened']:.2f} ms")
PY
