"""Shared helpers of the Python tests: a scripted advisor model (a callable
that answers from a list and records what it was asked), finish drafts in the
OpenAI chat format, and the `advisor` CLI for the trace round trip."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

from advisor.testing import CONTINUE, decision

REPO = Path(__file__).resolve().parents[3]


class Scripted:
    """An advisor model callable: answers in order, records each request."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.requests: List[List[Dict[str, Any]]] = []

    def __call__(self, messages: List[Dict[str, Any]]) -> str:
        self.requests.append(messages)
        if not self.answers:
            raise RuntimeError("scripted model exhausted")
        return self.answers.pop(0)


def finish(text: str = "done; submitting", tool: str = "submit") -> Dict[str, Any]:
    """An assistant draft that calls the finish tool."""
    return {
        "role": "assistant",
        "content": text,
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": tool, "arguments": "{}"}}],
    }


def calls(message: Dict[str, Any], tool: str = "submit") -> bool:
    return any(c["function"]["name"] == tool for c in message.get("tool_calls", []))


HISTORY = [
    {"role": "system", "content": "You are a coding agent."},
    {"role": "user", "content": "Make merge keep insertion order for equal keys."},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"id": "c0", "type": "function", "function": {"name": "run", "arguments": {"cmd": "pytest -k merge"}}}],
    },
    {"role": "tool", "tool_call_id": "c0", "name": "run", "content": "1 passed"},
]


@pytest.fixture
def advisor_bin() -> Optional[str]:
    """The `advisor` CLI: $ADVISOR_BIN, then PATH, then $CARGO_TARGET_DIR (else the
    repository's target/), debug then release. Missing is a failure under CI and
    a skip elsewhere, with the places looked in."""
    target = Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target")
    if not target.is_absolute():
        target = REPO / target
    candidates = [os.environ.get("ADVISOR_BIN"), shutil.which("advisor")]
    candidates += [str(target / p / "advisor") for p in ("debug", "release")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    why = f"the advisor CLI was not found in $ADVISOR_BIN, on PATH or under {target} (run `cargo build`, or set ADVISOR_BIN)"
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


__all__ = ["CONTINUE", "HISTORY", "REPO", "Scripted", "calls", "decision", "finish"]
