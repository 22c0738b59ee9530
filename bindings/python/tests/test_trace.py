"""The private trace written by the Rust writer, read back by `advisor
summarize` (the CLI) and by `summarize` (Python) alike."""

import json
import pickle
import subprocess

import pytest
from conftest import CONTINUE, HISTORY, Scripted, decision, finish

from advisor import ROLLOUT_TRACE_SCHEMA, Advisor, AdvisorConfig, RolloutTrace, TaskMaterial, summarize


def run_attempts(tmp_path):
    task = TaskMaterial("task", {"hidden.py": "secret"})
    intervene = decision("RECONSIDER_SUBMISSION", "PREMATURE_SUBMISSION")
    t1 = RolloutTrace(tmp_path / "a1.jsonl", "a1", "t", "advised")
    a1 = Advisor(AdvisorConfig(), task, Scripted(intervene, CONTINUE), trace=t1)
    a1.review(HISTORY, finish(), lambda r: "revising")
    a1.review(HISTORY, finish(), lambda r: "never")
    t1.end("passed")
    (tmp_path / "nested").mkdir()
    t2 = RolloutTrace(tmp_path / "nested" / "a2.jsonl", "a2", "t", "advised")
    a2 = Advisor(AdvisorConfig(max_advisor_attempts=1), task, Scripted("garbage"), trace=t2)
    a2.review(HISTORY, finish(), lambda r: "never")
    t2.end(False)
    with RolloutTrace(tmp_path / "u1.jsonl", "u1", "t", "unadvised") as u1:
        u1.end(True)


def test_trace_lines_are_the_rust_schema(tmp_path):
    run_attempts(tmp_path)
    events = [json.loads(line) for line in (tmp_path / "a1.jsonl").read_text().splitlines()]
    assert all(e["schema"] == ROLLOUT_TRACE_SCHEMA == "advisor.rollout.v1" for e in events)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    kinds = [e["event"] for e in events]
    assert kinds[0] == "attempt_start" and kinds[-1] == "attempt_end" and kinds.count("attempt_end") == 1
    assert "cue_delivered" in kinds and events[-1]["outcome"] == "passed"


def test_python_summarize_equals_advisor_summarize(tmp_path, advisor_bin):
    run_attempts(tmp_path)
    cli = subprocess.run([advisor_bin, "summarize", "--json", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert cli.returncode == 0, cli.stderr
    from_cli = json.loads(cli.stdout)
    from_py = summarize(tmp_path)
    assert from_py == from_cli
    adv = from_py["arms"]["advised"]
    assert adv["attempts"] == 2 and adv["interventions"] == 1
    assert adv["interventions_by_action"] == {"RECONSIDER_SUBMISSION": 1}
    assert adv["effectively_unadvised"] == 1 and adv["pass_rate"] == 0.5
    assert from_py["arms"]["unadvised"]["attempts"] == 1
    assert from_py["malformed"] == []


def test_malformed_lines_are_listed(tmp_path):
    (tmp_path / "broken.jsonl").write_text('{"schema":"advisor.rollout.v1"}\n')
    s = summarize([tmp_path / "broken.jsonl"])
    assert len(s["malformed"]) == 1 and "broken.jsonl:1:" in s["malformed"][0]
    with pytest.raises(OSError, match="advisor summarize"):
        summarize(tmp_path / "missing.jsonl")


def test_live_objects_refuse_to_pickle(tmp_path):
    t = RolloutTrace(tmp_path / "x.jsonl", "x", "t")
    a = Advisor(AdvisorConfig(), TaskMaterial("t"), Scripted(), trace=t)
    for obj in (t, a):
        with pytest.raises(TypeError, match="Ray task"):
            pickle.dumps(obj)


def test_a_trace_creates_its_missing_directories(tmp_path):
    path = tmp_path / "traces" / "deep" / "attempt-1.jsonl"
    with RolloutTrace(path, "attempt-1", "merge-ties", arm="advised") as t:
        t.end("passed")
    assert summarize(tmp_path / "traces")["arms"]["advised"]["attempts"] == 1


def test_a_trace_that_cannot_be_opened_names_its_path(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where a directory should be")
    with pytest.raises(OSError) as e:
        RolloutTrace(blocker / "attempt-1.jsonl", "a", "t")
    assert str(blocker) in str(e.value), str(e.value)
