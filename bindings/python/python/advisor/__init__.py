"""The advisor's privileged rollout advisor, for Python harnesses.

A reviewer that did not do the work — and that sees the hidden tests and the
reference material — reviews a solver's proposed finishes (and, optionally,
every k-th turn), and sends the solver back with a solver-safe cue when the
work is not done. The gate, the strict decision parser, the cues, fail-open
and the private trace are the Rust crate's (``advisor::rollout``); this
package is a thin layer over it.

>>> from advisor import AdvisorConfig
>>> AdvisorConfig().max_interventions
2
"""

# typing names under private aliases: `dir(advisor)` lists only the package's own names
from typing import Any as _Any
from typing import Callable as _Callable
from typing import Dict as _Dict
from typing import List as _List
from typing import Union as _Union

from . import _advisor
from ._advisor import (
    ROLLOUT_TRACE_SCHEMA,
    AdvisorConfig,
    AdvisorDecision,
    AdvisorDecisionError,
    CompiledCue,
    ConfigError,
    OpenAICompatible,
    Revision,
    RolloutError,
    RolloutTrace,
    TaskMaterial,
    summarize,
)



class Advisor(_advisor.Advisor):
    """The privileged advisor of one attempt (see the Rust ``rollout::Advisor``).

    ``Advisor(config, task, model, trace=None)``: ``model`` is an
    ``OpenAICompatible`` endpoint or a callable taking the chat messages and
    returning the model's text. ``review`` blocks (the GIL is released while
    the advisor waits on the model); ``review_async`` is a coroutine.
    """

    __slots__ = ()

    async def review_async(
        self,
        history: _List[_Dict[str, _Any]],
        draft: _Union[str, _Dict[str, _Any]],
        regenerate: _Callable[[Revision], _Any],
    ) -> _Dict[str, _Any]:
        """Like ``review``, awaitable; ``regenerate`` (and a callable model)
        may be ``async def``. Runs on the package's Tokio runtime."""
        return await self._review_future(history, draft, regenerate)


__all__ = [
    "ROLLOUT_TRACE_SCHEMA",
    "Advisor",
    "AdvisorConfig",
    "AdvisorDecision",
    "AdvisorDecisionError",
    "CompiledCue",
    "ConfigError",
    "OpenAICompatible",
    "Revision",
    "RolloutError",
    "RolloutTrace",
    "TaskMaterial",
    "summarize",
]
