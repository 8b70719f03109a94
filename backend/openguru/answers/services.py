"""Writes of the answer engine: questions, refusals, binges."""

import logging
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from kombu.exceptions import OperationalError

from openguru.answers.models import Binge, OutOfContextQuestion, Question, Vote
from openguru.core.metrics import answer_record, refusal_record
from openguru.core.queues import LIGHT_QUEUE
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


def _unique_slug(guru: Guru, binge: Binge | None, slug: str, exclude_pk: int | None) -> str:
    taken = Question.objects.filter(guru=guru, binge=binge)
    if exclude_pk is not None:
        taken = taken.exclude(pk=exclude_pk)
    candidate, n = slug, 2
    while taken.filter(slug=candidate).exists():
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
        "prompt_tokens", "completion_tokens", "latency_ms", "trace",
    ):  # fmt: skip
        setattr(question, name, getattr(record, name))
    question.description = record.description[:300]
    question.user_intent = record.user_intent[:300]
    question.stale = False
    question.follow_up_examples = None  # suggested for the previous answer, not this one
    question.grounding = None  # checked for the previous answer, not this one
    if record.vector is not None:
        question.vector = np.asarray(record.vector, dtype="<f4").tobytes()
    for attempt in range(3):
        question.slug = _unique_slug(
            guru, binge, record.slug if not existing else question.slug, question.pk
        )
        try:
            with transaction.atomic():
                question.save()
                question.cited_sources.set(
                    DataSource.objects.filter(pk__in=record.cited_source_ids)
                )
                if not record.extractive and settings.ANSWER_GROUNDING:
                    transaction.on_commit(partial(_send_grounding, question.pk))
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
    vote, _ = Vote.objects.update_or_create(
        question=question,
        voter=voter,
        defaults={"vote_type": vote_type, "feedback": feedback, "source": source},
    )
    return vote


def question_follow_ups_save(*, question: Question, examples: list[str]) -> None:
    Question.objects.filter(pk=question.pk).update(follow_up_examples=examples)
    question.follow_up_examples = examples
