"""Answers as a user gets them: questions asked through the answer engine itself
(`answers.engine.ask.
ask`, the path every channel calls), with the configured LLM when there is one.

Retrieval quality and the extractive step are measured without an LLM; this step is what they
cannot show: the LLM's answer against the reference answer, and how often out-of-scope questions
are refused once the understanding step's validity check and the context-relevance call take part.
It is opt-in (`--engine-answers N`), as each question costs LLM calls.

Scores over the whole answer text (citation links reduced to their titles): hit, the answer
contains a gold string (SQuAD); f1, SQuAD's token F1 against an FAQ's written answer. A refused
question scores 0. The guru's saved answers are deleted first, so every question is answered
anew rather than replayed from the answer cache.
"""

import asyncio
import re
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openguru.answers.engine.ask import AskRequest, ask
from openguru.answers.engine.providers import Providers
from openguru.answers.services import guru_questions_delete
from openguru.evaluation.answer_grounding import grounding_summary, guru_answers_ground
from openguru.evaluation.answer_quality import contains_span, token_f1
from openguru.evaluation.concurrency import ordered_map
from openguru.evaluation.datasets import Query, ReferenceAnswer
from openguru.evaluation.decision_traces import decision_summary, stored_traces
from openguru.gurus.models import Guru

_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")  # [Title](link) -> Title


@dataclass(frozen=True)
class EngineAnswer:
    refused: bool
    content: str
    error: str  # the error event's code, "" when the answer completed
    extractive: bool
    first_text_ms: float  # from the request to the first answer text
    cached: bool = False  # replayed from an earlier answer


def engine_answer(*, guru: Guru, question: str, providers: Providers) -> EngineAnswer:
    """Ask one question and collect the stream. Blocking: call it from a plain thread."""
    return asyncio.run(_collect(AskRequest(guru=guru, question=question), providers))


async def _collect(request: AskRequest, providers: Providers) -> EngineAnswer:
    started = time.perf_counter()
    first_text_ms = 0.0
    parts: list[str] = []
    refused, extractive, error, cached = False, False, "", False
    async for event in ask(request, providers):
        if event.name == "meta":
            refused = bool(event.data.get("refused"))
            cached = bool(event.data.get("cached"))
        elif event.name == "delta":
            first_text_ms = first_text_ms or (time.perf_counter() - started) * 1000
            parts.append(event.data["text"])
        elif event.name == "done":
            extractive = bool(event.data.get("extractive"))
        else:
            error = str(event.data.get("code", "error"))
    return EngineAnswer(refused, "".join(parts), error, extractive, first_text_ms, cached)


def answer_score(answer: EngineAnswer, reference: ReferenceAnswer) -> float:
    if answer.refused or answer.error:
        return 0.0
    text = _LINK.sub(r"\1", answer.content)
    if reference.spans:
        return float(contains_span(text, reference.spans))
    return token_f1(text, reference.prose)


@dataclass(frozen=True)
class EngineAnswerRun:
    dataset: str
    out_of_scope: str  # where the out-of-scope questions came from
    answered: list[tuple[EngineAnswer, ReferenceAnswer]]  # in-scope questions
    outside: list[EngineAnswer]  # out-of-scope questions
    traces: list[dict[str, Any]] = field(default_factory=list)  # the decision traces stored
    grounding: dict[str, Any] = field(default_factory=dict)  # answers flagged; {}: not checked

    def record(self) -> dict[str, object]:
        everything = [a for a, _ in self.answered] + self.outside
        in_scope = [answer for answer, _ in self.answered]
        kinds = {"hit" if reference.spans else "f1" for _, reference in self.answered}
        record: dict[str, object] = {
            "dataset": self.dataset,
            "answerer": _answerer(everything),
            "questions": len(in_scope),
            "answered": _share(in_scope, lambda a: not a.refused and not a.error),
            "out_of_scope": self.out_of_scope,
            "out_of_scope_questions": len(self.outside),
            "refused_out_of_scope": _share(self.outside, lambda a: a.refused),
            "errors": sum(bool(a.error) for a in everything),
            "first_text_ms_p50": _median([a.first_text_ms for a in everything if a.first_text_ms]),
            **decision_summary(self.traces, reused=sum(a.cached for a in everything)),
        }
        if self.grounding:
            record["grounding"] = self.grounding
        for kind in sorted(kinds):
            scores = [
                answer_score(answer, reference)
                for answer, reference in self.answered
                if bool(reference.spans) == (kind == "hit")
            ]
            record[kind] = round(sum(scores) / len(scores), 4)
        return record


def _answerer(answers: Sequence[EngineAnswer]) -> str:
    completed = [a for a in answers if not a.refused and not a.error]
    if not completed:
        return "none"
    return "extractive" if all(a.extractive for a in completed) else "llm"


def _share(answers: Sequence[EngineAnswer], test: Callable[[EngineAnswer], bool]) -> float:
    return round(sum(map(test, answers)) / len(answers), 4) if answers else 0.0


def _median(values: Sequence[float]) -> float:
    return round(statistics.median(values), 1) if values else 0.0


def engine_answer_run(
    *,
    guru: Guru,
    dataset: str,
    in_scope: Sequence[tuple[Query, ReferenceAnswer]],
    out_of_scope: str,
    outside: Sequence[Query],
    workers: int,
    providers: Providers,
) -> EngineAnswerRun:
    guru_questions_delete(guru=guru)

    def one(query: Query) -> EngineAnswer:
        return engine_answer(guru=guru, question=query.text, providers=providers)

    answers = ordered_map(one, [query for query, _ in in_scope], workers=workers)
    refusals = ordered_map(one, list(outside), workers=workers)
    references = [reference for _, reference in in_scope]
    guru_answers_ground(guru=guru, workers=workers, providers=providers)
    return EngineAnswerRun(
        dataset=dataset,
        out_of_scope=out_of_scope,
        answered=list(zip(answers, references, strict=True)),
        outside=refusals,
        traces=stored_traces(guru=guru),
        grounding=grounding_summary(guru=guru),
    )
