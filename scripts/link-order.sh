# shellcheck shell=bash
# Sourced by scripts/release.sh and Benchmarks/release-binary.sh: the `swift build` options that
# lay out, on Linux, the code paywall-tui runs from launch to its first frame side by side
# (scripts/start-order.txt, written by scripts/start-order.sh). Each function goes in a section of
# its own, and lld places the listed ones first, so a start faults in fewer pages of code: the
# first frame came 0.33 ms sooner, the median of seven pairs (CONTRIBUTING.md, "Benchmarks"). A
# name the code no longer has is skipped without a word (--no-warn-symbol-ordering): a stale list
# costs speed, never a build.
# -function-sections goes through -Xfrontend: as `-Xswiftc -function-sections`, SwiftPM 6.3.1
# crashes on the second build in the same scratch directory. The unwind tables are left out at
# link time (no-unwind-tables.ld): stripping them after an lld link leaves a binary that faults at
# start. lld comes with Swift's Linux toolchains. On macOS nothing changes: ld64 takes another
# format (-order_file), and it has not been measured there.
link_order=()
if [ "$(uname -s)" = Linux ]; then
  link_order_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  link_order=(-Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld
    -Xlinker "--symbol-ordering-file=$link_order_scripts/start-order.txt" -Xlinker --no-warn-symbol-ordering
    -Xlinker -T -Xlinker "$link_order_scripts/no-unwind-tables.ld" -Xlinker --no-eh-frame-hdr)
  unset link_order_scripts
fi
