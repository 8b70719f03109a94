"""The broker goes down while Teams activities arrive: each is still acknowledged at once (well
within the seconds the Bot Connector waits before sending it again), kept unsent, and once the
broker is back beat's sweep sends it and the worker answers it exactly once."""

import json
import time
from typing import Any

import httpx
import pytest
from celery import Celery
from openguru.answers.models import Question
from openguru.integrations.models import TeamsActivity

from tests.bots.teams_helpers import (  # noqa: F401  (fixtures)
    CHANNEL,
    QUESTION,
    activity,
    python_guru,
    teams,
    teams_api,
)
from tests.fakes.teams_server import FakeTeamsServer
from tests.integration.web import web_server
from tests.integration.worker import celery_worker, wait_until
from tests.reliability.services import DisposableRedis, disposable

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.timeout(600)]

SWEEP = "openguru.integrations.tasks.teams_activities_send_unsent"
ACK_SECONDS = 2.0


def _post(origin: str, server: FakeTeamsServer, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(
        f"{origin}/api/teams/messages/",
        content=json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            "Authorization": f"Bearer {server.activity_token()}",
        },
        timeout=60,
    )


def _sweep(broker_url: str) -> None:
    app = Celery(broker=broker_url, set_as_current=False)
    with app.connection_for_write() as connection:
        app.send_task(SWEEP, queue="light", connection=connection)


def _answered(server: FakeTeamsServer, root: str) -> list[dict[str, Any]]:
    """The final answers written in a reply chain (the updates that carry the card)."""
    thread = f"{CHANNEL};messageid={root}"
    return [
        call.body
        for call in server.of("PUT")
        if call.conversation_id == thread and call.body.get("attachments")
    ]


def test_teams_activities_that_come_while_the_broker_is_down_are_answered_once_it_is_back(
    teams,  # noqa: F811
    teams_api: FakeTeamsServer,  # noqa: F811
):
    env = {
        "TEAMS_OPENID_METADATA_URL": teams_api.metadata_url,
        "TEAMS_TOKEN_URL": teams_api.token_url,
        "BOT_EDIT_INTERVAL_SECONDS": "0",
    }
    with (
        disposable(DisposableRedis()) as broker,
        web_server(broker.url, **env) as origin,
        celery_worker(broker.url, **env),
    ):
        before = _post(origin, teams_api, activity(teams_api, QUESTION, activity_id="100"))
        assert before.status_code == 202
        wait_until(lambda: _answered(teams_api, "100"), timeout=120)

        broker.kill()
        bodies = [activity(teams_api, QUESTION, activity_id=f"20{i}") for i in range(2)]
        started = time.monotonic()
        down = [_post(origin, teams_api, body) for body in bodies]
        assert [r.status_code for r in down] == [202, 202]
        assert all(r.elapsed.total_seconds() < ACK_SECONDS for r in down), [r.elapsed for r in down]
        assert time.monotonic() - started < 2 * ACK_SECONDS
        assert TeamsActivity.objects.filter(sent_at__isnull=True).count() == 2

        broker.start()

        def both_answered() -> bool:
            _sweep(broker.url)
            return all(_answered(teams_api, f"20{i}") for i in range(2))

        wait_until(both_answered, timeout=120, interval=3)
        # The Connector's redelivery of an activity taken while the broker was down: a no-op.
        assert _post(origin, teams_api, bodies[0]).status_code == 202
        _sweep(broker.url)
        time.sleep(3)

    for root in ("100", "200", "201"):
        thread = f"{CHANNEL};messageid={root}"
        posts = [c for c in teams_api.of("POST") if c.conversation_id == thread]
        assert [c.body["text"] for c in posts] == ["Thinking…"], root  # answered exactly once
        assert len(_answered(teams_api, root)) == 1, root
    assert Question.objects.filter(source=Question.Source.TEAMS).count() == 3
    assert not TeamsActivity.objects.filter(sent_at__isnull=True).exists()
