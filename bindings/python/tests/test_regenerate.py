"""A sync and an async `regenerate` (and an async model callable) with
`review` and `review_async`; the GIL is released while the advisor waits."""

import asyncio
import threading

import pytest
from conftest import CONTINUE, HISTORY, Scripted, decision, finish

from advisor import Advisor, AdvisorConfig, OpenAICompatible, TaskMaterial
from advisor.testing import MockOpenAIServer

TASK = TaskMaterial("task")
INTERVENE = decision("RUN_BROADER_VALIDATION", "INSUFFICIENT_END_TO_END_VALIDATION")


def test_sync_regenerate_with_review():
    a = Advisor(AdvisorConfig(), TASK, Scripted(INTERVENE))
    got = []
    out = a.review(HISTORY, finish(), lambda r: got.append(r.cue.action) or {"content": "sync revision"})
    assert out == {"role": "assistant", "content": "sync revision"} and got == ["RUN_BROADER_VALIDATION"]


def test_async_regenerate_with_review_async():
    a = Advisor(AdvisorConfig(), TASK, Scripted(INTERVENE))

    async def regenerate(revision):
        await asyncio.sleep(0)
        return {"content": f"async revision after {revision.cue.action}"}

    out = asyncio.run(a.review_async(HISTORY, finish(), regenerate))
    assert out["content"] == "async revision after RUN_BROADER_VALIDATION"


def test_sync_regenerate_and_async_model_with_review_async():
    async def model(messages):
        await asyncio.sleep(0)
        return INTERVENE

    a = Advisor(AdvisorConfig(), TASK, model)
    out = asyncio.run(a.review_async(HISTORY, finish(), lambda r: "sync in async"))
    assert out["content"] == "sync in async" and a.interventions == 1


def test_async_regenerate_is_refused_by_the_blocking_review():
    async def regenerate(revision):
        return "never"

    a = Advisor(AdvisorConfig(), TASK, Scripted(INTERVENE))
    with pytest.raises(TypeError, match="review_async"):
        a.review(HISTORY, finish(), regenerate)


def test_many_review_async_at_once_against_an_endpoint():
    with MockOpenAIServer() as server:
        model = OpenAICompatible(server.base_url, "mock")

        async def main():
            advisors = [Advisor(AdvisorConfig(), TASK, model) for _ in range(20)]
            return await asyncio.gather(*(a.review_async(HISTORY, finish(f"d{i}"), lambda r: "x") for i, a in enumerate(advisors)))

        outs = asyncio.run(main())
        assert [o["content"] for o in outs] == [f"d{i}" for i in range(20)]
        assert server.requests == 20


def test_the_gil_is_released_while_the_advisor_waits_on_the_network():
    # The mock server runs on Python threads in this process: it can only
    # answer if `review` released the GIL. The handler also waits for this
    # thread to run Python code while the review is in flight.
    arrived, proceed = threading.Event(), threading.Event()

    def respond(_request):
        arrived.set()
        assert proceed.wait(10), "the main thread never ran while the review waited"
        return CONTINUE

    with MockOpenAIServer(respond) as server:
        a = Advisor(AdvisorConfig(), TASK, OpenAICompatible(server.base_url, "mock", timeout=20))
        result = {}
        t = threading.Thread(target=lambda: result.setdefault("out", a.review(HISTORY, finish("d"), lambda r: "x")))
        t.start()
        assert arrived.wait(10)
        proceed.set()  # Python code running here while `review` is blocked in Rust
        t.join(20)
        assert result["out"]["content"] == "d"
