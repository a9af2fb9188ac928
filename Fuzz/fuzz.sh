#!/usr/bin/env bash
# Builds the libFuzzer targets (one binary, the target picked by FUZZ_TARGET) and runs each for a
# fixed number of inputs: first the saved regressions (Fuzz/regressions/TARGET/), then a fuzzing
# run seeded from Fuzz/corpus/TARGET/ with its dictionary Fuzz/dict/TARGET.dict.
#
#   bash Fuzz/fuzz.sh                       # each target 20000 runs or 10 s, seed 1
#   bash Fuzz/fuzz.sh --full-foundation --seconds 1 --jobs 4   # the CI pass (scripts/checks.sh)
#   bash Fuzz/fuzz.sh --optimize --runs 1000000 --seconds 0   # a long run
#   bash Fuzz/fuzz.sh --target play         # one target (repeat --target for several)
#   bash Fuzz/fuzz.sh --list                # the target names
#
# Other options: --seed N (default 1), --timeout SECONDS per input (default 10), --max-len BYTES
# (default 8192), --seconds S per target at most (default 10; 0: no limit), --optimize (build with
# -O: several times the inputs a second, several times the build; the default, -Onone, also checks
# every `assert`), --jobs N targets side by side (default: the number of cores), --keep-corpus
# (continue from the working corpus of earlier runs instead of starting from the seeds alone),
# --build-only, --full-foundation (compile with `import Foundation` where the code takes
# FoundationEssentials, as macOS does: scripts/checks.sh lets this build be its full-Foundation
# build, so CI compiles the library targets once for both).
#
# Exits non-zero on any crash, hang, leak, out-of-memory or failed property, naming the target and
# the reproducer. Everything generated (build, working corpus, reproducers, logs) lives in
# .build-fuzz/, which git ignores; the seed corpora are never written to.
set -uo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/.build-fuzz
TARGETS=(paywall catalog storekit template audience command-line controller play ledger status user notifications render superwall)

