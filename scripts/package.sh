#!/usr/bin/env bash
# The release's build-and-pack steps, one script for the release workflow
# (.github/workflows/release.yml) and for .ci/run's dry run:
#
#   scripts/package.sh build TARGET [OUT]   the wheel of the command line for the Rust target
#                                           TARGET (maturin, packaging/pypi), then the npm
#                                           platform package of TARGET packed around the very
#                                           binary in that wheel; both into OUT
#   scripts/package.sh main [OUT]           the npm main package advisor-cli (the launcher; the
#                                           same for every platform) into OUT
#   scripts/package.sh stamp VERSION [--repository URL]
#                                           the release's version (and repository URL) into the
#                                           npm packages and the Claude Code plugin
#   scripts/package.sh checksums [OUT]      OUT/SHA256SUMS
#   scripts/package.sh dry-run [OUT]        what .ci/run runs: `check`, then build
#                                           x86_64-unknown-linux-gnu and main, then install them
#                                           offline from the local files and run them
#                                           (scripts/package_test.py)
#
# OUT defaults to target/package/dist; each platform package is staged (with its binary) in
# target/package/stage/<name> (ADVISOR_PKG_STAGE). Needs: the Rust toolchain with TARGET's
# standard library (rustup target add TARGET), CPython >= 3.8 ($PYTHON, else python3) with
# venv, and Node.js with npm. maturin (and, for the Linux targets, zig: the `ziglang` wheel, so
# one runner builds every Linux target against glibc 2.17 or musl) install from the package
# registry into a virtual environment kept in ADVISOR_PKG_CACHE (default
# ~/.cache/advisor-package), where the dry run also keeps its build directory.
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-python3}"
# maturin and zig, kept between runs outside the tree (a fresh clone reuses them)
CACHE="${ADVISOR_PKG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/advisor-package}"
VENV="${ADVISOR_PKG_VENV:-$CACHE/venv}"
MATURIN_SPEC="maturin==1.16.0"
ZIG_SPEC="ziglang==0.14.1"

log() { printf 'package: %s\n' "$*" >&2; }

# maturin's options per target: the Linux builds go through zig, which links against glibc 2.17
# (manylinux2014) or musl, whatever the runner's own C library is
maturin_args() {
  case "$1" in
    x86_64-unknown-linux-gnu | aarch64-unknown-linux-gnu) echo "--zig --compatibility manylinux2014" ;;
    x86_64-unknown-linux-musl) echo "--zig --compatibility musllinux_1_2" ;;
    *) echo "" ;;
  esac
}

venv() {
  local want="$MATURIN_SPEC"
  case "$(maturin_args "$1")" in *--zig*) want="$want $ZIG_SPEC" ;; esac
  if [ ! -d "$VENV" ]; then
    log "virtual environment in $VENV"
    "$PY" -m venv "$VENV"
  fi
  VENV="$(cd "$VENV" && pwd)"
  VBIN="$VENV/bin"
  [ -d "$VENV/Scripts" ] && VBIN="$VENV/Scripts"
  # the specs installed last time, so that a second run installs nothing
  if [ "$(cat "$VENV/advisor-specs" 2>/dev/null)" != "$want" ]; then
    log "installing $want"
    # shellcheck disable=SC2086
    "$VBIN/python" -m pip install --quiet --disable-pip-version-check $want
    echo "$want" >"$VENV/advisor-specs"
  fi
}

build() {
  local target="$1" out="${2:-target/package/dist}"
  mkdir -p "$out"
  out="$(cd "$out" && pwd)"
  venv "$target"
  local wheels
  wheels="$(mktemp -d)"
  log "building the wheel for $target (maturin $(maturin_args "$target"))"
  # shellcheck disable=SC2046
  (cd packaging/pypi && PATH="$VBIN:$PATH" "$VBIN/maturin" build --release --locked --target "$target" \
    $(maturin_args "$target") --out "$wheels")
  local wheel
  wheel="$(ls "$wheels"/*.whl)"
  [ "$(echo "$wheel" | wc -l)" = 1 ] || { log "expected one wheel, found: $wheel"; exit 1; }
  mv "$wheel" "$out/"
  rmdir "$wheels"
  wheel="$out/$(basename "$wheel")"
  log "wheel: $(basename "$wheel")"
  local stage staged
  stage="${ADVISOR_PKG_STAGE:-target/package/stage}"
  mkdir -p "$stage"
  staged="$("$PY" scripts/packaging.py stage "$target" "$wheel" "$stage")"
  log "packing $(basename "$staged") around the wheel's binary"
  (cd "$staged" && npm pack --silent --pack-destination "$out" >/dev/null)
  ls "$out"/"$(basename "$staged")"-*.tgz >&2
}

main_package() {
  local out="${1:-target/package/dist}"
  mkdir -p "$out"
  out="$(cd "$out" && pwd)"
  log "packing advisor-cli (the launcher)"
  (cd packaging/npm/advisor-cli && npm pack --silent --pack-destination "$out" >/dev/null)
  ls "$out"/advisor-cli-[0-9]*.tgz >&2
}

case "${1:-}" in
  build)
    [ $# -ge 2 ] || { echo "usage: $0 build TARGET [OUT]" >&2; exit 2; }
    build "$2" "${3:-}"
    ;;
  main) main_package "${2:-}" ;;
  stamp)
    shift
    "$PY" scripts/packaging.py stamp "$@"
    ;;
  checksums) "$PY" scripts/packaging.py checksums "${2:-target/package/dist}" ;;
  dry-run)
    out="${2:-target/package/dist}"
    started=$(date +%s)
    # the release build's directory is kept in the cache too, as e2e/run.sh keeps its own: a
    # fresh clone of the tree then rebuilds only the workspace's crates
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}"
    "$PY" scripts/packaging.py check
    rm -rf "$out" && mkdir -p "$out"
    build x86_64-unknown-linux-gnu "$out"
    main_package "$out"
    "$PY" scripts/packaging.py checksums "$out"
    built=$(date +%s)
    log "built and packed in $((built - started)) s"
    "$PY" scripts/package_test.py --dist "$out"
    log "dry run: $(($(date +%s) - started)) s in all ($((built - started)) s building and packing)"
    ;;
  *)
    sed -n '2,25p' "$0" >&2
    exit 2
    ;;
esac
