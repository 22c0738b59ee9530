"""Fail-open on a model that errors (a raising callable, an endpoint answering
500, garbage answers), and the Rust errors as Python exceptions when
fail_open is off."""

import pytest
from conftest import HISTORY, Scripted, finish

from advisor import (
    Advisor,
    AdvisorConfig,
    AdvisorDecisionError,
    OpenAICompatible,
    RolloutError,
    RolloutTrace,
    TaskMaterial,
    summarize,
)
from advisor.testing import MockOpenAIServer

TASK = TaskMaterial("task")


def broken(_messages):
    raise ConnectionError("advisor backend down")


def test_a_raising_model_keeps_the_draft_and_is_recorded(tmp_path):
    trace = RolloutTrace(tmp_path / "t.jsonl", "a1", "t", "advised")
    a = Advisor(AdvisorConfig(max_advisor_attempts=2), TASK, broken, trace=trace)
    out = a.review(HISTORY, finish("the draft"), lambda r: "never")
    assert out["content"] == "the draft"
    trace.end("failed")
    s = summarize(tmp_path)
    assert s["arms"]["advised"]["fail_open_events"] == 1
    assert s["arms"]["advised"]["effectively_unadvised"] == 1


def test_an_endpoint_answering_500_fails_open():
    with MockOpenAIServer(lambda _r: (500, '{"error": "boom"}')) as server:
        model = OpenAICompatible(server.base_url, "mock", max_retries=0)
        a = Advisor(AdvisorConfig(max_advisor_attempts=1), TASK, model)
        assert a.review(HISTORY, finish("kept"), lambda r: "never")["content"] == "kept"
        assert server.requests == 1


def test_fail_open_off_raises_the_rust_message():
    a = Advisor(AdvisorConfig(fail_open=False, max_advisor_attempts=2), TASK, broken)
    with pytest.raises(RolloutError) as e:
        a.review(HISTORY, finish(), lambda r: "never")
    assert e.value.kind == "model"
    assert str(e.value) == "the advisor model failed: the model callable raised ConnectionError: advisor backend down"


def test_invalid_answers_with_fail_open_off_raise_the_decision_error_without_the_answer():
    model = Scripted('{"action": "SECRET-ANSWER"}', "SECRET-ANSWER prose")
    a = Advisor(AdvisorConfig(fail_open=False, max_advisor_attempts=2), TASK, model)
    with pytest.raises(AdvisorDecisionError) as e:
        a.review(HISTORY, finish(), lambda r: "never")
    assert "SECRET-ANSWER" not in str(e.value) and len(model.requests) == 2


def test_a_failing_regenerate_raises_with_fail_open_off():
    from conftest import decision

    model = Scripted(decision("RECONSIDER_SUBMISSION", "PREMATURE_SUBMISSION"))
    a = Advisor(AdvisorConfig(fail_open=False), TASK, model)

    def regenerate(_r):
        raise ValueError("solver crashed")

    with pytest.raises(RolloutError) as e:
        a.review(HISTORY, finish(), regenerate)
    assert e.value.kind == "revision"
    assert str(e.value) == "the revision failed: regenerate raised ValueError: solver crashed"


def test_missing_key_variable_names_the_field(monkeypatch):
    from advisor import ConfigError

    monkeypatch.delenv("ADVISOR_TEST_NO_SUCH_KEY", raising=False)
    with pytest.raises(ConfigError) as e:
        OpenAICompatible("http://127.0.0.1:9/v1", "m", api_key_env="ADVISOR_TEST_NO_SUCH_KEY")
    assert e.value.field == "api_key" and "ADVISOR_TEST_NO_SUCH_KEY" in str(e.value)
    with pytest.raises(ConfigError) as e:
        OpenAICompatible("ftp://x", "m")
    assert e.value.field == "base_url"