runs=20000
limit=10
optimize=0
seed=1
timeout=10
max_len=8192
keep_corpus=0
build_only=0
full_foundation=0
jobs=$(nproc 2>/dev/null || echo 2)
chosen=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --max-len) max_len=$2; shift 2 ;;
    --target) chosen+=("$2"); shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --seconds) limit=$2; shift 2 ;;
    --optimize) optimize=1; shift ;;
    --keep-corpus) keep_corpus=1; shift ;;
    --build-only) build_only=1; shift ;;
    --full-foundation) full_foundation=1; shift ;;
    --list) printf '%s\n' "${TARGETS[@]}"; exit 0 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for t in "${chosen[@]}"; do
  [[ " ${TARGETS[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target '$t' (targets: ${TARGETS[*]})" >&2; exit 2; }
done
[[ ${#chosen[@]} -gt 0 ]] || chosen=("${TARGETS[@]}")
[[ $limit =~ ^[0-9]+$ ]] || { echo "fuzz.sh: --seconds '$limit' must be a whole number (0: no limit)" >&2; exit 2; }
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --jobs '$jobs' must be a whole number of at least 1" >&2; exit 2; }

# MARK: - Build

BUILD=$OUT/build
mkdir -p "$BUILD/CTerminalGuard"
# One package name for every module, as SwiftPM gives them, so `package` declarations are
# visible across the modules and to the harness.
# The CI pass builds without optimisation: a quarter of the compile time (the build was most of
# the pass), and every `assert` is checked; `--optimize` builds for long runs.
if [[ $optimize == 1 ]]; then
  MODE=(-O -wmo -num-threads 2)
else
  MODE=(-Onone)
fi
# How many compile jobs at once: one a core, whatever --jobs says of the runs (each batch job
# parses the whole module again, so more jobs than cores only cost). Not part of what a build is
# (not in the stamps).
PARALLEL=()
[[ $optimize == 1 ]] || PARALLEL=(-j "$(nproc 2>/dev/null || echo 2)")
SWIFT_FLAGS=("${MODE[@]}" -suppress-warnings -gline-tables-only -swift-version 6 -parse-as-library -enable-testing -package-name paywall_tui -sanitize=fuzzer,address)
# The condition only chooses imports (`Foundation` re-exports FoundationEssentials' types), so the
# targets fuzz the same code either way.
[[ $full_foundation == 1 ]] && SWIFT_FLAGS+=(-DPAYWALL_FULL_FOUNDATION)
# The view code is mostly arithmetic on columns: comparison tracing there costs a third of the
# render target's speed and finds nothing the edge counters do not.
TUI_FLAGS=("${SWIFT_FLAGS[@]/-sanitize=fuzzer,address/-sanitize=address}" -sanitize-coverage=edge,inline-8bit-counters,pc-table)
NCURSES_LIBS=$(pkg-config --libs ncursesw 2>/dev/null || echo "-lncursesw -ltinfo")

# The linker (gold) warns about every local symbol the sanitizers touch; the warnings are harmless.
quiet() { "$@" 2>&1 | grep -v -e 'Cannot export local symbol' -e '^$' ; return "${PIPESTATUS[0]}"; }

# Rebuilds a stage when its inputs or the flags changed since the last build.
stale() { # stage inputs…
  local stage=$1; shift
  local sum
  sum=$( { printf '%s\n' "${SWIFT_FLAGS[*]}" "${TUI_FLAGS[*]}" "$NCURSES_LIBS"; cat "$@"; } | sha256sum | cut -d' ' -f1)
  if [[ -f $BUILD/$stage.stamp && $(cat "$BUILD/$stage.stamp") == "$sum" ]]; then return 1; fi
  echo "$sum" > "$BUILD/$stage.pending"
  return 0
}
built() { mv "$BUILD/$1.pending" "$BUILD/$1.stamp"; }

# The Swift library targets the harness needs, in dependency order, with their folders, read from
# the package itself (`swift package describe`), so a module the package gains is built here too.
library_targets() {
  # A scratch path of its own: it reads the manifest while `swift test` may hold .build's lock
  # (scripts/test.sh builds this beside the tests).
  swift package --scratch-path "$OUT/describe" describe --type json | python3 -c '
import json, sys
targets = {t["name"]: t for t in json.load(sys.stdin)["targets"]}
order, seen = [], set()
def visit(name):
    target = targets[name]
    # Test support (under Tests/) is no part of what ships, and imports Testing.
    if name in seen or target.get("module_type") != "SwiftTarget" or target.get("type") != "library" \
            or target["path"].startswith("Tests/"):
        return
    seen.add(name)
    for dependency in target.get("target_dependencies") or []:
        visit(dependency)
    order.append(name)
for name in sorted(targets):
    visit(name)
for name in order:
    print(name, targets[name]["path"])
'
}

# Compiles one module to objects, then archives them as lib$name.a. Unoptimised, in batch mode:
# each compile job takes a share of the files, as SwiftPM's debug build does. Without it the
# driver starts a job per file, each parsing the whole module again, and the CI pass's build took
# 131 s on 2 cores against 100-110 s with it. An optimised build compiles the whole module at once.
compile_module() { # name flags… -- sources…
  local name=$1 flags=() objects=() sources=() dir map source base index=0
  shift
  while [[ $1 != -- ]]; do flags+=("$1"); shift; done
  shift
  dir=$BUILD/objects/$name
  rm -rf "$dir"
  mkdir -p "$dir"
  map=$dir/output-file-map.json
  # JSON strings: a checkout path may hold a quote or a backslash.
  json() { local text=${1//\\/\\\\}; printf '"%s"' "${text//\"/\\\"}"; }
  {
    printf '{\n'
    for source in "$@"; do
      base=$(basename "$source" .swift)
      objects+=("$dir/$index-$base.o")
      sources+=("$ROOT/$source")
      printf '  %s: {"object": %s},\n' "$(json "$ROOT/$source")" "$(json "$dir/$index-$base.o")"
      index=$((index + 1))
    done
    printf '  "": {}\n}\n'
  } > "$map"
  local batch=()
  [[ $optimize == 1 ]] || batch=(-enable-batch-mode)
  quiet swiftc "${flags[@]}" "${PARALLEL[@]}" "${batch[@]}" -module-name "$name" -c -emit-module \
    -I "$BUILD" -I Sources/CNCurses -I "$BUILD/CTerminalGuard" -output-file-map "$map" \
    -emit-module-path "$BUILD/$name.swiftmodule" "${sources[@]}" || return 1
  rm -f "$BUILD/lib$name.a"
  ar rcs "$BUILD/lib$name.a" "${objects[@]}"
}

build() {
  local start=$SECONDS
  local modules=() links=() stamps=("$BUILD/cguard.stamp") name path
  mapfile -t harness < <(find Fuzz/Harness -name '*.swift' | sort)
  printf 'module CTerminalGuard {\n  header "%s"\n  export *\n}\n' "$ROOT/Sources/CTerminalGuard/include/terminal_guard.h" \
    > "$BUILD/CTerminalGuard/module.modulemap"
  if stale cguard Sources/CTerminalGuard/terminal_guard.c Sources/CTerminalGuard/include/terminal_guard.h || [[ ! -f $BUILD/terminal_guard.o ]]; then
    quiet clang -O1 -c -fsanitize=address -I Sources/CTerminalGuard/include Sources/CTerminalGuard/terminal_guard.c \
      -o "$BUILD/terminal_guard.o" || return 1
    built cguard
  fi
  mapfile -t modules < <(library_targets) || return 1
  [[ ${#modules[@]} -gt 0 ]] || { echo "fuzz.sh: swift package describe listed no library target" >&2; return 1; }
  for line in "${modules[@]}"; do
    read -r name path <<< "$line"
    mapfile -t sources < <(find "$path" -name '*.swift' | sort)
    # The model keeps comparison tracing (parsers live there); the other modules edge counters only.
    local flags=("${TUI_FLAGS[@]}")
    [[ $name == PaywallModel ]] && flags=("${SWIFT_FLAGS[@]}")
    if stale "$name" "${sources[@]}" Sources/CNCurses/shim.h "${stamps[@]}"; then
      echo "fuzz.sh: building $name…"
      compile_module "$name" "${flags[@]}" -- "${sources[@]}" || return 1
      built "$name"
    fi
    stamps+=("$BUILD/$name.stamp")
    links=("-l$name" "${links[@]}")
  done
  if stale harness "${harness[@]}" "${stamps[@]}" || [[ ! -x $BUILD/paywall-fuzz ]]; then
    echo "fuzz.sh: building the fuzz targets…"
    # shellcheck disable=SC2086
    quiet swiftc "${SWIFT_FLAGS[@]}" -module-name PaywallFuzz -I "$BUILD" -I Sources/CNCurses -I "$BUILD/CTerminalGuard" \
      "${harness[@]}" -L "$BUILD" "${links[@]}" "$BUILD/terminal_guard.o" $NCURSES_LIBS \
      -o "$BUILD/paywall-fuzz" || return 1
    built harness
  fi
  echo "fuzz.sh: build ready in $((SECONDS - start)) s"
}

if ! build; then
  echo "fuzz.sh: FAILED to build the fuzz targets" >&2
  exit 1
fi
[[ $build_only == 1 ]] && exit 0

# MARK: - Run

BIN=$BUILD/paywall-fuzz
export FUZZ_REPO=$ROOT
# The state-file targets write a file per input (and the app fsyncs what it saves): on tmpfs when
# there is one, so that costs no disk I/O.
if [[ -d /dev/shm && -w /dev/shm ]]; then
  export FUZZ_SCRATCH=/dev/shm/paywall-fuzz-$(id -u)-$$
else
  export FUZZ_SCRATCH=$OUT/scratch
fi
mkdir -p "$FUZZ_SCRATCH"
# Stopped from outside (Ctrl-C, SIGTERM), the targets running side by side stop too, before
# their scratch directory goes.
trap 'kill $(jobs -p) 2>/dev/null; wait; rm -rf "$FUZZ_SCRATCH"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# Leaks are failures; a Swift trap's backtracer would only slow a crash report down.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$ROOT/Fuzz/lsan.supp:print_suppressions=0}
export SWIFT_BACKTRACE=enable=no

failures=0
summary=()

# Prints where libFuzzer saved the input that failed, from its log.
reproducer() { grep -o -E '(Test unit written to|artifact_prefix.*Test unit written to) [^ ]+' "$1" | tail -1 | awk '{print $NF}'; }

# What kind of failure a log shows.
failure_kind() {
  local log=$1
  if grep -q 'PROPERTY FAILED' "$log"; then echo "property failed: $(grep -m1 'PROPERTY FAILED' "$log" | cut -c19-300)"
  elif grep -q 'ERROR: libFuzzer: timeout' "$log"; then echo "hang (over ${timeout} s on one input)"
  elif grep -q 'ERROR: LeakSanitizer' "$log"; then echo "leak"
  elif grep -q -e 'out-of-memory' -e 'rss limit' "$log"; then echo "out of memory"
  elif grep -q 'ERROR: AddressSanitizer' "$log"; then echo "memory error: $(grep -m1 'ERROR: AddressSanitizer' "$log" | cut -c1-200)"
  elif grep -q -e 'Fatal error' -e 'deadly signal' "$log"; then echo "crash: $(grep -m1 -e 'Fatal error' -e 'deadly signal' "$log" | cut -c1-200)"
  else echo "exit status $2"
  fi
}

# Runs one target, its regressions first. Prints its report; its one summary line goes to
# $RESULTS/TARGET.summary, and $RESULTS/TARGET.failed exists when it failed.
run_target() {
  local target=$1 log_dir artifacts work dict regressions log status per_input start seconds executed rate rss line
  log_dir=$OUT/logs
  artifacts=$OUT/artifacts/$target/
  work=$OUT/corpus/$target
  mkdir -p "$log_dir" "$artifacts"
  [[ $keep_corpus == 1 ]] || rm -rf "$work"
  mkdir -p "$work"
  dict=()
  [[ -f Fuzz/dict/$target.dict ]] && dict=(-dict="Fuzz/dict/$target.dict")

  # Every input that once failed must keep passing.
  shopt -s nullglob
  regressions=(Fuzz/regressions/"$target"/*)
  shopt -u nullglob
  if [[ ${#regressions[@]} -gt 0 ]]; then
    log=$log_dir/$target.regressions.log
    FUZZ_TARGET=$target "$BIN" -timeout="$timeout" -rss_limit_mb=2048 "${regressions[@]}" > "$log" 2>&1
    status=$?
    if [[ $status -ne 0 ]]; then
      echo "FAIL $target: a saved regression fails again: $(failure_kind "$log" $status)"
      echo "  reproducer: $(grep -o 'Running: .*' "$log" | tail -1 | cut -c10-) (log: $log)"
      grep -B2 -A12 -m1 -e 'PROPERTY FAILED' -e 'Fatal error' -e 'ERROR:' "$log" | head -20 | sed 's/^/  | /'
      printf '%-13s FAILED (regression)\n' "$target" > "$RESULTS/$target.summary"
      touch "$RESULTS/$target.failed"
      return
    fi
  fi

  # The controller target's threads and tasks are freed a moment after each input ends, which
  # makes libFuzzer run its stop-the-world leak check after nearly every input (a third of the
  # speed); its leaks are checked once, when the run ends, instead.
  per_input=()
  [[ $target == controller ]] && per_input=(-detect_leaks=0)

  log=$log_dir/$target.log
  start=$(date +%s%N)
  FUZZ_TARGET=$target "$BIN" "$work" "Fuzz/corpus/$target" "${dict[@]}" -runs="$runs" -max_total_time="$limit" -seed="$seed" \
    -timeout="$timeout" -rss_limit_mb=2048 -max_len="$max_len" -artifact_prefix="$artifacts" \
    "${per_input[@]}" -print_final_stats=1 > "$log" 2>&1
  status=$?
  seconds=$(awk -v ns=$(( $(date +%s%N) - start )) 'BEGIN { printf "%.1f", ns / 1e9 }')
  executed=$(grep -o -E 'stat::number_of_executed_units: *[0-9]+' "$log" | awk '{print $2}')
  rate=$(grep -o -E 'stat::average_exec_per_sec: *[0-9]+' "$log" | awk '{print $2}')
  rss=$(grep -o -E 'stat::peak_rss_mb: *[0-9]+' "$log" | awk '{print $2}')
  if [[ $status -ne 0 ]]; then
    echo "FAIL $target: $(failure_kind "$log" $status)"
    echo "  reproducer: $(reproducer "$log") (log: $log)"
    echo "  replay it: FUZZ_TARGET=$target FUZZ_REPO=$ROOT $BIN $(reproducer "$log")"
    grep -A8 -m1 -e 'PROPERTY FAILED' -e 'Fatal error' -e '==ERROR' "$log" | head -8 | sed 's/^/  | /'
    printf '%-13s FAILED after %s s\n' "$target" "$seconds" > "$RESULTS/$target.summary"
    touch "$RESULTS/$target.failed"
    return
  fi
  line=$(printf '%-13s ok  runs %8s  %7s s  %6s exec/s  peak RSS %5s MB  regressions %d' \
    "$target" "${executed:-?}" "$seconds" "${rate:-?}" "${rss:-?}" "${#regressions[@]}")
  echo "$line"
  echo "$line" > "$RESULTS/$target.summary"
}


# Targets are independent processes, each on one core: they run side by side, `--jobs` at a time
# (default: every core), and their reports are printed in the order of the target list.
RESULTS=$OUT/results
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
for target in "${chosen[@]}"; do
  while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do wait -n; done
  run_target "$target" > "$RESULTS/$target.out" 2>&1 &
done
wait
for target in "${chosen[@]}"; do
  cat "$RESULTS/$target.out"
  if [[ -f $RESULTS/$target.summary ]]; then
    summary+=("$(cat "$RESULTS/$target.summary")")
  else
    summary+=("$(printf '%-13s FAILED (no report: the run itself ended early)' "$target")")
    touch "$RESULTS/$target.failed"
  fi
  [[ -f $RESULTS/$target.failed ]] && failures=$((failures + 1))
done

echo
echo "fuzz.sh summary (each target: $runs runs or ${limit} s, whichever comes first (0 s: no limit); seed $seed; ${MODE[0]}):"
printf '  %s\n' "${summary[@]}"
if [[ $failures -gt 0 ]]; then
  echo "fuzz.sh: $failures target(s) FAILED; reproducers are in $OUT/artifacts/TARGET/" >&2
  exit 1
fi
