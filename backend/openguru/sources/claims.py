"""Which worker may process a source.

A source is claimed with one conditional UPDATE (atomic in PostgreSQL and SQLite alike), so two
workers never process the same source. Sources of one guru are processed one at a time: the
claim also requires that no other source of that guru holds a live claim, checked under a row lock
on the guru. Serializing per guru is cheap (a guru's sources queue behind each other, different
gurus run in parallel) and removes every race on the guru's collection: creation, re-index after
an embedding-model change, the guru summary that follows ingestion, and a move to another BM25
analyzer (`guru_reanalyze` copies the collection under the same lock).

A run keeps its claim alive with a heartbeat (`claim_heartbeat`). Messages are acknowledged
late, so a run whose worker died is delivered again with the same task id, the same token: that
redelivery takes the claim back only once the heartbeat stopped (a broker that redelivers a
message whose run is still alive, as RabbitMQ does past its consumer timeout, must not start a
second run of the source), and counts the run that died. Past SOURCE_MAX_CRASHED_RUNS such runs
in a row the source is marked FAILED instead of being tried again forever.
"""

import logging
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from openguru.core.errors import DATABASE_DOWN
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource

logger = logging.getLogger(__name__)
Status = DataSource.Status
# A claim whose heartbeat is this many beats late belongs to a run that is gone.
HEARTBEAT_MISSES = 4
CRASHED_MSG = (
    "The worker stopped while indexing this source {runs} times (it may need more memory or "
    "time than the worker has); the previous index is kept. Re-index it to try again."
)


def _stale_before() -> datetime:
    return timezone.now() - timedelta(minutes=settings.STUCK_PROCESSING_MINUTES)


def _heartbeat_lost_before() -> datetime:
    late = settings.SOURCE_HEARTBEAT_SECONDS * HEARTBEAT_MISSES
    return timezone.now() - timedelta(seconds=late)


class Claim(StrEnum):
    TAKEN = "taken"
    BUSY = "busy"  # another run holds the source or its guru: try again later
    GONE = "gone"  # the source was deleted
    SKIPPED = "skipped"  # nothing to do: finished, failed, or held by another live run
    CRASHED = "crashed"  # its runs kept dying: marked FAILED, not tried again


def _claimable(token: str) -> Q:
    # Only queued sources, or our own / abandoned claims: a duplicate message is a no-op.
    return Q(status=Status.NOT_PROCESSED) | Q(status=Status.PROCESSING) & (
        Q(claimed_by=token) | Q(claimed_at__lt=_stale_before()) | Q(claimed_at__isnull=True)
    )


def _live_claim() -> Q:
    return Q(status=Status.PROCESSING, claimed_at__gte=_stale_before())


def guru_has_live_claim(*, guru_id: int) -> bool:
    """Whether a source of the guru is being processed. Asked under the guru's row lock (as
    `source_claim` takes it), the answer holds until the transaction ends: no claim starts."""
    return DataSource.objects.filter(_live_claim(), guru_id=guru_id).exists()


def source_claim(*, source_id: int, token: str) -> Claim:
    """Take the source for this worker run, or say why not.

    A run that was redelivered after a crash carries the same token and takes its claim back,
    once the claim's heartbeat stopped; until then the earlier run may be alive (BUSY).
    """
    with transaction.atomic():
        guru_id = DataSource.objects.filter(pk=source_id).values_list("guru_id", flat=True).first()
        if guru_id is None:
            return Claim.GONE
        Guru.objects.select_for_update().filter(pk=guru_id).first()
        row = (
            DataSource.objects.filter(_claimable(token), pk=source_id)
            .values("status", "claimed_by", "claimed_at", "crashed_runs")
            .first()
        )
        if row is None:
            gone = not DataSource.objects.filter(pk=source_id).exists()
            return Claim.GONE if gone else Claim.SKIPPED
        if _held_by_live_run(row, token):
            return Claim.BUSY
        live = _live_claim() & ~Q(claimed_by=token)
        busy = DataSource.objects.filter(live, guru_id=guru_id).exclude(pk=source_id).exists()
        if busy:
            return Claim.BUSY
        # Taking back a claim (PROCESSING) means the run that held it ended without finishing.
        crashed = row["crashed_runs"] + (1 if row["status"] == Status.PROCESSING else 0)
        now = timezone.now()
        if crashed >= settings.SOURCE_MAX_CRASHED_RUNS:
            _give_up(source_id=source_id, crashed=crashed)
            return Claim.CRASHED
        taken = DataSource.objects.filter(_claimable(token), pk=source_id).update(
            status=Status.PROCESSING,
            claimed_by=token,
            claimed_at=now,
            crashed_runs=crashed,
            progress={},
            user_error="",
            updated_at=now,
        )
        return Claim.TAKEN if taken == 1 else Claim.SKIPPED


