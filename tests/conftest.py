"""Test environment: real PostgreSQL (or SQLite for the smoke run), a real Milvus Lite server,
and loopback servers that speak the external providers' protocols (see tests/fakes/)."""

import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

_TMP = Path(tempfile.mkdtemp(prefix="openguru-test-"))

# Set before Django reads settings. `make test` sets DATABASE_URL (PostgreSQL); the smoke run
# leaves it unset to exercise the embedded SQLite default.
os.environ.setdefault("OPENGURU_DATA_DIR", str(_TMP / "data"))
os.environ.setdefault("CRAWLER_ALLOW_LOOPBACK", "true")
os.environ.setdefault("EMBEDDING_PROVIDER", "fake")
os.environ.setdefault("LLM_PROVIDER", "none")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")
os.environ.setdefault("OPENGURU_ADMIN_TOKEN", "test-admin-token")
os.environ.setdefault("YOUTUBE_BASE_URL", "http://127.0.0.1:9")  # never the internet

from openguru.providers.vectorstore.lite_server import free_port, start_lite_server  # noqa: E402

_MILVUS_PORT = free_port()
os.environ.setdefault("MILVUS_URI", f"http://127.0.0.1:{_MILVUS_PORT}")


@pytest.fixture(scope="session", autouse=True)
def milvus_server() -> Iterator[str]:
    """The real Milvus Lite engine on a loopback port, for the whole run."""
    process = start_lite_server(data_file=_TMP / "milvus" / "test.db", port=_MILVUS_PORT)
    try:
        yield os.environ["MILVUS_URI"]
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


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
