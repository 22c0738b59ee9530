"""Type stubs of the extension module ``advisor._advisor`` (re-exported by ``advisor``)."""

from os import PathLike
from typing import Any, Awaitable, Callable, Dict, List, Literal, Optional, Sequence, Tuple, Union, final

_Message = Dict[str, Any]
"""An OpenAI chat message: ``{"role", "content"}``, ``tool_calls`` as
``[{"id", "type": "function", "function": {"name", "arguments"}}]``."""
_DraftLike = Union[str, _Message]
"""A draft or revision: its text, or an assistant message dict."""
_CuePathName = Literal["self_check", "reasoning_prefill"]
_ArmName = Literal["advised", "unadvised"]
_OutcomeLike = Union[Literal["passed", "failed", "unknown"], bool]
_StrPath = Union[str, "PathLike[str]"]

ROLLOUT_TRACE_SCHEMA: str
"""``"advisor.rollout.v1"``, the ``schema`` of every trace event."""

class ConfigError(ValueError):
    """A setting was rejected; ``field`` names it (Python spelling)."""

    field: Optional[str]

class AdvisorDecisionError(ValueError):
    """The advisor's answer is not a valid decision. Never contains any part
    of the answer; no cause or context."""

    problems: List[Tuple[str, str]]
    """(location, description) per problem."""

class RolloutError(RuntimeError):
    """A review failed and ``fail_open`` is off."""

    kind: Literal["model", "revision"]

@final
class TaskMaterial:
    """What the task is (``instruction``, public) and what only the advisor
    may see (``files``: path → text of hidden tests, reference, notes)."""

    def __init__(self, instruction: str, files: Optional[Dict[str, str]] = None) -> None: ...
    @property
    def instruction(self) -> str: ...
    @property
    def files(self) -> Dict[str, str]: ...

@final
class AdvisorConfig:
    """Settings of a rollout advisor (the protocol's names and defaults, validated by
    the Rust builder). ``repeat_streak_escalation=True`` needs
    ``screen_hints=True``. Raises ``ConfigError`` naming the field."""

    def __init__(
        self,
        max_interventions: int = 2,
        periodic_review_interval: Optional[int] = None,
        max_advisor_attempts: int = 3,
        max_revision_attempts: int = 2,
        fail_open: bool = True,
        screen_hints: bool = False,
        repeat_streak_escalation: bool = False,
        cue_path: _CuePathName = "self_check",
        finish_tool: str = "submit",
        history_max_messages: int = 40,
        history_max_bytes: int = 48000,
        max_review_tokens: Optional[int] = None,
    ) -> None: ...
    @property
    def max_interventions(self) -> int:
        """B: interventions per attempt."""
    @property
    def periodic_review_interval(self) -> Optional[int]:
        """k; None reviews proposed finishes only (0 is rejected)."""
    @property
    def max_advisor_attempts(self) -> int: ...
    @property
    def max_revision_attempts(self) -> int: ...
    @property
    def fail_open(self) -> bool: ...
    @property
    def screen_hints(self) -> bool: ...
    @property
    def repeat_streak_escalation(self) -> bool: ...
    @property
    def cue_path(self) -> _CuePathName: ...
    @property
    def finish_tool(self) -> str: ...
    @property
    def history_max_messages(self) -> int: ...
    @property
    def history_max_bytes(self) -> int: ...
    @property
    def max_review_tokens(self) -> Optional[int]:
        """Tokens the advisor model may spend in this attempt (every call
        counted); None: no limit. Once spent the draft is kept unreviewed."""
    def to_dict(self) -> Dict[str, Any]: ...

@final
class AdvisorDecision:
    """The advisor's decision, validated by the Rust strict parser."""

    def __init__(
        self,
        intervene: bool,
        confidence: float,
        reason_code: str,
        action: str,
        plan: str = "",
        hint: str = "",
        private_diagnosis: str = "",
    ) -> None: ...
    @staticmethod
    def parse(text: str) -> AdvisorDecision:
        """Raises ``AdvisorDecisionError`` (never containing ``text``)."""
    @property
    def intervene(self) -> bool: ...
    @property
    def confidence(self) -> float: ...
    @property
    def reason_code(self) -> str: ...
    @property
    def action(self) -> str: ...
    @property
    def plan(self) -> str: ...
    @property
    def hint(self) -> str: ...
    @property
    def private_diagnosis(self) -> str: ...
    @property
    def intervenes(self) -> bool:
        """``intervene`` and the action is not CONTINUE."""
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self) -> str: ...

