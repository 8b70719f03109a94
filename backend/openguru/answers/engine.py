"""The answer engine: one entry point every channel calls (web UI, REST API, widget, bots).

Flow: the groundwork (answer cache, retrieval) runs in one worker-thread hop; question
understanding (LLM, structured output) starts alongside retrieval in default mode and with the
first answer token in fast mode, and is never waited for; relevance scoring (reranker, else one
LLM call in default mode, else calibrated cosine) feeds the trust gate; then the answer streams.
Default mode: 2 sequential LLM round trips before the first token (relevance, answer); "fast"
mode: 1 (the answer).
"""

import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator
from functools import partial
from typing import Any

from django.conf import settings

from openguru.answers import events
from openguru.answers.context import answer_contexts, references_for
from openguru.answers.events import AnswerEvent
from openguru.answers.extractive import extractive_answer
from openguru.answers.fusion import Candidate
from openguru.answers.gate import answer_gate
from openguru.answers.groundwork import AskRequest, groundwork_gather
from openguru.answers.models import Question
from openguru.answers.prompts import (
    RELEVANCE_SCHEMA,
    answer_messages,
    relevance_messages,
)
from openguru.answers.refusal import refusal_message
from openguru.answers.services import AnswerRecord, out_of_context_record, question_save
from openguru.answers.trace import Clock, trace_for
from openguru.answers.understanding import UnderstandingCall
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.threads import run_blocking
from openguru.gurus.models import Guru
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.llm.base import LLM
from openguru.providers.llm.factory import get_llm
from openguru.providers.rerank.factory import get_reranker

__all__ = ["AskRequest", "ask"]  # AskRequest lives with the groundwork; channels import it here

logger = logging.getLogger(__name__)

RELEVANCE_TOP = 8
SHORT_EXTRACTIVE_SENTENCES = 3  # a short (API) answer without an LLM quotes fewer sentences


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


async def ask(request: AskRequest) -> AsyncGenerator[AnswerEvent, None]:
    """Answer a question as a stream of events: meta, delta..., done (or error)."""
    understanding_call: UnderstandingCall | None = None
    try:
        llm = get_llm()
        understanding_call = UnderstandingCall(llm, guru=request.guru, question=request.question)
        async for event in _ask(request, llm, understanding_call):
            yield event
    except DomainError as exc:
        yield events.error(str(exc.code), exc.msg)
    except Exception:
        logger.exception("answer failed")
        yield events.error("internal_error", "Something went wrong while answering.")
    finally:
        # A failed answer or a closed stream (the client went away) must not leave the
        # understanding call running with nobody to read it.
        if understanding_call is not None:
            understanding_call.cancel()


def check_index_model(guru: Guru) -> None:
    """Answers and searches need vectors of the model the guru was indexed with."""
    model = get_embedder().model_name
    if guru.embedding_model != model:
        raise DomainError(
            ErrorCode.NOT_CONFIGURED,
            f"This guru was indexed with {guru.embedding_model}; re-index it for "
            f"{model} (POST /api/gurus/{guru.slug}/reembed/).",
        )


