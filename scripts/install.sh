#!/usr/bin/env bash
# Installs paywall-tui: the release binary made for this machine (checked against the release's
# SHA256SUMS), or, when the release has none for it (or there is no such release), a build from
# the source tree this script is in. What the composite action (action.yml) runs; it works the
# same from a clone:
#   bash scripts/install.sh --repo OWNER/paywall-tui --version v0.1.0      # into ~/.local/bin
#   bash scripts/install.sh --version v1 --dir /usr/local/bin                # the newest v1.x.y
#   bash scripts/install.sh --source-only                                    # build this tree
# Options: --version TAG (a release tag; vN or vN.M is the newest release under it; default: the
# version in this tree's source), --repo OWNER/NAME (default: $GITHUB_REPOSITORY), --dir DIR
# (default ~/.local/bin), --scratch DIR (the build's scratch path, default ~/.cache/paywall-tui/build:
# cache it in CI), --source-only (no download), --or-this-tree (build this tree when there is no
# release binary of --version for this machine: the action gives it when --version is its own ref,
# which this tree is; else only a --version equal to this tree's is built). Release binaries: paywall-tui-linux-x86_64,
# paywall-tui-linux-aarch64 (static), paywall-tui-macos-arm64 (needs Homebrew's ncurses).
# PAYWALL_TUI_RELEASES (default https://github.com/REPO/releases/download) is where release files
# are fetched from; the tests point it at a folder (file://). Prints the installed path last.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "install.sh: $*" >&2; }
fail() { echo "install.sh: error: $*" >&2; exit 1; }

version="" repo="${GITHUB_REPOSITORY:-}" dir="$HOME/.local/bin" scratch="" source_only=0 this_tree=0
while [ $# -gt 0 ]; do
  case $1 in
    --version) version=${2:?--version needs a tag, e.g. v0.1.0}; shift 2 ;;
    --repo) repo=${2:?--repo needs OWNER/NAME}; shift 2 ;;
    --dir) dir=${2:?--dir needs a directory}; shift 2 ;;
    --scratch) scratch=${2:?--scratch needs a directory}; shift 2 ;;
    --source-only) source_only=1; this_tree=1; shift ;;
    --or-this-tree) this_tree=1; shift ;;
    *) fail "unknown option '$1' (options: --version TAG, --repo OWNER/NAME, --dir DIR, --scratch DIR, --source-only, --or-this-tree)" ;;
  esac
done
scratch=${scratch:-${XDG_CACHE_HOME:-$HOME/.cache}/paywall-tui/build}
# The version this tree's source builds: the one place it is written.
source_version=$(sed -n -E 's/^ *(package |public )?static let version = "(.*)"$/\2/p' "$here/Sources/PaywallCLI/CLI/PaywallCommand.swift" 2>/dev/null | head -1)
[ -n "$version" ] || { version="v$source_version"; this_tree=1; }

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) asset=paywall-tui-linux-x86_64 ;;
  Linux-aarch64 | Linux-arm64) asset=paywall-tui-linux-aarch64 ;;
  Darwin-arm64) asset=paywall-tui-macos-arm64 ;;
  *) asset="" ;;
esac

