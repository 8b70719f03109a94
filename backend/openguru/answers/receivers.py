"""How answers follow their sources (`sources/signals.py`): an answer that cited a changed or
deleted source is stale, a guru whose corpus moved has its trust threshold calibrated again
(the score its own questions get moved with it), and a changed source's likely questions are
made and answered again (with an LLM). An answer saved or deleted, and a source added,
deleted or given another version, give the guru a new answers epoch: no process serves its
memo of the guru's earlier answers again (`answers/answer_memo.py`)."""

import logging
import weakref
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from kombu.exceptions import OperationalError

from openguru.answers.models import Question
from openguru.answers.quality.staleness import questions_mark_stale
from openguru.answers.tasks import guru_calibrate_task, source_questions_generate_task
from openguru.core.queues import LIGHT_QUEUE
from openguru.gurus.services import guru_answers_changed
from openguru.providers.llm.factory import llm_configured
from openguru.sources.models import DataSource
from openguru.sources.signals import source_indexed, sources_changed

logger = logging.getLogger(__name__)


@receiver(post_save, sender=Question, dispatch_uid="answers-memo-question-saved")
def _question_saved(sender: Any, *, instance: Question, **_: Any) -> None:
    guru_answers_changed(guru_id=instance.guru_id)


@receiver(post_save, sender=DataSource, dispatch_uid="answers-memo-source-saved")
def _source_saved(
    sender: Any, *, instance: DataSource, created: bool, update_fields: Any = None, **_: Any
) -> None:
    # Only what the answer memo reads of sources: which version labels a guru's sources carry
    # (their content changing marks answers stale, which changes the epoch there).
    if created or update_fields is None or "version" in update_fields:
        guru_answers_changed(guru_id=instance.guru_id)


# One epoch change per guru and deletion: deleting a guru's questions sends a signal per row.
_deletions: "weakref.WeakKeyDictionary[Any, set[int]]" = weakref.WeakKeyDictionary()


@receiver(post_delete, sender=Question, dispatch_uid="answers-memo-question-deleted")
@receiver(post_delete, sender=DataSource, dispatch_uid="answers-memo-source-deleted")
def _deleted(sender: Any, *, instance: Question | DataSource, origin: Any = None, **_: Any) -> None:
    try:
        changed = _deletions.setdefault(origin, set())
    except TypeError:  # no origin, or one that cannot be weakly referenced: every row counts
        changed = set()
    if instance.guru_id not in changed:
        changed.add(instance.guru_id)
        guru_answers_changed(guru_id=instance.guru_id)


@receiver(sources_changed, dispatch_uid="answers-stale")
def _mark_stale(sender: Any, *, source_ids: list[int], **_: Any) -> None:
    questions_mark_stale(source_ids=source_ids)


@receiver(source_indexed, dispatch_uid="answers-calibrate")
def _calibrate(sender: Any, *, source: DataSource, changed: bool, **_: Any) -> None:
    if changed:
        guru_id = source.guru_id
        transaction.on_commit(lambda: _send_calibration(guru_id))


def _send_calibration(guru_id: int) -> None:
    try:
        guru_calibrate_task.apply_async((guru_id,), queue=LIGHT_QUEUE)
    except OperationalError:  # the broker is down: the guru keeps its last threshold
        logger.warning("guru %s: the broker is unreachable; threshold not calibrated", guru_id)


@receiver(source_indexed, dispatch_uid="answers-generate-questions")
def _generate_questions(sender: Any, *, source: DataSource, changed: bool, **_: Any) -> None:
    if changed and settings.GENERATED_QUESTIONS_PER_SOURCE > 0 and llm_configured():
        source_id = source.pk
        transaction.on_commit(lambda: _send_generation(source_id))


def _send_generation(source_id: int) -> None:
    try:
        source_questions_generate_task.delay(source_id)
    except OperationalError:  # the broker is down: the source keeps the questions it had
        logger.warning("source %s: the broker is unreachable; questions not made", source_id)
