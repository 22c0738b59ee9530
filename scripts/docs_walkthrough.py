#!/usr/bin/env python3
"""The docs walkthrough test (issue 30): every shell block of the pages a
newcomer follows, run as written and in the order the page gives it, in a
scratch copy of the tree, so a walkthrough cannot break silently.

Pages, in this order: README.md, docs/cli.md, docs/rollout.md, docs/python.md.
A block is a fenced block whose info string starts with `sh`, `bash` or
`shell`; `text`, `json`, `toml`, `rust`, `python`… blocks are not run. The
blocks of one page run in one bash process (`set -eo pipefail`), so `cd`, a
variable or an activated virtual environment carries to the next block, as it
does for a reader; each page starts at the root of the copy, the copy is shared
by the pages in order. What the blocks print goes to a log per page, shown
(its last 60 lines) only when a block fails.

A block that cannot run here says so in its info string, with a reason:

    ```sh no-run: needs the local model server (scripts/local-llm.sh)

A `no-run` without a reason, or any other word after the language, fails the
test: nothing is skipped silently.

The environment: `advisor` on PATH is the CLI built from this tree (what
`cargo install --path crates/advisor-cli` would put there; `$ADVISOR_BIN`, else
built here with `$ADVISOR_CLI_CARGO_ARGS`); HOME is a scratch directory (so
`advisor trust` never touches your config; cargo, rustup and pip keep their
own homes and caches); the ADVISOR_LLM_* / ADVISOR_API_KEY variables are
unset, so the examples use their loopback mock servers (127.0.0.1) and nothing
else. CARGO_TARGET_DIR is kept (or set to the tree's target/) so dependencies
are not rebuilt.

    python3 scripts/docs_walkthrough.py              # all pages
    python3 scripts/docs_walkthrough.py --list       # the blocks, nothing run
    python3 scripts/docs_walkthrough.py --self-test  # the block parser's own tests

Exit status 0 only when every block ran and succeeded. The closing line is
`walkthrough: N passed, N failed, N skipped` (skipped = marked no-run).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["README.md", "docs/cli.md", "docs/rollout.md", "docs/python.md"]
SHELLS = {"sh", "bash", "shell"}
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
PAGE_TIMEOUT = 3600


class BlockError(ValueError):
    """A block whose info string the walkthrough cannot honour."""


@dataclass
class Block:
    page: str
    line: int  # 1-based line of the opening fence
    text: str
    skip: Optional[str]  # the reason, for a block marked no-run

    def where(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(page: str, markdown: str) -> List[Block]:
    """The shell blocks of `markdown`, in order; `BlockError` for a bad marker."""
    out: List[Block] = []
    lines = markdown.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info, start = m.group("fence"), m.group("info").strip(), i
        body: List[str] = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i])
            i += 1
        i += 1  # the closing fence
        lang, _, rest = info.partition(" ")
        if lang not in SHELLS:
            continue
        rest = rest.strip()
        skip = None
        if rest:
            if not rest.startswith("no-run:"):
                raise BlockError(f"{page}:{start + 1}: unknown info-string words {rest!r} (only `no-run: <reason>`)")
            skip = rest[len("no-run:"):].strip()
            if not skip:
                raise BlockError(f"{page}:{start + 1}: `no-run:` needs a reason")
        out.append(Block(page, start + 1, "\n".join(body), skip))
    return out


def all_blocks(root: Path) -> List[Block]:
    found: List[Block] = []
    for page in PAGES:
        found += blocks(page, (root / page).read_text(encoding="utf-8"))
    return found


def copy_tree(src: Path, dst: Path) -> None:
    """The tree as a fresh clone has it (tracked and untracked, not ignored files)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=src, check=True, capture_output=True,
    ).stdout.split(b"\0")
    for rel in filter(None, listed):
        s, d = src / os.fsdecode(rel), dst / os.fsdecode(rel)
        if not s.is_file():
            continue  # deleted in the work tree
        d.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(s, d)
    subprocess.run(["git", "init", "-q", str(dst)], check=True)


def advisor_bin(env: dict) -> Path:
    given = os.environ.get("ADVISOR_BIN")
    if given:
        return Path(given)
    # the mcp feature: docs/cli.md runs `advisor mcp` (.ci/run passes --all-features)
    args = os.environ.get("ADVISOR_CLI_CARGO_ARGS", "-p advisor-cli --features mcp").split()
    subprocess.run(["cargo", "build", "--quiet", *args, "--bin", "advisor"], cwd=ROOT, check=True, env=env)
    return Path(env["CARGO_TARGET_DIR"]) / "debug" / "advisor"


