"""N attempts of a small coding task as Ray tasks, half unadvised, half advised.

Each attempt runs in a Ray task on a local Ray cluster (``ray.init()`` on this
machine) with its own ``Advisor`` and its own private trace; the driver then
summarises the traces (the code behind ``advisor summarize``) and prints that
summary as it is: per arm (``unadvised`` and ``advised``, the names
``advisor summarize`` and the traces use) the counts, interventions by action
and reason, ``effectively_unadvised`` and ``advised_without_reviews`` with
their rates, and the pass rate.

The task: write ``dedupe(xs)`` keeping the first occurrence of each item in
order. The solver is scripted (deterministic, no model): it first submits
``list(set(xs))`` after a narrow check; sent back with a cue, it validates more
broadly — it really runs its code on an ordered case — and fixes it. The
grader runs the hidden test on the submitted code.

The advisor model is a local mock OpenAI-compatible server on 127.0.0.1
(``advisor.testing.MockOpenAIServer``; it intervenes while the draft under
review still uses ``list(set(``, and one advised attempt gets an endpoint that
is down, so fail-open shows up as ``effectively_unadvised``). With
``ADVISOR_LLM_BASE_URL`` set (``scripts/local-llm.sh run -- python …``), the
advised arm asks that model instead (SmolLM2-135M: expect fail-open).

    python examples/python/ray_rollouts.py --attempts 8 [--json report.json] [--trace-dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from typing import Any, Dict, List

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import ray  # noqa: E402

from advisor import Advisor, AdvisorConfig, OpenAICompatible, RolloutTrace, TaskMaterial, summarize  # noqa: E402
from advisor.testing import CONTINUE, MockOpenAIServer, decision, user_prompt  # noqa: E402

INSTRUCTION = (
    "Write `dedupe(xs)`: remove duplicate items from a list, keeping the first "
    "occurrence of each item, in their original order. Submit the code with the `submit` tool."
)
HIDDEN_TEST = "assert dedupe([3, 1, 3, 2, 1]) == [3, 1, 2]\nassert dedupe([]) == []\n"
FIRST_TRY = "def dedupe(xs):\n    return list(set(xs))\n"
FIXED = "def dedupe(xs):\n    return list(dict.fromkeys(xs))\n"
OUTAGE_MODEL = "mock-outage"


def passes(code: str, test: str) -> bool:
    """Runs `test` against `code` in a fresh namespace."""
    scope: Dict[str, Any] = {}
    try:
        exec(code, scope)  # noqa: S102 (the example's own, fixed code)
        exec(test, scope)  # noqa: S102
        return True
    except Exception:
        return False


def submit(text: str, code: str) -> Dict[str, Any]:
    call = {"id": "call_submit", "type": "function", "function": {"name": "submit", "arguments": json.dumps({"code": code})}}
    return {"role": "assistant", "content": text, "tool_calls": [call]}


def mock_advisor(request: Dict[str, Any]) -> Any:
    """The mock advisor: down for OUTAGE_MODEL; intervenes while the draft
    under review still drops the order (`list(set(`); else CONTINUE."""
    if request.get("model") == OUTAGE_MODEL:
        return (503, '{"error": "advisor endpoint unavailable"}')
    draft = user_prompt(request).split("## The draft under review", 1)[-1]
    if "list(set(" in draft:
        return decision("RUN_BROADER_VALIDATION", "INSUFFICIENT_END_TO_END_VALIDATION", plan="1. order kept 2. empty input")
    return CONTINUE


@ray.remote(num_cpus=0.5)
def attempt(index: int, arm: str, config: AdvisorConfig, task: TaskMaterial, model: Any, trace_dir: str) -> Dict[str, Any]:
    """One attempt of the scripted solver; `model` is None for the unadvised arm."""
    trace = RolloutTrace(os.path.join(trace_dir, f"attempt-{index}.jsonl"), f"attempt-{index}", "dedupe", arm)
    advisor = Advisor(config, task, model, trace=trace) if model is not None else None
    history: List[Dict[str, Any]] = [{"role": "user", "content": task.instruction}]
    code = FIRST_TRY
    narrow = passes(code, "assert sorted(dedupe([1, 1, 2])) == [1, 2]")

    def regenerate(revision: Any) -> Dict[str, Any]:
        # The cue asked for more validation (the finish tool is withheld):
        # check order on a real case, and fix the code if it fails.
        nonlocal code
        ordered = passes(code, "assert dedupe([2, 1, 2]) == [2, 1]")
        if not ordered:
            code = FIXED
        return {"role": "assistant", "content": f"Cue taken ({revision.cue.action}): order check {'passed' if ordered else 'failed; switched to dict.fromkeys'}."}

    submitted = None
    for _turn in range(6):
        draft = submit(f"The narrow check {'passed' if narrow else 'failed'}; submitting.", code)
        committed = advisor.review(history, draft, regenerate) if advisor else draft
        history.append(committed)
        finish = [c for c in committed.get("tool_calls", []) if c["function"]["name"] == "submit"]
        if finish:
            submitted = json.loads(finish[0]["function"]["arguments"])["code"]
            break
    passed = submitted is not None and passes(submitted, HIDDEN_TEST)
    trace.end(passed)
    return {"attempt": index, "arm": arm, "passed": passed}


def report(summary: Dict[str, Any], attempts: int) -> Dict[str, Any]:
    """The summary as `advisor summarize --json` prints it (same arms, same
    fields, rates included), with the number of attempts run."""
    return {"attempts": attempts, "arms": summary["arms"], "malformed": summary["malformed"]}


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--attempts", type=int, default=8, help="N (half unadvised, half advised)")
    ap.add_argument("--json", help="also write the report here")
    ap.add_argument("--trace-dir", help="where the private traces go (default: a temporary directory)")
    args = ap.parse_args(argv)
    trace_dir = args.trace_dir or tempfile.mkdtemp(prefix="advisor-ray-")
    os.makedirs(trace_dir, exist_ok=True)
    task = TaskMaterial(INSTRUCTION, {"tests/test_hidden.py": HIDDEN_TEST})
    config = AdvisorConfig(max_interventions=2)
    real = os.environ.get("ADVISOR_LLM_BASE_URL")
    server = None if real else MockOpenAIServer(mock_advisor).start()
    try:
        if real:
            model = OpenAICompatible(real, os.environ.get("ADVISOR_LLM_MODEL", "smollm2-135m"), timeout=120)
            outage = model
        else:
            model = OpenAICompatible(server.base_url, "mock", max_retries=0)
            outage = OpenAICompatible(server.base_url, OUTAGE_MODEL, max_retries=0)
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            futures = []
            for i in range(args.attempts):
                arm = "unadvised" if i % 2 == 0 else "advised"
                m = None if arm == "unadvised" else (outage if i == args.attempts - 1 else model)
                futures.append(attempt.remote(i, arm, config, task, m, trace_dir))
            results = ray.get(futures)
        finally:
            ray.shutdown()
    finally:
        if server:
            server.stop()
    out = report(summarize(trace_dir), args.attempts)
    out["results"] = sorted(results, key=lambda r: r["attempt"])
    out["trace_dir"] = trace_dir
    text = json.dumps(out, indent=2, sort_keys=True)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text)
    return 0 if not out["malformed"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
