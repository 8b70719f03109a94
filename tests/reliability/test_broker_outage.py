"""The broker goes down while sources are added through the API: each is still accepted (201,
queued), and once the broker is back the pending sweep sends them and each is indexed once."""

import re
from collections import Counter
from pathlib import Path

import httpx
import pytest
from celery import Celery
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource

from tests.integration.web import web_server
from tests.integration.worker import celery_worker, wait_until
from tests.reliability.services import DisposableRabbitMQ, DisposableRedis, disposable

# Servers and processes start on a busy machine: allow more than the suite's default timeout.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.timeout(900)]

ADMIN = {"Authorization": "Bearer test-admin-token"}
SWEEP = "openguru.sources.tasks.sources_enqueue_pending"
# The sweep resends a queued source nothing touched for this long (10 minutes in production).
QUIET = {"SOURCE_PENDING_QUIET_MINUTES": "0.1", "SOURCE_BUSY_RETRY_SECONDS": "1"}
ACCEPT_SECONDS = 20.0  # a send to a dead broker gives up after a few quick reconnects
PAGES = {
    "Herons": "Grey herons stand still in shallow water and spear fish with their bills.",
    "Otters": "River otters den in banks and eat crayfish, frogs and slow fish.",
    "Beavers": "Beavers fell willows with their teeth and dam streams into ponds.",
}


def _broker(kind: str) -> DisposableRedis | DisposableRabbitMQ:
    return DisposableRedis() if kind == "redis" else DisposableRabbitMQ()


def _add(api: httpx.Client, title: str, text: str) -> httpx.Response:
    body = {"type": "text", "title": title, "content": f"# {title}\n\n{text}\n"}
    return api.post("/api/gurus/wildlife/sources/", json=body)


def _runs(log: Path) -> Counter[int]:
    """How many times the worker indexed each source (runs that did the work, not skips)."""
    text = log.read_text() if log.exists() else ""
    done = re.findall(r"succeeded in [^:]+: \{'source_id': (\d+), 'status': 'done'", text)
    return Counter(int(source_id) for source_id in done)


def _sweep(broker_url: str) -> None:
    """What beat sends every minute."""
    app = Celery(broker=broker_url, set_as_current=False)
    with app.connection_for_write() as connection:
        app.send_task(SWEEP, queue="light", connection=connection)


@pytest.mark.parametrize("kind", ["redis", "rabbitmq"])
def test_sources_added_while_the_broker_is_down_are_indexed_once_it_is_back(kind, tmp_path):
    log = tmp_path / "worker.log"
    with (
        disposable(_broker(kind)) as broker,
        web_server(broker.url, **QUIET) as origin,
        celery_worker(broker.url, log_file=str(log), **QUIET),
        httpx.Client(base_url=origin, headers=ADMIN, timeout=60) as api,
    ):
        assert api.post("/api/gurus/", json={"slug": "wildlife", "name": "Wildlife"}).is_success
        first = _add(api, "Herons", PAGES["Herons"])
        assert first.status_code == 201, first.text
        wait_until(lambda: _runs(log)[first.json()["id"]] == 1, timeout=60)

        broker.kill()
        down = [_add(api, title, text) for title, text in list(PAGES.items())[1:]]
        assert [r.status_code for r in down] == [201, 201], [r.text for r in down]
        assert all(r.json()["status"] == "NOT_PROCESSED" for r in down)
        assert all(r.elapsed.total_seconds() < ACCEPT_SECONDS for r in down)

        broker.start()
        ids = [first.json()["id"], *(r.json()["id"] for r in down)]

        def all_indexed() -> bool:
            _sweep(broker.url)
            statuses = set(DataSource.objects.filter(pk__in=ids).values_list("status", flat=True))
            return statuses == {"SUCCESS"}

        wait_until(all_indexed, timeout=90, interval=3)
        _sweep(broker.url)  # a later sweep finds nothing left to send
        after = _add(api, "Kingfishers", "Kingfishers dive from perches for small fish.")
        assert after.status_code == 201
        ids.append(after.json()["id"])
        wait_until(lambda: _runs(log)[ids[-1]] == 1, timeout=60)

    assert _runs(log) == dict.fromkeys(ids, 1)  # each indexed exactly once
    store = get_vector_store()
    for source in DataSource.objects.filter(pk__in=ids).select_related("guru"):
        assert source.reindex_count == 0
        chunks = store.count(source.guru.collection_name, source_id=source.pk)
        assert chunks == source.chunk_count > 0
