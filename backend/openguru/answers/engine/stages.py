"""The answer engine's stages, in the order an answer goes through them:

  reuse ─► retrieve   one worker-thread hop (`groundwork.py`): the same question answered
                      before is replayed with no search at all; else the searches run, and a
                      near-duplicate found beside the dense searches is replayed instead
  score               relevance of the candidates: the reranker's (already in retrieval), one
                      LLM call in default mode, else the calibrated cosine
  gate                keep what is relevant enough, or refuse
  stream              `meta`, then the answer's deltas (the LLM's, or an extractive answer)
  record              save the question (or the refusal) with its decision trace

Each stage takes the `AnswerRun` (the ask, providers, clock and trace) and what the stages
before it returned, and returns its own result (`pipeline.py`); none builds a provider or cleans
up after itself (the engine closes the run on its one way out)."""

import logging
import time
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

from openguru.answers.engine import events
from openguru.answers.engine.citations import CitationStream
from openguru.answers.engine.context import answer_contexts, references_for
from openguru.answers.engine.events import AnswerEvent
from openguru.answers.engine.extractive import extractive_reply
from openguru.answers.engine.fusion import Candidate
from openguru.answers.engine.gate import answer_gate, guru_threshold
from openguru.answers.engine.groundwork import AskRequest, Groundwork, groundwork_gather
from openguru.answers.engine.pipeline import (
    AnswerPlan,
    AnswerRun,
    Gated,
    Gathered,
    StreamedAnswer,
)
from openguru.answers.engine.prompts import RELEVANCE_SCHEMA, answer_messages, relevance_messages
from openguru.answers.engine.refusal import refusal_message
from openguru.answers.engine.trace import (
    ANSWERED,
    LOW_RELEVANCE,
    NOT_VALID,
    PASSED_GATE,
    REFUSED,
)
from openguru.answers.models import Question
from openguru.answers.services import AnswerRecord, out_of_context_record, question_save
from openguru.core.errors import DomainError
from openguru.core.threads import run_blocking
from openguru.gurus.models import Guru
from openguru.providers.llm.base import LLM

logger = logging.getLogger(__name__)

RELEVANCE_TOP = 8
SHORT_EXTRACTIVE_SENTENCES = 3  # a short (API) answer without an LLM quotes fewer sentences


# --- reuse ─► retrieve ---------------------------------------------------------------------------


async def reuse_or_retrieve(run: AnswerRun) -> Gathered:
    """The groundwork, with an earlier answer to replay if there is one to reuse."""
    # Understanding (prettified question, SEO fields, validity) is never waited for: the answer
    # uses it only if it has already arrived. In default mode it starts alongside retrieval, so
    # it may be back before the answer call; fast mode's answer call follows retrieval within
    # milliseconds, so there it starts with the first token, off the critical path.
    on_searching = _ignore if run.fast else run.understanding_call.start_soon
    work = await run_blocking(
        partial(
            groundwork_gather,
            request=run.request,
            providers=run.providers,
            clock=run.clock,
            on_searching=on_searching,
        )
    )
    if work.reusable:
        return Gathered(work, reused=work.existing)
    if work.similar is not None and not work.similar.stale:
        # known only after the embedding: understanding may have started
        return Gathered(work, reused=work.similar)
    gathered = Gathered(work, reused=None)
    run.trace.retrieved(gathered.retrieval)
    if work.version.version:  # which documentation version was read, and why that one
        run.trace.data["version"] = {"label": work.version.version, "how": work.version.how}
    return gathered


def _ignore(_history: list[str]) -> None:
    return None


async def replay(question: Question) -> AsyncIterator[AnswerEvent]:
    yield events.meta(
        slug=question.slug,
        references=question.references,
        trust_score=question.trust_score,
        refused=False,
        cached=True,
    )
    yield events.delta(question.content)
    yield events.done(**question_payload(question), cached=True)


# --- score ---------------------------------------------------------------------------------------


async def score(run: AnswerRun, candidates: list[Candidate]) -> None:
    """Default mode without a reranker: one LLM call judges the top candidates (their
    `rerank`, in place: the gate reads the candidates as scored)."""
    llm = run.providers.llm
    if llm is None or not _llm_scores(run) or not candidates:
        return
    started = time.perf_counter()
    usage = await llm_relevance(llm, run.request.question, candidates)
    run.trace.llm_call(
        "relevance",
        model=llm.model,
        prompt_tokens=usage[0],
        completion_tokens=usage[1],
        ms=(time.perf_counter() - started) * 1000,
        sequential=True,
    )
    run.clock.lap("relevance_ms")