@final
class OpenAICompatible:
    """An OpenAI-compatible endpoint; the key comes from ``api_key_env`` (read
    when built, never pickled). Pickles for Ray."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key_env: Optional[str] = None,
        timeout: float = 60.0,
        max_retries: int = 3,
        max_concurrency: int = 16,
        max_tokens: Optional[int] = 1024,
        temperature: Optional[float] = 0.0,
    ) -> None: ...
    @property
    def base_url(self) -> str: ...
    @property
    def model(self) -> str: ...
    @property
    def api_key_env(self) -> Optional[str]: ...

@final
class RolloutTrace:
    """One attempt's private trace, written by the Rust writer (append mode).
    Not picklable: create it inside the Ray task."""

    def __init__(self, path: _StrPath, rollout_id: str, task_id: str, arm: _ArmName = "advised") -> None: ...
    def end(self, outcome: _OutcomeLike) -> None:
        """Writes ``attempt_end`` once; later calls are ignored."""
    @property
    def path(self) -> "PathLike[str]": ...
    @property
    def rollout_id(self) -> str: ...
    @property
    def arm(self) -> _ArmName: ...
    def __enter__(self) -> RolloutTrace: ...
    def __exit__(self, *args: Any) -> None: ...

@final
class CompiledCue:
    """The solver-safe cue of an intervention."""

    @property
    def text(self) -> str: ...
    @property
    def action(self) -> str: ...
    @property
    def reason_code(self) -> str: ...
    @property
    def path(self) -> _CuePathName: ...
    @property
    def screened(self) -> bool: ...
    @property
    def fell_back(self) -> bool: ...

@final
class Revision:
    """What ``regenerate`` receives."""

    @property
    def cue(self) -> CompiledCue: ...
    @property
    def finish_tool_offered(self) -> bool:
        """True only for CONFIRM_AND_SUBMIT; otherwise withhold the finish tool."""

_ModelCallable = Callable[[List[_Message]], Union[str, Awaitable[str]]]
_Regenerate = Callable[[Revision], Union[_DraftLike, Awaitable[_DraftLike]]]

class Advisor:
    """The privileged advisor of one attempt. Not picklable: build it inside
    the Ray task from a pickled config, task and model."""

    def __init__(
        self,
        config: AdvisorConfig,
        task: TaskMaterial,
        model: Union[OpenAICompatible, _ModelCallable],
        trace: Optional[RolloutTrace] = None,
    ) -> None: ...
    def review(self, history: Sequence[_Message], draft: _DraftLike, regenerate: Callable[[Revision], _DraftLike]) -> _Message:
        """Reviews one solver turn; returns the response to commit as an
        assistant message. Blocks with the GIL released while waiting on the
        model. Raises ``RolloutError`` / ``AdvisorDecisionError`` only with
        ``fail_open=False``."""
    def _review_future(self, history: Sequence[_Message], draft: _DraftLike, regenerate: _Regenerate) -> Awaitable[_Message]: ...
    @property
    def solver_calls(self) -> int:
        """t: solver calls seen (drafts and revisions)."""
    @property
    def interventions(self) -> int:
        """n_t: interventions delivered."""
    @property
    def plan(self) -> str:
        """The private plan carried from the last decision."""
    @property
    def delivered_cues(self) -> List[CompiledCue]: ...
    @property
    def trace(self) -> Optional[RolloutTrace]: ...

def summarize(paths: Union[_StrPath, Sequence[_StrPath]]) -> Dict[str, Any]:
    """The object ``advisor summarize --json`` prints: ``{"arms": {arm: {...}}, "malformed": [...]}``."""

def _rust_reviews(
    config: AdvisorConfig,
    task: TaskMaterial,
    model: OpenAICompatible,
    history: Sequence[_Message],
    n: int,
    concurrent: bool = False,
) -> float: ...
