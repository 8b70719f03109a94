"""One answer on its way through the stages: what it was asked, the providers it runs on, and
what each stage learned (the groundwork, the gate's decision, the streamed text, the trace).

The stages (`answers/engine/stages.py`) read and fill it; the engine (`answers/engine/ask.py`)
creates it
and closes it on its one way out, whatever stage the answer stopped at."""

from dataclasses import dataclass, field
from typing import Any

from openguru.answers.engine.gate import GateDecision
from openguru.answers.engine.groundwork import AskRequest, Groundwork
from openguru.answers.engine.providers import Providers
from openguru.answers.engine.retrieval import RetrievalResult
from openguru.answers.engine.trace import Clock, DecisionTrace
from openguru.answers.engine.understanding import Understanding, UnderstandingCall


@dataclass
class StreamedAnswer:
    """What the answer stage produced: the text as streamed, and the answer call's usage."""

    parts: list[str] = field(default_factory=list)
    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def text(self) -> str:
        return "".join(self.parts)


@dataclass
class AnswerRun:
    request: AskRequest
    providers: Providers
    fast: bool  # one LLM round trip before the first token (no relevance call)
    clock: Clock
    understanding_call: UnderstandingCall
    trace: DecisionTrace
    work: Groundwork | None = None
    understanding: Understanding | None = None  # as known when the gate ran
    decision: GateDecision | None = None
    answer: StreamedAnswer = field(default_factory=StreamedAnswer)
    references: list[dict[str, Any]] = field(default_factory=list)
    cited_source_ids: list[int] = field(default_factory=list)
    slug: str = ""

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

    @property
    def retrieval(self) -> RetrievalResult:
        assert self.work is not None and self.work.retrieval is not None, "retrieve ran first"
        return self.work.retrieval

    @property
    def earlier_questions(self) -> list[str]:
        return [question for question, _ in self.work.history] if self.work else []

    def trace_dict(self) -> dict[str, Any]:
        return self.trace.as_dict(self.clock)

    def close(self) -> None:
        """The one cleanup, however the answer ended (answered, reused, refused, failed, or
        its reader went away): no understanding call may keep running with nobody to read it."""
        self.understanding_call.cancel()
