"""A source's processing task ends, on a real worker: for a deleted source, for a duplicate
message of a finished source, and after a bounded wait behind another source of its guru; and
beat's sweeps send a due resync once, not again on every pending sweep."""

import re
import time
from datetime import timedelta
from pathlib import Path

import pytest
from celery import Celery
from config.workers import WorkerSpec
from django.utils import timezone
from openguru.sources.models import DataSource

from tests.gurus.helpers import guru_make
from tests.integration.worker import BROKERS, celery_worker, purge, send_task, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TASK = "openguru.sources.tasks.source_process_task"
RESYNC = "openguru.sources.tasks.sources_enqueue_due_resyncs"
PENDING = "openguru.sources.tasks.sources_enqueue_pending"
# Beat's sweeps run on `light`; a website crawl's task goes to `ingest`, which nothing consumes
# here, so every send of it stays there to be counted.
SWEEPS_ONLY = WorkerSpec("sweeps", ("light",))


def _results(log: Path, source_id: int) -> list[str]:
    """The return values the worker logged for this source's runs, in order."""
    text = log.read_text() if log.exists() else ""
    pattern = (
        rf"source_process_task\[[^\]]+\] succeeded in [^:]+: (\{{'source_id': {source_id}\b.*)"
    )
    return re.findall(pattern, text)


def _retries(log: Path) -> int:
    return len(re.findall(r"source_process_task\[[^\]]+\] retry:", log.read_text()))


def _source(guru_slug: str, **fields: object) -> DataSource:
    guru = guru_make(slug=guru_slug, name="Loops")
    return DataSource.objects.create(guru=guru, type="text", content="Some words.", **fields)


@pytest.mark.parametrize("broker", sorted(BROKERS))
def test_the_task_of_a_deleted_source_ends(broker, tmp_path):
    url, log = BROKERS[broker], tmp_path / "worker.log"
    source = _source(f"gone-{broker}", url="text://gone", title="Gone")
    source_id = source.pk
    source.delete()
    purge(url)
    with celery_worker(url, log_file=str(log), SOURCE_BUSY_RETRY_SECONDS="1"):
        send_task(url, TASK, source_id)
        [result] = wait_until(lambda: _results(log, source_id), timeout=60)
        time.sleep(3)  # a retry would have run again by now
    assert "'status': 'gone'" in result
    assert _retries(log) == 0 and len(_results(log, source_id)) == 1


@pytest.mark.parametrize("broker", sorted(BROKERS))
def test_a_duplicate_message_of_a_finished_source_ends(broker, tmp_path):
    url, log = BROKERS[broker], tmp_path / "worker.log"
    source = _source(f"done-{broker}", url="text://done", title="Done", status="SUCCESS")
    purge(url)
    with celery_worker(url, log_file=str(log), SOURCE_BUSY_RETRY_SECONDS="1"):
        send_task(url, TASK, source.pk)
        [result] = wait_until(lambda: _results(log, source.pk), timeout=60)
        time.sleep(3)
    assert "'status': 'skipped'" in result
    assert _retries(log) == 0 and len(_results(log, source.pk)) == 1
    assert DataSource.objects.get(pk=source.pk).status == "SUCCESS"


@pytest.mark.parametrize("broker", sorted(BROKERS))
def test_waiting_behind_a_busy_guru_is_bounded(broker, tmp_path):
    url, log = BROKERS[broker], tmp_path / "worker.log"
    running = _source(
        f"busy-{broker}",
        url="text://running",
        title="Running",
        status="PROCESSING",
        claimed_by="another-worker",
        claimed_at=timezone.now(),
    )
    queued = DataSource.objects.create(
        guru=running.guru, type="text", url="text://queued", title="Queued", content="Words."
    )
    purge(url)
    extra = {"SOURCE_BUSY_RETRY_SECONDS": "1", "SOURCE_BUSY_MAX_WAITS": "2"}
    with celery_worker(url, log_file=str(log), **extra):
        send_task(url, TASK, queued.pk)

        def gave_up() -> bool:
            return any("busy_timeout" in line for line in _results(log, queued.pk))

        wait_until(gave_up, timeout=60)
        time.sleep(4)  # nothing more runs for this source after it gave up
    results = _results(log, queued.pk)
    assert len(results) == 3, results  # the first try and two waits
    assert all("'status': 'busy'" in line for line in results[:2])
    row = DataSource.objects.get(pk=queued.pk)
    # Left queued for beat's pending sweep, which sends it again once it has been quiet a while.
    assert row.status == "NOT_PROCESSED" and row.claimed_by == ""


def _beat_sends(broker_url: str, name: str) -> None:
    """What beat sends on its schedule."""
    app = Celery(broker=broker_url, set_as_current=False)
    with app.connection_for_write() as connection:
        app.send_task(name, queue="light", connection=connection)


def _sweep_counts(log: Path, name: str) -> list[int]:
    """How many sources each run of the sweep `name` sent, in order."""
    text = log.read_text() if log.exists() else ""
    task = name.rpartition(".")[2]
    return [int(n) for n in re.findall(rf"{task}\[[^\]]+\] succeeded in [^:]+: (\d+)", text)]


def _queued(broker_url: str, queue: str) -> int:
    app = Celery(broker=broker_url, set_as_current=False)
    with app.connection_for_write() as connection:
        return int(connection.default_channel.queue_declare(queue, passive=True).message_count)


@pytest.mark.parametrize("broker", sorted(BROKERS))
def test_a_due_resync_is_sent_once_not_again_by_every_pending_sweep(broker, tmp_path):
    url, log = BROKERS[broker], tmp_path / "worker.log"
    long_ago = timezone.now() - timedelta(days=3)
    # The guru is busy with another source, so nothing takes the resync soon: it stays queued.
    running = _source(
        f"resync-{broker}",
        url="text://running",
        title="Running",
        status="PROCESSING",
        claimed_by="another-worker",
        claimed_at=timezone.now(),
    )
    due = DataSource.objects.create(
        guru=running.guru,
        type="website",
        url="https://docs.example.test/",
        crawl_mode="crawl",
        status="SUCCESS",
        last_indexed_at=long_ago,
    )
    DataSource.objects.filter(pk=due.pk).update(updated_at=long_ago)
    purge(url)
    with celery_worker(url, log_file=str(log), spec=SWEEPS_ONLY):
        _beat_sends(url, RESYNC)
        assert wait_until(lambda: _sweep_counts(log, RESYNC), timeout=60) == [1]
        for sweeps in range(1, 4):  # three minutes of beat's pending sweep
            _beat_sends(url, PENDING)
            wait_until(lambda n=sweeps: len(_sweep_counts(log, PENDING)) == n, timeout=60)
    assert _sweep_counts(log, PENDING) == [0, 0, 0]
    assert _queued(url, "ingest") == 1  # the resync's own message, and no other
    assert DataSource.objects.get(pk=due.pk).status == "NOT_PROCESSED"
