"""Test environment: real PostgreSQL (or SQLite for the smoke run), a real Milvus Lite server,
and loopback servers that speak the external providers' protocols (see tests/fakes/)."""

import contextlib
import functools
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from openguru.providers.embeddings.factory import get_embedder
from openguru.providers.llm.factory import get_llm
from openguru.providers.rerank.factory import get_reranker
from openguru.providers.vectorstore.lite_server import free_port, start_lite_server
from pymilvus import MilvusClient

from tests.fakes.openai_server import FakeOpenAIServer

# A test that times out fails alone and is named in the summary (tests/isolation.py); the live
# servers the browser, deploy and probe tests share (tests/live_servers.py); long files first
# (tests/file_order.py).
pytest_plugins = ["tests.isolation", "tests.live_servers", "tests.file_order"]

_TMP = Path(tempfile.mkdtemp(prefix="openguru-test-"))

# Environment defaults for tests are in backend/pyproject.toml (pytest-env). Per-run values that
# cannot be static are set here, before any provider is built (factories read settings lazily).
_MILVUS_PORT = free_port()
settings.MILVUS_URI = f"http://127.0.0.1:{_MILVUS_PORT}"
settings.MEDIA_ROOT = str(_TMP / "media")


@pytest.fixture(scope="session", autouse=True)
def vector_store_server(request: pytest.FixtureRequest) -> None:
    """Milvus for every test, unless the run keeps vectors in memory (the fast lane)."""
    if settings.VECTOR_STORE != "memory":
        request.getfixturevalue("milvus_server")


@pytest.fixture(scope="session")
def milvus_server() -> Iterator[str]:
    """The real Milvus Lite engine on a loopback port, for the whole run."""
    process = start_lite_server(data_file=_TMP / "milvus" / "test.db", port=_MILVUS_PORT)
    try:
        yield settings.MILVUS_URI
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@functools.cache
def _milvus_client(uri: str) -> MilvusClient:
    return MilvusClient(uri=uri, timeout=30)


@contextlib.contextmanager
def _dropping_new_collections() -> Iterator[None]:
    """Drops, on the way out, the collections made inside: Milvus Lite keeps every collection in
    memory, and a full run's worth of them (one per guru a test makes) outgrows the machine."""
    if settings.VECTOR_STORE == "memory":
        yield
        return
    client = _milvus_client(settings.MILVUS_URI)
    before = set(client.list_collections())
    yield
    for name in set(client.list_collections()) - before:
        client.drop_collection(name)


@pytest.fixture(scope="module", autouse=True)
def milvus_collections_per_module(vector_store_server: None) -> Iterator[None]:
    """What a module's fixtures made goes with the module."""
    with _dropping_new_collections():
        yield


@pytest.fixture(autouse=True)
def milvus_collections_per_test(milvus_collections_per_module: None) -> Iterator[None]:
    """What a test made goes with the test."""
    with _dropping_new_collections():
        yield


@pytest.fixture
def admin_client(db: None) -> "object":
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer test-admin-token")
    return client


@pytest.fixture
def anon_client() -> "object":
    from rest_framework.test import APIClient

    return APIClient()


def clear_provider_caches() -> None:
    for factory in (get_llm, get_embedder, get_reranker):
        factory.cache_clear()


@pytest.fixture
def llm_server(settings) -> Iterator[FakeOpenAIServer]:
    server = FakeOpenAIServer(models=("fake-gpt",)).start()
    settings.LLM_PROVIDER = "openai"
    settings.OPENAI_BASE_URL = f"{server.origin}/v1"
    settings.OPENAI_API_KEY = "test-key"
    settings.LLM_MODEL = "fake-gpt"
    clear_provider_caches()
    try:
        yield server
    finally:
        server.stop()
        clear_provider_caches()
