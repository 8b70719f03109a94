"""The backend as docker-compose.yml runs it: its gunicorn command and its environment
(production settings, HTTPS redirect, JSON logs), with the service addresses pointed at this
machine's test database and Milvus. The UI's server and the health check reach it by the
internal host name over plain HTTP; public plain HTTP is redirected to HTTPS whatever host it
names; and everything the process writes is JSON lines."""

import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import yaml
from openguru.providers.vectorstore.lite_server import free_port, wait_for_port

from tests.deploy.compose_model import REPO, environment, load, required_variables, resolve
from tests.integration.worker import BACKEND, REDIS_BROKER, worker_env

# The server reads the test database: it is created for tests that ask for one.
pytestmark = pytest.mark.django_db

PUBLIC = "guru.example.com"
# Where compose's backend reaches other services: here, this run's own (worker_env).
ADDRESSES = {
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CACHE_URL",
    "MILVUS_URI",
    "MILVUS_TOKEN",
    "MEDIA_ROOT",
    "OPENGURU_DATA_DIR",
    "PROMETHEUS_MULTIPROC_DIR",
}


def compose_services() -> dict[str, dict[str, Any]]:
    text = (REPO / "docker-compose.yml").read_text()
    secrets_env = {name: f"value-of-{name.lower()}" for name in required_variables(text)}
    return resolve(load(), secrets_env)["services"]


def ui_host() -> str:
    """The Host header of the UI server's requests: its OPENGURU_API_URL's."""
    return urlsplit(environment(compose_services()["frontend"])["OPENGURU_API_URL"]).netloc


def health_check_script() -> str:
    test = compose_services()["backend"]["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"], test
    return str(test[3])


@dataclass
class Backend:
    origin: str
    log: Path
    process: subprocess.Popen[bytes]

    def get(self, path: str, host: str, **headers: str) -> httpx.Response:
        return httpx.get(f"{self.origin}{path}", headers={"Host": host, **headers}, timeout=60)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def start_backend(tmp: Path, **overrides: str) -> Backend:
    service = compose_services()["backend"]
    local = worker_env(REDIS_BROKER)  # the test database, Milvus, media, this run's providers
    env = {k: v for k, v in local.items() if not k.startswith(("DJANGO_", "PYTEST_"))}
    env |= {k: v for k, v in environment(service).items() if k not in ADDRESSES}
    (tmp / "metrics").mkdir(parents=True, exist_ok=True)
    env |= {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": PUBLIC,
        "DJANGO_CSRF_TRUSTED_ORIGINS": f"https://{PUBLIC}",
        "OPENGURU_DATA_DIR": str(tmp),
        "PROMETHEUS_MULTIPROC_DIR": str(tmp / "metrics"),
        **overrides,
    }
    assert env["DJANGO_PRODUCTION"] == "true" and env["LOG_FORMAT"] == "json"
    port = free_port()
    command = [str(part) for part in service["command"]]
    assert command[0] == "gunicorn"
    command[command.index("0.0.0.0:8000")] = f"127.0.0.1:{port}"
    command[command.index("--workers") + 1] = "1"
    log = tmp / "backend.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", *command],
            cwd=BACKEND,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    backend = Backend(f"http://127.0.0.1:{port}", log, process)
    try:
        wait_for_port("127.0.0.1", port, process=process, timeout=120)
        deadline = time.monotonic() + 180
        behind_tls = {"X-Forwarded-Proto": "https"}
        while backend.get("/widget.js", PUBLIC, **behind_tls).status_code != 200:  # loaded
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.5)
    except BaseException:
        backend.stop()
        raise
    return backend


@pytest.fixture(scope="module")
def backend(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Backend]:
    # Milvus at a closed port: /api/health/ then makes pymilvus log its connection failure.
    server = start_backend(
        tmp_path_factory.mktemp("backend"), MILVUS_URI=f"http://127.0.0.1:{free_port()}"
    )
    yield server
    server.stop()


def test_the_ui_servers_host_reads_the_api_over_plain_http(backend: Backend) -> None:
    assert ui_host() == "backend:8000"
    for host in (ui_host(), "backend"):
        gurus = backend.get("/api/gurus/", host)
        assert gurus.status_code == 200, gurus.text
        assert isinstance(gurus.json(), list)
        script = backend.get("/widget.js", host)
        assert script.status_code == 200
        assert script.headers["content-type"].startswith("text/javascript")
        assert "strict-transport-security" not in script.headers  # plain HTTP: no HSTS


