"""Beat's sweeps: a resync that was just sent is not sent again by the pending sweep each minute;
a queued source whose message was lost is."""

from datetime import timedelta

import pytest
from django.utils import timezone
from openguru.sources.claims import sources_pending
from openguru.sources.models import DataSource
from openguru.sources.tasks import (
    PENDING_QUIET_MINUTES,
    sources_enqueue_due_resyncs,
    sources_enqueue_pending,
)

from tests.gurus.helpers import guru_make

pytestmark = pytest.mark.django_db(transaction=True)

LONG_AGO = timezone.now() - timedelta(days=3)


def _busy_guru_with(**fields: object) -> DataSource:
    """A source whose guru is busy with another live run, so its task leaves it queued."""
    guru = guru_make(slug="resync", name="Resync")
    DataSource.objects.create(
        guru=guru,
        type="text",
        url="text://running",
        content="Words.",
        status="PROCESSING",
        claimed_by="another-worker",
        claimed_at=timezone.now(),
    )
    source = DataSource.objects.create(
        guru=guru, type="website", url="https://docs.test/", **fields
    )
    DataSource.objects.filter(pk=source.pk).update(updated_at=LONG_AGO)
    return source


def test_a_sent_resync_is_not_resent_by_the_pending_sweep() -> None:
    source = _busy_guru_with(status="SUCCESS", last_indexed_at=LONG_AGO)
    assert sources_enqueue_due_resyncs() == 1
    row = DataSource.objects.get(pk=source.pk)
    assert row.status == "NOT_PROCESSED"
    assert row.updated_at > timezone.now() - timedelta(minutes=1)
    assert source.pk not in sources_pending(quiet_minutes=PENDING_QUIET_MINUTES)
    assert sources_enqueue_pending() == 0


def test_a_queued_source_nothing_touched_for_a_while_is_sent_again() -> None:
    source = _busy_guru_with(status="NOT_PROCESSED")
    assert sources_pending(quiet_minutes=PENDING_QUIET_MINUTES) == [source.pk]
    assert sources_enqueue_pending() == 1
    # Sent: the next sweep leaves it to that message.
    assert sources_enqueue_pending() == 0
