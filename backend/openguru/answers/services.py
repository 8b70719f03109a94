"""Writes of the answer engine: questions, refusals, binges."""

import logging
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import numpy as np
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Count, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from kombu.exceptions import OperationalError

from openguru.answers.models import Binge, OutOfContextQuestion, Question, Vote
from openguru.answers.selectors import question_pages_showing
from openguru.core.metrics import answer_record, refusal_record
from openguru.core.queues import LIGHT_QUEUE
from openguru.core.site_pages import site_pages_revalidate
from openguru.core.task_send import task_send
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource

logger = logging.getLogger(__name__)
GROUNDING_TASK = "openguru.answers.tasks.question_grounding_task"


@dataclass
class AnswerRecord:
    """Everything the engine learned while answering, saved in one write at the end."""

    slug: str
    question: str
    user_question: str
    content: str
    references: list[dict[str, str]]
    trust_score: float
    source: str
    description: str = ""
    user_intent: str = ""
    answer_length: int = 0
    cited_source_ids: list[int] = field(default_factory=list)
    extractive: bool = False
    llm_model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: int = 0
    trace: dict[str, Any] = field(default_factory=dict)
    vector: list[float] | None = None
    version: str = ""  # the documentation version it was answered from


def _unique_slug(guru: Guru, binge: Binge | None, slug: str, exclude_pk: int | None) -> str:
    """`slug`, else the first free `slug-2`, `slug-3`…: the taken ones in one query, however
    often the question was asked (one `exists()` per taken suffix grew with every repeat)."""
    taken_rows = Question.objects.filter(guru=guru, binge=binge, slug__startswith=slug)
    if exclude_pk is not None:
        taken_rows = taken_rows.exclude(pk=exclude_pk)
    taken = set(taken_rows.values_list("slug", flat=True))
    candidate, n = slug, 2
    while candidate in taken:
        candidate, n = f"{slug}-{n}", n + 1
    return candidate


def question_save(
    *,
    guru: Guru,
    record: AnswerRecord,
    binge: Binge | None = None,
    parent: Question | None = None,
    existing: Question | None = None,
) -> Question:
    """Create the question, or overwrite `existing` (a stale answer being regenerated)."""
    question = existing or Question(guru=guru, binge=binge, parent=parent)
    for name in (
        "question", "user_question", "content", "references", "trust_score", "source",
        "description", "user_intent", "answer_length", "extractive", "llm_model",
        "prompt_tokens", "completion_tokens", "latency_ms", "trace", "version",
    ):  # fmt: skip
        setattr(question, name, getattr(record, name))
    question.description = record.description[:300]
    question.user_intent = record.user_intent[:300]
    question.stale = False
    question.follow_up_examples = None  # suggested for the previous answer, not this one
    question.grounding = None  # checked for the previous answer, not this one
    if record.vector is not None:
        question.vector = np.asarray(record.vector, dtype="<f4").tobytes()
    base_slug = record.slug if not existing else question.slug
    for attempt in range(3):
        question.slug = _unique_slug(guru, binge, base_slug, question.pk)
        if attempt == 2:
            # Still racing other asks of the same words for the next number (many at once,
            # the answer cache off): a suffix of its own ends the race.
            question.slug = f"{question.slug}-{secrets.token_hex(3)}"
        try:
            with transaction.atomic():
                question.save()
                question.cited_sources.set(
                    DataSource.objects.filter(pk__in=record.cited_source_ids)
                )
                if not record.extractive and settings.ANSWER_GROUNDING:
                    transaction.on_commit(partial(_send_grounding, question.pk))
                site_pages_revalidate(paths=question_pages_showing(question=question))
            answer_record(channel=record.source, trace=record.trace)
            return question
        except IntegrityError:  # a concurrent ask took the slug between check and insert
            if attempt == 2:
                raise
    return question


def _send_grounding(question_id: int) -> None:
    try:
        task_send(GROUNDING_TASK, question_id, queue=LIGHT_QUEUE)
    except OperationalError:  # the broker is down: the answer stands, unchecked
        logger.warning("question %s: the broker is unreachable; not checked", question_id)


