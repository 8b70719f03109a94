"""The answer engine: one entry point every channel calls (web UI, REST API, widget, bots).

Flow: question understanding (LLM, structured output) starts alongside retrieval and is never
waited for; relevance scoring (reranker, else one LLM call in default mode, else calibrated
cosine) feeds the trust gate; then the answer streams. Default mode: 2 sequential LLM round
trips before the first token (relevance, answer); "fast" mode: 1 (the answer).
"""

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings

from openguru.answers import events
from openguru.answers.context import build_contexts, references_for
from openguru.answers.events import AnswerEvent
from openguru.answers.extractive import extractive_answer
from openguru.answers.fusion import Candidate
from openguru.answers.gate import trust_gate
from openguru.answers.models import Binge, Question
from openguru.answers.prompts import (
    RELEVANCE_SCHEMA,
    answer_messages,
    relevance_messages,
)
from openguru.answers.retrieval import RetrievalResult, retrieve
from openguru.answers.selectors import (
    binge_history,
    question_find_same,
    question_find_similar,
)
from openguru.answers.services import AnswerRecord, out_of_context_record, question_save
from openguru.answers.trace import trace_for
from openguru.answers.understanding import Understanding, understand, understanding_if_ready
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.models import PlatformSettings
from openguru.core.threads import run_blocking
from openguru.gurus.models import Guru
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.llm.base import LLM
from openguru.providers.llm.factory import get_llm
from openguru.providers.rerank.factory import get_reranker
from openguru.providers.vectorstore.factory import get_vector_store

logger = logging.getLogger(__name__)

REFUSAL = (
    "I don't know. The sources this Guru has read don't cover that question, so I won't guess. "
    "Try rephrasing it, or ask about something in its documentation."
)
RELEVANCE_TOP = 8


@dataclass(frozen=True)
class AskRequest:
    guru: Guru
    question: str
    source: str = Question.Source.USER
    binge: Binge | None = None
    parent: Question | None = None
    mode: str = ""  # "" -> settings.ANSWER_MODE
    received_at: float | None = None  # time.perf_counter() when the channel got the question


async def _llm_relevance(llm: LLM, question: str, candidates: list[Candidate]) -> int:
    """Score the top candidates with one LLM call (Gurubase's context relevance). Returns calls."""
    head = candidates[:RELEVANCE_TOP]
    try:
        result = await llm.complete_json(
            relevance_messages(question=question, contexts=[c.hit.text for c in head]),
            schema=RELEVANCE_SCHEMA,
            name="relevance",
        )
    except DomainError as exc:
        logger.warning("relevance scoring failed, using retrieval scores: %s", exc)
        return 1
    scores = result.data.get("scores", [])
    for candidate, score in zip(head, scores, strict=False):
        if isinstance(score, int | float):
            candidate.rerank = max(0.0, min(1.0, float(score)))
    for candidate in candidates[RELEVANCE_TOP:]:
        candidate.rerank = 0.0  # unscored tail: never above what the model judged
    return 1


def _retrieve(
    guru: Guru, queries: list[str], while_searching: Callable[[list[float]], None]
) -> RetrievalResult:
    reranker = get_reranker()
    return retrieve(
        while_searching=while_searching,
        collection=guru.collection_name,
        queries=queries,
        mode="hybrid_rerank" if reranker else "hybrid",
        limit=settings.RETRIEVAL_CANDIDATES,
        embedder=get_embedder(),
        store=get_vector_store(),
        reranker=reranker,
    )


_SETTINGS_TTL_SECONDS = 5.0
_settings_cache: tuple[float, PlatformSettings] | None = None


def _platform_settings() -> PlatformSettings:
    """The thresholds row, re-read at most every few seconds: one query less per answer."""
    global _settings_cache
    now = time.monotonic()
    if _settings_cache is None or now - _settings_cache[0] > _SETTINGS_TTL_SECONDS:
        _settings_cache = (now, PlatformSettings.objects.get_or_create(pk=1)[0])
    return _settings_cache[1]


async def ask(request: AskRequest) -> AsyncIterator[AnswerEvent]:
    """Answer a question as a stream of events: meta, delta..., done (or error)."""
    try:
        async for event in _ask(request):
            yield event
    except DomainError as exc:
        yield events.error(str(exc.code), exc.msg)
    except Exception:
        logger.exception("answer failed")
        yield events.error("internal_error", "Something went wrong while answering.")