async def _ask(
    request: AskRequest, llm: LLM | None, understanding_call: UnderstandingCall
) -> AsyncIterator[AnswerEvent]:
    clock = Clock(request.received_at)
    clock.lap("request_ms")  # from the view's first line: parsing, guru lookup, rate limit
    guru = request.guru
    fast = (request.mode or settings.ANSWER_MODE) == "fast"
    check_index_model(guru)
    # Understanding (prettified question, SEO fields, validity) is never waited for: the answer
    # uses it only if it has already arrived. In default mode it starts alongside retrieval, so
    # it may be back before the answer call; fast mode's answer call follows retrieval within
    # milliseconds, so there it starts with the first token, off the critical path.
    on_searching = _ignore if fast else understanding_call.start_soon
    work = await run_blocking(
        partial(groundwork_gather, request=request, clock=clock, on_searching=on_searching)
    )
    if work.reusable:
        assert work.existing is not None
        async for event in _replay(work.existing):
            yield event
        return
    assert work.retrieval is not None
    platform, history, retrieval, vector = work.platform, work.history, work.retrieval, work.vector
    earlier = [q for q, _ in history]
    if work.similar is not None and not work.similar.stale:
        # A near-duplicate is only known after the embedding; the understanding call already
        # started is dropped (rare, and far cheaper than an answer).
        understanding_call.cancel()
        async for event in _replay(work.similar):
            yield event
        return
    existing = work.existing or work.similar
    sequential_calls = 0
    if llm is not None and get_reranker() is None and not fast and retrieval.candidates:
        sequential_calls += await _llm_relevance(llm, request.question, retrieval.candidates)
        clock.lap("relevance_ms")
    understanding = understanding_call.if_ready()

    decision = answer_gate(
        retrieval.candidates,
        threshold=platform.trust_score_threshold,
        margin=platform.trust_score_margin,
    )
    trace = trace_for(retrieval, decision, fast=fast, llm=llm is not None)
    timings: dict[str, float] = trace["timings_ms"]
    trace["understanding_ready"] = understanding_call.done
    if not decision.passed or not understanding.valid:
        timings |= _rounded(clock.laps)
        trace["sequential_llm_calls"] = sequential_calls
        trace["refused_because"] = "not_valid" if not understanding.valid else "low_relevance"
        understanding_call.cancel()
        message = await run_blocking(partial(_refuse, request, best=decision.best, trace=trace))
        yield events.meta(slug=None, references=[], trust_score=0.0, refused=True)
        yield events.delta(message)
        yield events.done(refused=True, content=message)
        return

    contexts = answer_contexts(decision.kept)
    references = references_for(contexts, source_types=work.source_types)
    slug = existing.slug if existing else understanding.slug
    clock.mark("meta_ms")
    yield events.meta(
        slug=slug, references=references, trust_score=round(decision.trust_score, 4), refused=False
    )

    parts: list[str] = []
    usage: dict[str, Any] = {"model": "", "prompt_tokens": 0, "completion_tokens": 0}
    if llm is None:
        text = extractive_answer(
            question=request.question,
            contexts=contexts,
            max_sentences=SHORT_EXTRACTIVE_SENTENCES if request.short_answer else 5,
        )
        parts.append(text)
        yield events.delta(text)
    else:
        sequential_calls += 1
        messages = answer_messages(
            guru=guru,
            question=understanding.question,
            contexts=contexts,
            history=history,
            short_answer=request.short_answer,
        )
        async for chunk in llm.stream(messages):
            if chunk.delta:
                if not parts:
                    clock.mark("first_token_ms")
                    understanding_call.start(earlier)
                parts.append(chunk.delta)
                yield events.delta(chunk.delta)
            if chunk.model:
                usage["model"] = chunk.model
            if chunk.usage:
                usage["prompt_tokens"] += chunk.usage.prompt_tokens
                usage["completion_tokens"] += chunk.usage.completion_tokens
    # Ran alongside the answer: its description, intent and prettified question are saved.
    final = await understanding_call.result(earlier)
    timings |= _rounded(clock.laps)
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


def _refuse(request: AskRequest, *, best: float, trace: dict[str, Any]) -> str:
    """Record the refused question; the message says why there is no answer."""
    out_of_context_record(
        guru=request.guru,
        user_question=request.question,
        source=request.source,
        best_score=best,
        trace=trace,
    )
    return refusal_message(guru=request.guru)


def _ignore(_history: list[str]) -> None:
    return None


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
        "id": question.pk,
        "slug": question.slug,
        "question": question.question,
        "content": question.content,
        "references": question.references,
        "trust_score": question.trust_score,
        "description": question.description,
        "extractive": question.extractive,
        "binge_id": str(question.binge_id) if question.binge_id else None,
        "date_updated": question.updated_at.isoformat(),
        "refused": False,
    }
