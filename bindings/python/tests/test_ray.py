"""The Ray example with N = 8 on a local Ray cluster against the mock
advisor; asserts on the summary of the traces, not on any model's judgement
(the mock is deterministic)."""

import json
import os
import subprocess
import sys

import pytest
from conftest import REPO

from advisor import summarize

EXAMPLE = REPO / "examples" / "python" / "ray_rollouts.py"


def test_ray_rollouts_with_eight_attempts(tmp_path):
    try:
        import ray  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("ray is not installed (pip install ray)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADVISOR_LLM_")}
    out = tmp_path / "report.json"
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), "--attempts", "8", "--json", str(out), "--trace-dir", str(tmp_path / "traces")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    report = json.loads(out.read_text())
    # the report's arms are the summary's own: the same names and fields as `advisor summarize`
    assert report["arms"] == summarize(tmp_path / "traces")["arms"]
    assert set(report["arms"]) == {"unadvised", "advised"}
    base, adv = report["arms"]["unadvised"], report["arms"]["advised"]
    assert "effectively_unadvised_rate" in adv and "advised_without_reviews_rate" in adv
    assert report["malformed"] == []
    assert (base["attempts"], adv["attempts"]) == (4, 4)
    # the baseline is never reviewed and submits the first try
    assert base["reviews"] == 0 and base["interventions"] == 0 and base["pass_rate"] == 0.0
    # three advised attempts are sent back once, the one with the endpoint down fails open
    assert adv["interventions"] == 3
    assert adv["interventions_by_action"] == {"RUN_BROADER_VALIDATION": 3}
    assert adv["effectively_unadvised"] == 1 and adv["fail_open_events"] == 1
    assert adv["reviews"] == 6  # intervene, then CONTINUE on the fixed submission
    assert (adv["graded"], adv["passed"], adv["pass_rate"]) == (4, 3, 0.75)
    assert sorted(r["attempt"] for r in report["results"]) == list(range(8))
    assert len(list((tmp_path / "traces").glob("attempt-*.jsonl"))) == 8
