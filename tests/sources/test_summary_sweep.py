"""Beat's summary sweep: an indexed source whose summary message was lost gets its summary; each
source is sent at most once per quiet period and only for a few hours after its indexing, so a
source whose summary keeps coming out empty is not sent forever; without an LLM, nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone
from openguru.sources.models import DataSource
from openguru.sources.tasks import sources_enqueue_missing_summaries

from tests.conftest import clear_provider_caches
from tests.gurus.helpers import guru_make
from tests.sources.ingestion_helpers import source_process_now

pytestmark = pytest.mark.django_db(transaction=True)

TEXT = (
    "# Tides\n\nThe moon's pull raises two bulges of water, so most coasts see two tides a day.\n"
)


def _quiet(source: DataSource, settings, *, indexed_hours_ago: float = 1) -> None:
    """Nothing touched the source for longer than the sweep waits."""
    now = timezone.now()
    DataSource.objects.filter(pk=source.pk).update(
        updated_at=now - timedelta(minutes=settings.SOURCE_SUMMARY_QUIET_MINUTES + 1),
        last_indexed_at=now - timedelta(hours=indexed_hours_ago),
    )


def test_an_indexed_source_without_a_summary_gets_one_and_is_sent_once(llm_server, settings):
    guru = guru_make(slug="tides", name="Tides")
    source = DataSource.objects.create(guru=guru, type="text", url="text://tides", content=TEXT)
    assert source_process_now(source_id=source.pk, token="run").status == "done"
    # As if the summary's message had been lost with the broker.
    DataSource.objects.filter(pk=source.pk).update(summary="")
    _quiet(source, settings)

    assert sources_enqueue_missing_summaries() == 1
    assert DataSource.objects.get(pk=source.pk).summary
    assert sources_enqueue_missing_summaries() == 0


def test_a_summary_that_stays_empty_is_sent_a_bounded_number_of_times(llm_server, settings):
    guru = guru_make(slug="empty", name="Empty")
    # SUCCESS with no chunks in the store: its summary comes out empty every time.
    source = DataSource.objects.create(
        guru=guru, type="text", url="text://empty", content=TEXT, status="SUCCESS"
    )
    _quiet(source, settings)
    assert sources_enqueue_missing_summaries() == 1
    assert DataSource.objects.get(pk=source.pk).summary == ""
    assert sources_enqueue_missing_summaries() == 0  # sent: quiet again first
    _quiet(source, settings)
    assert sources_enqueue_missing_summaries() == 1  # one more try per quiet period…
    _quiet(source, settings, indexed_hours_ago=settings.SOURCE_SUMMARY_RETRY_HOURS + 1)
    assert sources_enqueue_missing_summaries() == 0  # …for a few hours after its indexing


def test_without_an_llm_nothing_is_sent(settings):
    settings.LLM_PROVIDER = "none"
    clear_provider_caches()
    guru = guru_make(slug="no-llm", name="No LLM")
    source = DataSource.objects.create(
        guru=guru, type="text", url="text://no-llm", content=TEXT, status="SUCCESS"
    )
    _quiet(source, settings)
    assert sources_enqueue_missing_summaries() == 0
