"""The ASGI app in a process of its own (uvicorn, as `make run` serves it) whose Celery calls go to a
real broker, not the eager in-process app the rest of the suite uses."""

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
from django.db import connection
from openguru.providers.vectorstore.lite_server import free_port, wait_for_port

from tests.integration.worker import BACKEND, worker_env


@contextmanager
def web_server(broker_url: str, *, log_file: str = "", **extra: str) -> Iterator[str]:
    """Yield the origin of a uvicorn process serving `config.asgi` on the test database."""
    connection.close()  # the server must see committed rows, not our open transaction
    port = free_port()
    log = open(log_file, "ab") if log_file else None  # noqa: SIM115  (closed below)
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "warning", "--lifespan", "off"],
        cwd=BACKEND,
        env=worker_env(broker_url, **extra),
        stdout=log,
        stderr=log,
        start_new_session=True,
    )  # fmt: skip
    try:
        wait_for_port("127.0.0.1", port, process=process, timeout=120)
        origin = f"http://127.0.0.1:{port}"
        # Ready once Django has loaded its URLs and apps: the first request does that.
        httpx.get(f"{origin}/api/health/", timeout=300)
        yield origin
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if log:
            log.close()
