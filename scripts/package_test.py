#!/usr/bin/env python3
"""The packaged `advisor`, installed as a user would, offline, from the local files of
scripts/package.sh (called by its `dry-run`, the `.ci/run` step):

- npm: `npm install -g ./advisor-cli-*.tgz ./advisor-cli-linux-x64-*.tgz` into a scratch prefix;
  docs/install.md's "Check that it works" block as written; the launcher's exit status, stdin/stdout/stderr and signal pass-through; a platform with no
  package and a missing platform package (one line on stderr, exit 1, never 2);
- pip: `pip install ./advisor_hook-*.whl` into a fresh virtual environment;
- uvx: `uvx --from ./advisor_hook-*.whl advisor` (uv from the package registry, pinned);
- the Claude Code plugin's hook launcher (plugins/claude-code/hooks/advisor-hook.sh): `npm ci
  --ignore-scripts` of the plugin's own lockfile against a loopback registry of the local
  tarballs (what Claude Code runs when it installs the plugin), then ADVISOR_BIN, PATH,
  node_modules and the fail-open line.

Each route runs `advisor --version` and one real `advisor hook` call (a Claude Code Stop over
examples/transcripts/claude-failing-tests.jsonl in a workspace opted in with `advisor init`:
it must send the agent back), with a PATH that has no Rust toolchain on it, and prints the
seconds from nothing to that first review.

Usage: package_test.py --dist DIR [--work DIR] [--keep]
Exit 1 on the first failure, with what was run and its output.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UV_SPEC = "uv==0.13.9"
TRANSCRIPT = ROOT / "examples" / "transcripts" / "claude-failing-tests.jsonl"


def fail(msg: str, p: subprocess.CompletedProcess | None = None) -> None:
    print(f"package_test: FAIL: {msg}", file=sys.stderr)
    if p is not None:
        print(f"  command: {p.args}\n  exit: {p.returncode}\n  stdout: {p.stdout[-2000:]}\n"
              f"  stderr: {p.stderr[-2000:]}", file=sys.stderr)
    sys.exit(1)


def ok(msg: str) -> None:
    print(f"package_test: ok   {msg}", flush=True)


class Env:
    """A user's environment: node and the system's tools on PATH, no cargo, no rustc."""

    def __init__(self, work: Path):
        self.work = work
        node_dir = Path(shutil.which("node") or fail("node is not on PATH")).parent
        self.path = [str(node_dir), "/usr/local/bin", "/usr/bin", "/bin"]
        for tool in ("cargo", "rustc", "rustup"):
            found = shutil.which(tool, path=os.pathsep.join(self.path))
            if found:
                fail(f"{tool} is on the test's PATH ({found}): the routes must work without a Rust toolchain")
        self.home = work / "home"
        self.home.mkdir(parents=True, exist_ok=True)

    def env(self, *front: Path, **extra) -> dict:
        env = {"PATH": os.pathsep.join([str(p) for p in front] + self.path), "HOME": str(self.home),
               "LANG": "C.UTF-8", "npm_config_cache": str(self.work / "npm-cache"),
               "npm_config_update_notifier": "false", "npm_config_fund": "false", "npm_config_audit": "false",
               "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INDEX": "1"}
        env.update({k: str(v) for k, v in extra.items() if v is not None})
        for k in [k for k, v in extra.items() if v is None]:
            env.pop(k, None)
        return env

    def run(self, cmd, env, cwd=None, input=None, check=True, timeout=300) -> subprocess.CompletedProcess:
        p = subprocess.run([str(c) for c in cmd], env=env, cwd=cwd, input=input, capture_output=True, text=True,
                           timeout=timeout)
        if check and p.returncode != 0:
            fail(f"{cmd[0]} {cmd[1] if len(cmd) > 1 else ''} exited {p.returncode}", p)
        return p


def one(dist: Path, pattern: str) -> Path:
    found = sorted(dist.glob(pattern))
    if len(found) != 1:
        fail(f"expected one {pattern} in {dist}, found {[f.name for f in found]}")
    return found[0]


def workspace(e: Env, advisor: Path, env: dict, name: str) -> tuple:
    """A workspace opted in with `advisor init`, and the Stop payload of a false claim in it."""
    ws = e.work / f"ws-{name}"
    ws.mkdir()
    e.run(["git", "init", "-q"], env, cwd=ws)
    e.run([advisor, "init", "--dir", ws], env)
    transcript = ws / "session.jsonl"
    shutil.copy(TRANSCRIPT, transcript)
    payload = json.dumps({"session_id": f"package-test-{name}", "transcript_path": str(transcript), "cwd": str(ws),
                          "hook_event_name": "Stop", "stop_hook_active": False})
    return ws, payload


def review(e: Env, cmd: list, env: dict, payload: str, ws: Path, what: str) -> None:
    """One real hook call: the false claim must be sent back, with exit status 0."""
    p = e.run(cmd, env, cwd=ws, input=payload)
    try:
        answer = json.loads(p.stdout)
    except ValueError:
        answer = {}
    if answer.get("decision") != "block" or "cargo test" not in answer.get("reason", ""):
        fail(f"{what}: the hook did not send the false claim back", p)


def version_of(e: Env, cmd: list, env: dict, expected: str, what: str) -> None:
    p = e.run(cmd + ["--version"], env)
    if expected not in p.stdout:
        fail(f"{what}: `advisor --version` does not say {expected}", p)


def timed(f):
    t0 = time.monotonic()
    f()
    return time.monotonic() - t0


# ---------------------------------------------------------------- routes


def npm_route(e: Env, dist: Path, version: str, times: dict) -> Path:
    main, plat = one(dist, "advisor-cli-[0-9]*.tgz"), one(dist, "advisor-cli-linux-x64-[0-9]*.tgz")
    prefix = e.work / "npm-global"
    env = e.env(prefix / "bin")
    advisor = prefix / "bin" / "advisor"

    def install_and_review():
        e.run(["npm", "install", "-g", "--offline", "--prefix", prefix, main, plat], env)
        version_of(e, [advisor], env, version, "npm")
        ws, payload = workspace(e, advisor, env, "npm")
        review(e, ["advisor", "hook"], env, payload, ws, "npm")

    times["npm install -g (local tarballs), advisor init, first hook review"] = timed(install_and_review)
    binary = prefix / "lib" / "node_modules" / "advisor-cli-linux-x64" / "bin" / "advisor"
    if not os.access(binary, os.X_OK):
        fail(f"the platform package's binary is not executable after npm install: {binary}")
    ok(f"npm: {advisor} ({version}), one hook call sent the false claim back")
    install_md_check(e, env)
    launcher_passes_through(e, env, advisor, binary)
    launcher_fails_in_one_line(e, dist, main, prefix, env)
    return binary


def install_md_check(e: Env, env: dict) -> None:
    """docs/install.md's "Check that it works" block, run as written with the npm-installed advisor."""
    page = (ROOT / "docs" / "install.md").read_text()
    start = page.index("### Check that it works")
    body = page.index("```sh\n", start) + len("```sh\n")
    block = page[body:page.index("```", body)]
    p = e.run(["bash", "-e", "-c", block], env, cwd=e.work)
    if '{"decision":"block"' not in p.stdout:
        fail("docs/install.md's check did not print the block it promises", p)
    ok("docs/install.md's \"Check that it works\" block, as written: the hook sends the agent back")


