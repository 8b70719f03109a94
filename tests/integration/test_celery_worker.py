"""The Celery path with a real worker process on real brokers (Redis and RabbitMQ)."""

import pytest
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource

from tests.gurus.helpers import guru_make
from tests.integration.worker import BROKERS, celery_worker, purge, send_task, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TEXT = "\n\n".join(
    f"## Topic {i}\n\nParagraph {i} explains widget number {i} and how it spins." for i in range(12)
)


@pytest.mark.parametrize("broker", sorted(BROKERS))
def test_a_real_worker_indexes_a_source(broker):
    url = BROKERS[broker]
    guru = guru_make(slug=f"worker-{broker}", name="Worker")
    source = DataSource.objects.create(
        guru=guru, type="text", url=f"text://{broker}", title="Widgets", content=TEXT
    )
    purge(url)
    with celery_worker(url):
        send_task(url, "openguru.sources.tasks.source_process_task", source.pk)

        def finished() -> DataSource | None:
            row = DataSource.objects.get(pk=source.pk)
            return row if row.status in ("SUCCESS", "FAILED") else None

        done = wait_until(finished, timeout=120)
    assert done.status == "SUCCESS", done.error
    assert done.chunk_count > 0
    assert done.claimed_by == ""
    assert get_vector_store().count(guru.collection_name, source_id=source.pk) == done.chunk_count