@dataclass
class _Prepared:
    platform: PlatformSettings
    use_cache: bool  # earlier answers may be reused: not inside a binge, cache enabled
    existing: Question | None
    history: list[tuple[str, str]]
    timings_ms: dict[str, float]

    @property
    def reusable(self) -> bool:
        return self.existing is not None and not self.existing.stale


def _prepare(request: AskRequest) -> _Prepared:
    """Everything before retrieval, in one thread hop: settings, the exact-match answer cache
    (a repeated question costs no embedding), the binge history."""
    clock = _Clock()
    platform = _platform_settings()
    use_cache = request.binge is None and platform.answer_cache_enabled
    existing = question_find_same(guru=request.guru, text=request.question) if use_cache else None
    history = binge_history(binge=request.binge) if request.binge else []
    clock.lap("cache_lookup_ms")
    return _Prepared(platform, use_cache, existing, history, clock.laps)


@dataclass
class _Searched:
    retrieval: RetrievalResult
    vector: list[float]
    similar: Question | None  # a near-duplicate earlier answer, when the cache may be used


def _search(request: AskRequest, prepared: _Prepared, variants: list[str]) -> _Searched:
    """Retrieval, with the near-duplicate lookup overlapping its dense searches."""
    similar: list[Question | None] = [None]
    look_for_similar = prepared.use_cache and prepared.existing is None

    def find_similar(vector: list[float]) -> None:
        if look_for_similar:
            similar[0] = question_find_similar(
                guru=request.guru,
                vector=vector,
                min_similarity=prepared.platform.similar_question_threshold,
            )

    retrieval = _retrieve(request.guru, variants, find_similar)
    return _Searched(retrieval, retrieval.query_vector or [], similar[0])


class _Clock:
    """Named laps in milliseconds, for the trace: where an answer's time went."""

    def __init__(self, started: float | None = None) -> None:
        self.started = time.perf_counter() if started is None else started
        self._last = self.started
        self.laps: dict[str, float] = {}

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = (now - self._last) * 1000
        self._last = now

    def mark(self, name: str) -> None:
        """Time since the clock started (e.g. when the first token left)."""
        self.laps[name] = (time.perf_counter() - self.started) * 1000


def _check_index_model(guru: Guru) -> None:
    model = get_embedder().model_name
    if guru.embedding_model != model:
        raise DomainError(
            ErrorCode.NOT_CONFIGURED,
            f"This guru was indexed with {guru.embedding_model}; re-index it for "
            f"{model} (POST /api/gurus/{guru.slug}/reembed/).",
        )


