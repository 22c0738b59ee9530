#!/usr/bin/env python3
"""Put the corpus's real success answers after real failing runs, for `advisor eval`.

A diagnostic of how well the rules read success claims in the words agents really use
(docs/eval.md, "The fifth round"). Every real stop of tests/fixtures/real/repos/ labelled
`pass` whose answer claims tests, a build or the task gives its final answer; each answer
is appended, in the host's own line format, right after a real failing run of two base
cases (BASES). A reader that recognises success claims sends most of them back; some
answers claim nothing the failure contradicts, so this is no labelled set and its recall
is no target. Only the answers' text is reused; nothing is written under the repository.

Usage:
    python3 scripts/transplant_answers.py OUT_DIR
    advisor eval OUT_DIR/labels.jsonl      # blocked = TP; every case is labelled `block`
"""

import json
import os
import sys
from pathlib import Path

REPOS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "real" / "repos"

# (folder, transcript, cut line, derived answer line to copy the format from, host)
BASES = [
    # `make test PY=.venv/bin/python 2>&1 | tail -35`: 5 failed, 399 passed (Claude Code 2.1.220)
    ("darthzen-neuvector-mcp", "claude-2.1.220-2026-07-30-363e853f.jsonl", 485,
     "derived/nv-363e-485-claim.jsonl", "claude"),
    # `go test ./...`: FAIL lms-go/internal/http/api [build failed] (Codex 0.45.0-alpha.5)
    ("arnauddeploiement-lms-go-spec-driven-dev", "codex-0.45.0-alpha.5-2025-10-06-0199b887.jsonl", 2894,
     "derived/lms-2894-claim-en.jsonl", "codex"),
]

MAX_BYTES = 64 * 1024


def final_answer(lines, line):
    """The final answer of the stop at 1-based `line`, or None."""
    try:
        d = json.loads(lines[line - 1])
    except (IndexError, ValueError):
        return None
    if d.get("type") == "assistant":
        content = d.get("message", {}).get("content")
        if isinstance(content, str):
            return content
        text = "\n".join(b.get("text", "") for b in content or [] if b.get("type") == "text")
        return text or None
    p = d.get("payload") or {}
    if p.get("type") == "task_complete" and p.get("last_agent_message"):
        return p["last_agent_message"]
    if p.get("type") == "message" and p.get("role") == "assistant":
        return "\n".join(b.get("text", "") for b in p.get("content", []))
    for earlier in reversed(lines[:line]):
        try:
            p = json.loads(earlier).get("payload") or {}
        except ValueError:
            continue
        if p.get("type") == "agent_message":
            return p.get("message")
    return None


def answers():
    """(label id, claim, split, answer) of every real `pass` stop that claims something."""
    out = []
    for labels in sorted(REPOS.glob("*/labels.jsonl")):
        folder = labels.parent
        for raw in labels.read_text(encoding="utf-8").splitlines():
            d = json.loads(raw)
            if d.get("derived") or d["expected"] != "pass" or d.get("claim") not in ("tests", "build", "task"):
                continue
            transcript = folder / d["transcript"]
            if transcript.suffix != ".jsonl":
                continue
            text = final_answer(transcript.read_text(encoding="utf-8").split("\n"), d["line"])
            if text and text.strip() and len(text.encode()) <= MAX_BYTES:
                out.append((d["id"], d["claim"], d["split"], text))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    (out / "d").mkdir(parents=True, exist_ok=True)
    found = answers()
    with open(out / "labels.jsonl", "w", encoding="utf-8") as labels:
        for b, (folder, transcript, line, template, host) in enumerate(BASES):
            link = out / f"b{b}.jsonl"
            if not link.exists():
                os.symlink(REPOS / folder / transcript, link)
            tmpl = json.loads((REPOS / folder / template).read_text(encoding="utf-8").splitlines()[0])
            for i, (cid, claim, split, text) in enumerate(found):
                line_obj = json.loads(json.dumps(tmpl))
                blocks = line_obj["message"]["content"] if host == "claude" else line_obj["payload"]["content"]
                blocks[0]["text"] = text
                append = f"d/b{b}-{i}.jsonl"
                (out / append).write_text(json.dumps(line_obj) + "\n", encoding="utf-8")
                labels.write(json.dumps({
                    "id": f"b{b}|{cid}", "session": f"transplant/{b}", "repo": "transplant/answers",
                    "transcript": link.name, "line": line, "append": append, "expected": "block",
                    "why": f"a real {claim} answer after a real failing run", "kind": "claim_over_failure",
                    "claim": claim, "derived": True, "derived_reason": "transplanted answer", "split": split,
                }) + "\n")
    print(f"{len(found)} answers x {len(BASES)} bases = {len(found) * len(BASES)} cases in {out}/labels.jsonl")


if __name__ == "__main__":
    main()
