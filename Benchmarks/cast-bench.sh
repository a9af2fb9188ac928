#!/usr/bin/env bash
# What `play --record` costs: the same ~30-second script (50 screens at the default 600ms pace)
# played with and without --record (the peer, measured in the same run, interleaved), median of
# RUNS (20), and the size of the .cast it writes.
#   bash Benchmarks/cast-bench.sh            (BIN=path/to/paywall-tui to skip the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-20}
# The release build CONTRIBUTING.md gives, or BIN=path (an executable built elsewhere).
BIN=$(bash Benchmarks/release-binary.sh)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# 48 selection changes, a purchase and a month on the clock: 50 screens after the first.
{ for _ in $(seq 24); do echo "press down up"; done; echo "press enter"; echo "advance 1M"; } > "$work/30s.play"
XDG_STATE_HOME="$work/state" python3 - "$BIN" "$work" "$runs" <<'PY'
import json, os, resource, statistics, subprocess, sys, time
binary, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
base = [binary, "play", "paywalls", "--controller", "simulated", "--status", "inactive", "--script", f"{work}/30s.play"]
cast = f"{work}/demo.cast"
plain, recorded, plain_cpu, recorded_cpu = [], [], [], []
def timed(arguments, walls, cpus):
    """Wall time, and CPU time (user + system), which other load on the machine moves less."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL)
    walls.append((time.perf_counter() - start) * 1000)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpus.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
for _ in range(runs):
    timed(base, plain, plain_cpu)
    timed(base + ["--record", cast], recorded, recorded_cpu)
p, r = statistics.median(plain), statistics.median(recorded)
pc, rc = statistics.median(plain_cpu), statistics.median(recorded_cpu)
with open(cast, encoding="utf-8") as f:
    lines = f.read().splitlines()
seconds = json.loads(lines[-1])[0]
print(f"play of a {seconds:g} s script (median of {runs}): with --record {r:.1f} ms, without {p:.1f} ms: "
      f"+{r - p:.1f} ms, ratio {r / p:.2f}; CPU {rc:.1f} ms against {pc:.1f} ms: +{rc - pc:.1f} ms")
print(f".cast of that {seconds:g} s timeline: {os.path.getsize(cast):,} bytes, {len(lines) - 1} events")
PY
