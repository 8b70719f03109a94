"""The broker goes down while GitHub App deliveries arrive: each is still acknowledged at once
(well within GitHub's 10 seconds), kept unsent, and once the broker is back beat's sweep sends
it and the worker writes its one reply comment. A redelivery and later sweeps do nothing."""

import json
import time
import uuid
from typing import Any

import httpx
import pytest
from celery import Celery
from openguru.answers.models import Question
from openguru.integrations.models import GitHubAppDelivery

from tests.answers.conftest import python_guru  # noqa: F401  (fixture)
from tests.bots.github_app_fixtures import (  # noqa: F401  (fixtures)
    SLUG,
    github_api,
    github_bot,
    issue_comment,
    signature,
)
from tests.fakes.github_app_server import FakeGitHubApp
from tests.integration.web import web_server
from tests.integration.worker import celery_worker, wait_until
from tests.reliability.services import DisposableRedis, disposable

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.timeout(600)]

SWEEP = "openguru.integrations.tasks.github_deliveries_send_unsent"
ACK_SECONDS = 2.0
QUESTION = "How do I create a virtual environment?"


def _deliver(origin: str, payload: dict[str, Any], delivery: str) -> httpx.Response:
    body = json.dumps(payload).encode()
    headers = {
        "Content-Type": "application/json",
        "X-GitHub-Event": "issue_comment",
        "X-GitHub-Delivery": delivery,
        "X-Hub-Signature-256": signature(body),
    }
    return httpx.post(
        f"{origin}/api/github/app/webhook/", content=body, headers=headers, timeout=60
    )


def _sweep(broker_url: str) -> None:
    """What beat sends every minute."""
    app = Celery(broker=broker_url, set_as_current=False)
    with app.connection_for_write() as connection:
        app.send_task(SWEEP, queue="light", connection=connection)


def test_deliveries_that_come_while_the_broker_is_down_are_answered_once_it_is_back(
    github_bot,  # noqa: F811
    github_api: FakeGitHubApp,  # noqa: F811
):
    env = {"GITHUB_API_URL": github_api.url}
    deliveries = [str(uuid.uuid4()) for _ in range(2)]
    payloads = [issue_comment(30 + i, f"@{SLUG} {QUESTION}") for i in range(2)]
    with disposable(DisposableRedis()) as broker, web_server(broker.url, **env) as origin:
        broker.kill()
        started = time.monotonic()
        down = [_deliver(origin, p, d) for p, d in zip(payloads, deliveries, strict=True)]
        assert [(r.status_code, r.json()) for r in down] == [
            (200, {"ok": True, "answering": True})
        ] * 2
        assert all(r.elapsed.total_seconds() < ACK_SECONDS for r in down), [r.elapsed for r in down]
        assert time.monotonic() - started < 2 * ACK_SECONDS
        unsent = GitHubAppDelivery.objects.filter(delivery_id__in=deliveries)
        assert list(unsent.values_list("sent_at", flat=True)) == [None, None]

        broker.start()
        with celery_worker(broker.url, **env):

            def both_answered() -> bool:
                _sweep(broker.url)
                return len(github_api.comments) >= 2

            wait_until(both_answered, timeout=120, interval=3)
            redelivery = _deliver(origin, payloads[0], deliveries[0])
            assert redelivery.json() == {"ok": True, "answering": False}
            _sweep(broker.url)
            time.sleep(3)

    assert sorted(c.number for c in github_api.comments) == [30, 31]  # each answered once
    assert Question.objects.filter(source=Question.Source.GITHUB).count() == 2
    assert not GitHubAppDelivery.objects.filter(sent_at__isnull=True).exists()
