"""How answers follow their sources (`sources/signals.py`): an answer that cited a changed or
deleted source is stale, a guru whose corpus moved has its trust threshold calibrated again
(the score its own questions get moved with it), and a changed source's likely questions are
made and answered again (with an LLM)."""

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from kombu.exceptions import OperationalError

from openguru.answers.quality.staleness import questions_mark_stale
from openguru.answers.tasks import guru_calibrate_task, source_questions_generate_task
from openguru.core.queues import LIGHT_QUEUE
from openguru.providers.llm.factory import llm_configured
from openguru.sources.models import DataSource
from openguru.sources.signals import source_indexed, sources_changed

logger = logging.getLogger(__name__)


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
