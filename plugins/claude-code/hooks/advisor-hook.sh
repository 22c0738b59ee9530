#!/bin/sh
# The advisor plugin's Stop and SubagentStop hook (hooks/hooks.json): runs `advisor hook` with the
# hook's stdin. The binary is, in this order:
#   1. $ADVISOR_BIN, a path to it;
#   2. `advisor` on PATH (npm install -g advisor-cli, pipx install advisor-hook, cargo install);
#   3. this plugin's node_modules: Claude Code runs `npm ci --ignore-scripts` in the plugin when it
#      installs it, and package.json depends on the npm package advisor-cli, whose platform
#      package (node_modules/advisor-cli-<os>-<cpu>) holds the binary. Node.js is not needed to
#      run it: Claude Code's native installer brings none, so this file is POSIX sh only.
# Finding none, it fails open: the stop goes through (exit 1, which Claude Code shows as a
# non-blocking hook error) with one line on stderr saying how to install. Never exit 2 (a block).

say() { printf 'advisor plugin: %s\n' "$*" >&2; }

if [ -n "${ADVISOR_BIN:-}" ]; then
  if [ -f "$ADVISOR_BIN" ] && [ -x "$ADVISOR_BIN" ]; then exec "$ADVISOR_BIN" hook; fi
  say "ADVISOR_BIN=$ADVISOR_BIN is not an executable file, so this stop was not reviewed (fix or unset it)"
  exit 1
fi

if command -v advisor >/dev/null 2>&1; then exec advisor hook; fi

root=${CLAUDE_PLUGIN_ROOT:-$(dirname -- "$0")/..}
ext=
case $(uname -s 2>/dev/null) in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  MINGW* | MSYS* | CYGWIN*) os=win32 ext=.exe ;;
  *) os= ;;
esac
case $(uname -m 2>/dev/null) in
  x86_64 | amd64) cpu=x64 ;;
  aarch64 | arm64) cpu=arm64 ;;
  *) cpu= ;;
esac
packages=
if [ -n "$os" ] && [ -n "$cpu" ]; then
  packages="advisor-cli-$os-$cpu"
  if [ "$os" = linux ]; then
    # the musl build is static and runs on any Linux; the glibc one needs glibc's loader
    musl=
    for loader in /lib/ld-musl-*.so.1; do [ -e "$loader" ] && musl=1; done
    if [ -n "$musl" ]; then
      packages="advisor-cli-linux-$cpu-musl $packages"
    else
      packages="$packages advisor-cli-linux-$cpu-musl"
    fi
  fi
fi
for package in $packages; do
  binary=$root/node_modules/$package/bin/advisor$ext
  if [ -f "$binary" ] && [ -x "$binary" ]; then exec "$binary" hook; fi
done

say "no advisor binary (not in ADVISOR_BIN, on PATH or in this plugin's node_modules), so this stop was not reviewed. Install it: npm install -g advisor-cli, or pipx install advisor-hook (docs/install.md of the advisor repository)"
exit 1
