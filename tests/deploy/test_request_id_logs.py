"""A request's id (X-Request-ID) follows the work it enqueues: the source added through the API
is indexed by a real Celery worker whose JSON log lines carry the same id."""

import json
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from openguru.sources.models import DataSource

from tests.gurus.helpers import guru_make
from tests.integration.web import web_server
from tests.integration.worker import REDIS_BROKER, celery_worker, purge, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ADMIN = {"Authorization": "Bearer test-admin-token"}
PROCESS_TASK = "openguru.sources.tasks.source_process_task"


def json_lines(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text().splitlines() if path.exists() else []
    return [json.loads(line) for line in lines if line.startswith("{")]


def test_the_request_id_reaches_the_worker_log_lines(tmp_path: Path) -> None:
    guru_make(slug="traced", name="Traced")
    request_id = str(uuid.uuid4())
    log = tmp_path / "worker.log"
    purge(REDIS_BROKER)
    with (
        web_server(REDIS_BROKER, LOG_FORMAT="json") as origin,
        celery_worker(REDIS_BROKER, log_file=str(log), LOG_FORMAT="json"),
    ):
        response = httpx.post(
            f"{origin}/api/gurus/traced/sources/",
            json={
                "type": "text",
                "url": "https://notes.example.org/tides",
                "title": "Tides",
                "content": "# Tides\n\nTides rise and fall twice a day with the moon's pull.",
            },
            headers={**ADMIN, "X-Request-ID": request_id},
            timeout=180,
        )
        assert response.status_code == 201, response.text
        assert response.headers["X-Request-ID"] == request_id
        source_id = response.json()["id"]
        wait_until(lambda: DataSource.objects.get(pk=source_id).status == "SUCCESS", timeout=120)
        # The worker logs the task's outcome after the row is written: wait for that line (the
        # "received" line comes first and says nothing of the outcome).
        wait_until(
            lambda: any(
                PROCESS_TASK in line["message"] and "succeeded" in line["message"]
                for line in json_lines(log)
            ),
            timeout=30,
        )

    lines = json_lines(log)
    assert lines, "the worker wrote no JSON lines"
    assert all({"time", "level", "logger", "message", "request_id"} <= set(line) for line in lines)
    traced = [line for line in lines if line["request_id"] == request_id]
    assert any(
        PROCESS_TASK in line["message"] and "succeeded" in line["message"] for line in traced
    ), traced


def test_a_request_without_an_id_gets_one_back(client: Any) -> None:
    first = client.get("/api/health/").headers.get("X-Request-ID")  # not traced: probes
    response = client.get("/api/gurus/")
    assert first is None
    assert uuid.UUID(response.headers["X-Request-ID"])
