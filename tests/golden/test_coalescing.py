"""One golden run at a time per guru: a re-index while a run is queued or running adds none
(re-indexing ten sources in a row measures once), and a run whose worker died does not block
the guru for ever."""

from datetime import timedelta

import pytest
from config.celery import app
from django.db import IntegrityError, transaction
from django.utils import timezone
from openguru.evaluation.golden import golden_run_request
from openguru.evaluation.models import GoldenPair, GoldenRun
from openguru.evaluation.tasks import golden_run_task
from openguru.sources.models import DataSource

from tests.console.conftest import make_guru
from tests.golden.conftest import SLUG, add_golden_set, reindex_with, source_titled

Status = GoldenRun.Status


@pytest.mark.parametrize("active", [Status.QUEUED, Status.RUNNING])
def test_a_reindex_while_a_run_is_active_queues_no_second(golden_guru, admin_client, active):
    add_golden_set(golden_guru)
    waiting = GoldenRun.objects.create(guru=golden_guru, status=active)
    exceptions = source_titled(golden_guru, "Exceptions")

    reindex_with(exceptions, exceptions.content)
    reindex_with(source_titled(golden_guru, "Files"), "# Files\n\nOpen files with open.\n")

    # No task was sent: with the eager task queue a sent task would have run this row.
    assert list(GoldenRun.objects.values_list("pk", "status")) == [(waiting.pk, active)]
    response = admin_client.post(f"/api/gurus/{SLUG}/golden/runs/")
    assert (response.status_code, response.json()["id"]) == (202, waiting.pk)
    assert GoldenRun.objects.count() == 1

    GoldenRun.objects.filter(pk=waiting.pk).update(status=Status.DONE)
    reindex_with(exceptions, exceptions.content)  # nothing active any more: measured again
    latest = GoldenRun.objects.order_by("pk").last()
    assert latest.pk != waiting.pk
    assert (latest.status, latest.trigger_source_id) == (Status.DONE, exceptions.pk)


def test_a_guru_half_re_indexed_is_measured_once_its_last_source_is_done(golden_guru):
    add_golden_set(golden_guru)
    files = source_titled(golden_guru, "Files")
    # A re-embed queues every source at once; one is still waiting for its turn.
    DataSource.objects.filter(pk=files.pk).update(status=DataSource.Status.NOT_PROCESSED)
    exceptions = source_titled(golden_guru, "Exceptions")

    reindex_with(exceptions, exceptions.content)
    assert not GoldenRun.objects.exists()  # measured now, the waiting page would count as lost

    reindex_with(files, files.content)
    run = GoldenRun.objects.get()
    assert (run.status, run.trigger_source_id, run.flagged) == (Status.DONE, files.pk, False)


def test_the_database_keeps_one_active_run_per_guru(db):
    guru, other = make_guru(), make_guru("django")
    GoldenRun.objects.create(guru=guru, status=Status.DONE)
    GoldenRun.objects.create(guru=guru, status=Status.QUEUED)
    GoldenRun.objects.create(guru=other, status=Status.RUNNING)
    for status in (Status.QUEUED, Status.RUNNING):
        with pytest.raises(IntegrityError), transaction.atomic():
            GoldenRun.objects.create(guru=guru, status=status)
    GoldenRun.objects.create(guru=guru, status=Status.FAILED)
    assert GoldenRun.objects.filter(guru=guru).count() == 3


def test_a_run_that_stopped_long_ago_no_longer_blocks(transactional_db, settings):
    settings.GOLDEN_RUN_STALE_MINUTES = 30
    guru = make_guru()
    source = DataSource.objects.create(guru=guru, type="text", url="text://a", content="a")
    GoldenPair.objects.create(guru=guru, question="Q?", expected_source=source)
    recent = GoldenRun.objects.create(guru=guru, status=Status.RUNNING)

    assert golden_run_request(guru_id=guru.pk).pk == recent.pk  # still working: it counts

    GoldenRun.objects.filter(pk=recent.pk).update(updated_at=timezone.now() - timedelta(minutes=31))
    fresh = golden_run_request(guru_id=guru.pk)

    assert fresh is not None and fresh.pk != recent.pk
    recent.refresh_from_db()
    assert recent.status == Status.FAILED and recent.error


def test_a_guru_without_pairs_is_not_measured(golden_guru):
    reindex_with(source_titled(golden_guru, "Exceptions"), "# Exceptions\n\nRaise them.\n")
    assert not GoldenRun.objects.exists()


def test_the_run_goes_to_the_light_queue():
    route = app.amqp.router.route({}, golden_run_task.name, (1,), {})
    assert route["queue"].name == "light"
