"""AdvisorDecision: the Rust strict parser; a planted secret never appears in
an error, and the error has no cause or context."""

import pickle

import pytest

from advisor import AdvisorDecision, AdvisorDecisionError

SECRET = "TOPSECRET-7f3a"
VALID = (
    '{"intervene": false, "confidence": 0.8, "reason_code": "COMPLETE", "action": "CONTINUE", '
    '"plan": "1. verify ties", "hint": "", "private_diagnosis": "fine"}'
)


def test_parses_a_valid_decision_and_a_single_code_fence():
    d = AdvisorDecision.parse(VALID)
    assert (d.intervene, d.action, d.reason_code, d.plan) == (False, "CONTINUE", "COMPLETE", "1. verify ties")
    assert not d.intervenes
    assert AdvisorDecision.parse("```json\n" + VALID + "\n```") == d


@pytest.mark.parametrize(
    "answer, location",
    [
        (VALID[:-1] + f', "{SECRET}": "{SECRET}"}}', "<unknown field>"),
        (VALID.replace('"CONTINUE"', f'["CONTINUE", "{SECRET}"]'), "action"),
        (VALID.replace('"COMPLETE"', f'"{SECRET}"'), "reason_code"),
        (f"{SECRET} says: " + VALID, "$"),
        (VALID + f" {SECRET}", "$"),
        (VALID.replace("0.8", "1.5"), "confidence"),
        (VALID.replace('"hint": ""', f'"hint": "{SECRET}"'), "hint"),
        (VALID.replace('"intervene": false', f'"intervene": "{SECRET}"'), "intervene"),
        (VALID.replace('"plan": "1. verify ties"', f'"plan": ["{SECRET}"]'), "plan"),
        (f'{{"{SECRET}": 1}}', "<unknown field>"),
        (f"not json at all {SECRET}", "$"),
    ],
)
def test_a_planted_secret_never_appears_in_an_error(answer, location):
    with pytest.raises(AdvisorDecisionError) as e:
        AdvisorDecision.parse(answer)
    err = e.value
    assert location in [loc for loc, _ in err.problems]
    everything = str(err) + repr(err) + repr(err.args) + repr(err.problems)
    assert SECRET not in everything
    assert err.__cause__ is None and err.__context__ is None
    assert str(err).startswith("invalid advisor decision:")


def test_consistency_rules_of_the_decision():
    confirm_without_intervene = VALID.replace('"CONTINUE"', '"CONFIRM_AND_SUBMIT"')
    with pytest.raises(AdvisorDecisionError) as e:
        AdvisorDecision.parse(confirm_without_intervene)
    assert ("intervene", "must be true when the action is CONFIRM_AND_SUBMIT") in e.value.problems
    with pytest.raises(AdvisorDecisionError):
        AdvisorDecision.parse(VALID.replace('"intervene": false', '"intervene": true'))


def test_constructor_validates_like_the_parser_and_pickles():
    d = AdvisorDecision(True, 0.6, "PREMATURE_SUBMISSION", "RECONSIDER_SUBMISSION", plan="p", private_diagnosis=SECRET)
    assert d.intervenes and d.to_dict()["action"] == "RECONSIDER_SUBMISSION"
    assert pickle.loads(pickle.dumps(d)) == d
    assert AdvisorDecision.parse(d.to_json()) == d
    with pytest.raises(AdvisorDecisionError) as e:
        AdvisorDecision(False, 0.5, SECRET, "CONTINUE")
    assert SECRET not in str(e.value)
    with pytest.raises(AdvisorDecisionError):
        AdvisorDecision(False, float("nan"), "COMPLETE", "CONTINUE")
