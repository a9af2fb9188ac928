#!/usr/bin/env bash
# Builds the paywall-tui we ship, stripped, and prints its size.
# On Linux: a fully static executable (Swift runtime, C library, ncurses and FoundationEssentials
# inside; no Foundation, no ICU). Our code is optimised for size (-Osize: 0.9 MB smaller than -O;
# its start does 12% more instructions, 10.24 M against 9.12 M from launch to quit, and its first
# byte in a pty came 0.3 ms later in 41 alternated runs; the benchmarks build with -O). The linker folds identical functions
# (--icf=safe: only those whose address is never taken), and the unwind tables (.eh_frame, 2 MB)
# are left out at link time (scripts/no-unwind-tables.ld): Swift neither throws nor unwinds through
# them, and the only cost is that a crash prints its message without a stack trace. The linker is
# lld, and the code a start runs is laid out side by side (scripts/link-order.sh).
# On both systems the compiler calls a type's metadata accessor where it would leave a mangled name
# for the Swift runtime to demangle at the type's first use (-disable-concrete-type-metadata-
# mangled-name-accessors): types built from mangled names were a quarter of the instructions from
# launch to the first frame. From launch to quit on Linux x86-64, 11.69 M instructions before and
# 10.24 M after (callgrind, `run` of the demo project), for 74 KB more; not measured on macOS.
# On macOS: Darwin links no static executable and its Swift runtime is part of the system, so the
# binary links the system's Swift runtime and Homebrew's ncurses; -Osize as on Linux, and only
# local symbols stripped. UNIVERSAL=1 builds arm64 and x86_64 in one binary, which needs an ncurses
# built for both (Homebrew's is built for one).
#   bash scripts/release.sh                 # writes dist/paywall-tui
#   bash scripts/release.sh OUT             # writes OUT instead
#   SCRATCH=/tmp/rel bash scripts/release.sh  # build in another scratch directory
# The linker's warnings about glibc's name-service calls (getpwuid) are expected and not shown:
# paywall-tui finds the home directory from HOME and makes no network calls.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist/paywall-tui}
scratch=${SCRATCH:-.build}
os=$(uname -s)
accessors=(-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
. scripts/link-order.sh
case $os in
  Linux)
    flags=(--static-swift-stdlib -Xswiftc -static-executable -Xswiftc -Osize -Xlinker --icf=safe "${accessors[@]}" "${link_order[@]}")
    what="a static executable for Linux $(uname -m)" ;;
  Darwin)
    flags=(-Xswiftc -Osize "${accessors[@]}")
    what="an executable for macOS $(uname -m)"
    if [ "${UNIVERSAL:-0}" = 1 ]; then flags+=(--arch arm64 --arch x86_64); what="a universal (arm64 + x86_64) executable for macOS"; fi ;;
  *) echo "release.sh: no release settings for $os (Linux and macOS have them)" >&2; exit 2 ;;
esac
echo "release.sh: building $what (swift build -c release ${flags[*]}); a first build takes a few minutes…" >&2
start=$SECONDS
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# At a terminal, the build's progress ([N/M] and the step) on one line that keeps being redrawn;
# the rest of its output (the expected linker warnings) only if it fails.
if [ -t 2 ]; then
  set +e
  swift build -c release "${flags[@]}" --product paywall-tui --scratch-path "$scratch" 2>&1 | tee "$log" |
    awk '/^\[[0-9]+\/[0-9]+\]/ { printf "\rrelease.sh: %s\033[K", substr($0, 1, 72); fflush() } END { printf "\r\033[K"; fflush() }' >&2
  status=${PIPESTATUS[0]}
  set -e
else
  status=0
  swift build -c release "${flags[@]}" --product paywall-tui --scratch-path "$scratch" >"$log" 2>&1 || status=$?
fi
if [ "$status" -ne 0 ]; then cat "$log" >&2; echo "release.sh: the build failed (exit $status); its output is above" >&2; exit 1; fi
built=$(swift build -c release "${flags[@]}" --product paywall-tui --scratch-path "$scratch" --show-bin-path)/paywall-tui
echo "release.sh: built in $((SECONDS - start)) s; stripping into $out" >&2
mkdir -p "$(dirname "$out")"
tmp="$out.tmp.$$"
trap 'rm -f "$tmp" "$log"' EXIT
if [ "$os" = Linux ]; then
  strip -R .comment -o "$tmp" "$built"
else
  cp "$built" "$tmp"
  strip -x "$tmp"
fi
chmod 755 "$tmp"
mv -f "$tmp" "$out"
size() { stat -c %s "$1" 2>/dev/null || stat -f %z "$1"; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MiB (%.1f MB)", b / 1048576, b / 1000000 }'; }
if [ "$os" = Linux ]; then
  linkage=$(file -b "$out" | grep -o 'statically linked' || echo 'NOT statically linked')
else
  linkage=$(lipo -archs "$out" 2>/dev/null || uname -m)
fi
echo "$out: $(mb "$(size "$out")") stripped, $(mb "$(size "$built")") before; $linkage"
