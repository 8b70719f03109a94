"""The answer engine: one entry point every channel calls (the Q&A site, API v1, MCP, the
widget, the Slack and Discord bots, the eval harness and the bench), with the providers the
channel chose (`answers.engine.providers.providers_for`): nothing in here builds a provider.

An answer goes through named stages (`answers/engine/stages.py`): reuse ─► retrieve ─► score ─► gate
─► stream ─► record. Question understanding (LLM, structured output) starts alongside retrieval
in default mode and with the first answer token in fast mode, and is never waited for.
Default mode: 2 sequential LLM round trips before the first token (relevance, answer); "fast"
mode: 1 (the answer).
"""

import logging
from collections.abc import AsyncGenerator, AsyncIterator

from django.conf import settings

from openguru.answers.engine import events, stages
from openguru.answers.engine.events import AnswerEvent
from openguru.answers.engine.groundwork import AskRequest
from openguru.answers.engine.pipeline import AnswerRun, StreamedAnswer
from openguru.answers.engine.providers import Providers
from openguru.answers.engine.stages import RELEVANCE_TOP
from openguru.core.errors import DATABASE_DOWN, DomainError, ErrorCode, database_unavailable
from openguru.gurus.models import Guru
from openguru.providers.embeddings.base import Embedder

# AskRequest lives with the groundwork; channels import it here. RELEVANCE_TOP: the bench's.
__all__ = ["RELEVANCE_TOP", "AskRequest", "Providers", "ask", "check_index_model"]

logger = logging.getLogger(__name__)


async def ask(request: AskRequest, providers: Providers) -> AsyncGenerator[AnswerEvent, None]:
    """Answer a question as a stream of events: meta, delta..., done (or error)."""
    run: AnswerRun | None = None
    try:
        mode = request.guru.answer_mode or settings.ANSWER_MODE  # the ask's own mode wins
        run = AnswerRun.begin(request, providers, mode=mode)
        async for event in answer_stages(run):
            yield event
    except DomainError as exc:
        yield events.error(str(exc.code), exc.msg)
    except DATABASE_DOWN:
        logger.warning("answer failed: the database is down", exc_info=True)
        error = database_unavailable()
        yield events.error(str(error.code), error.msg)
    except Exception:
        logger.exception("answer failed")
        yield events.error("internal_error", "Something went wrong while answering.")
    finally:
        # The one cleanup, for every way out: answered, reused, refused, failed, or closed by
        # a reader that went away.
        if run is not None:
            run.close()


async def answer_stages(run: AnswerRun) -> AsyncIterator[AnswerEvent]:
    """The stages in order; an earlier answer to reuse or a refusal ends the run early."""
    check_index_model(run.request.guru, run.providers.embedder)
    if run.request.remembered is not None:  # found while the ask was prepared
        async for event in stages.replay(run.request.remembered):
            yield event
        return
    gathered = await stages.reuse_or_retrieve(run)
    if gathered.reused is not None:
        async for event in stages.replay(gathered.reused):
            yield event
        return
    work = gathered.work
    await stages.score(run, gathered.retrieval.candidates)
    gated = stages.gate(run, work)
    if not gated.passed:
        for event in stages.refusal_events(await stages.record_refusal(run, gated)):
            yield event
        return
    plan = stages.answer_plan(work, gated)
    answer = StreamedAnswer()
    async for event in stages.stream(run, work, plan, answer):
        yield event
    question = await stages.record_answer(run, work, plan, answer)
    yield events.done(**stages.question_payload(question))


def check_index_model(guru: Guru, embedder: Embedder) -> None:
    """Answers and searches need vectors of the model the guru was indexed with."""
    model = embedder.model_name
    if guru.embedding_model != model:
        raise DomainError(
            ErrorCode.NOT_CONFIGURED,
            f"This guru was indexed with {guru.embedding_model}; re-index it for "
            f"{model} (POST /api/gurus/{guru.slug}/reembed/).",
        )