fetch() { # URL FILE: false when it is not there
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 3 --max-time 300 ${GITHUB_TOKEN:+-H "Authorization: Bearer $GITHUB_TOKEN"} -o "$2" "$1" 2>/dev/null
  elif command -v wget >/dev/null 2>&1; then
    wget -q --tries=3 --timeout=300 -O "$2" "$1"
  else
    say "neither curl nor wget is installed: no download"; return 1
  fi
}
sha256() { if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
installed=""

download() { # TAG: true once the release binary is installed
  local tag=$1 base=${PAYWALL_TUI_RELEASES:-https://github.com/$repo/releases/download}
  say "fetching $asset of $tag from $base/$tag"
  fetch "$base/$tag/$asset" "$tmp/$asset" || { say "no $asset in release $tag"; return 1; }
  fetch "$base/$tag/SHA256SUMS" "$tmp/SHA256SUMS" || fail "release $tag has $asset but no SHA256SUMS to check it against; nothing was installed"
  local want got
  want=$(awk -v f="$asset" '$2 == f || $2 == "*" f { print $1 }' "$tmp/SHA256SUMS")
  got=$(sha256 "$tmp/$asset")
  [ -n "$want" ] || fail "SHA256SUMS of $tag does not list $asset; nothing was installed"
  [ "$want" = "$got" ] || fail "$asset of $tag has SHA-256 $got, but SHA256SUMS says $want; nothing was installed"
  chmod 755 "$tmp/$asset"
  if [ "$asset" = paywall-tui-macos-arm64 ] && command -v brew >/dev/null 2>&1 && ! brew list ncurses >/dev/null 2>&1; then
    say "installing Homebrew's ncurses, which the macOS binary links"; brew install ncurses >&2
  fi
  mkdir -p "$dir" && mv -f "$tmp/$asset" "$dir/paywall-tui"
  installed="release $tag"
}

# vN or vN.M names the newest release under it (vN.M.P), as the action's own @v1 would.
resolve() {
  case $1 in
    v[0-9] | v[0-9][0-9] | v[0-9]*.[0-9] | v[0-9]*.[0-9][0-9])
      [ -n "$repo" ] || return 0
      fetch "${PAYWALL_TUI_API:-https://api.github.com}/repos/$repo/releases?per_page=100" "$tmp/releases.json" || return 0
      grep -o '"tag_name": *"[^"]*"' "$tmp/releases.json" | sed 's/.*"\([^"]*\)"$/\1/' | grep -E "^${1//./\\.}\\.[0-9]+(\\.[0-9]+)?$" | head -1 ;;
  esac
}

if [ "$source_only" = 0 ] && [ -n "$asset" ] && { [ -n "$repo" ] || [ -n "${PAYWALL_TUI_RELEASES:-}" ]; }; then
  download "$version" || { newest=$(resolve "$version"); [ -n "$newest" ] && download "$newest"; } || true
elif [ "$source_only" = 0 ]; then
  [ -n "$asset" ] && say "no --repo (nor GITHUB_REPOSITORY): no release to fetch" || say "no release binary is made for $(uname -s) $(uname -m)"
fi

if [ -z "$installed" ]; then
  # This tree is built only when it is the version asked for: a tag of another version would
  # otherwise install something else under its name.
  if [ "$this_tree" = 0 ] && [ "$version" != "v$source_version" ] && [ "$version" != "$source_version" ]; then
    fail "no release binary of $version for $(uname -s) $(uname -m), and the source here is $source_version; give --version v$source_version, or a version with a release"
  fi
  command -v swift >/dev/null 2>&1 || fail "no release binary to install and no swift to build one (Swift 6.2 or later: https://www.swift.org/install)"
  if ! pkg-config --exists ncursesw 2>/dev/null && ! [ "$(uname -s)" = Darwin ]; then
    say "installing ncurses' headers and pkg-config, which the build needs"
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
    command -v apt-get >/dev/null 2>&1 || fail "the build needs ncurses (libncurses-dev and pkg-config, or your system's ncurses-devel); install them and run this again"
    $sudo apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libncurses-dev pkg-config >&2
  fi
  if [ "$(uname -s)" = Darwin ] && ! brew list ncurses >/dev/null 2>&1; then
    say "installing Homebrew's ncurses and pkgconf, which the build needs"; brew install ncurses pkgconf >&2
  fi
  # The metadata accessors scripts/release.sh asks for (its comment says why).
  accessors=(-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
  say "building paywall-tui $source_version from $here (swift build -c release ${accessors[*]}, scratch $scratch); a first build takes a few minutes…"
  start=$SECONDS
  log=$(cd "$here" && swift build -c release "${accessors[@]}" --product paywall-tui --scratch-path "$scratch" 2>&1) || { echo "$log" >&2; fail "the build failed (its output is above)"; }
  built=$(cd "$here" && swift build -c release "${accessors[@]}" --product paywall-tui --scratch-path "$scratch" --show-bin-path)/paywall-tui
  cp "$built" "$tmp/paywall-tui" && chmod 755 "$tmp/paywall-tui" && mkdir -p "$dir" && mv -f "$tmp/paywall-tui" "$dir/paywall-tui"
  installed="built from source in $((SECONDS - start)) s"
fi

"$dir/paywall-tui" --version >/dev/null || fail "$dir/paywall-tui does not run on this machine"
say "installed $("$dir/paywall-tui" --version) ($installed) as $dir/paywall-tui"
case ":$PATH:" in *":$dir:"*) ;; *) say "$dir is not on PATH: add it (README: Install)" ;; esac
echo "$dir/paywall-tui"