def environment(scratch: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADVISOR_LLM_") and k != "ADVISOR_API_KEY"}
    home = Path.home()
    env.setdefault("CARGO_HOME", str(home / ".cargo"))
    env.setdefault("RUSTUP_HOME", str(home / ".rustup"))
    env.setdefault("PIP_CACHE_DIR", str(home / ".cache" / "pip"))
    target = Path(env.get("CARGO_TARGET_DIR") or ROOT / "target")
    env["CARGO_TARGET_DIR"] = str(target if target.is_absolute() else ROOT / target)
    env["HOME"] = str(scratch / "home")
    env.pop("XDG_CONFIG_HOME", None)
    env.pop("VIRTUAL_ENV", None)
    (scratch / "home").mkdir(parents=True, exist_ok=True)
    return env


def script(page_blocks: List[Block]) -> str:
    parts = ["set -eo pipefail"]
    for n, b in enumerate(page_blocks):
        parts.append(f"printf '\\n--> %s\\n' {b.where()!r} >&2")
        parts.append(f"echo {n} > \"$WALKTHROUGH_AT\"")
        parts.append(b.text)
    parts.append("echo done > \"$WALKTHROUGH_AT\"")
    return "\n".join(parts) + "\n"


def run(keep: bool, pages: List[str]) -> int:
    found = [b for b in all_blocks(ROOT) if b.page in pages]
    scratch = Path(tempfile.mkdtemp(prefix="advisor-walkthrough-"))
    passed = failed = 0
    skipped = [b for b in found if b.skip]
    try:
        env = environment(scratch)
        binary = advisor_bin(env)
        (scratch / "bin").mkdir()
        # a copy, not a link: a block's own `cargo run` in the shared target dir
        # rebuilds target/debug/advisor with other features
        shutil.copy2(binary.resolve(), scratch / "bin" / "advisor")
        env["PATH"] = f"{scratch / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        repo = scratch / "repo"
        copy_tree(ROOT, repo)
        for page in pages:
            runnable = [b for b in found if b.page == page and not b.skip]
            for b in (b for b in found if b.page == page and b.skip):
                print(f"walkthrough: {b.where()} not run: {b.skip}", file=sys.stderr)
            if not runnable:
                continue
            at = scratch / "at"
            at.write_text("start")
            env["WALKTHROUGH_AT"] = str(at)
            print(f"walkthrough: {page}: {len(runnable)} block(s)", file=sys.stderr, flush=True)
            log = scratch / (page.replace("/", "_") + ".log")
            try:
                with open(log, "wb") as out:
                    proc = subprocess.run(
                        ["bash", "-c", script(runnable)], cwd=repo, env=env, timeout=PAGE_TIMEOUT,
                        stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                    )
                code = proc.returncode
            except subprocess.TimeoutExpired:
                code = -1
            reached = at.read_text().strip()
            if code == 0 and reached == "done":
                passed += len(runnable)
                continue
            index = int(reached) if reached.isdigit() else 0
            passed += index
            failed += len(runnable) - index
            bad = runnable[index]
            why = "timed out" if code == -1 else f"exit status {code}"
            tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-60:]
            print(f"walkthrough: the block at {bad.where()} failed ({why}):\n{bad.text}", file=sys.stderr)
            print("walkthrough: the last lines it printed:\n  " + "\n  ".join(tail), file=sys.stderr)
            print(f"walkthrough: the {len(runnable) - index - 1} later block(s) of {page} did not run", file=sys.stderr)
    finally:
        if keep:
            print(f"walkthrough: scratch kept in {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print(f"walkthrough: {passed} passed, {failed} failed, {len(skipped)} skipped")
    return 0 if failed == 0 else 1


def self_test() -> int:
    page = "\n".join([
        "# t", "```sh", "echo one", "```", "```text", "$ not run", "```",
        "```sh no-run: needs a GPU", "nvidia-smi", "```", "````bash", "```", "echo nested", "````",
    ])
    got = blocks("t.md", page)
    assert [(b.line, b.text, b.skip) for b in got] == [
        (2, "echo one", None), (8, "nvidia-smi", "needs a GPU"), (11, "```\necho nested", None),
    ], got
    for bad, why in [("```sh no-run:\nx\n```", "needs a reason"), ("```sh skip\nx\n```", "unknown info-string")]:
        try:
            blocks("t.md", bad)
        except BlockError as e:
            assert why in str(e), e
        else:
            raise AssertionError(f"accepted: {bad!r}")
    # the real pages parse, and each has a block that runs
    found = all_blocks(ROOT)
    for p in PAGES:
        assert any(b.page == p and not b.skip for b in found), f"{p} has no block that runs"
    print("walkthrough self-test: 3 passed, 0 failed")
    return 0


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="list the blocks; run nothing")
    ap.add_argument("--self-test", action="store_true", help="test the block parser")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    ap.add_argument("--page", action="append", help="run only this page (repeatable; for local use)")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    try:
        if args.list:
            for b in all_blocks(ROOT):
                print(f"{b.where()}: {'not run: ' + b.skip if b.skip else 'runs'}")
            return 0
        return run(args.keep, args.page or PAGES)
    except BlockError as e:
        print(f"walkthrough: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
