"""The answer engine: one entry point every channel calls (web UI, REST API, widget, bots).

Flow (default mode): question understanding (LLM, structured output) runs concurrently with
retrieval; relevance scoring (reranker, else one LLM call, else calibrated cosine) feeds the trust
gate; only then the answer call streams. That is at most 2 sequential LLM round trips before the
first token; "fast" mode skips waiting for understanding and makes it 1.
"""

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings

from openguru.answers import events
from openguru.answers.context import build_contexts, references_for
from openguru.answers.events import AnswerEvent
from openguru.answers.extractive import extractive_answer
from openguru.answers.gate import trust_gate
from openguru.answers.models import Binge, Question
from openguru.answers.prompts import (
    RELEVANCE_SCHEMA,
    UNDERSTAND_SCHEMA,
    answer_messages,
    relevance_messages,
    understand_messages,
)
from openguru.answers.retrieval import Candidate, RetrievalResult, retrieve
from openguru.answers.selectors import binge_history, question_find_cached, question_slug_for
from openguru.answers.services import AnswerRecord, out_of_context_record, question_save
from openguru.answers.trace import trace_for
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.models import PlatformSettings
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


@dataclass
class Understanding:
    valid: bool = True
    question: str = ""
    slug: str = ""
    description: str = ""
    user_intent: str = ""
    answer_length: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


async def _understand(llm: LLM | None, request: AskRequest, history: list[str]) -> Understanding:
    if llm is None:
        return Understanding(question=request.question, slug=question_slug_for(request.question))
    messages = understand_messages(guru=request.guru, question=request.question, history=history)
    try:
        result = await llm.complete_json(messages, schema=UNDERSTAND_SCHEMA, name="understanding")
    except DomainError as exc:  # understanding is an optimisation: answer without it
        logger.warning("question understanding failed: %s", exc)
        return Understanding(question=request.question, slug=question_slug_for(request.question))
    data = result.data
    return Understanding(
        valid=bool(data.get("valid", True)),
        question=str(data.get("question") or request.question),
        slug=question_slug_for(str(data.get("slug") or request.question)),
        description=str(data.get("description", "")),
        user_intent=str(data.get("user_intent", "")),
        answer_length=int(data.get("answer_length") or 0),
        prompt_tokens=result.usage.prompt_tokens,
        completion_tokens=result.usage.completion_tokens,
    )


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


def _retrieve(guru: Guru, queries: list[str], question_vector: list[float]) -> RetrievalResult:
    reranker = get_reranker()
    return retrieve(
        known_vectors={queries[0]: question_vector},
        collection=guru.collection_name,
        queries=queries,
        mode="hybrid_rerank" if reranker else "hybrid",
        limit=settings.RETRIEVAL_CANDIDATES,
        embedder=get_embedder(),
        store=get_vector_store(),
        reranker=reranker,
    )


def _platform_settings() -> PlatformSettings:
    return PlatformSettings.objects.get_or_create(pk=1)[0]


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


