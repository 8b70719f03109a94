"""RabbitMQ takes a message back from a task that holds it unacknowledged past consumer_timeout
(30 minutes by default, shorter than an ingestion may run) and delivers it again, same task id,
while the first run goes on. The redelivery must not index the source a second time beside it:
it waits while the first run's heartbeat goes on, then finds the source done.

A broker of the drill's own with a 5 s timeout (checked every second), a crawl that takes
longer, and two workers: Celery's worker treats the closed channel as unrecoverable and stops
once its task ends, while the broker hands the message to the other worker at once."""

import re
from collections import Counter
from pathlib import Path

import pytest
from config.workers import WorkerSpec
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource

from tests.gurus.helpers import guru_make
from tests.integration.worker import celery_worker, send_task, wait_until
from tests.reliability.services import DisposableRabbitMQ, disposable

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.timeout(900)]

TASK = "openguru.sources.tasks.source_process_task"
WAIT_SECONDS = 300
SLOW_PAGE_SECONDS = 20.0  # the run outlasts the broker's timeout by far
WORKERS = (WorkerSpec("first", ("ingest", "light")), WorkerSpec("second", ("ingest", "light")))
ENV = {
    "CRAWLER_CONCURRENCY": "1",
    "CRAWLER_TIMEOUT_SECONDS": "60",
    "SOURCE_HEARTBEAT_SECONDS": "1",
    "SOURCE_BUSY_RETRY_SECONDS": "1",
}


def _text(logs: list[Path]) -> str:
    return "".join(log.read_text() for log in logs if log.exists())


def _deliveries(logs: list[Path]) -> Counter[str]:
    """How many times the workers received each processing message, by task id."""
    return Counter(re.findall(r"source_process_task\[([0-9a-f-]+)\] received", _text(logs)))


def _results(logs: list[Path], source_id: int) -> list[str]:
    pattern = rf"succeeded in [^:]+: \{{'source_id': {source_id}, 'status': '(\w+)'"
    return re.findall(pattern, _text(logs))


def test_a_message_redelivered_past_the_consumer_timeout_does_not_index_twice(site, tmp_path):
    guru = guru_make(slug="redelivered", name="Redelivered")
    source = DataSource.objects.create(
        guru=guru, type="website", url=site.url_for("index.html"), crawl_mode="crawl"
    )
    site.add_slow("/faq.html", SLOW_PAGE_SECONDS)
    logs = [tmp_path / f"{spec.name}.log" for spec in WORKERS]
    broker = DisposableRabbitMQ(
        conf="consumer_timeout = 5000\n", erl_args="-rabbit channel_tick_interval 1000"
    )
    with (
        disposable(broker),
        celery_worker(broker.url, log_file=str(logs[0]), spec=WORKERS[0], **ENV),
        celery_worker(broker.url, log_file=str(logs[1]), spec=WORKERS[1], **ENV),
    ):
        wait_until(lambda: _text(logs).count(" ready.") == 2, timeout=WAIT_SECONDS)
        send_task(broker.url, TASK, source.pk)
        # The broker took the message back from the running task and delivered it again.
        wait_until(lambda: 2 in _deliveries(logs).values(), timeout=WAIT_SECONDS)
        assert DataSource.objects.get(pk=source.pk).status == "PROCESSING"

        def settled() -> bool:  # the redelivery found the source done, or indexed it again
            results = _results(logs, source.pk)
            return "skipped" in results or results.count("done") > 1

        wait_until(settled, timeout=WAIT_SECONDS)

    assert "delivery acknowledgement on channel 1 timed out" in _text(logs)
    results = _results(logs, source.pk)
    assert results.count("done") == 1, results  # indexed once
    assert set(results) <= {"done", "busy", "skipped"}, results
    assert len(site.requests_for("/faq.html")) == 1  # one crawl read the page
    done = DataSource.objects.get(pk=source.pk)
    assert done.status == "SUCCESS" and done.crashed_runs == 0
    hits = get_vector_store().source_chunks(guru.collection_name, source_id=source.pk, limit=1000)
    assert len({hit.id for hit in hits}) == len(hits) == done.chunk_count > 0
