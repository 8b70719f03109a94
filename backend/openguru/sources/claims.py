"""Which worker may process a source.

A source is claimed with one conditional UPDATE (atomic in PostgreSQL and SQLite alike), so two
workers never process the same source. Sources of one guru are processed one at a time: the
claim also requires that no other source of that guru holds a live claim, checked under a row lock
on the guru. Serializing per guru is cheap (a guru's sources queue behind each other, different
gurus run in parallel) and removes every race on the guru's collection: creation, re-index after
an embedding-model change, and the guru summary that follows ingestion.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from openguru.gurus.models import Guru
from openguru.sources.models import DataSource

Status = DataSource.Status


def _stale_before() -> datetime:
    return timezone.now() - timedelta(minutes=settings.STUCK_PROCESSING_MINUTES)


def source_claim(*, source_id: int, token: str) -> bool:
    """Take the source for this worker run. False: someone else holds it or its guru is busy.

    A run that was redelivered after a crash carries the same token and takes its claim back.
    """
    with transaction.atomic():
        guru_id = DataSource.objects.filter(pk=source_id).values_list("guru_id", flat=True).first()
        if guru_id is None:
            return False
        Guru.objects.select_for_update().filter(pk=guru_id).first()
        live = Q(status=Status.PROCESSING, claimed_at__gte=_stale_before()) & ~Q(claimed_by=token)
        busy = DataSource.objects.filter(live, guru_id=guru_id).exclude(pk=source_id).exists()
        if busy:
            return False
        # Only queued sources, or our own / abandoned claims: a duplicate message is a no-op.
        claimable = Q(status=Status.NOT_PROCESSED) | Q(status=Status.PROCESSING) & (
            Q(claimed_by=token) | Q(claimed_at__lt=_stale_before()) | Q(claimed_at__isnull=True)
        )
        taken = DataSource.objects.filter(claimable, pk=source_id).update(
            status=Status.PROCESSING,
            claimed_by=token,
            claimed_at=timezone.now(),
            progress={},
            user_error="",
        )
        return taken == 1


def source_release(*, source_id: int, token: str, **fields: object) -> None:
    DataSource.objects.filter(pk=source_id, claimed_by=token).update(
        claimed_by="", claimed_at=None, **fields
    )


def sources_stuck() -> list[int]:
    return list(
        DataSource.objects.filter(
            status=Status.PROCESSING, claimed_at__lt=_stale_before()
        ).values_list("pk", flat=True)
    )
