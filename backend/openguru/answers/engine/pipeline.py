"""One answer on its way through the stages: what it was asked, the providers it runs on, its
clock and decision trace (`AnswerRun`), and what the stages hand each other.

Each stage (`answers/engine/stages.py`) returns what it learned as a frozen result the engine
(`answers/engine/ask.py`) passes to the next: `Gathered` (the groundwork, or an earlier answer
to replay), `Gated` (the gate's decision) and `AnswerPlan` (what the answer is written from).
Only the streamed text is filled in as it comes (`StreamedAnswer`). The engine creates the run
and closes it on its one way out, whatever stage the answer stopped at."""

from dataclasses import dataclass, field
from typing import Any

from openguru.answers.engine.context import Context
from openguru.answers.engine.gate import GateDecision
from openguru.answers.engine.groundwork import AskRequest, Groundwork
from openguru.answers.engine.providers import Providers
from openguru.answers.engine.retrieval import RetrievalResult
from openguru.answers.engine.trace import Clock, DecisionTrace
from openguru.answers.engine.understanding import Understanding, UnderstandingCall
from openguru.answers.models import Question


@dataclass(frozen=True)
class Gathered:
    """Reuse ─► retrieve: the groundwork, and the earlier answer to replay instead, if any."""

    work: Groundwork
    reused: Question | None

    @property
    def retrieval(self) -> RetrievalResult:
        assert self.work.retrieval is not None, "nothing is replayed, so the searches ran"
        return self.work.retrieval


@dataclass(frozen=True)
class Gated:
    """The gate's decision, with the understanding as it was known then."""

    decision: GateDecision
    understanding: Understanding
    passed: bool


@dataclass(frozen=True)
class AnswerPlan:
    """What a passed answer is written from and announced with (the `meta` event)."""

    question: str  # the wording the prompt asks: the prettified one when it came in time
    contexts: list[Context]
    references: list[dict[str, Any]]
    cited_source_ids: list[int]
    slug: str
    trust_score: float


@dataclass
class StreamedAnswer:
    """What the answer stage produced: the text as streamed, the sources it cites (None until
    known) and the answer call's usage."""

    parts: list[str] = field(default_factory=list)
    references: list[dict[str, Any]] | None = None
    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def text(self) -> str:
        return "".join(self.parts)


@dataclass(frozen=True)
class AnswerRun:
    """What every stage of one answer shares: the ask, its providers, its clock, the
    understanding call running alongside and the decision trace the stages add to."""

    request: AskRequest
    providers: Providers
    fast: bool  # one LLM round trip before the first token (no relevance call)
    clock: Clock
    understanding_call: UnderstandingCall
    trace: DecisionTrace

    @classmethod
    def begin(cls, request: AskRequest, providers: Providers, *, mode: str) -> "AnswerRun":
        """On the event loop (the understanding call belongs to it)."""
        clock = Clock(request.received_at)
        clock.lap("request_ms")  # from the view's first line: parsing, guru lookup, rate limit
        llm = providers.llm
        return cls(
            request=request,
            providers=providers,
            fast=(request.mode or mode) == "fast",
            clock=clock,
            understanding_call=UnderstandingCall(llm, guru=request.guru, question=request.question),
            trace=DecisionTrace(fast=(request.mode or mode) == "fast", llm=llm is not None),
        )

    def trace_dict(self) -> dict[str, Any]:
        return self.trace.as_dict(self.clock)

    def close(self) -> None:
        """The one cleanup, however the answer ended (answered, reused, refused, failed, or
        its reader went away): no understanding call may keep running with nobody to read it."""
        self.understanding_call.cancel()
