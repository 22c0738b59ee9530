"""The gate g_t = [n_t < B]·[Finish(draft) ∨ t mod k = 0], selective
intervention, and the finish tool withheld unless CONFIRM_AND_SUBMIT (a
revision that calls it anyway is resampled)."""

import json

from conftest import CONTINUE, HISTORY, Scripted, calls, decision, finish

from advisor import Advisor, AdvisorConfig, TaskMaterial

TASK = TaskMaterial("Make merge keep insertion order for equal keys.", {"tests/test_hidden.py": "HIDDEN-TEST-BODY"})


def never(_revision):
    raise AssertionError("regenerate must not be called")


def test_only_finishes_are_reviewed_without_a_periodic_interval():
    model = Scripted(CONTINUE)
    a = Advisor(AdvisorConfig(), TASK, model)
    for _ in range(5):
        assert a.review(HISTORY, "still working", never) == {"role": "assistant", "content": "still working"}
    assert model.requests == []
    out = a.review(HISTORY, finish(), never)
    assert calls(out) and len(model.requests) == 1
    assert a.solver_calls == 6 and a.interventions == 0
    # the advisor (not the solver) sees the privileged material
    assert "HIDDEN-TEST-BODY" in json.dumps(model.requests[0])


def test_every_kth_turn_is_reviewed():
    model = Scripted(CONTINUE, CONTINUE)
    a = Advisor(AdvisorConfig(periodic_review_interval=3), TASK, model)
    reviewed = []
    for t in range(1, 7):
        before = len(model.requests)
        a.review(HISTORY, f"turn {t}", never)
        if len(model.requests) > before:
            reviewed.append(t)
    assert reviewed == [3, 6]


def test_budget_spent_skips_the_review():
    model = Scripted(decision("RUN_BROADER_VALIDATION", "INSUFFICIENT_END_TO_END_VALIDATION"))
    a = Advisor(AdvisorConfig(max_interventions=1), TASK, model)
    out = a.review(HISTORY, finish(), lambda r: "running the full suite")
    assert out == {"role": "assistant", "content": "running the full suite"}
    assert a.interventions == 1
    second = a.review(HISTORY, finish("now really done"), never)
    assert calls(second) and second["content"] == "now really done"
    assert len(model.requests) == 1  # no review once the budget is spent


def test_finish_tool_withheld_and_a_revision_calling_it_is_resampled():
    model = Scripted(decision("RUN_BROADER_VALIDATION", "INSUFFICIENT_END_TO_END_VALIDATION"))
    seen = []
    revisions = [finish("submitting anyway"), "ok, running the edge cases first"]

    def regenerate(revision):
        seen.append(revision)
        return revisions.pop(0)

    a = Advisor(AdvisorConfig(), TASK, model)
    out = a.review(HISTORY, finish(), regenerate)
    assert out["content"] == "ok, running the edge cases first" and not calls(out)
    assert len(seen) == 2  # the first revision called submit without the tool and was resampled
    assert all(not r.finish_tool_offered for r in seen)
    cue = seen[0].cue
    assert cue.action == "RUN_BROADER_VALIDATION" and cue.path == "self_check"
    assert "HIDDEN-TEST-BODY" not in cue.text and "mock" not in cue.text  # no diagnosis reaches the solver


def test_every_revision_calling_finish_keeps_the_draft_under_fail_open():
    model = Scripted(decision("REVIEW_ALL_REQUIREMENTS", "INCOMPLETE_REQUIREMENT_COVERAGE"))
    a = Advisor(AdvisorConfig(max_revision_attempts=2), TASK, model)
    out = a.review(HISTORY, finish("the draft"), lambda r: finish("again"))
    assert out["content"] == "the draft"


def test_confirm_and_submit_offers_the_finish_tool():
    model = Scripted(CONTINUE.replace('"intervene": false', '"intervene": true').replace('"CONTINUE"', '"CONFIRM_AND_SUBMIT"'))
    seen = []

    def regenerate(revision):
        seen.append(revision)
        return finish("final check passed; submitting")

    a = Advisor(AdvisorConfig(periodic_review_interval=1), TASK, model)
    out = a.review(HISTORY, "I think the tree is correct now", regenerate)
    assert len(seen) == 1 and seen[0].finish_tool_offered
    assert seen[0].cue.action == "CONFIRM_AND_SUBMIT"
    assert calls(out)  # accepted, not resampled


def test_state_carries_across_reviews():
    model = Scripted(decision("TRACE_STATE_TRANSITIONS", "UNVERIFIED_STATE_TRANSITIONS", plan="1. ties 2. empty"), CONTINUE)
    a = Advisor(AdvisorConfig(), TASK, model)
    a.review(HISTORY, finish(), lambda r: "tracing")
    assert a.plan == "1. ties 2. empty"
    assert [c.action for c in a.delivered_cues] == ["TRACE_STATE_TRANSITIONS"]
    a.review(HISTORY, finish(), never)
    # the second review shows the advisor its plan and the cue it delivered
    second = json.dumps(model.requests[1])
    assert "1. ties 2. empty" in second and "Cues you already delivered" in second
    assert a.plan == "1. the task (done)"