def _llm_scores(run: AnswerRun) -> bool:
    """Relevance comes from the LLM call, not from retrieval (cosine or the reranker)."""
    return run.providers.llm is not None and run.providers.reranker is None and not run.fast


async def llm_relevance(llm: LLM, question: str, candidates: list[Candidate]) -> tuple[int, int]:
    """Score the top candidates with one LLM call (Gurubase's context relevance). Returns the
    call's (prompt, completion) tokens; a failed call leaves the retrieval scores."""
    head = candidates[:RELEVANCE_TOP]
    try:
        result = await llm.complete_json(
            relevance_messages(question=question, contexts=[c.hit.text for c in head]),
            schema=RELEVANCE_SCHEMA,
            name="relevance",
        )
    except DomainError as exc:
        logger.warning("relevance scoring failed, using retrieval scores: %s", exc)
        return 0, 0
    scores = result.data.get("scores", [])
    for candidate, score_ in zip(head, scores, strict=False):
        if isinstance(score_, int | float):
            candidate.rerank = max(0.0, min(1.0, float(score_)))
    for candidate in candidates[RELEVANCE_TOP:]:
        candidate.rerank = 0.0  # unscored tail: never above what the model judged
    return result.usage.prompt_tokens, result.usage.completion_tokens


# --- gate ----------------------------------------------------------------------------------------


def gate(run: AnswerRun, work: Groundwork) -> Gated:
    assert work.retrieval is not None, "the searches ran"
    platform = work.platform
    understanding = run.understanding_call.if_ready()
    threshold = guru_threshold(
        run.request.guru,
        setting=platform.trust_score_threshold,
        retrieval_relevance=not _llm_scores(run),
    )
    decision = answer_gate(
        work.retrieval.candidates, threshold=threshold, margin=platform.trust_score_margin
    )
    run.trace.gated(decision, setting=threshold, margin=platform.trust_score_margin)
    run.trace.understanding_ready = run.understanding_call.done
    if not understanding.valid:
        run.trace.decide(REFUSED, NOT_VALID)
    elif not decision.passed:
        run.trace.decide(REFUSED, LOW_RELEVANCE)
    else:
        run.trace.decide(ANSWERED, PASSED_GATE)
    passed = understanding.valid and decision.passed
    return Gated(decision=decision, understanding=understanding, passed=passed)


# --- stream --------------------------------------------------------------------------------------


def answer_plan(work: Groundwork, gated: Gated) -> AnswerPlan:
    """The contexts the answer reads, the references shown under it, its slug and trust."""
    contexts = answer_contexts(gated.decision.kept)
    existing = work.existing or work.similar
    return AnswerPlan(
        question=gated.understanding.question,
        contexts=contexts,
        references=references_for(contexts, source_types=work.source_types),
        cited_source_ids=sorted({c.source_id for c in contexts}),
        slug=existing.slug if existing else gated.understanding.slug,
        trust_score=round(gated.decision.trust_score, 4),
    )