async def _ask(request: AskRequest) -> AsyncIterator[AnswerEvent]:
    started = time.perf_counter()
    guru, llm = request.guru, get_llm()
    fast = (request.mode or settings.ANSWER_MODE) == "fast"
    platform = await sync_to_async(_platform_settings)()
    embedder = get_embedder()
    if guru.embedding_model != embedder.model_name:
        raise DomainError(
            ErrorCode.NOT_CONFIGURED,
            f"This guru was indexed with {guru.embedding_model}; re-index it for "
            f"{embedder.model_name} (POST /api/gurus/{guru.slug}/reembed/).",
        )

    vector = await asyncio.to_thread(embedder.embed_query, request.question)
    existing = None
    if request.binge is None and platform.answer_cache_enabled:
        existing = await sync_to_async(question_find_cached)(
            guru=guru,
            text=request.question,
            vector=vector,
            min_similarity=platform.similar_question_threshold,
        )
        if existing is not None and not existing.stale:
            async for event in _replay(existing):
                yield event
            return

    history = await sync_to_async(binge_history)(binge=request.binge) if request.binge else []
    # Understanding overlaps retrieval; it is awaited (default mode) or collected at the end (fast).
    understanding_task: asyncio.Task[Understanding] = asyncio.create_task(  # noqa: RUF006
        _understand(llm, request, [q for q, _ in history])
    )
    # A follow-up ("and how do I undo it?") leans on the previous question for its meaning.
    variants = [request.question] + ([f"{history[-1][0]} {request.question}"] if history else [])
    retrieval = await asyncio.to_thread(_retrieve, guru, variants, vector)
    sequential_calls = 0
    if llm is not None and get_reranker() is None and not fast and retrieval.candidates:
        sequential_calls += await _llm_relevance(llm, request.question, retrieval.candidates)
    understanding = (
        Understanding(question=request.question, slug=question_slug_for(request.question))
        if fast
        else await understanding_task
    )
    if not fast and llm is not None:
        sequential_calls = max(sequential_calls, 1)  # understanding and relevance overlap

    decision = trust_gate(
        retrieval.candidates,
        threshold=platform.trust_score_threshold,
        margin=platform.trust_score_margin,
        max_keep=settings.RETRIEVAL_TOP_TEXT + settings.RETRIEVAL_TOP_CODE,
    )
    trace = trace_for(retrieval, decision, fast=fast, llm=llm is not None)
    if not decision.passed or not understanding.valid:
        trace["sequential_llm_calls"] = sequential_calls
        trace["refused_because"] = "not_valid" if not understanding.valid else "low_relevance"
        await sync_to_async(out_of_context_record)(
            guru=guru,
            user_question=request.question,
            source=request.source,
            best_score=decision.best,
            trace=trace,
        )
        yield events.meta(slug=None, references=[], trust_score=0.0, refused=True)
        yield events.delta(REFUSAL)
        yield events.done(refused=True, content=REFUSAL)
        understanding_task.cancel()
        return

    contexts = build_contexts(
        decision.kept, max_text=settings.RETRIEVAL_TOP_TEXT, max_code=settings.RETRIEVAL_TOP_CODE
    )
    references = references_for(contexts)
    slug = understanding.slug or question_slug_for(request.question)
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
            guru=guru,
            question=understanding.question or request.question,
            contexts=contexts,
            history=history,
        )
        async for chunk in llm.stream(messages):
            if chunk.delta:
                parts.append(chunk.delta)
                yield events.delta(chunk.delta)
            if chunk.model:
                usage["model"] = chunk.model
            if chunk.usage:
                usage["prompt_tokens"] += chunk.usage.prompt_tokens
                usage["completion_tokens"] += chunk.usage.completion_tokens
    if fast:
        understanding = await understanding_task  # ran alongside the answer; used for saving
    trace["sequential_llm_calls"] = sequential_calls
    record = AnswerRecord(
        slug=slug,
        question=understanding.question or request.question,
        user_question=request.question,
        content="".join(parts),
        references=references,
        trust_score=round(decision.trust_score, 4),
        source=request.source,
        description=understanding.description,
        user_intent=understanding.user_intent,
        answer_length=understanding.answer_length,
        cited_source_ids=sorted({c.source_id for c in contexts}),
        extractive=llm is None,
        llm_model=usage["model"] or (llm.model if llm else ""),
        prompt_tokens=usage["prompt_tokens"] + understanding.prompt_tokens,
        completion_tokens=usage["completion_tokens"] + understanding.completion_tokens,
        latency_ms=int((time.perf_counter() - started) * 1000),
        trace=trace,
        vector=vector,
    )
    question = await sync_to_async(question_save)(
        guru=guru, record=record, binge=request.binge, parent=request.parent, existing=existing
    )
    yield events.done(**_question_payload(question))


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
