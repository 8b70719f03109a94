"""A long website crawl does not keep a small source waiting: with the workers `make run` starts
(`config/workers.py`) and the task routes of the settings, a text source of another guru is
indexed while a slow crawl is still fetching its pages; the crawl then finishes too."""

import shutil
from pathlib import Path

import pytest
from celery import Celery
from django.conf import settings
from openguru.gurus.services import guru_create
from openguru.sources.models import DataSource
from openguru.sources.routing import SOURCE_TASK

from tests.fakes.docs_site import SMALL_DOCS, DocsSite
from tests.integration.worker import REDIS_BROKER, embedded_workers, purge, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

# Every page behind the start page answers this slowly, until the test lets them go: the crawl
# outlasts the small source by far, however slow the machine.
SLOW_PAGES = ("/intro.html", "/faq.html", "/api.html", "/tutorial/index.html")
SLOW_SECONDS = 45.0


def send_routed(broker_url: str, source_id: int) -> None:
    """Send the processing task as the platform does: no queue named, the settings' routes
    choose one."""
    app = Celery(broker=broker_url, set_as_current=False)
    app.conf.task_routes = settings.CELERY_TASK_ROUTES
    with app.connection_for_write() as conn:
        app.send_task(SOURCE_TASK, args=[source_id], connection=conn)


def status(source: DataSource) -> str:
    return DataSource.objects.get(pk=source.pk).status


def test_a_small_source_is_indexed_while_a_slow_crawl_of_another_guru_runs(tmp_path: Path):
    root = tmp_path / "site"
    shutil.copytree(SMALL_DOCS, root)
    crawl_guru, text_guru = (
        guru_create(slug="site", name="Site"),
        guru_create(slug="notes", name="N"),
    )
    with DocsSite(root) as site:
        for path in SLOW_PAGES:
            site.add_slow(path, SLOW_SECONDS)
        crawl = DataSource.objects.create(
            guru=crawl_guru, type="website", url=site.url_for("index.html"), crawl_mode="crawl"
        )
        text = DataSource.objects.create(
            guru=text_guru,
            type="text",
            url="https://notes.example.org/queues.html",
            title="Queues",
            content="# Queues\n\nA small source is indexed at once, whatever else runs.\n",
        )
        purge(REDIS_BROKER)
        with embedded_workers(REDIS_BROKER, CRAWLER_CONCURRENCY="1"):
            send_routed(REDIS_BROKER, crawl.pk)
            wait_until(lambda: any(map(site.requests_for, SLOW_PAGES)), timeout=180)
            assert status(crawl) == "PROCESSING"

            send_routed(REDIS_BROKER, text.pk)
            wait_until(lambda: status(text) in ("SUCCESS", "FAILED"), timeout=180)

            assert status(text) == "SUCCESS", DataSource.objects.get(pk=text.pk).error
            assert status(crawl) == "PROCESSING"  # still fetching its slow pages
            for path in SLOW_PAGES:
                site.add_slow(path, 0)
            wait_until(lambda: status(crawl) in ("SUCCESS", "FAILED"), timeout=180)
            assert status(crawl) == "SUCCESS", DataSource.objects.get(pk=crawl.pk).error
        purge(REDIS_BROKER)
