#!/usr/bin/env bash
# Prints the path of the executable the benchmarks measure: BIN's, when set (one built elsewhere,
# e.g. with --scratch-path, or the stripped one scripts/release.sh writes), else the release build
# CONTRIBUTING.md gives (a static executable, its start's code laid out as scripts/link-order.sh
# says), built here. The linker's warnings about glibc's name-service calls are expected and shown
# only when the build fails.
#   bin=$(bash Benchmarks/release-binary.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${BIN:-}" ]; then
  [ -f "$BIN" ] && [ -x "$BIN" ] || { echo "release-binary.sh: BIN=$BIN is not an executable file; build one or unset BIN" >&2; exit 1; }
  realpath "$BIN"
else
  . scripts/link-order.sh
  log=$(swift build -c release --static-swift-stdlib -Xswiftc -static-executable -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors "${link_order[@]}" --product paywall-tui 2>&1) || { echo "$log" >&2; exit 1; }
  realpath .build/release/paywall-tui
fi