def test_public_plain_http_is_redirected_to_https(backend: Backend) -> None:
    for path in ("/api/gurus/", "/widget.js"):
        response = backend.get(path, PUBLIC)
        assert response.status_code == 301
        assert response.headers["location"] == f"https://{PUBLIC}{path}"
    behind_tls = backend.get("/api/gurus/", PUBLIC, **{"X-Forwarded-Proto": "https"})
    assert behind_tls.status_code == 200
    assert behind_tls.headers["strict-transport-security"].startswith("max-age=")


def test_a_request_through_the_proxy_naming_an_internal_host_is_redirected_too(
    backend: Backend,
) -> None:
    # The proxy always says the scheme: a client sending `Host: backend` to nginx in plain
    # HTTP gets the redirect like any other public request.
    response = backend.get("/api/gurus/", "backend", **{"X-Forwarded-Proto": "http"})
    assert response.status_code == 301
    assert response.headers["location"] == "https://backend/api/gurus/"


def test_a_host_that_is_neither_public_nor_internal_is_refused(backend: Backend) -> None:
    assert backend.get("/widget.js", "127.0.0.1").status_code == 400


def run_health_check(backend: Backend, script: str) -> subprocess.CompletedProcess[str]:
    port = urlsplit(backend.origin).port
    assert '"127.0.0.1", 8000' in script
    return subprocess.run(
        [sys.executable, "-c", script.replace('"127.0.0.1", 8000', f'"127.0.0.1", {port}')],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_compose_health_check_passes_and_fails_on_an_error_status(backend: Backend) -> None:
    script = health_check_script()
    assert run_health_check(backend, script).returncode == 0
    # Not swallowed: a 404, or the 400 of a host that is not allowed, makes it fail.
    assert run_health_check(backend, script.replace("/widget.js", "/no-such-page")).returncode
    assert run_health_check(backend, script.replace('"backend"', '"127.0.0.1"')).returncode


def json_lines(log: Path) -> list[dict[str, Any]]:
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    parsed = []
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except ValueError:
            pytest.fail(f"not a JSON line: {line!r}")
    return parsed


@pytest.mark.slow  # pymilvus gives up connecting after 10 s
def test_the_production_log_stream_is_json_lines_with_request_ids(backend: Backend) -> None:
    request_id = str(uuid.uuid4())
    answered = backend.get("/api/gurus/", "backend", **{"X-Request-ID": request_id})
    assert answered.headers["x-request-id"] == request_id
    assert backend.get("/widget.js", PUBLIC).status_code == 301
    assert backend.get("/widget.js", "not-allowed.example").status_code == 400  # a traceback
    assert backend.get("/api/health/", "backend").status_code == 503  # pymilvus logs why

    deadline = time.monotonic() + 30
    while not re.search(r"/api/health/ HTTP/1.1\\?\" 503", backend.log.read_text()):
        assert time.monotonic() < deadline, backend.log.read_text()
        time.sleep(0.2)
    lines = json_lines(backend.log)
    for line in lines:
        assert {"time", "level", "logger", "message", "request_id"} <= set(line), line
    loggers = {line["logger"] for line in lines}
    assert {"gunicorn.error", "uvicorn.access", "django.security.DisallowedHost"} <= loggers
    assert any(name.startswith("pymilvus") for name in loggers), loggers
    access = [line for line in lines if line["logger"] == "uvicorn.access"]
    ours = [line for line in access if line["request_id"] == request_id]
    assert len(ours) == 1 and '"GET /api/gurus/ HTTP/1.1" 200' in ours[0]["message"], access


def gunicorn_commands() -> dict[str, list[str]]:
    web = yaml.safe_load_all((REPO / "deploy" / "k8s" / "web.yaml").read_text())
    deployment = next(doc for doc in web if doc and doc["kind"] == "Deployment")
    cmd = re.search(r"^CMD (\[.*?\])$", (BACKEND / "Dockerfile").read_text(), re.M | re.S)
    assert cmd, "the backend image has no CMD"
    return {
        "compose": [str(part) for part in compose_services()["backend"]["command"]],
        "k8s": deployment["spec"]["template"]["spec"]["containers"][0]["command"],
        "image": json.loads(cmd[1].replace("\\\n", "")),
    }


@pytest.mark.parametrize("where", ["compose", "k8s", "image"])
def test_every_gunicorn_reads_the_config_that_formats_its_lines(where: str) -> None:
    command = gunicorn_commands()[where]
    assert command[0] == "gunicorn"
    assert command[command.index("-c") + 1] == "config/gunicorn.conf.py"
    assert (BACKEND / "config" / "gunicorn.conf.py").is_file()
    assert "--access-logfile" not in command  # the config's handlers write the access lines
