"""The platform as `make run` runs it, for drills: the ASGI app under uvicorn and a Celery worker
in processes of their own, on a database and broker the drill may break, answering with the
loopback LLM."""

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from subprocess import Popen

import httpx
import psycopg

from tests.fakes.openai_server import FakeOpenAIServer
from tests.integration.web import web_server
from tests.integration.worker import celery_worker, wait_until

ADMIN = {"Authorization": "Bearer test-admin-token"}
HTTP_TIMEOUT = 60.0  # a first request imports half the platform; the machine may be busy


def llm_env(server: FakeOpenAIServer, **extra: str) -> dict[str, str]:
    return {
        "LLM_PROVIDER": "openai",
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": "test-key",
        "LLM_MODEL": "fake-gpt",
        "ANSWER_MODE": "fast",
        **extra,
    }


@dataclass
class Platform:
    api: httpx.Client
    worker: Popen
    log: str
    guru: str = ""
    env: dict[str, str] = field(default_factory=dict)

    def add_source(self, **body: object) -> dict:
        response = self.api.post(f"/api/gurus/{self.guru}/sources/", json=body)
        assert response.status_code == 201, response.text
        return dict(response.json())

    def source(self, source_id: int) -> dict:
        return dict(self.api.get(f"/api/gurus/{self.guru}/sources/{source_id}/").json())

    def finished(self, source_id: int, *, timeout: float) -> dict:
        def done() -> dict | None:
            row = self.source(source_id)
            return row if row["status"] in ("SUCCESS", "FAILED") else None

        return dict(wait_until(done, timeout=timeout, interval=0.5))


@contextmanager
def running_platform(broker_url: str, *, log: str, guru: str, **env: str) -> Iterator[Platform]:
    """The API and a worker, and a guru `guru` created through the API."""
    with (
        web_server(broker_url, **env) as origin,
        celery_worker(broker_url, log_file=log, **env) as worker,
        httpx.Client(base_url=origin, headers=ADMIN, timeout=HTTP_TIMEOUT) as api,
    ):
        created = api.post("/api/gurus/", json={"slug": guru, "name": guru.title()})
        assert created.status_code == 201, created.text
        yield Platform(api=api, worker=worker, log=log, guru=guru, env=env)


def read_events(lines: Iterator[str]) -> Iterator[tuple[str, dict]]:
    name = ""
    for line in lines:
        if line.startswith("event: "):
            name = line.removeprefix("event: ")
        elif line.startswith("data: "):
            yield name, json.loads(line.removeprefix("data: "))


def scalar(database_url: str, sql: str, *params: object) -> object:
    """One value read straight from a database the drill owns."""
    with psycopg.connect(database_url, autocommit=True) as connection:
        row = connection.execute(sql, params).fetchone()
    assert row is not None
    return row[0]
