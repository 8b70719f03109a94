"""Celery tasks: take ids, call services. Every task is bounded in time; sends carry an expiry."""

import logging
import time
from contextlib import suppress

from celery import shared_task
from celery.app.task import Task
from celery.exceptions import Reject
from django.conf import settings
from django.db import connection, connections
from django.utils import timezone

from openguru.core.errors import DATABASE_DOWN, TransientError
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.llm.factory import get_llm, llm_configured
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.claims import (
    source_release,
    sources_pending,
    sources_stuck,
    sources_touch_queued,
)
from openguru.sources.crawls import CRAWL_TIME_LIMIT_SECONDS, crawl_run
from openguru.sources.models import DataSource
from openguru.sources.processing import source_process
from openguru.sources.selectors import (
    source_guru_id,
    source_summary_missing,
    sources_resync_due,
    sources_summary_missing,
)
from openguru.sources.services import sources_resync_mark, sources_touch

logger = logging.getLogger(__name__)

MAX_RETRIES = 5
# The longest a retry waits. The worker holds a message it will run later unacknowledged, so
# RabbitMQ's consumer_timeout must outlast this plus the longest run (deploy/rabbitmq/).
MAX_RETRY_COUNTDOWN_SECONDS = 600
SEND_EXPIRES_SECONDS = 6 * 3600  # a resync nobody picked up for hours is sent again by beat
# A queued source nothing touched for this long lost its message (or gave up waiting): resend.
PENDING_QUIET_MINUTES = settings.SOURCE_PENDING_QUIET_MINUTES
# A task that lost its database waits this long for it before handing its message back.
DATABASE_WAIT_SECONDS = 30


@shared_task(
    bind=True,
    acks_late=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
)
def source_process_task(self: Task, source_id: int, busy_waits: int = 0, token: str = "") -> dict:
    final = self.request.retries >= MAX_RETRIES
    # A wait carries the token of the message it stands in for: once that message's run is
    # found dead, the wait takes its claim back like a redelivery of it would.
    token = token or str(self.request.id or f"eager-{source_id}")
    eager = settings.CELERY_TASK_ALWAYS_EAGER
    try:
        outcome = source_process(
            source_id=source_id,
            token=token,
            embedder=get_embedder(),
            store=get_vector_store(),
            final_attempt=final,
            heartbeat_seconds=0 if eager else settings.SOURCE_HEARTBEAT_SECONDS,
        )
    except TransientError as exc:
        countdown = min(MAX_RETRY_COUNTDOWN_SECONDS, 10 * 2**self.request.retries)
        raise self.retry(exc=exc, countdown=countdown) from exc
    except DATABASE_DOWN as exc:
        # Hand the message back as it is once the database answers again. Not a retry: that is
        # a new send, which needs the database to route it. The claim is handed back too, so
        # the redelivery starts a fresh run: a database outage is not a run that crashed.
        _wait_for_database(seconds=DATABASE_WAIT_SECONDS)
        with suppress(*DATABASE_DOWN):
            source_release(source_id=source_id, token=token, status=DataSource.Status.NOT_PROCESSED)
        raise Reject(exc, requeue=True) from exc
    if outcome.status == "busy" and not eager:
        return _wait_for_guru(source_id, busy_waits, token)
    return {"source_id": source_id, "status": outcome.status, **outcome.stats}


def _wait_for_database(*, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        connections.close_all()  # a broken connection goes; the next one is new
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            return
        except DATABASE_DOWN:
            if time.monotonic() > deadline:
                return
            time.sleep(1)


def _wait_for_guru(source_id: int, busy_waits: int, token: str) -> dict:
    """Another run holds the source (an earlier delivery of this message whose heartbeat goes
    on) or another source of its guru: come back later instead of waiting here.

    A fresh message per wait, so waiting does not use up the retries kept for real failures;
    bounded, so a guru that stays busy leaves the source queued for beat's pending sweep.
    """
    if busy_waits >= settings.SOURCE_BUSY_MAX_WAITS:
        logger.warning("source %s: guru still busy after %s waits", source_id, busy_waits)
        sources_touch_queued(source_ids=[source_id])
        return {"source_id": source_id, "status": "busy_timeout"}
    sources_touch_queued(source_ids=[source_id])
    source_process_task.apply_async(
        (source_id,),
        {"busy_waits": busy_waits + 1, "token": token},
        countdown=settings.SOURCE_BUSY_RETRY_SECONDS,
        expires=SEND_EXPIRES_SECONDS,
    )
    return {"source_id": source_id, "status": "busy", "busy_waits": busy_waits + 1}


@shared_task(soft_time_limit=900, time_limit=960)
def source_summarize_task(source_id: int, only_if_missing: bool = False) -> bool:
    """Summarize a source, then refresh its guru's summary (light queue, after ingestion).
    `only_if_missing`: beat's resend, which does nothing once the source has a summary."""
    from openguru.sources.summaries import guru_summarize, source_summarize

    if only_if_missing and not source_summary_missing(source_id=source_id):
        return False
    llm = get_llm()
    if llm is None:  # summaries are made only with an LLM: skipped, not failed
        return False
    if source_summarize(source_id=source_id, llm=llm, store=get_vector_store()) is None:
        return False
    guru_id = source_guru_id(source_id=source_id)
    if guru_id is not None:
        guru_summarize(guru_id=guru_id, llm=llm)
    return True


def _send(source_ids: list[int]) -> int:
    sources_touch_queued(source_ids=source_ids)
    for source_id in source_ids:
        source_process_task.apply_async((source_id,), expires=SEND_EXPIRES_SECONDS)
    return len(source_ids)


@shared_task(soft_time_limit=60, time_limit=90)
def sources_enqueue_pending() -> int:
    """Queued sources whose message was lost (e.g. the broker was down) or gave up waiting."""
    return _send(sources_pending(quiet_minutes=PENDING_QUIET_MINUTES))


@shared_task(soft_time_limit=60, time_limit=90)
def sources_requeue_stuck() -> int:
    """Sources left in PROCESSING by a crashed worker (its heartbeat stopped)."""
    return _send(sources_stuck())


@shared_task(soft_time_limit=60, time_limit=90)
def sources_enqueue_missing_summaries() -> int:
    """Indexed sources still without a summary (its message was lost: the broker was down when
    the run ended). Each is sent at most once per quiet period, and only for a few hours after
    it was indexed: a source whose summary keeps coming out empty is not sent forever."""
    if not llm_configured():
        return 0
    now = timezone.now()
    ids = sources_summary_missing(now=now)
    sources_touch(source_ids=ids, now=now)
    for source_id in ids:
        source_summarize_task.apply_async(
            (source_id,), {"only_if_missing": True}, expires=SEND_EXPIRES_SECONDS
        )
    return len(ids)


@shared_task(soft_time_limit=60, time_limit=90)
def sources_enqueue_due_resyncs() -> int:
    now = timezone.now()
    ids = sources_resync_due(now=now)
    sources_resync_mark(source_ids=ids, now=now)
    return _send(ids)


@shared_task(soft_time_limit=CRAWL_TIME_LIMIT_SECONDS, time_limit=CRAWL_TIME_LIMIT_SECONDS + 60)
def crawl_run_task(crawl_id: int) -> None:
    """Discover a crawl's pages (ingest queue: up to half an hour of fetching)."""
    crawl_run(crawl_id=crawl_id)
