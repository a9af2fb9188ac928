#!/usr/bin/env bash
# The project's test command (README.md's second line; .ci/run runs it): every test (`swift test`),
# then scripts/checks.sh (portability, the lints, the full-Foundation build and the fuzz pass).
#   bash scripts/test.sh
# The fuzz pass compiles every library target a second time (sanitizers, full Foundation). That
# build starts at once, at the lowest CPU priority, beside the tests' build (which leaves a tenth of
# 2 cores idle, linking and between modules) and then the tests (which leave a third idle while they
# wait on processes and tmux): checks.sh then finds it done (fuzz.sh keeps stamps). Same tests, same
# checks, same verdict as running them one after the other; on a fresh clone it saves most of the
# fuzz build's minute. The build's own output is shown only if checks.sh has to build again. A
# failed build or test stops the run before the checks, as `&&` did.
# When tests fail, the last lines name each of them (Swift Testing's "✘ Test NAME failed" and
# XCTest's "Test Case '…' failed"), so nobody searches thousands of lines for them.
set -uo pipefail
cd "$(dirname "$0")/.."

fuzz_log=$(mktemp)
test_log=$(mktemp)
# In a process group of its own where setsid exists (Linux), so an early end stops its compilers too.
if command -v setsid >/dev/null 2>&1; then
  # A session of its own is a scheduling group of its own where Linux groups processes by session
  # (sched_autogroup, on in this CI's kernel): there `nice` orders the build's processes only among
  # themselves, and the group took as much of the machine as the tests (121 s of tests in a fresh
  # clone's run, against 81 s alone). The group itself is made as nice (/proc/self/autogroup).
  setsid bash -c 'echo 19 2>/dev/null >/proc/self/autogroup; exec nice -n 19 bash Fuzz/fuzz.sh --full-foundation --build-only' \
    >"$fuzz_log" 2>&1 &
  own_group=1
else
  nice -n 19 bash Fuzz/fuzz.sh --full-foundation --build-only >"$fuzz_log" 2>&1 &
  own_group=0
fi
fuzz=$!
cleanup() {
  kill -- -"$fuzz" 2>/dev/null || kill "$fuzz" 2>/dev/null
  wait "$fuzz" 2>/dev/null
  rm -f "$fuzz_log" "$test_log"
  [ -z "$direct_python_dir" ] || rm -rf "$direct_python_dir"
}
direct_python_dir=""
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# Every python3 the tests and checks start runs the interpreter directly, not through a version
# manager's shim (scripts/direct-python.sh says what that saves).
. scripts/direct-python.sh

swift build -debug-info-format none --build-tests || exit $?

status=0
swift test -debug-info-format none --skip-build 2>&1 | tee "$test_log" || status=$?
if [ "$status" -ne 0 ]; then
  echo
  echo "failing tests (swift test exited with $status):"
  { grep -aE '^✘ Test .* (failed after|recorded an issue)' "$test_log" | grep -av '^✘ Test run with' | sed -E 's/^✘ Test (.*) (failed after|recorded an issue).*/\1/' || true
    grep -aE "^Test Case '.*' failed" "$test_log" | sed -E "s/^Test Case '(.*)' failed.*/\1/" || true
  } | awk '!seen[$0]++ { print "  " $0; n++ } END { if (!n) print "  (none named: the build or the runner failed; see above)" }'
  exit "$status"
fi

# The fuzz build, if it is still going, has the machine to itself now (the compilers it starts
# from here run at normal priority); a failure there is shown by checks.sh, which builds again
# and says what failed.
renice -n 0 -p "$fuzz" >/dev/null 2>&1 || true
[ "$own_group" = 1 ] && { echo 0 2>/dev/null >"/proc/$fuzz/autogroup" || true; }
wait "$fuzz" || true
bash scripts/checks.sh