async def _ask(request: AskRequest) -> AsyncIterator[AnswerEvent]:
    clock = _Clock(request.received_at)
    clock.lap("request_ms")  # from the view's first line: parsing, guru lookup, rate limit
    guru, llm = request.guru, get_llm()
    fast = (request.mode or settings.ANSWER_MODE) == "fast"
    _check_index_model(guru)
    prepared = await run_blocking(_prepare, request)
    clock.lap("prepare_ms")
    if prepared.reusable:
        assert prepared.existing is not None
        async for event in _replay(prepared.existing):
            yield event
        return
    platform, history = prepared.platform, prepared.history

    # Understanding (prettified question, SEO fields, validity) overlaps everything else; the
    # answer uses it only if it has already arrived, so it never adds a round trip.
    understanding_task: asyncio.Task[Understanding] = asyncio.create_task(  # noqa: RUF006
        understand(llm, guru=guru, question=request.question, history=[q for q, _ in history])
    )
    # A follow-up ("and how do I undo it?") leans on the previous question for its meaning.
    variants = [request.question] + ([f"{history[-1][0]} {request.question}"] if history else [])
    searched = await run_blocking(_search, request, prepared, variants)
    clock.lap("retrieve_ms")
    retrieval, vector = searched.retrieval, searched.vector
    if searched.similar is not None and not searched.similar.stale:
        # A near-duplicate is only known after the embedding; the understanding call already
        # started is dropped (rare, and far cheaper than an answer).
        understanding_task.cancel()
        async for event in _replay(searched.similar):
            yield event
        return
    existing = prepared.existing or searched.similar
    sequential_calls = 0
    if llm is not None and get_reranker() is None and not fast and retrieval.candidates:
        sequential_calls += await _llm_relevance(llm, request.question, retrieval.candidates)
        clock.lap("relevance_ms")
    understanding = understanding_if_ready(understanding_task, request.question)

    decision = trust_gate(
        retrieval.candidates,
        threshold=platform.trust_score_threshold,
        margin=platform.trust_score_margin,
        max_keep=settings.RETRIEVAL_TOP_TEXT + settings.RETRIEVAL_TOP_CODE,
    )
    trace = trace_for(retrieval, decision, fast=fast, llm=llm is not None)
    timings: dict[str, float] = trace["timings_ms"]
    trace["understanding_ready"] = understanding_task.done()
    if not decision.passed or not understanding.valid:
        timings |= _rounded(prepared.timings_ms | clock.laps)
        trace["sequential_llm_calls"] = sequential_calls
        trace["refused_because"] = "not_valid" if not understanding.valid else "low_relevance"
        understanding_task.cancel()
        await run_blocking(
            partial(
                out_of_context_record,
                guru=guru,
                user_question=request.question,
                source=request.source,
                best_score=decision.best,
                trace=trace,
            )
        )
        yield events.meta(slug=None, references=[], trust_score=0.0, refused=True)
        yield events.delta(REFUSAL)
        yield events.done(refused=True, content=REFUSAL)
        return

    contexts = build_contexts(
        decision.kept, max_text=settings.RETRIEVAL_TOP_TEXT, max_code=settings.RETRIEVAL_TOP_CODE
    )
    references = references_for(contexts)
    slug = existing.slug if existing else understanding.slug
    clock.mark("meta_ms")
    yield events.meta(
        slug=slug, references=references, trust_score=round(decision.trust_score, 4), refused=False
    )

    parts: list[str] = []
    usage: dict[str, Any] = {"model": "", "prompt_tokens": 0, "completion_tokens": 0}
    if llm is None:
        text = extractive_answer(question=request.question, contexts=contexts)
        parts.append(text)
        yield events.delta(text)
    else:
        sequential_calls += 1
        messages = answer_messages(
            guru=guru, question=understanding.question, contexts=contexts, history=history
        )
        async for chunk in llm.stream(messages):
            if chunk.delta:
                if not parts:
                    clock.mark("first_token_ms")
                parts.append(chunk.delta)
                yield events.delta(chunk.delta)
            if chunk.model:
                usage["model"] = chunk.model
            if chunk.usage:
                usage["prompt_tokens"] += chunk.usage.prompt_tokens
                usage["completion_tokens"] += chunk.usage.completion_tokens
    # Ran alongside the answer: its description, intent and prettified question are saved.
    final = await understanding_task
    timings |= _rounded(prepared.timings_ms | clock.laps)
    trace["sequential_llm_calls"] = sequential_calls
    record = AnswerRecord(
        slug=slug,
        question=final.question or request.question,
        user_question=request.question,
        content="".join(parts),
        references=references,
        trust_score=round(decision.trust_score, 4),
        source=request.source,
        description=final.description,
        user_intent=final.user_intent,
        answer_length=final.answer_length,
        cited_source_ids=sorted({c.source_id for c in contexts}),
        extractive=llm is None,
        llm_model=usage["model"] or (llm.model if llm else ""),
        prompt_tokens=usage["prompt_tokens"] + final.prompt_tokens,
        completion_tokens=usage["completion_tokens"] + final.completion_tokens,
        latency_ms=int((time.perf_counter() - clock.started) * 1000),
        trace=trace,
        vector=vector,
    )
    question = await run_blocking(
        partial(
            question_save,
            guru=guru,
            record=record,
            binge=request.binge,
            parent=request.parent,
            existing=existing,
        )
    )
    yield events.done(**_question_payload(question))


def _rounded(timings: dict[str, float]) -> dict[str, float]:
    return {name: round(ms, 1) for name, ms in timings.items()}


async def _replay(question: Question) -> AsyncIterator[AnswerEvent]:
    yield events.meta(
        slug=question.slug,
        references=question.references,
        trust_score=question.trust_score,
        refused=False,
        cached=True,
    )
    yield events.delta(question.content)
    yield events.done(**_question_payload(question), cached=True)


def _question_payload(question: Question) -> dict[str, Any]:
    return {
        "slug": question.slug,
        "question": question.question,
        "content": question.content,
        "references": question.references,
        "trust_score": question.trust_score,
        "description": question.description,
        "extractive": question.extractive,
        "binge_id": str(question.binge_id) if question.binge_id else None,
        "refused": False,
    }
