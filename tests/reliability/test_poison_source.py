"""A source whose run kills its worker process every time (as an out-of-memory kill would) is
not retried forever: acks_late and reject_on_worker_lost hand its message back after each
death, the claim counts the runs that died, and after SOURCE_MAX_CRASHED_RUNS of them the
source is FAILED with a reason a person can read, its previous index still serving."""

import os
import re
import signal
from pathlib import Path

import pytest
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource

from tests.gurus.helpers import guru_make
from tests.integration.worker import AMQP_BROKER, celery_worker, purge, send_task, wait_until
from tests.sources.ingestion_helpers import source_process_now

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.timeout(900)]

TASK = "openguru.sources.tasks.source_process_task"
WAIT_SECONDS = 300  # a worker takes seconds to start on an idle machine, a minute on a busy one
SLOW_PAGE_SECONDS = 15.0  # each run is surely still crawling when its process is killed
DEATHS = 3
ENV = {
    "CRAWLER_CONCURRENCY": "1",
    "CRAWLER_TIMEOUT_SECONDS": "60",
    # A dead run's claim is known dead 4 s after its last beat; its redelivery checks each second.
    "SOURCE_HEARTBEAT_SECONDS": "1",
    "SOURCE_BUSY_RETRY_SECONDS": "1",
    "SOURCE_MAX_CRASHED_RUNS": str(DEATHS),
}


def _pool_processes(worker_pid: int) -> list[int]:
    """The worker's pool processes: the children of its main process."""
    children = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rpartition(")")[2].split()[1])
        if parent == worker_pid:
            children.append(int(entry.name))
    return children


def _results(log: Path, source_id: int) -> list[str]:
    text = log.read_text() if log.exists() else ""
    pattern = rf"source_process_task\[[^\]]+\] succeeded in [^:]+: \{{'source_id': {source_id}, 'status': '(\w+)'"
    return re.findall(pattern, text)


def test_a_source_that_kills_its_worker_ends_failed_after_three_runs(site, tmp_path):
    guru = guru_make(slug="poison", name="Poison")
    source = DataSource.objects.create(
        guru=guru, type="website", url=site.url_for("index.html"), crawl_mode="crawl"
    )
    assert source_process_now(source_id=source.pk, token="clean-run").status == "done"
    indexed = DataSource.objects.get(pk=source.pk).chunk_count
    assert indexed > 0

    def row() -> DataSource:
        return DataSource.objects.get(pk=source.pk)

    # Queued again (a re-index); from now on its run dies while it reads the slow page.
    DataSource.objects.filter(pk=source.pk).update(status="NOT_PROCESSED")
    site.add_slow("/faq.html", SLOW_PAGE_SECONDS)
    site.reset_log()
    log = tmp_path / "worker.log"
    purge(AMQP_BROKER)
    with celery_worker(AMQP_BROKER, log_file=str(log), **ENV) as worker:
        send_task(AMQP_BROKER, TASK, source.pk)
        for death in range(1, DEATHS + 1):

            def reading_the_slow_page(n: int = death) -> bool:
                return len(site.requests_for("/faq.html")) == n and row().status == "PROCESSING"

            wait_until(reading_the_slow_page, timeout=WAIT_SECONDS)
            assert row().crashed_runs == death - 1
            [pool] = _pool_processes(worker.pid)
            os.kill(pool, signal.SIGKILL)  # what the kernel's out-of-memory killer does

        wait_until(lambda: row().status in ("SUCCESS", "FAILED"), timeout=WAIT_SECONDS)
        wait_until(lambda: _results(log, source.pk), timeout=60)

    failed = row()
    assert failed.status == "FAILED", failed.user_error
    assert failed.crashed_runs == DEATHS
    assert failed.user_error.startswith(
        f"The worker stopped while indexing this source {DEATHS} times"
    )
    assert len(site.requests_for("/faq.html")) == DEATHS  # no fourth run
    # Its runs never returned (each died); the redeliveries waited out the dead runs' heartbeats
    # ("busy"), and the last one gave up.
    results = _results(log, source.pk)
    assert results[-1] == "crashed" and set(results[:-1]) <= {"busy"}, results
    # The previous index is kept, and keeps serving.
    assert failed.chunk_count == indexed
    assert get_vector_store().count(guru.collection_name, source_id=source.pk) == indexed
