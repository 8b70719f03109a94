"""Claims on the real database: a redelivered message never runs a source beside its own earlier
delivery while that run's heartbeat goes on; a run that died is counted when its claim is taken
back, and after SOURCE_MAX_CRASHED_RUNS of them the source is FAILED with its index kept."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.claims import (
    HEARTBEAT_MISSES,
    Claim,
    claim_heartbeat,
    source_claim,
    sources_stuck,
)
from openguru.sources.models import DataSource
from openguru.sources.services import source_reindex

from tests.gurus.helpers import guru_make
from tests.sources.ingestion_helpers import source_process_now

pytestmark = pytest.mark.django_db(transaction=True)

TEXT = (
    "# Kites\n\nA kite flies when the wind pushes on its sail and the line holds it at an angle.\n"
)


@pytest.fixture
def source() -> DataSource:
    guru = guru_make(slug="kites", name="Kites")
    return DataSource.objects.create(guru=guru, type="text", url="text://kites", content=TEXT)


def _row(source: DataSource) -> DataSource:
    return DataSource.objects.get(pk=source.pk)


def _heartbeat_lost(source: DataSource, settings) -> None:
    """The run holding the claim died a while ago: its heartbeat stopped."""
    late = settings.SOURCE_HEARTBEAT_SECONDS * HEARTBEAT_MISSES + 1
    DataSource.objects.filter(pk=source.pk).update(
        claimed_at=timezone.now() - timedelta(seconds=late)
    )


def test_a_redelivery_waits_while_its_earlier_run_is_alive(source, settings) -> None:
    assert source_claim(source_id=source.pk, token="message-1") is Claim.TAKEN
    taken = _row(source)
    # RabbitMQ past its consumer timeout: the same message again while its run goes on.
    assert source_claim(source_id=source.pk, token="message-1") is Claim.BUSY
    again = _row(source)
    assert (again.status, again.claimed_by, again.claimed_at) == (
        "PROCESSING",
        "message-1",
        taken.claimed_at,
    )
    assert again.crashed_runs == 0
    # Another message for the same source does not run it either.
    assert source_claim(source_id=source.pk, token="message-2") is Claim.SKIPPED


def test_a_redelivery_takes_its_claim_back_once_the_heartbeat_stopped(source, settings) -> None:
    assert source_claim(source_id=source.pk, token="message-1") is Claim.TAKEN
    _heartbeat_lost(source, settings)
    assert source_claim(source_id=source.pk, token="message-1") is Claim.TAKEN
    row = _row(source)
    assert (row.status, row.claimed_by, row.crashed_runs) == ("PROCESSING", "message-1", 1)
    assert row.claimed_at > timezone.now() - timedelta(seconds=5)


def test_a_stale_claim_taken_by_another_message_counts_the_run_that_died(source, settings) -> None:
    stale = timezone.now() - timedelta(minutes=settings.STUCK_PROCESSING_MINUTES + 1)
    DataSource.objects.filter(pk=source.pk).update(
        status="PROCESSING", claimed_by="dead-worker", claimed_at=stale
    )
    assert sources_stuck() == [source.pk]
    assert source_claim(source_id=source.pk, token="requeued") is Claim.TAKEN
    assert _row(source).crashed_runs == 1


def test_runs_that_keep_dying_end_failed_with_the_previous_index_kept(source, settings) -> None:
    settings.SOURCE_MAX_CRASHED_RUNS = 3
    assert source_process_now(source_id=source.pk, token="first-run").status == "done"
    indexed = _row(source)
    collection = indexed.guru.collection_name
    assert indexed.chunk_count > 0
    DataSource.objects.filter(pk=source.pk).update(status="NOT_PROCESSED")  # queued again

    assert source_claim(source_id=source.pk, token="message") is Claim.TAKEN
    for crashed in (1, 2):  # the worker dies; the redelivery takes the claim back
        _heartbeat_lost(source, settings)
        assert source_claim(source_id=source.pk, token="message") is Claim.TAKEN
        assert _row(source).crashed_runs == crashed
    _heartbeat_lost(source, settings)  # the third run dies too
    assert source_claim(source_id=source.pk, token="message") is Claim.CRASHED

    failed = _row(source)
    assert (failed.status, failed.claimed_by, failed.claimed_at) == ("FAILED", "", None)
    assert failed.crashed_runs == 3
    assert failed.user_error.startswith("The worker stopped while indexing this source 3 times")
    assert "previous index is kept" in failed.user_error
    assert failed.chunk_count == indexed.chunk_count
    store = get_vector_store()
    assert store.count(collection, source_id=source.pk) == indexed.chunk_count
    # Nothing runs it again by itself: a FAILED source is not claimable, nor stuck.
    assert source_claim(source_id=source.pk, token="message") is Claim.SKIPPED
    assert sources_stuck() == []


def test_a_clean_end_and_a_reindex_start_the_count_again(source, settings) -> None:
    assert source_claim(source_id=source.pk, token="message") is Claim.TAKEN
    _heartbeat_lost(source, settings)
    assert source_process_now(source_id=source.pk, token="message").status == "done"
    done = _row(source)
    assert (done.status, done.crashed_runs) == ("SUCCESS", 0)

    DataSource.objects.filter(pk=source.pk).update(status="FAILED", crashed_runs=3)
    # Another source of the guru is running, so the re-index stays queued (the eager task
    # finds the guru busy) and shows what the request itself changed.
    DataSource.objects.create(
        guru=source.guru,
        type="text",
        url="text://running",
        content=TEXT,
        status="PROCESSING",
        claimed_by="another-run",
        claimed_at=timezone.now(),
    )
    source_reindex(source=_row(source))
    queued = _row(source)
    assert (queued.status, queued.crashed_runs) == ("NOT_PROCESSED", 0)


def test_the_heartbeat_keeps_a_slow_run_alive_and_stops_with_it(source, settings) -> None:
    assert source_claim(source_id=source.pk, token="slow-run") is Claim.TAKEN
    _heartbeat_lost(source, settings)  # a long step: no progress for a while
    lost = _row(source).claimed_at
    with claim_heartbeat(source_id=source.pk, token="slow-run", seconds=0.2):
        time.sleep(1.0)
        beating = _row(source).claimed_at
        assert beating > lost
        # The run is alive: its own message delivered again must not start a second run.
        assert source_claim(source_id=source.pk, token="slow-run") is Claim.BUSY
    time.sleep(0.5)
    assert _row(source).claimed_at < timezone.now() - timedelta(seconds=0.3)  # stopped