def out_of_context_record(
    *, guru: Guru, user_question: str, source: str, best_score: float, trace: dict[str, Any]
) -> OutOfContextQuestion:
    refusal_record(reason=str(trace.get("refused_because", "")))
    return OutOfContextQuestion.objects.create(
        guru=guru, user_question=user_question, source=source, best_score=best_score, trace=trace
    )


def guru_questions_delete(*, guru: Guru) -> None:
    """Forget every answer and refusal of a guru: its next questions are answered anew."""
    with transaction.atomic():
        Question.objects.filter(guru=guru).delete()
        OutOfContextQuestion.objects.filter(guru=guru).delete()
        site_pages_revalidate(gurus=[guru.slug])


def binge_create(*, guru: Guru, root_question: Question, owner: User | None = None) -> Binge:
    return Binge.objects.create(guru=guru, root_question=root_question, owner=owner)


def binge_open(*, guru: Guru, owner: User | None) -> Binge:
    """A binge with no root, for an answer given in the light of a conversation the client
    kept itself: saved in it, the answer is never reused for someone without that history."""
    return Binge.objects.create(guru=guru, owner=owner)


def binge_discard_if_empty(*, binge: Binge) -> None:
    """Drop a binge opened for an ask if nothing was saved in it (declined, or failed)."""
    Binge.objects.filter(pk=binge.pk, questions__isnull=True).delete()


def binge_for_answer(*, owner: User, guru: Guru, question_id: int, binge: Binge | None) -> Binge:
    """The session an API answer belongs to: the one it was asked in, else a session rooted at
    it. Asking the same question again reuses that owner's session while it has no follow-ups,
    so a repeated (cached) question does not leave a new empty session each time."""
    if binge is not None:
        return binge
    unused = Binge.objects.filter(
        guru=guru, owner=owner, root_question_id=question_id, questions__isnull=True
    ).first()
    return unused or Binge.objects.create(guru=guru, root_question_id=question_id, owner=owner)


def binge_delete(*, binge: Binge) -> None:
    binge.delete()


def vote_record(
    *,
    question: Question,
    voter: str,
    vote_type: str,
    feedback: str = "",
    source: str = Question.Source.WIDGET,
) -> Vote:
    """The voter's vote on an answer; voting again replaces the earlier vote."""
    with transaction.atomic():
        vote, _ = Vote.objects.update_or_create(
            question=question,
            voter=voter,
            defaults={"vote_type": vote_type, "feedback": feedback, "source": source},
        )
        question_upvotes_recount(question_ids=[question.pk])
    return vote


def question_upvotes_recount(*, question_ids: list[int]) -> None:
    """Set each question's `upvotes` from its votes (one per voter)."""
    upvotes = (
        Vote.objects.filter(question=OuterRef("pk"), vote_type=Vote.Type.UP)
        .order_by()
        .values("question")
        .annotate(n=Count("pk"))
        .values("n")
    )
    Question.objects.filter(pk__in=question_ids).update(
        upvotes=Coalesce(Subquery(upvotes), Value(0))
    )


def question_follow_ups_save(*, question: Question, examples: list[str]) -> None:
    Question.objects.filter(pk=question.pk).update(follow_up_examples=examples)
    question.follow_up_examples = examples


TRACE_PRUNE_BATCH = 5000  # rows per UPDATE: short transactions, no long row locks


def _traces_clear(model: type[Question] | type[OutOfContextQuestion], cutoff: datetime) -> int:
    cleared = 0
    old = model.objects.filter(created_at__lt=cutoff).exclude(trace={}).order_by()
    while ids := list(old.values_list("pk", flat=True)[:TRACE_PRUNE_BATCH]):
        cleared += model.objects.filter(pk__in=ids).update(trace={})
    return cleared


def traces_prune(*, now: datetime | None = None) -> int:
    """Empty the decision traces of answers and refusals older than `TRACE_RETENTION_DAYS`
    (0 keeps them): the question, its answer and its counts stay; the trace is the bulk of a
    row and only ever read to explain a recent answer."""
    days = settings.TRACE_RETENTION_DAYS
    if days <= 0:
        return 0
    cutoff = (now or timezone.now()) - timedelta(days=days)
    return _traces_clear(Question, cutoff) + _traces_clear(OutOfContextQuestion, cutoff)
