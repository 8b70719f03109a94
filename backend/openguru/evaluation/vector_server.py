"""Make sure a Milvus server answers for the run, starting a private Milvus Lite if needed.

`make eval` should work on a bare checkout: when nothing listens at the configured loopback
address (no `make run` going on), the evaluation starts its own server on a free port, with its
data in `<data>/eval-milvus` so indexes survive for the next run, and stops it at the end.
"""

import socket
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.test.utils import override_settings

from openguru.providers.vectorstore.factory import get_vector_store
from openguru.providers.vectorstore.lite_server import free_port, start_lite_server

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
DEFAULT_MILVUS_PORT = 19530
STOP_TIMEOUT_SECONDS = 15


def _address(uri: str) -> tuple[str, int]:
    parts = urlsplit(uri if "://" in uri else f"http://{uri}")
    return parts.hostname or "", parts.port or DEFAULT_MILVUS_PORT


def answers(uri: str) -> bool:
    host, port = _address(uri)
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


@contextmanager
def milvus_for_eval(data_dir: Path, log: Callable[[str], None]) -> Iterator[str]:
    """Yield the Milvus URI to use; `get_vector_store()` points at it while the block runs."""
    uri = settings.MILVUS_URI
    host, _port = _address(uri)
    if answers(uri) or host not in LOOPBACK_HOSTS:
        yield uri
        return
    port = free_port()
    data_file = data_dir / "eval-milvus" / "milvus.db"
    log(f"nothing answers at {uri}; starting Milvus Lite on 127.0.0.1:{port} ({data_file})")
    process = start_lite_server(data_file=data_file, port=port)
    local_uri = f"http://127.0.0.1:{port}"
    try:
        with override_settings(MILVUS_URI=local_uri):
            get_vector_store.cache_clear()
            yield local_uri
    finally:
        get_vector_store.cache_clear()  # the next caller gets a store for the restored URI
        _stop(process)


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=STOP_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