def launcher_passes_through(e: Env, env: dict, advisor: Path, binary: Path) -> None:
    """Exit status and streams as the binary's own; a signal ends both, the launcher by it."""
    for args in (["review", "no-such-transcript.jsonl"], ["review", "--no-such-flag"],
                 ["review", str(TRANSCRIPT)]):
        via = e.run([advisor, *args], env, check=False)
        direct = e.run([binary, *args], env, check=False)
        if (via.returncode, via.stdout, via.stderr) != (direct.returncode, direct.stdout, direct.stderr):
            fail(f"the launcher changed `advisor {' '.join(args)}`: exit {via.returncode} vs {direct.returncode}, "
                 f"stdout {via.stdout[:200]!r} vs {direct.stdout[:200]!r}, stderr {via.stderr[:200]!r} vs "
                 f"{direct.stderr[:200]!r}")
    ok("npm launcher: exit status, stdout and stderr are the binary's own (exit 0, 2, and a review)")
    # `advisor hook` waits for its stdin: SIGTERM to the launcher ends the binary too
    child = subprocess.Popen([str(advisor), "hook"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 30
    pids = []
    while time.monotonic() < deadline and not pids:
        pids = [p for p in children(child.pid) if exe(p) == str(binary.resolve())]
        time.sleep(0.05)
    if not pids:
        child.kill()
        fail("the launcher never started the binary")
    child.send_signal(signal.SIGTERM)
    try:
        child.wait(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        fail("the launcher did not end on SIGTERM")
    if child.returncode != -signal.SIGTERM:
        fail(f"the launcher ended with {child.returncode} after SIGTERM, not by the signal (-15)")
    time.sleep(0.2)
    alive = [p for p in pids if Path(f"/proc/{p}").exists() and exe(p) == str(binary.resolve())]
    if alive:
        for p in alive:
            os.kill(p, signal.SIGKILL)
        fail(f"the binary outlived the launcher's SIGTERM: {alive}")
    ok("npm launcher: SIGTERM reaches the binary, and the launcher ends by the same signal")


def children(pid: int) -> list:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d.name))
    return out


def exe(pid: int) -> str:
    try:
        return os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return ""


def launcher_fails_in_one_line(e: Env, dist: Path, main: Path, prefix: Path, env: dict) -> None:
    script = prefix / "lib" / "node_modules" / "advisor-cli" / "bin" / "advisor.js"
    for platform, arch in (("freebsd", "x64"), ("linux", "riscv64"), ("win32", "arm64")):
        shim = (f"Object.defineProperty(process, 'platform', {{value: '{platform}'}});"
                f"Object.defineProperty(process, 'arch', {{value: '{arch}'}});"
                f"require({json.dumps(str(script))})")
        p = e.run(["node", "-e", shim, "--", "--version"], env, check=False)
        lines = p.stderr.strip().splitlines()
        if p.returncode != 1 or len(lines) != 1 or "no prebuilt binary" not in lines[0] or p.stdout:
            fail(f"{platform}-{arch}: not one line and exit 1", p)
    ok(f"npm launcher: a platform with no package says so in one line and exits 1 ({lines[0][:90]}…)")
    bare = e.work / "npm-no-optional"
    e.run(["npm", "install", "-g", "--offline", "--omit=optional", "--prefix", bare, main], e.env())
    p = e.run([bare / "bin" / "advisor", "hook"], e.env(), input="{}", check=False)
    lines = p.stderr.strip().splitlines()
    if p.returncode != 1 or len(lines) != 1 or "is not installed" not in lines[0] or p.stdout:
        fail("without its platform package: not one line and exit 1", p)
    ok("npm launcher: without its platform package (--omit=optional) it says so in one line and exits 1")


def pip_route(e: Env, dist: Path, version: str, times: dict) -> Path:
    wheel = one(dist, "advisor_hook-*.whl")
    venv = e.work / "pip-venv"
    env = e.env(venv / "bin")
    advisor = venv / "bin" / "advisor"

    def install_and_review():
        e.run([sys.executable, "-m", "venv", venv], env)
        e.run([venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--no-index", wheel], env)
        version_of(e, [advisor], env, version, "pip")
        ws, payload = workspace(e, advisor, env, "pip")
        review(e, ["advisor", "hook"], env, payload, ws, "pip")

    times["python -m venv, pip install (local wheel), advisor init, first hook review"] = timed(install_and_review)
    ok(f"pip: {advisor} ({version}), one hook call sent the false claim back")
    return advisor


def uvx_route(e: Env, dist: Path, version: str, times: dict) -> None:
    wheel = one(dist, "advisor_hook-*.whl")
    tools = e.work / "uv-tool"
    # uv itself, from the package registry (the one step here that is not offline)
    e.run([sys.executable, "-m", "venv", tools], e.env())
    e.run([tools / "bin" / "python", "-m", "pip", "install", "--quiet", UV_SPEC], e.env(PIP_NO_INDEX=None))
    env = e.env(tools / "bin", UV_CACHE_DIR=e.work / "uv-cache", UV_OFFLINE="1", UV_NO_CONFIG="1",
                UV_PYTHON_DOWNLOADS="never")
    uvx = ["uvx", "--from", wheel, "advisor"]

    def run_and_review():
        version_of(e, uvx, env, version, "uvx")
        ws = e.work / "ws-uvx"
        ws.mkdir()
        e.run(["git", "init", "-q"], env, cwd=ws)
        e.run(uvx + ["init", "--dir", ws], env)
        transcript = ws / "session.jsonl"
        shutil.copy(TRANSCRIPT, transcript)
        payload = json.dumps({"session_id": "package-test-uvx", "transcript_path": str(transcript),
                              "cwd": str(ws), "hook_event_name": "Stop", "stop_hook_active": False})
        review(e, uvx + ["hook"], env, payload, ws, "uvx")

    times["uvx --from (local wheel): advisor init, first hook review"] = timed(run_and_review)
    ok(f"uvx --from {wheel.name} advisor ({version}), one hook call sent the false claim back")


def plugin_route(e: Env, dist: Path, pip_advisor: Path, times: dict) -> None:
    """The plugin's hook launcher, with the plugin's node_modules from its own lockfile."""
    plugin = e.work / "plugin"
    shutil.copytree(ROOT / "plugins" / "claude-code", plugin)
    hook = ["sh", plugin / "hooks" / "advisor-hook.sh"]
    registry, port = start_registry(e, dist)
    try:
        env = e.env(npm_config_registry=f"http://127.0.0.1:{port}/")

        def install():
            # what Claude Code runs in the plugin's directory when it installs the plugin
            e.run(["npm", "ci", "--ignore-scripts"], env, cwd=plugin)

        times["the plugin's `npm ci --ignore-scripts` (loopback registry of the local tarballs)"] = timed(install)
    finally:
        registry.terminate()
        registry.wait()
    installed = sorted(p.name for p in (plugin / "node_modules").iterdir() if p.name.startswith("advisor-cli"))
    if installed != ["advisor-cli", "advisor-cli-linux-x64"]:
        fail(f"npm ci of the plugin's lockfile installed {installed}, not advisor-cli and advisor-cli-linux-x64")
    ok("plugin: `npm ci --ignore-scripts` of its committed lockfile installs advisor-cli and its linux-x64 package")

    plain = e.env(CLAUDE_PLUGIN_ROOT=plugin)  # no advisor on PATH
    ws, payload = workspace(e, pip_advisor, e.env(), "plugin")
    review(e, hook, plain, payload, ws, "plugin hook, node_modules")
    ok("plugin hook: no ADVISOR_BIN, no advisor on PATH: the binary of its node_modules sent the false claim back")
    # PATH and ADVISOR_BIN come before node_modules: a wrapper that leaves a mark, then runs pip's binary
    marked = e.work / "marked-bin"
    marked.mkdir()
    wrapper = marked / "advisor"
    wrapper.write_text(f'#!/bin/sh\necho "$0" >>"{e.work}/marks"\nexec "{pip_advisor}" "$@"\n')
    wrapper.chmod(0o755)
    for what, env in (("`advisor` on PATH", e.env(marked, CLAUDE_PLUGIN_ROOT=plugin)),
                      ("$ADVISOR_BIN", e.env(CLAUDE_PLUGIN_ROOT=plugin, ADVISOR_BIN=wrapper))):
        (e.work / "marks").unlink(missing_ok=True)
        # a new session each time: the same session's second stop would not get the same note again
        again = payload.replace("package-test-plugin", f"package-test-plugin-{len(what)}")
        review(e, hook, env, again, ws, f"plugin hook, {what}")
        if not (e.work / "marks").exists():
            fail(f"plugin hook: {what} was not used before the plugin's node_modules")
        ok(f"plugin hook: {what} is used before the plugin's node_modules")

    shutil.rmtree(plugin / "node_modules")
    for extra, needle in (({}, "npm install -g advisor-cli"), ({"ADVISOR_BIN": e.work / "nowhere"}, "ADVISOR_BIN")):
        p = e.run(hook, e.env(CLAUDE_PLUGIN_ROOT=plugin, **extra), cwd=ws, input=payload, check=False)
        lines = p.stderr.strip().splitlines()
        if p.returncode != 1 or p.stdout or len(lines) != 1 or needle not in lines[0] \
                or not lines[0].startswith("advisor plugin:"):
            fail(f"plugin hook with no binary ({extra or 'nothing installed'}): not one line and exit 1", p)
    ok(f"plugin hook: with no binary the stop goes through: exit 1 and one line ({lines[0][:80]}…)")


def start_registry(e: Env, dist: Path):
    portfile = e.work / "registry.port"
    portfile.unlink(missing_ok=True)
    proc = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "packaging.py"), "registry", str(dist),
                             str(portfile)])
    for _ in range(200):
        if portfile.exists():
            return proc, int(portfile.read_text())
        time.sleep(0.05)
    proc.kill()
    fail("the loopback registry did not start")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dist", required=True)
    ap.add_argument("--work")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    dist = Path(args.dist).resolve()
    work = Path(args.work or tempfile.mkdtemp(prefix="advisor-package-test-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    version = subprocess.run([sys.executable, str(ROOT / "scripts" / "packaging.py"), "version"],
                             capture_output=True, text=True, check=True).stdout.strip()
    e = Env(work)
    times: dict = {}
    npm_route(e, dist, version, times)
    pip_advisor = pip_route(e, dist, version, times)
    uvx_route(e, dist, version, times)
    plugin_route(e, dist, pip_advisor, times)
    print("\nseconds from nothing to a first review, from the local files, on this machine:")
    for what, seconds in times.items():
        print(f"  {seconds:6.1f} s  {what}")
    if not args.keep and args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    print("package_test: all routes passed")


if __name__ == "__main__":
    main()
