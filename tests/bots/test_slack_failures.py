"""The Slack bot when something fails: an LLM that is down leaves a polite message in place of
"Thinking…"; Slack's rate limiting (HTTP 429 with Retry-After) delays the final edit instead of
losing it; an event whose task never reached the broker is sent by beat's sweep (the broker
outage itself: tests/reliability/test_slack_broker_outage.py)."""

from openguru.answers.channels.bots import FAILED
from openguru.answers.models import Question
from openguru.integrations.bots.services import slack_event_take
from openguru.integrations.models import Integration, SlackEvent, Thread
from openguru.integrations.tasks import slack_events_send_unsent

from tests.bots.conftest import BOT_USER, event_payload, mention, post_event
from tests.bots.test_slack import QUESTION
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.slack_server import FakeSlackServer


def test_with_the_llm_down_the_answer_says_so_politely_without_sources(
    slack: Integration, slack_api: FakeSlackServer, llm_server: FakeOpenAIServer
):
    llm_server.fail_all(500)

    response = post_event(event_payload(mention(QUESTION, ts="1500.000001")))

    assert response.status_code == 200
    [thinking] = [call for call in slack_api.calls if call.method == "chat.postMessage"]
    assert thinking.body["text"] == "Thinking…"
    updates = slack_api.of("chat.update")
    assert updates and {u["ts"] for u in updates} == {thinking.ts}
    assert updates[-1]["text"] == FAILED
    assert all("Sources" not in u["text"] and "Trust score" not in u["text"] for u in updates)
    assert llm_server.call_count > 0  # the LLM was asked, and failed
    assert not Question.objects.filter(source=Question.Source.SLACK).exists()
    assert not Thread.objects.exists()  # a failed ask roots no binge: asking again starts anew


def test_a_rate_limited_final_edit_is_sent_again_after_retry_after(
    slack: Integration, slack_api: FakeSlackServer, settings
):
    settings.BOT_EDIT_INTERVAL_SECONDS = 600  # no streaming edits: the one edit is the final one
    slack_api.rate_limit_next("chat.update", retry_after=1)

    post_event(event_payload(mention(QUESTION, ts="1600.000001")))

    [limited] = slack_api.limited
    [final] = [call for call in slack_api.calls if call.method == "chat.update"]
    assert limited.body == final.body
    assert "python -m venv myenv" in final.body["text"] and "*Trust score:*" in final.body["text"]
    assert final.at - limited.at >= 1.0  # Slack's Retry-After was honoured
    assert Question.objects.filter(source=Question.Source.SLACK).count() == 1


def test_an_event_left_unsent_is_answered_by_the_sweep_once(
    slack: Integration, slack_api: FakeSlackServer
):
    # What the events endpoint leaves when its send to the broker fails.
    taken = slack_event_take(
        integration=slack,
        event_id="Ev-unsent",
        event=mention(QUESTION, ts="1700.000001"),
        bot_user_id=BOT_USER,
    )
    assert taken is not None and taken.sent_at is None

    assert slack_events_send_unsent() == 1
    assert slack_events_send_unsent() == 0  # nothing left to send

    taken.refresh_from_db()
    assert taken.sent_at is not None
    assert [p["thread_ts"] for p in slack_api.of("chat.postMessage")] == ["1700.000001"]
    assert not SlackEvent.objects.filter(sent_at__isnull=True).exists()
