"""A source's processing task ends, on a real worker: for a deleted source, for a duplicate
message of a finished source, and after a bounded wait behind another source of its guru."""

import re
import time
from pathlib import Path

import pytest
from django.utils import timezone
from openguru.gurus.services import guru_create
from openguru.sources.models import DataSource

from tests.integration.worker import BROKERS, celery_worker, purge, send_task, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TASK = "openguru.sources.tasks.source_process_task"


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
    guru = guru_create(slug=guru_slug, name="Loops")
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
