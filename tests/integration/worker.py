"""Run a real Celery worker process against a real broker and the test database."""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from celery import Celery
from config.workers import EMBEDDED_WORKERS, WorkerSpec
from django.conf import settings
from django.db import connection

BACKEND = Path(__file__).resolve().parents[2] / "backend"
# The brokers real-worker tests use; overridable so two test runs on one machine (each with
# its own Redis database and RabbitMQ vhost) never take each other's messages. Within a run,
# each `pytest -n` process (gw0, gw1, …) gets its own database and vhost in turn: the vhosts
# are made by backend/scripts/services_up.sh.
_PROCESS = os.environ.get("PYTEST_XDIST_WORKER", "")


def _redis_for_process(url: str) -> str:
    if not _PROCESS:
        return url
    base, _, database = url.rpartition("/")
    return f"{base}/{int(database or 0) + int(_PROCESS.removeprefix('gw'))}"


def _amqp_for_process(url: str) -> str:
    if not _PROCESS:
        return url
    parts = urlsplit(url)
    vhost = unquote(parts.path[1:]).strip("/") or "openguru_test"
    return urlunsplit(parts._replace(path=f"/{vhost}_{_PROCESS}"))


REDIS_BROKER = _redis_for_process(
    os.environ.get("OPENGURU_TEST_REDIS_URL", "redis://127.0.0.1:6379/7")
)
AMQP_BROKER = _amqp_for_process(
    os.environ.get("OPENGURU_TEST_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672//")
)
BROKERS = {"redis": REDIS_BROKER, "rabbitmq": AMQP_BROKER}


def test_database_url() -> str:
    db = settings.DATABASES["default"]
    # A worker in another process cannot see an in-memory SQLite test database.
    assert db["ENGINE"].endswith("postgresql"), "real-worker tests need DATABASE_URL=postgres://…"
    user, host, port = db["USER"] or "postgres", db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    return f"postgres://{user}@{host}:{port}/{db['NAME']}"


def worker_env(broker_url: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": test_database_url(),
        "CELERY_BROKER_URL": broker_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "MILVUS_URI": settings.MILVUS_URI,
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        "EMBEDDING_PROVIDER": settings.EMBEDDING_PROVIDER,
        "CRAWLER_ALLOW_LOOPBACK": "true",
        **extra,
    }


CELERY = (sys.executable, "-m", "celery", "-A", "config")
# One worker for every queue: what most real-worker tests need.
EVERY_QUEUE = WorkerSpec("all", ("ingest", "light"))


def _start_worker(
    spec: WorkerSpec, broker_url: str, log_file: str, extra: dict[str, str]
) -> subprocess.Popen:
    argv = spec.argv(
        CELERY, "--pool", "prefork", "-l", "INFO", "--without-gossip", "--without-mingle",
        "--without-heartbeat", *(["--logfile", log_file] if log_file else []),
    )  # fmt: skip
    return subprocess.Popen(
        argv, cwd=BACKEND, env=worker_env(broker_url, **extra), start_new_session=True
    )


def _stop_worker(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@contextmanager
def celery_worker(
    broker_url: str, *, log_file: str = "", spec: WorkerSpec = EVERY_QUEUE, **extra: str
) -> Iterator[subprocess.Popen]:
    """A worker (every queue, one slot, unless `spec` says otherwise); `extra`: its env."""
    connection.close()  # the worker must see committed rows, not our open transaction
    process = _start_worker(spec, broker_url, log_file, extra)
    try:
        yield process
    finally:
        _stop_worker(process)


@contextmanager
def embedded_workers(broker_url: str, **extra: str) -> Iterator[list[subprocess.Popen]]:
    """The workers `make run` starts (`config/workers.py`), each on its own queues."""
    connection.close()
    processes: list[subprocess.Popen] = []
    try:
        for spec in EMBEDDED_WORKERS:
            processes.append(_start_worker(spec, broker_url, "", extra))
        yield processes
    finally:
        for process in processes:
            _stop_worker(process)


def _client_app(broker_url: str) -> Celery:
    # Not the current app: that one runs this process's tasks (eagerly, in tests); a current
    # app pointing at the broker would send every later `.delay()` of the run to it instead.
    return Celery(broker=broker_url, set_as_current=False)


def send_task(broker_url: str, name: str, *args: object) -> None:
    app = _client_app(broker_url)
    with app.connection_for_write() as conn:
        app.send_task(name, args=list(args), queue="ingest", connection=conn)


def purge(broker_url: str) -> None:
    """Drop messages a previous run left behind, so this worker only sees ours."""
    app = _client_app(broker_url)
    for queue in ("ingest", "light"):
        # A queue that was never declared has nothing to purge (RabbitMQ says NOT_FOUND).
        with app.connection_for_write() as conn, suppress(Exception):
            conn.default_channel.queue_purge(queue)


def wait_until(predicate, *, timeout: float, interval: float = 0.3):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError("condition not met in time")
