#!/usr/bin/env bash
# Builds the paywall-tui we ship: a fully static executable (Swift runtime, C library, ncurses
# and FoundationEssentials inside; no Foundation, no ICU), stripped, and prints its size.
# Our code is optimised for size (-Osize: 0.4 MB smaller than -O, first paint no slower; the
# benchmarks build with -O). The linker folds identical functions (--icf=safe: only those whose address is never taken),
# and the unwind tables (.eh_frame, 2 MB) are left out: Swift neither throws nor unwinds through
# them, and the only cost is that a crash prints its message without a stack trace.
#   bash scripts/release.sh                 # writes dist/paywall-tui
#   bash scripts/release.sh OUT             # writes OUT instead
#   SCRATCH=/tmp/rel bash scripts/release.sh  # build in another scratch directory
# The linker's warnings about glibc's name-service calls (getpwuid) are expected and not shown:
# paywall-tui finds the home directory from HOME and makes no network calls.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist/paywall-tui}
scratch=${SCRATCH:-.build}
log=$(swift build -c release --static-swift-stdlib -Xswiftc -static-executable -Xswiftc -Osize -Xlinker --icf=safe \
      --product paywall-tui --scratch-path "$scratch" 2>&1) || { echo "$log" >&2; exit 1; }
built="$scratch/release/paywall-tui"
mkdir -p "$(dirname "$out")"
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
strip -R .eh_frame -R .eh_frame_hdr -R .comment -o "$tmp" "$built"
chmod 755 "$tmp"
mv -f "$tmp" "$out"
size() { stat -c %s "$1" 2>/dev/null || stat -f %z "$1"; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MiB (%.1f MB)", b / 1048576, b / 1000000 }'; }
echo "$out: $(mb "$(size "$out")") stripped, $(mb "$(size "$built")") before; $(file -b "$out" | grep -o 'statically linked' || echo 'NOT statically linked')"
