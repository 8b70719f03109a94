"""Celery tasks: take ids, call services. Every task is bounded in time; sends carry an expiry."""

from datetime import timedelta

from celery import shared_task
from celery.app.task import Task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from openguru.core.errors import TransientError
from openguru.sources.claims import sources_stuck
from openguru.sources.crawls import CRAWL_TIME_LIMIT_SECONDS, crawl_run
from openguru.sources.models import DataSource
from openguru.sources.processing import source_process

MAX_RETRIES = 5
BUSY_RETRY_SECONDS = 15
SEND_EXPIRES_SECONDS = 6 * 3600  # a resync nobody picked up for hours is sent again by beat


@shared_task(
    bind=True,
    acks_late=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
)
def source_process_task(self: Task, source_id: int) -> dict:
    final = self.request.retries >= MAX_RETRIES
    token = str(self.request.id or f"eager-{source_id}")
    try:
        outcome = source_process(source_id=source_id, token=token, final_attempt=final)
    except TransientError as exc:
        raise self.retry(exc=exc, countdown=min(600, 10 * 2**self.request.retries)) from exc
    if outcome.status == "busy" and not settings.CELERY_TASK_ALWAYS_EAGER:
        # Another source of this guru is running: come back later instead of waiting here.
        raise self.retry(countdown=BUSY_RETRY_SECONDS, max_retries=None)
    return {"source_id": source_id, "status": outcome.status, **outcome.stats}


@shared_task(soft_time_limit=900, time_limit=960)
def source_summarize_task(source_id: int) -> bool:
    """Summarize a source, then refresh its guru's summary (light queue, after ingestion)."""
    from openguru.sources.summaries import guru_summarize, source_summarize

    if source_summarize(source_id=source_id) is None:
        return False
    guru_id = DataSource.objects.filter(pk=source_id).values_list("guru_id", flat=True).first()
    if guru_id is not None:
        guru_summarize(guru_id=guru_id)
    return True


def _send(source_ids: list[int]) -> int:
    for source_id in source_ids:
        source_process_task.apply_async((source_id,), expires=SEND_EXPIRES_SECONDS)
    return len(source_ids)


@shared_task(soft_time_limit=60, time_limit=90)
def sources_enqueue_pending() -> int:
    """New sources whose on-commit enqueue was lost (e.g. the broker was down)."""
    old_enough = timezone.now() - timedelta(minutes=2)
    pending = DataSource.objects.filter(
        status=DataSource.Status.NOT_PROCESSED, updated_at__lt=old_enough
    )
    return _send(list(pending.values_list("pk", flat=True)))


@shared_task(soft_time_limit=60, time_limit=90)
def sources_requeue_stuck() -> int:
    """Sources left in PROCESSING by a crashed worker (its heartbeat stopped)."""
    return _send(sources_stuck())


@shared_task(soft_time_limit=60, time_limit=90)
def sources_enqueue_due_resyncs() -> int:
    now = timezone.now()
    github_due = Q(
        type=DataSource.Type.GITHUB_REPO,
        last_indexed_at__lt=now - timedelta(hours=settings.GITHUB_RESYNC_HOURS),
    )
    website_due = Q(
        type=DataSource.Type.WEBSITE,
        last_indexed_at__lt=now - timedelta(hours=settings.WEBSITE_RECRAWL_HOURS),
    )
    due = DataSource.objects.filter(github_due | website_due, status=DataSource.Status.SUCCESS)
    ids = list(due.values_list("pk", flat=True))
    DataSource.objects.filter(pk__in=ids).update(status=DataSource.Status.NOT_PROCESSED)
    return _send(ids)


@shared_task(soft_time_limit=CRAWL_TIME_LIMIT_SECONDS, time_limit=CRAWL_TIME_LIMIT_SECONDS + 60)
def crawl_run_task(crawl_id: int) -> None:
    """Discover a crawl's pages (light queue: it fetches, it does not embed)."""
    crawl_run(crawl_id=crawl_id)
