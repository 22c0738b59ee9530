"""AdvisorConfig and TaskMaterial: the protocol's names and defaults, the Rust
builder's validation, each rejection naming its field; both pickle."""

import pickle

import pytest

from advisor import AdvisorConfig, ConfigError, TaskMaterial


def test_defaults_match_the_rust_builder():
    c = AdvisorConfig()
    assert c.max_interventions == 2
    assert c.periodic_review_interval is None
    assert c.max_advisor_attempts == 3
    assert c.max_revision_attempts == 2
    assert c.fail_open is True
    assert c.screen_hints is False
    assert c.repeat_streak_escalation is False
    assert c.cue_path == "self_check"
    assert c.finish_tool == "submit"
    assert (c.history_max_messages, c.history_max_bytes) == (40, 48_000)


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"max_advisor_attempts": 0}, "max_advisor_attempts"),
        ({"max_revision_attempts": 0}, "max_revision_attempts"),
        ({"repeat_streak_escalation": True}, "repeat_streak_escalation"),
        ({"repeat_streak_escalation": True, "screen_hints": False}, "repeat_streak_escalation"),
        ({"finish_tool": "  "}, "finish_tool"),
        ({"history_max_messages": 0}, "history_max_messages"),
        ({"history_max_bytes": 0}, "history_max_bytes"),
        ({"history_max_bytes": -1}, "history_max_bytes"),
        ({"max_interventions": -1}, "max_interventions"),
        ({"max_interventions": 2**32}, "max_interventions"),
        ({"periodic_review_interval": -3}, "periodic_review_interval"),
        ({"periodic_review_interval": 0}, "periodic_review_interval"),
        ({"cue_path": "hint"}, "cue_path"),
    ],
)
def test_each_rejected_combination_names_its_field(kwargs, field):
    with pytest.raises(ConfigError) as e:
        AdvisorConfig(**kwargs)
    assert e.value.field == field
    assert str(e.value).startswith(f"invalid advisor configuration: {field}: ")
    assert isinstance(e.value, ValueError)


def test_streak_escalation_is_accepted_with_screening():
    c = AdvisorConfig(repeat_streak_escalation=True, screen_hints=True, cue_path="reasoning_prefill")
    assert c.repeat_streak_escalation and c.screen_hints and c.cue_path == "reasoning_prefill"


def test_periodic_interval_none_means_finishes_only_as_in_rust():
    assert AdvisorConfig(periodic_review_interval=None).periodic_review_interval is None
    assert AdvisorConfig(periodic_review_interval=3).periodic_review_interval == 3


def test_config_and_task_pickle_for_ray():
    c = AdvisorConfig(max_interventions=5, periodic_review_interval=4, fail_open=False, finish_tool="finish")
    assert pickle.loads(pickle.dumps(c)) == c
    assert pickle.loads(pickle.dumps(c)).to_dict() == c.to_dict()
    t = TaskMaterial("Fix merge.", {"tests/test_hidden.py": "assert merge([]) == []"})
    t2 = pickle.loads(pickle.dumps(t))
    assert t2 == t and t2.files == {"tests/test_hidden.py": "assert merge([]) == []"}
    assert "assert merge" not in repr(t)  # privileged text is not printed


def test_the_attempt_token_budget_is_the_rust_configs_max_review_tokens():
    assert AdvisorConfig().max_review_tokens is None
    c = AdvisorConfig(max_review_tokens=20_000)
    assert c.max_review_tokens == 20_000 and c.to_dict()["max_review_tokens"] == 20_000
    assert pickle.loads(pickle.dumps(c)) == c
    with pytest.raises(ConfigError) as e:
        AdvisorConfig(max_review_tokens=-1)
    assert e.value.field == "max_review_tokens"


def test_a_spent_attempt_budget_keeps_the_draft_without_asking_the_model():
    from conftest import CONTINUE, HISTORY, Scripted, calls, finish

    from advisor import Advisor

    model = Scripted(CONTINUE, CONTINUE)
    a = Advisor(AdvisorConfig(max_review_tokens=1), TaskMaterial("task", {"hidden.py": "x"}), model)
    a.review(HISTORY, finish(), lambda r: "never")
    assert len(model.requests) == 1  # the first call starts: nothing is spent yet
    out = a.review(HISTORY, finish("again"), lambda r: "never")
    assert calls(out) and out["content"] == "again"
    assert len(model.requests) == 1, "no advisor call once the attempt's budget is spent"


def test_the_package_exports_only_its_own_names():
    import types

    import advisor

    public = {n for n in dir(advisor) if not n.startswith("_")}
    modules = {n for n in public if isinstance(getattr(advisor, n), types.ModuleType)}
    assert modules <= {"testing"}, modules
    assert public - modules == set(advisor.__all__), public - modules - set(advisor.__all__)
