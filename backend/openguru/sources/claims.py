"""Which worker may process a source.

A source is claimed with one conditional UPDATE (atomic in PostgreSQL and SQLite alike), so two
workers never process the same source. Sources of one guru are processed one at a time: the
claim also requires that no other source of that guru holds a live claim, checked under a row lock
on the guru. Serializing per guru is cheap (a guru's sources queue behind each other, different
gurus run in parallel) and removes every race on the guru's collection: creation, re-index after
an embedding-model change, the guru summary that follows ingestion, and a move to another BM25
analyzer (`guru_reanalyze` copies the collection under the same lock).
"""

from datetime import datetime, timedelta
from enum import StrEnum

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from openguru.gurus.models import Guru
from openguru.sources.models import DataSource

Status = DataSource.Status


def _stale_before() -> datetime:
    return timezone.now() - timedelta(minutes=settings.STUCK_PROCESSING_MINUTES)


class Claim(StrEnum):
    TAKEN = "taken"
    BUSY = "busy"  # another source of the guru is running: try again later
    GONE = "gone"  # the source was deleted
    SKIPPED = "skipped"  # nothing to do: finished, failed, or held by another live run


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

    A run that was redelivered after a crash carries the same token and takes its claim back.
    """
    with transaction.atomic():
        guru_id = DataSource.objects.filter(pk=source_id).values_list("guru_id", flat=True).first()
        if guru_id is None:
            return Claim.GONE
        Guru.objects.select_for_update().filter(pk=guru_id).first()
        if not DataSource.objects.filter(_claimable(token), pk=source_id).exists():
            gone = not DataSource.objects.filter(pk=source_id).exists()
            return Claim.GONE if gone else Claim.SKIPPED
        live = _live_claim() & ~Q(claimed_by=token)
        busy = DataSource.objects.filter(live, guru_id=guru_id).exclude(pk=source_id).exists()
        if busy:
            return Claim.BUSY
        now = timezone.now()
        taken = DataSource.objects.filter(_claimable(token), pk=source_id).update(
            status=Status.PROCESSING,
            claimed_by=token,
            claimed_at=now,
            progress={},
            user_error="",
            updated_at=now,
        )
        return Claim.TAKEN if taken == 1 else Claim.SKIPPED


def source_release(*, source_id: int, token: str, **fields: object) -> None:
    # .update() skips auto_now: updated_at is set here, beat's pending sweep reads it.
    DataSource.objects.filter(pk=source_id, claimed_by=token).update(
        claimed_by="", claimed_at=None, updated_at=timezone.now(), **fields
    )


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
