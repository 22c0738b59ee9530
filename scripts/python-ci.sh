#!/usr/bin/env bash
# The Python bindings' CI step (called by .ci/run; runnable alone):
#   a fresh virtual environment; maturin, pytest and Ray from the package
#   registry (pinned; all ship cp311 manylinux x86_64 wheels); the wheel built
#   from bindings/python (maturin, release profile) and installed; the `advisor`
#   CLI built for the trace round trip; then pytest, whose exit status is the
#   step's (no tests collected is exit 5, a failure).
# Needs: the Rust toolchain and CPython >= 3.9 with venv and pip ($PYTHON, else python3).
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-python3}"
VENV="${ADVISOR_PY_VENV:-target/python-ci/venv}"
MATURIN_SPEC="maturin==1.16.0"
PYTEST_SPEC="pytest==8.4.2"
RAY_SPEC="ray==2.60.0"

log() { printf 'python-ci: %s\n' "$*" >&2; }

log "virtual environment in $VENV"
"$PY" -m venv --clear "$VENV"
VENV="$(cd "$VENV" && pwd)"
# maturin's build backend runs the `maturin` executable: the venv's bin first on PATH.
export PATH="$VENV/bin:$PATH"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
log "installing $MATURIN_SPEC $PYTEST_SPEC $RAY_SPEC"
"$VENV/bin/python" -m pip install --quiet "$MATURIN_SPEC" "$PYTEST_SPEC" "$RAY_SPEC"

log "building and installing the wheel (pip install ./bindings/python)"
"$VENV/bin/python" -m pip install --quiet --no-build-isolation ./bindings/python

log "building the advisor CLI for the trace round trip"
# .ci/run passes --all-features to reuse the build of its `cargo test --all-features`.
# shellcheck disable=SC2086
cargo build --quiet ${ADVISOR_CLI_CARGO_ARGS:-} --bin advisor
export ADVISOR_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/advisor"
export CI="${CI:-true}"

log "pytest"
status=0
(cd bindings/python && "$VENV/bin/python" -m pytest -q -p no:cacheprovider) || status=$?
case "$status" in
  0) log "pytest passed" ;;
  5) log "pytest collected no tests: failing"; exit 5 ;;
  *) log "pytest failed (exit $status)"; exit "$status" ;;
esac
