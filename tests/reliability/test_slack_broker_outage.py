"""The broker goes down while Slack events arrive: each is still acknowledged at once (200, well
within Slack's 3 seconds, so Slack neither retries nor gives up on it), kept unsent, and once
the broker is back beat's sweep sends it and the worker answers it exactly once."""

import json
import time
from typing import Any

import httpx
import pytest
from celery import Celery
from openguru.answers.models import Question
from openguru.integrations.models import SlackEvent

from tests.bots.conftest import event_payload, mention, python_guru, sign, slack, slack_api  # noqa: F401  (fixtures)
from tests.bots.test_slack import QUESTION
from tests.fakes.slack_server import FakeSlackServer
from tests.integration.web import web_server
from tests.integration.worker import celery_worker, wait_until
from tests.reliability.services import DisposableRedis, disposable

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.timeout(600)]

SWEEP = "openguru.integrations.tasks.slack_events_send_unsent"
ACK_SECONDS = 2.0  # Slack retries an event it has no answer for within 3 seconds


def _post(origin: str, payload: dict[str, Any], **headers: str) -> httpx.Response:
    body = json.dumps(payload).encode()
    signed = sign(body)
    return httpx.post(
        f"{origin}/api/slack/events/",
        content=body,
        headers={
            "Content-Type": "application/json",
            "X-Slack-Signature": signed["HTTP_X_SLACK_SIGNATURE"],
            "X-Slack-Request-Timestamp": signed["HTTP_X_SLACK_REQUEST_TIMESTAMP"],
            **headers,
        },
        timeout=60,
    )


def _sweep(broker_url: str) -> None:
    """What beat sends every minute."""
    app = Celery(broker=broker_url, set_as_current=False)
    with app.connection_for_write() as connection:
        app.send_task(SWEEP, queue="light", connection=connection)


def _answered(api: FakeSlackServer, thread_ts: str) -> list[str]:
    """The final answers written in a thread (the edits that carry the trust score)."""
    thinking = {
        call.ts
        for call in list(api.calls)
        if call.method == "chat.postMessage" and call.body.get("thread_ts") == thread_ts
    }
    return [
        u["text"]
        for u in api.of("chat.update")
        if u["ts"] in thinking and "*Trust score:*" in u["text"]
    ]


def test_slack_events_that_come_while_the_broker_is_down_are_answered_once_it_is_back(
    slack,  # noqa: F811
    slack_api: FakeSlackServer,  # noqa: F811
):
    env = {"SLACK_API_URL": slack_api.api_url, "BOT_EDIT_INTERVAL_SECONDS": "0"}
    with (
        disposable(DisposableRedis()) as broker,
        web_server(broker.url, **env) as origin,
        celery_worker(broker.url, **env),
    ):
        before = _post(origin, event_payload(mention(QUESTION, ts="100.000001")))
        assert (before.status_code, before.json()) == (200, {"ok": True})
        wait_until(lambda: _answered(slack_api, "100.000001"), timeout=120)

        broker.kill()
        payloads = [event_payload(mention(QUESTION, ts=f"20{i}.000001")) for i in range(2)]
        started = time.monotonic()
        down = [_post(origin, payload) for payload in payloads]
        assert [(r.status_code, r.json()) for r in down] == [(200, {"ok": True})] * 2
        assert all(r.elapsed.total_seconds() < ACK_SECONDS for r in down), [r.elapsed for r in down]
        assert time.monotonic() - started < 2 * ACK_SECONDS
        unsent = SlackEvent.objects.filter(event_id__in=[p["event_id"] for p in payloads])
        assert list(unsent.values_list("sent_at", flat=True)) == [None, None]

        broker.start()

        def both_answered() -> bool:
            _sweep(broker.url)
            return all(_answered(slack_api, f"20{i}.000001") for i in range(2))

        wait_until(both_answered, timeout=120, interval=3)
        # Slack's retry of an event taken while the broker was down, and later sweeps: no-ops.
        retry = _post(origin, payloads[0], **{"X-Slack-Retry-Num": "1"})
        assert retry.status_code == 200
        _sweep(broker.url)
        time.sleep(3)

    for thread_ts in ("100.000001", "200.000001", "201.000001"):
        posts = [p for p in slack_api.of("chat.postMessage") if p.get("thread_ts") == thread_ts]
        assert [p["text"] for p in posts] == ["Thinking…"], thread_ts  # answered exactly once
        assert len(_answered(slack_api, thread_ts)) == 1, thread_ts
    assert Question.objects.filter(source=Question.Source.SLACK).count() == 3
    assert not SlackEvent.objects.filter(sent_at__isnull=True).exists()
