"""Sends made after the work is recorded, while the broker is down: nothing raises past them.

- A source indexed while the broker goes away is SUCCESS, and its summary, whose message could
  not be sent, is made once the broker is back by beat's summary sweep.
- A crawl started while the broker is down answers at once with a FAILED crawl that says why,
  not a 500 after its row was committed as RUNNING forever."""

import re

import httpx
import pytest
from celery import Celery
from openguru.providers.vectorstore.lite_server import free_port
from openguru.sources.models import Crawl, DataSource

from tests.fakes.openai_server import FakeOpenAIServer
from tests.gurus.helpers import guru_make
from tests.integration.web import web_server
from tests.integration.worker import celery_worker, send_task, wait_until
from tests.reliability.platform import llm_env
from tests.reliability.services import DisposableRedis, disposable

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.timeout(900)]

ADMIN = {"Authorization": "Bearer test-admin-token"}
TASK = "openguru.sources.tasks.source_process_task"
SUMMARY_SWEEP = "openguru.sources.tasks.sources_enqueue_missing_summaries"
WAIT_SECONDS = 300
SLOW_PAGE_SECONDS = 6.0  # the broker goes down while the crawl waits for this page


def _sweep(broker_url: str, name: str) -> None:
    app = Celery(broker=broker_url, set_as_current=False)
    with app.connection_for_write() as connection:
        app.send_task(name, queue="light", connection=connection)


def test_a_summary_lost_with_the_broker_is_made_once_it_is_back(site, tmp_path):
    guru = guru_make(slug="unsummarized", name="Unsummarized")
    source = DataSource.objects.create(
        guru=guru, type="website", url=site.url_for("index.html"), crawl_mode="crawl"
    )

    def row() -> DataSource:
        return DataSource.objects.get(pk=source.pk)

    site.add_slow("/faq.html", SLOW_PAGE_SECONDS)
    log = tmp_path / "worker.log"
    with (
        FakeOpenAIServer() as llm,
        disposable(DisposableRedis()) as broker,
        celery_worker(
            broker.url,
            log_file=str(log),
            **llm_env(llm, CRAWLER_CONCURRENCY="1", SOURCE_SUMMARY_QUIET_MINUTES="0.05"),
        ),
    ):
        send_task(broker.url, TASK, source.pk)
        wait_until(lambda: site.requests_for("/faq.html"), timeout=WAIT_SECONDS)
        broker.kill()
        wait_until(lambda: row().status in ("SUCCESS", "FAILED"), timeout=WAIT_SECONDS)
        wait_until(lambda: "summary sent later" in log.read_text(), timeout=120)
        assert row().status == "SUCCESS" and row().summary == ""

        broker.start()
        connected = re.compile(r"Connected to redis://")
        wait_until(lambda: len(connected.findall(log.read_text())) >= 2, timeout=WAIT_SECONDS)

        def summarized() -> bool:
            _sweep(broker.url, SUMMARY_SWEEP)  # what beat sends every quarter of an hour
            return bool(row().summary)

        wait_until(summarized, timeout=WAIT_SECONDS, interval=5)

    text = log.read_text()
    assert "raised unexpected" not in text, text[-3000:]
    done = row()
    assert done.status == "SUCCESS" and done.chunk_count > 0 and done.summary


def test_a_crawl_started_while_the_broker_is_down_fails_at_once_saying_why(transactional_db):
    guru_make(slug="crawl-down", name="Crawl down")
    dead_broker = f"amqp://guest:guest@127.0.0.1:{free_port()}//"
    with (
        web_server(dead_broker) as origin,
        httpx.Client(base_url=origin, headers=ADMIN, timeout=120) as api,
    ):
        started = api.post(
            "/api/v1/crawl-down/crawl/start/", json={"url": "https://docs.example.com/"}
        )
        assert started.status_code == 200, started.text
        body = started.json()
        assert body["status"] == "FAILED", body
        assert "task queue is unreachable" in body["error"]
        again = api.get(f"/api/v1/crawl-down/crawl/{body['id']}/status/").json()
        assert again["status"] == "FAILED"
    assert Crawl.objects.get(pk=body["id"]).end_time is not None
