"""Which queue a source's processing is sent to, through the Celery app's own router (the
settings' `CELERY_TASK_ROUTES`): website crawls and a crawl's page discovery to `ingest`,
everything else to `light`."""

import pytest
from config.celery import app
from openguru.sources.models import DataSource
from openguru.sources.routing import CRAWL_DISCOVERY_TASK, SOURCE_TASK

from tests.gurus.helpers import guru_make

pytestmark = pytest.mark.django_db


def queue_for(name: str, *args: object, **options: object) -> str:
    return app.amqp.router.route(dict(options), name, args, {})["queue"].name


def test_crawls_go_to_the_crawl_queue_and_every_other_source_to_the_light_one():
    guru = guru_make(slug="routes", name="Routes")
    kinds = {
        ("website", "crawl"): "ingest",
        ("website", "sitemap"): "ingest",
        ("website", "single"): "light",
        ("text", "single"): "light",
        ("pdf", "single"): "light",
        ("youtube", "single"): "light",
        ("github_repo", "single"): "light",
    }
    for (kind, mode), queue in kinds.items():
        url = f"https://docs.example.org/{kind}-{mode}"
        source = DataSource.objects.create(guru=guru, type=kind, url=url, crawl_mode=mode)
        assert queue_for(SOURCE_TASK, source.pk) == queue, (kind, mode)


def test_other_tasks_and_an_explicit_queue_keep_their_route():
    assert queue_for("openguru.sources.tasks.source_summarize_task", 1) == "light"
    assert queue_for(SOURCE_TASK, 999_999) == "light"  # gone: nothing long to run
    assert queue_for(SOURCE_TASK, 1, queue="ingest") == "ingest"


def test_a_crawls_page_discovery_goes_to_the_crawl_queue():
    # Up to half an hour of fetching: on `light` it would hold the slot small sources need.
    assert queue_for(CRAWL_DISCOVERY_TASK, 1) == "ingest"
    assert queue_for(CRAWL_DISCOVERY_TASK, 1, queue="light") == "light"
