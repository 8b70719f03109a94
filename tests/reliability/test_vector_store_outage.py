"""The vector store dies mid-run: asks get a clear 503 within seconds, health says so, and once
the same server (same port, same data file) is back everything answers again, nothing lost."""

import json
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.providers.vectorstore.lite_server import free_port, start_lite_server

from tests.answers.conftest import _indexed_python_guru

pytestmark = pytest.mark.django_db(transaction=True)

# Each phase asks a question of its own: a question answered before is replayed from the
# database, without a search.
BEFORE, DOWN, AFTER = (
    "How do I create a virtual environment?",
    "How do I handle exceptions?",
    "What does a list comprehension do?",
)
UNAVAILABLE = {
    "code": "provider_unavailable",
    "msg": "The vector store is not reachable; try again in a moment.",
}
# Connect timeout plus one call's retries: far below pymilvus' minutes-long default.
ASK_BOUND_SECONDS = 15
RECOVERY_SECONDS = 20  # without renewing the connection, gRPC may wait two minutes


class OwnMilvus:
    """A Milvus Lite server of this test's own, which the test can kill and start again."""

    def __init__(self, data_file: Path, port: int) -> None:
        self.data_file, self.port = data_file, port
        self.process = start_lite_server(data_file=data_file, port=port)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)

    def restart(self) -> None:
        self.process = start_lite_server(data_file=self.data_file, port=self.port)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


@pytest.fixture
def own_milvus(settings) -> Iterator[OwnMilvus]:
    server = OwnMilvus(Path(tempfile.mkdtemp(prefix="openguru-outage-")) / "m.db", free_port())
    settings.MILVUS_URI = f"http://127.0.0.1:{server.port}"
    get_vector_store.cache_clear()
    try:
        yield server
    finally:
        get_vector_store().close()
        get_vector_store.cache_clear()
        server.stop()


def _post(client: Client, path: str, body: dict, **headers: str) -> tuple[int, dict, float]:
    started = time.monotonic()
    response = client.post(path, json.dumps(body), content_type="application/json", **headers)
    elapsed = time.monotonic() - started
    return response.status_code, response.json(), elapsed


def _asks(key: str, question: str) -> dict[str, tuple[int, dict, float]]:
    client, headers = Client(), {"HTTP_X_API_KEY": key}
    v1_ask = {"question": question, "stream": False}
    return {
        "site": _post(client, "/api/gurus/python/answer/", {"question": question}),
        "v1 answer": _post(client, "/api/v1/python/answer/", v1_ask, **headers),
        "v1 search": _post(client, "/api/v1/python/search/", {"query": BEFORE}, **headers),
    }


def _stream(client: Client, question: str) -> tuple[int, str, bytes]:
    response = client.post(
        "/api/gurus/python/answer/stream/",
        json.dumps({"question": question}),
        content_type="application/json",
    )
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response.status_code, response["Content-Type"], body


def _health(client: Client) -> dict:
    return client.get("/api/health/").json()


def _recovers_within(seconds: float) -> bool:
    """Health says the vector store is fine again: a call that still meets the old, broken
    connection fails, and the next one goes through a new one."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if _health(Client())["components"]["vector_store"] == "ok":
            return True
        time.sleep(0.5)
    return False


def test_asks_fail_fast_with_503_while_milvus_is_down_and_recover_after(own_milvus):
    guru = _indexed_python_guru()
    _, key = api_key_create(user=admin_token_owner(), name="outage")
    chunks = get_vector_store().count(guru.collection_name)
    assert chunks > 0
    before = _asks(key, BEFORE)
    assert {name: status for name, (status, _, _) in before.items()} == dict.fromkeys(before, 200)

    own_milvus.kill()

    down = _asks(key, DOWN)
    for name, (status, body, elapsed) in down.items():
        assert (name, status, body) == (name, 503, UNAVAILABLE)
        assert elapsed < ASK_BOUND_SECONDS, name
    status, content_type, body = _stream(Client(), DOWN + " (streamed)")
    assert (status, content_type) == (503, "application/json")
    assert json.loads(body) == UNAVAILABLE
    started = time.monotonic()
    health = _health(Client())
    assert health["components"]["vector_store"].startswith("error")
    assert time.monotonic() - started < ASK_BOUND_SECONDS

    own_milvus.restart()

    assert _recovers_within(RECOVERY_SECONDS)
    after = _asks(key, AFTER)
    assert {name: status for name, (status, _, _) in after.items()} == dict.fromkeys(after, 200)
    assert after["v1 search"][1] == before["v1 search"][1]  # the same passages, nothing lost
    assert get_vector_store().count(guru.collection_name) == chunks