def _held_by_live_run(row: Mapping[str, Any], token: str) -> bool:
    """Our own claim, with a heartbeat: the earlier delivery of this message is still running."""
    claimed_at = row["claimed_at"]
    return (
        row["status"] == Status.PROCESSING
        and row["claimed_by"] == token
        and claimed_at is not None
        and claimed_at >= _heartbeat_lost_before()
    )


def _give_up(*, source_id: int, crashed: int) -> None:
    logger.warning(
        "source %s: its worker stopped during %s runs; marked failed", source_id, crashed
    )
    # The previous index is left as it was, as on any failure.
    DataSource.objects.filter(pk=source_id).update(
        status=Status.FAILED,
        claimed_by="",
        claimed_at=None,
        crashed_runs=crashed,
        user_error=CRASHED_MSG.format(runs=crashed)[:500],
        error=f"{crashed} runs in a row ended without finishing (worker killed, out of memory "
        "or over its hard time limit).",
        updated_at=timezone.now(),
    )


def source_release(*, source_id: int, token: str, **fields: object) -> None:
    # .update() skips auto_now: updated_at is set here, beat's pending sweep reads it.
    DataSource.objects.filter(pk=source_id, claimed_by=token).update(
        claimed_by="", claimed_at=None, updated_at=timezone.now(), **fields
    )


@contextmanager
def claim_heartbeat(*, source_id: int, token: str, seconds: float) -> Iterator[None]:
    """Refresh the run's claim every `seconds` from a thread of its own while the block runs, so
    the claim says whether the run is alive however long its current step takes (a big clone,
    a slow PDF), and stops saying so the moment its process dies. Started once the claim is
    taken: before that, a redelivery's beat would keep its dead predecessor's claim alive.
    `seconds` 0: no heartbeat (an eager run in the request's own process)."""
    if seconds <= 0:
        yield
        return
    stop = threading.Event()
    beat = threading.Thread(
        target=_beat, args=(source_id, token, seconds, stop), name=f"claim-{source_id}", daemon=True
    )
    beat.start()
    try:
        yield
    finally:
        stop.set()
        beat.join(timeout=30)


def _beat(source_id: int, token: str, seconds: float, stop: threading.Event) -> None:
    try:
        while not stop.wait(seconds):
            try:
                DataSource.objects.filter(
                    pk=source_id, claimed_by=token, status=Status.PROCESSING
                ).update(claimed_at=timezone.now())
            except DATABASE_DOWN:
                with suppress(*DATABASE_DOWN):
                    connection.close()  # a new connection at the next beat
    finally:
        with suppress(*DATABASE_DOWN):
            connection.close()  # this thread's own connection


def sources_touch_queued(*, source_ids: list[int]) -> None:
    """Mark queued sources as just sent, so beat's pending sweep leaves them to their message."""
    DataSource.objects.filter(pk__in=source_ids, status=Status.NOT_PROCESSED).update(
        updated_at=timezone.now()
    )


def sources_pending(*, quiet_minutes: float) -> list[int]:
    """Queued sources nothing has touched for a while: their message was lost or gave up."""
    quiet_since = timezone.now() - timedelta(minutes=quiet_minutes)
    return list(
        DataSource.objects.filter(
            status=Status.NOT_PROCESSED, updated_at__lt=quiet_since
        ).values_list("pk", flat=True)
    )


def sources_stuck() -> list[int]:
    return list(
        DataSource.objects.filter(
            status=Status.PROCESSING, claimed_at__lt=_stale_before()
        ).values_list("pk", flat=True)
    )
