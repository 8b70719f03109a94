"""Crawls: list the pages a website source would read from a start URL, indexing nothing.

The discovery is the website loader's own crawl, so it has the same scope (same site, below the
start URL's directory), robots.txt rules, SSRF guard and depth limit; its documents are dropped
and only the pages it accepted are kept. A crawl runs in a Celery task. Stopping flips the
status; the run notices at its next progress report (about twice a second while pages arrive).
"""

import logging
from collections.abc import Mapping
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from openguru.core.errors import DomainError, ErrorCode
from openguru.core.task_send import task_send
from openguru.gurus.models import Guru
from openguru.sources.loaders.base import LoadProgress, LoadRequest
from openguru.sources.loaders.website import WebsiteLoader
from openguru.sources.models import Crawl, DataSource
from openguru.sources.routing import CRAWL_DISCOVERY_TASK
from openguru.sources.validation import validate_source_input

logger = logging.getLogger(__name__)

CRAWL_TIME_LIMIT_SECONDS = 1800
CRAWL_SEND_EXPIRES_SECONDS = 600
TOO_LATE_MSG = "The crawl did not finish in time."
QUEUE_DOWN_MSG = "The task queue is unreachable, so the crawl could not start; try again shortly."
# A crawl still RUNNING this long after it started lost its worker (or its message expired).
_ABANDONED_AFTER = timedelta(seconds=CRAWL_SEND_EXPIRES_SECONDS + CRAWL_TIME_LIMIT_SECONDS + 60)


class _Stopped(Exception):
    """The crawl is no longer RUNNING: someone stopped it."""


def crawl_start(
    *, guru: Guru, url: str, link_limit: int | None = None, user: User | None = None
) -> Crawl:
    """Refuse a URL the crawler may not reach now, then queue the run. The limit is capped by
    CRAWLER_MAX_PAGES, like a website source's max_pages."""
    url = validate_source_input(
        type=DataSource.Type.WEBSITE, url=url, content="", crawl_mode=DataSource.CrawlMode.CRAWL
    )
    ceiling = settings.CRAWLER_MAX_PAGES
    crawl = Crawl.objects.create(
        guru=guru,
        url=url,
        link_limit=min(link_limit or ceiling, ceiling),
        started_by=user,
    )
    transaction.on_commit(lambda: _enqueue(crawl.pk))
    return crawl


def _enqueue(crawl_id: int) -> None:
    try:
        task_send(CRAWL_DISCOVERY_TASK, crawl_id, expires=CRAWL_SEND_EXPIRES_SECONDS)
    except OperationalError:
        # The broker is down. Nothing would ever run this crawl: say so now (the caller reads
        # the crawl back and sees why) rather than leave it RUNNING until it is found abandoned.
        logger.warning("crawl %s: the broker is unreachable; not started", crawl_id)
        _finish(crawl_id, Crawl.Status.FAILED, error=QUEUE_DOWN_MSG)


def crawl_get(*, guru: Guru, crawl_id: int) -> Crawl:
    """The guru's crawl; one whose run was lost is reported FAILED instead of running forever."""
    crawl = Crawl.objects.filter(guru=guru, pk=crawl_id).first()
    if crawl is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"No crawl {crawl_id} in this guru.")
    if (
        crawl.status == Crawl.Status.RUNNING
        and crawl.created_at < timezone.now() - _ABANDONED_AFTER
    ):
        _finish(crawl.pk, Crawl.Status.FAILED, error=TOO_LATE_MSG)
        crawl.refresh_from_db()
    return crawl


def crawl_stop(*, crawl: Crawl) -> Crawl:
    """Stop a running crawl, keeping what it found so far; a finished crawl is left as it is."""
    _finish(crawl.pk, Crawl.Status.STOPPED)
    crawl.refresh_from_db()
    return crawl


def crawl_run(*, crawl_id: int) -> None:
    crawl = Crawl.objects.filter(pk=crawl_id, status=Crawl.Status.RUNNING).first()
    if crawl is None:
        return  # stopped (or found abandoned) before it began
    if crawl.created_at < timezone.now() - _ABANDONED_AFTER:
        # Its message delivered again and again (a crawl that kills its worker each time) ends
        # here even if nobody reads the crawl's status, instead of starting over forever.
        _finish(crawl_id, Crawl.Status.FAILED, error=TOO_LATE_MSG)
        return
    watch = _Watch(crawl)
    request = LoadRequest(
        source_id=0, url=crawl.url, crawl_mode="crawl", options={"max_pages": crawl.link_limit}
    )
    try:
        result = WebsiteLoader().load(request, on_progress=watch)
        watch.found = result.fetch_state  # filled as the documents are read
        for _document in result.documents:
            pass
    except _Stopped:
        Crawl.objects.filter(pk=crawl_id, status=Crawl.Status.STOPPED).update(
            discovered_urls=watch.urls()
        )
        return
    except DomainError as exc:
        _finish(crawl_id, Crawl.Status.FAILED, urls=watch.urls(), error=exc.msg)
        return
    except Exception:
        logger.exception("crawl %s failed", crawl_id)
        _finish(crawl_id, Crawl.Status.FAILED, urls=watch.urls(), error="The crawl failed.")
        return
    _finish(crawl_id, Crawl.Status.COMPLETED, urls=watch.urls())


class _Watch:
    """The loader's progress callback: saves the pages found so far, and stops the run once
    the crawl is no longer RUNNING (one conditional UPDATE does both)."""

    def __init__(self, crawl: Crawl) -> None:
        self.crawl_id = crawl.pk
        self.link_limit = crawl.link_limit
        self.found: Mapping[str, object] = {}

    def urls(self) -> list[str]:
        return list(self.found)[: self.link_limit]

    def __call__(self, _progress: LoadProgress) -> None:
        running = Crawl.objects.filter(pk=self.crawl_id, status=Crawl.Status.RUNNING)
        if not running.update(discovered_urls=self.urls(), updated_at=timezone.now()):
            raise _Stopped


def _finish(crawl_id: int, status: str, *, urls: list[str] | None = None, error: str = "") -> None:
    """Only a RUNNING crawl changes: a stop and the run's own ending may race."""
    now = timezone.now()
    changes: dict[str, object] = {
        "status": status,
        "end_time": now,
        "updated_at": now,
        "error": error[:500],
    }
    if urls is not None:
        changes["discovered_urls"] = urls
    Crawl.objects.filter(pk=crawl_id, status=Crawl.Status.RUNNING).update(**changes)
