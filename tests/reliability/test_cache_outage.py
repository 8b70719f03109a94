"""The Redis cache goes down while RabbitMQ is the broker (compose's rabbitmq profile keeps Redis
only for the cache): rate limits fail open with a warning instead of turning every limited
request into a 500. Sources are added with an API key and indexed, questions are answered,
a wrong password is still refused, and a guru's page still lists its example questions."""

import time
from pathlib import Path

import httpx
import pytest
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create

from tests.integration.web import web_server
from tests.integration.worker import AMQP_BROKER, celery_worker, purge, wait_until
from tests.reliability.services import DisposableRedis, disposable

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.timeout(900)]

ADMIN = {"Authorization": "Bearer test-admin-token"}
# Every limit on: each request below goes through the cache.
LIMITS = {
    "API_RATE_LIMIT_PER_MINUTE": "100",
    "ASK_RATE_LIMIT_PER_MINUTE": "30",
    "ANONYMOUS_ASKS_PER_HOUR": "30",
    "ANONYMOUS_ASKS_PER_DAY": "100",
}
TEXT = (
    "# Bees\n\nHoney bees dance to tell their hive where flowers are: the angle of the waggle run "
    "gives the direction and its length the distance."
)


def _indexed(api: httpx.Client, key: dict[str, str]) -> bool:
    listed = api.get("/api/v1/bees/data-sources/", headers=key)
    assert listed.status_code == 200, listed.text
    return {s["status"] for s in listed.json()["results"]} == {"SUCCESS"}


def test_the_api_works_with_the_cache_down(tmp_path: Path):
    _, raw_key = api_key_create(user=admin_token_owner(), name="drill")
    key = {"X-API-KEY": raw_key}
    web_log = tmp_path / "web.log"
    purge(AMQP_BROKER)
    with (
        disposable(DisposableRedis()) as cache,
        web_server(AMQP_BROKER, log_file=str(web_log), CACHE_URL=cache.url, **LIMITS) as origin,
        celery_worker(AMQP_BROKER, log_file=str(tmp_path / "worker.log")),
        httpx.Client(base_url=origin, timeout=60) as api,
    ):
        created = api.post("/api/gurus/", headers=ADMIN, json={"slug": "bees", "name": "Bees"})
        assert created.status_code == 201, created.text
        assert api.get("/api/v1/bees/data-sources/", headers=key).status_code == 200

        cache.kill()
        started = time.monotonic()
        added = api.post(
            "/api/v1/bees/data-sources/",
            headers=key,
            json={"text_sources": [{"name": "Bee dances", "content": TEXT}]},
        )
        assert added.status_code == 200, added.text
        assert [r["status"] for r in added.json()] == ["success"]
        wait_until(lambda: _indexed(api, key), timeout=120, interval=1)

        question = {"question": "How do honey bees tell the hive where flowers are?"}
        answer = api.post("/api/v1/bees/answer/", headers=key, json=question)
        assert answer.status_code == 200, answer.text
        assert "waggle" in answer.json()["content"]
        anonymous = api.post("/api/gurus/bees/answer/", json=question)
        assert anonymous.status_code == 200, anonymous.text
        assert api.get("/api/gurus/bees/overview/").status_code == 200

        api.get("/api/auth/session/")  # the CSRF cookie
        signed_in = api.post(
            "/api/auth/login/",
            headers={"X-CSRFToken": api.cookies["csrftoken"]},
            json={"username": "admin", "password": "not the password"},
        )
        assert signed_in.status_code == 400, signed_in.text
        assert signed_in.json()["code"] == "invalid_credentials"
        # A dead cache costs a request now and then, not every request.
        assert time.monotonic() - started < 120

    log = web_log.read_text()
    assert "cache unreachable" in log and "rate_limit goes on without it" in log
    assert "Traceback" not in log, log[-3000:]
