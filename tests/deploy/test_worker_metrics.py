"""A Celery worker in a pod of its own serves its own /metrics: a real prefork worker indexes
sources on Redis, and its exporter reports what the pool process counted, to the token only."""

import httpx
import pytest
from openguru.providers.vectorstore.lite_server import free_port
from openguru.sources.models import DataSource
from prometheus_client.parser import text_string_to_metric_families

from tests.answers.conftest import PAGES, page_url
from tests.gurus.helpers import guru_make
from tests.integration.worker import REDIS_BROKER, celery_worker, purge, send_task, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TOKEN = "worker-metrics-token"
TASK = "openguru.sources.tasks.source_process_task"


def _chunks_counted(url: str) -> float | None:
    """openguru_ingestion_chunks_total{source_type="text"}, or None while nothing listens."""
    try:
        response = httpx.get(url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=5)
    except httpx.TransportError:
        return None
    assert response.status_code == 200, response.text
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            name, kind = sample.name, sample.labels.get("source_type")
            if name == "openguru_ingestion_chunks_total" and kind == "text":
                return sample.value
    return 0.0


def test_the_workers_exporter_reports_its_pools_ingestion(tmp_path):
    guru = guru_make(slug="worker-metered", name="Worker metered")
    sources = [
        DataSource.objects.create(
            guru=guru, type="text", url=page_url(title), title=title, content=f"# {title}\n\n{text}"
        )
        for title, text in PAGES.items()
    ]
    port = free_port()
    url = f"http://127.0.0.1:{port}/metrics"
    multiproc = tmp_path / "metrics"
    multiproc.mkdir()
    purge(REDIS_BROKER)
    env = {
        "METRICS_TOKEN": TOKEN,
        "WORKER_METRICS_PORT": str(port),
        "WORKER_METRICS_ADDRESS": "127.0.0.1",
        "PROMETHEUS_MULTIPROC_DIR": str(multiproc),
    }
    with celery_worker(REDIS_BROKER, **env):
        wait_until(lambda: _chunks_counted(url) is not None, timeout=120)
        assert _chunks_counted(url) == 0.0
        for source in sources:
            send_task(REDIS_BROKER, TASK, source.pk)
        indexed = DataSource.objects.filter(pk__in=[s.pk for s in sources], status="SUCCESS")
        wait_until(lambda: indexed.count() == len(sources), timeout=120)
        chunks = sum(indexed.values_list("chunk_count", flat=True))
        assert chunks >= len(sources)
        # Counted in the pool's process, served by the main one.
        assert wait_until(lambda: _chunks_counted(url) == chunks, timeout=30)

        for header in ({}, {"Authorization": "Bearer wrong"}):
            refused = httpx.get(url, headers=header, timeout=5)
            assert refused.status_code == 401
            assert refused.json()["code"] == "not_authenticated"
        assert httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 404