async def stream(
    run: AnswerRun, work: Groundwork, plan: AnswerPlan, answer: StreamedAnswer
) -> AsyncIterator[AnswerEvent]:
    """`meta` (slug, references, trust), then the answer as it comes, also into `answer` (a
    generator returns nothing: the text, the sources it cites and the call's usage are kept
    there for the record). The sources listed are those the answer cites, numbered as cited:
    known before `meta` for an extractive answer, at the end for an LLM's."""
    llm = run.providers.llm
    if llm is None:
        extracted = await run_blocking(
            partial(
                extractive_reply,
                question=run.request.question,
                contexts=plan.contexts,
                max_sentences=SHORT_EXTRACTIVE_SENTENCES if run.request.short_answer else 5,
                embedder=run.providers.embedder,
            )
        )
        answer.references = references_for(extracted.cited, source_types=work.source_types)
        run.clock.mark("meta_ms")
        yield _meta(plan, answer.references)
        answer.parts.append(extracted.text)
        yield events.delta(extracted.text)
        return
    run.clock.mark("meta_ms")
    yield _meta(plan, plan.references)
    messages = answer_messages(
        guru=run.request.guru,
        question=plan.question,
        contexts=plan.contexts,
        history=work.history,
        short_answer=run.request.short_answer,
    )
    citations = CitationStream(plan.contexts)
    started = time.perf_counter()
    async for chunk in llm.stream(messages):
        text = citations.feed(chunk.delta) if chunk.delta else ""
        if text:
            if not answer.parts:
                run.clock.mark("first_token_ms")
                run.understanding_call.start(work.earlier_questions)
            answer.parts.append(text)
            yield events.delta(text)
        if chunk.model:
            answer.model = chunk.model
        if chunk.usage:
            answer.prompt_tokens += chunk.usage.prompt_tokens
            answer.completion_tokens += chunk.usage.completion_tokens
    if rest := citations.flush():
        answer.parts.append(rest)
        yield events.delta(rest)
    answer.references = references_for(citations.cited, source_types=work.source_types)
    run.trace.llm_call(
        "answer",
        model=answer.model or llm.model,
        prompt_tokens=answer.prompt_tokens,
        completion_tokens=answer.completion_tokens,
        ms=(time.perf_counter() - started) * 1000,
        sequential=True,
    )


def _meta(plan: AnswerPlan, references: list[dict[str, Any]]) -> AnswerEvent:
    return events.meta(
        slug=plan.slug, references=references, trust_score=plan.trust_score, refused=False
    )


# --- record --------------------------------------------------------------------------------------


async def record_answer(
    run: AnswerRun, work: Groundwork, plan: AnswerPlan, answer: StreamedAnswer
) -> Question:
    # Ran alongside the answer: its description, intent and prettified question are saved.
    final = await run.understanding_call.result(work.earlier_questions)
    _note_understanding(run, final.prompt_tokens, final.completion_tokens)
    llm, request = run.providers.llm, run.request
    record = AnswerRecord(
        slug=plan.slug,
        question=final.question or request.question,
        user_question=request.question,
        content=answer.text,
        references=plan.references if answer.references is None else answer.references,
        trust_score=plan.trust_score,
        source=request.source,
        description=final.description,
        user_intent=final.user_intent,
        answer_length=final.answer_length,
        cited_source_ids=plan.cited_source_ids,
        extractive=llm is None,
        llm_model=answer.model or (llm.model if llm else ""),
        prompt_tokens=answer.prompt_tokens + final.prompt_tokens,
        completion_tokens=answer.completion_tokens + final.completion_tokens,
        latency_ms=int(run.clock.since_start_ms()),
        trace=run.trace_dict(),
        vector=work.vector,
        version=work.version.version,
    )
    return await run_blocking(
        partial(
            question_save,
            guru=request.guru,
            record=record,
            binge=request.binge,
            parent=request.parent,
            existing=work.existing or work.similar,
        )
    )


async def record_refusal(run: AnswerRun, gated: Gated) -> str:
    """Record the refused question; returns the message that says why there is no answer."""
    understanding = gated.understanding
    # Sent in default mode; if it had not come back by the gate its tokens are unknown (0).
    _note_understanding(run, understanding.prompt_tokens, understanding.completion_tokens)
    trace = run.trace_dict()
    request, best = run.request, gated.decision.best
    return await run_blocking(partial(_refuse, request.guru, request, best, trace))


def _refuse(guru: Guru, request: AskRequest, best: float, trace: dict[str, Any]) -> str:
    out_of_context_record(
        guru=guru,
        user_question=request.question,
        source=request.source,
        best_score=best,
        trace=trace,
    )
    return refusal_message(guru=guru)


def refusal_events(message: str) -> list[AnswerEvent]:
    return [
        events.meta(slug=None, references=[], trust_score=0.0, refused=True),
        events.delta(message),
        events.done(refused=True, content=message),
    ]


def _note_understanding(run: AnswerRun, prompt_tokens: int, completion_tokens: int) -> None:
    llm = run.providers.llm
    if llm is None or not run.understanding_call.called:
        return
    run.trace.llm_call(
        "understanding",
        model=llm.model,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        ms=run.understanding_call.ms,
        sequential=False,  # never waited for
    )


def question_payload(question: Question) -> dict[str, Any]:
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
