"""A Slack event answered by a real Celery worker process on real brokers: the task the events
endpoint enqueues, run where it runs in production, posting to the Slack Web API stand-in."""

import pytest
from openguru.integrations.apikeys.services import admin_token_owner
from openguru.integrations.bots.services import (
    IntegrationSetup,
    integration_create,
    slack_event_take,
)
from openguru.integrations.models import Integration

from tests.answers.conftest import python_guru  # noqa: F401  (a guru with three indexed pages)
from tests.fakes.slack_server import FakeSlackServer
from tests.integration.worker import BROKERS, celery_worker, purge, send_task, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TOKEN = "xoxb-worker-token"


@pytest.mark.parametrize("broker", sorted(BROKERS))
def test_a_real_worker_answers_a_slack_mention_in_its_thread(broker, python_guru):  # noqa: F811
    url = BROKERS[broker]
    integration = integration_create(
        guru=python_guru,
        type=Integration.Type.SLACK,
        setup=IntegrationSetup(
            external_id="T0TEAM",
            bot_token=TOKEN,
            signing_secret="secret",
            channels=[{"id": "C0HELP", "mode": "mention"}],
        ),
        owner=admin_token_owner(),
    )
    event = {
        "type": "app_mention",
        "user": "U0ALICE",
        "text": "<@U0BOT> How do I create a virtual environment?",
        "ts": "1000.000001",
        "channel": "C0HELP",
    }
    taken = slack_event_take(
        integration=integration, event_id=f"Ev-{broker}", event=event, bot_user_id="U0BOT"
    )
    assert taken is not None
    purge(url)
    with FakeSlackServer(token=TOKEN) as slack_api:
        extra = {"SLACK_API_URL": slack_api.api_url, "BOT_EDIT_INTERVAL_SECONDS": "0"}
        with celery_worker(url, **extra):
            send_task(url, "openguru.integrations.tasks.slack_event_task", taken.pk)
            updates = wait_until(lambda: slack_api.of("chat.update"), timeout=120)
            wait_until(lambda: "Trust score" in slack_api.of("chat.update")[-1]["text"], timeout=60)

    [thinking] = slack_api.of("chat.postMessage")
    assert thinking["thread_ts"] == "1000.000001" and thinking["text"] == "Thinking…"
    assert updates and "python -m venv myenv" in slack_api.of("chat.update")[-1]["text"]
