"""A long website crawl, or a crawl's page discovery, does not keep a small source or its summary
waiting: with the workers `make run` starts (`config/workers.py`), the task routes of the
settings and the loopback LLM, a text source of another guru starts within seconds, is indexed
and summarized while the slow crawl is still fetching its pages; the crawl then finishes too."""

import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from celery import Celery
from django.conf import settings
from openguru.gurus.models import Guru
from openguru.sources.models import Crawl, DataSource
from openguru.sources.routing import CRAWL_DISCOVERY_TASK, SOURCE_TASK

from tests.fakes.docs_site import SMALL_DOCS, DocsSite
from tests.fakes.openai_server import FakeOpenAIServer
from tests.gurus.helpers import guru_make
from tests.integration.worker import REDIS_BROKER, embedded_workers, purge, wait_until
from tests.reliability.platform import llm_env

pytestmark = pytest.mark.django_db(transaction=True)

# Every page behind the start page answers this slowly, until the test lets them go: the crawl
# outlasts the small source by far, however slow the machine.
SLOW_PAGES = ("/intro.html", "/faq.html", "/api.html", "/tutorial/index.html")
SLOW_SECONDS = 45.0
# From the send to a worker taking the small source: a free slot takes it at once; this bound
# leaves room for a busy machine, far below a crawl's minutes.
START_SECONDS = 15.0
WORKERS_UP_SECONDS = 180.0


def send_routed(broker_url: str, task: str, *args: object) -> None:
    """Send a task as the platform does: no queue named, the settings' routes choose one."""
    app = Celery(broker=broker_url, set_as_current=False)
    app.conf.task_routes = settings.CELERY_TASK_ROUTES
    with app.connection_for_write() as conn:
        app.send_task(task, args=list(args), connection=conn)


def wait_for_workers(broker_url: str, *names: str) -> None:
    """Until every named worker answers a ping: a worker still starting is not a queue's wait."""
    app = Celery(broker=broker_url, set_as_current=False)

    def up() -> bool:
        replies = app.control.ping(timeout=1.0)
        return set(names) <= {worker.split("@")[0] for reply in replies for worker in reply}

    wait_until(up, timeout=WORKERS_UP_SECONDS)


def row(source: DataSource) -> DataSource:
    return DataSource.objects.get(pk=source.pk)


def status(source: DataSource) -> str:
    return row(source).status


@pytest.fixture
def site(tmp_path: Path) -> Iterator[DocsSite]:
    root = tmp_path / "site"
    shutil.copytree(SMALL_DOCS, root)
    with DocsSite(root) as served:
        for path in SLOW_PAGES:
            served.add_slow(path, SLOW_SECONDS)
        yield served


@pytest.fixture
def llm() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as server:
        yield server


def small_source(guru: Guru) -> DataSource:
    return DataSource.objects.create(
        guru=guru,
        type="text",
        url="https://notes.example.org/queues.html",
        title="Queues",
        content="# Queues\n\nA small source is indexed at once, whatever else runs.\n",
    )


def index_and_summarize_meanwhile(text: DataSource, *, still_running: Callable[[], bool]) -> None:
    """Send the small source; it starts within START_SECONDS, is indexed and summarized, all
    while `still_running()` holds."""
    sent = time.monotonic()
    send_routed(REDIS_BROKER, SOURCE_TASK, text.pk)
    wait_until(lambda: status(text) != "NOT_PROCESSED", timeout=START_SECONDS, interval=0.1)
    started = time.monotonic() - sent
    assert started < START_SECONDS, started

    wait_until(lambda: status(text) in ("SUCCESS", "FAILED"), timeout=180)
    assert status(text) == "SUCCESS", row(text).error
    wait_until(lambda: row(text).summary, timeout=180)
    assert still_running()


def test_a_small_source_is_indexed_and_summarized_while_a_slow_crawl_of_another_guru_runs(
    site: DocsSite, llm: FakeOpenAIServer
):
    crawl_guru, text_guru = (
        guru_make(slug="site", name="Site"),
        guru_make(slug="notes", name="N"),
    )
    crawl = DataSource.objects.create(
        guru=crawl_guru, type="website", url=site.url_for("index.html"), crawl_mode="crawl"
    )
    text = small_source(text_guru)
    purge(REDIS_BROKER)
    with embedded_workers(REDIS_BROKER, **llm_env(llm, CRAWLER_CONCURRENCY="1")):
        send_routed(REDIS_BROKER, SOURCE_TASK, crawl.pk)
        wait_until(lambda: any(map(site.requests_for, SLOW_PAGES)), timeout=180)
        assert status(crawl) == "PROCESSING"
        wait_for_workers(REDIS_BROKER, "crawls", "light")

        # Still fetching its slow pages while the small source is indexed and summarized.
        index_and_summarize_meanwhile(text, still_running=lambda: status(crawl) == "PROCESSING")

        for path in SLOW_PAGES:
            site.add_slow(path, 0)
        wait_until(lambda: status(crawl) in ("SUCCESS", "FAILED"), timeout=180)
        assert status(crawl) == "SUCCESS", row(crawl).error
    purge(REDIS_BROKER)


def test_a_crawls_page_discovery_does_not_hold_the_light_queue(
    site: DocsSite, llm: FakeOpenAIServer
):
    crawl_guru, text_guru = (
        guru_make(slug="site", name="Site"),
        guru_make(slug="notes", name="N"),
    )
    discovery = Crawl.objects.create(guru=crawl_guru, url=site.url_for("index.html"), link_limit=50)
    text = small_source(text_guru)

    def crawl_status() -> str:
        return Crawl.objects.get(pk=discovery.pk).status

    purge(REDIS_BROKER)
    with embedded_workers(REDIS_BROKER, **llm_env(llm, CRAWLER_CONCURRENCY="1")):
        send_routed(REDIS_BROKER, CRAWL_DISCOVERY_TASK, discovery.pk)
        wait_until(lambda: any(map(site.requests_for, SLOW_PAGES)), timeout=180)
        wait_for_workers(REDIS_BROKER, "crawls", "light")

        index_and_summarize_meanwhile(text, still_running=lambda: crawl_status() == "RUNNING")

        for path in SLOW_PAGES:
            site.add_slow(path, 0)
        wait_until(lambda: crawl_status() != "RUNNING", timeout=180)
        finished = Crawl.objects.get(pk=discovery.pk)
        assert finished.status == "COMPLETED", finished.error
        assert site.url_for("faq.html") in finished.discovered_urls
    purge(REDIS_BROKER)
