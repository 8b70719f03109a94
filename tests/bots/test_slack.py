"""The Slack bot end to end: signed events through /api/slack/events/, answers written by the
Celery task (eager) into a loopback stand-in of the Slack Web API."""

import re
import time

import pytest
from openguru.answers.models import Question
from openguru.integrations.models import Integration, SlackEvent, Thread

from tests.bots.conftest import (
    ALLOWED,
    BOT_USER,
    ELSEWHERE,
    EVERYTHING,
    event_payload,
    mention,
    post_event,
)
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.slack_server import FakeSlackServer

QUESTION = "How do I create a virtual environment?"


def _replies(slack_api: FakeSlackServer, thread_ts: str) -> tuple[list[dict], list[dict]]:
    posts = [p for p in slack_api.of("chat.postMessage") if p.get("thread_ts") == thread_ts]
    posted = {p["ts"] for p in slack_api.of("chat.update")}
    return posts, [u for u in slack_api.of("chat.update") if u["ts"] in posted]


def test_a_mention_is_answered_in_its_thread_streaming_then_final(
    slack: Integration, slack_api: FakeSlackServer, llm_server: FakeOpenAIServer
):
    response = post_event(event_payload(mention(QUESTION, ts="1000.000001")))

    assert response.status_code == 200
    assert response.json() == {"ok": True}
    posts = slack_api.of("chat.postMessage")
    assert [(p["text"], p["thread_ts"], p["channel"]) for p in posts] == [
        ("Thinking…", "1000.000001", ALLOWED)
    ]
    updates = slack_api.of("chat.update")
    thinking_ts = "1700000000.000001"
    assert len(updates) >= 2  # at least one edit while streaming, then the whole answer
    assert {u["ts"] for u in updates} == {thinking_ts}
    assert all(u["channel"] == ALLOWED for u in updates)
    assert updates[0]["text"].endswith(" …")  # still streaming
    final = updates[-1]["text"]
    assert "venv" in final
    link = r"<https://docs\.example\.org/virtual-environments\.html[^|>]*\|Virtual environments>"
    assert re.search(r"\*Sources:\* \[1\] " + link, final)
    assert "*Trust score:*" in final and "%" in final
    question = Question.objects.get(source=Question.Source.SLACK)
    assert Thread.objects.get(thread_id="1000.000001").binge.root_question == question


def test_a_follow_up_in_the_thread_carries_the_earlier_exchange(
    slack: Integration, slack_api: FakeSlackServer, llm_server: FakeOpenAIServer
):
    post_event(event_payload(mention(QUESTION, ts="2000.000001")))
    llm_server.reset()

    follow_up = "And how do I activate it?"
    post_event(event_payload(mention(follow_up, ts="2000.000009", thread_ts="2000.000001")))

    [answer_prompt] = [str(b["messages"]) for b in llm_server.prompts() if b.get("stream")]
    first = Thread.objects.get(thread_id="2000.000001").binge.root_question
    assert first.user_question == QUESTION
    assert f"Q: {first.question}" in answer_prompt  # the thread's first question is history
    assert first.content[:40] in answer_prompt
    posts = slack_api.of("chat.postMessage")
    assert [p["thread_ts"] for p in posts] == ["2000.000001", "2000.000001"]
    binge = Thread.objects.get(thread_id="2000.000001").binge
    second = Question.objects.get(binge=binge)
    assert second.user_question == follow_up
    assert second.parent == binge.root_question


def test_without_an_llm_the_answer_is_extractive(slack: Integration, slack_api: FakeSlackServer):
    post_event(event_payload(mention(QUESTION, ts="3000.000001")))

    final = slack_api.of("chat.update")[-1]["text"]
    assert "python -m venv myenv" in final
    assert Question.objects.get(source=Question.Source.SLACK).extractive


def test_every_message_is_answered_in_a_channel_set_to_all(
    slack: Integration, slack_api: FakeSlackServer
):
    message = {"type": "message", "channel_type": "channel", "user": "U0BOB", "ts": "4000.1"}
    post_event(event_payload(message | {"channel": EVERYTHING, "text": QUESTION}))
    # In a "mention" channel a plain message is not for the bot; a mention arrives twice (as
    # a message and as an app_mention) and is answered once, from the app_mention.
    post_event(event_payload(message | {"channel": ALLOWED, "text": QUESTION, "ts": "4000.2"}))
    post_event(
        event_payload(message | {"channel": EVERYTHING, "text": f"<@{BOT_USER}> hi", "ts": "4.3"})
    )

    assert [p["thread_ts"] for p in slack_api.of("chat.postMessage")] == ["4000.1"]


def test_direct_messages_are_answered_only_when_enabled(
    slack: Integration, slack_api: FakeSlackServer
):
    dm = {"type": "message", "channel_type": "im", "channel": "D0DM", "user": "U0BOB"}
    post_event(event_payload(dm | {"text": QUESTION, "ts": "5000.1"}))
    assert slack_api.of("chat.postMessage") == []

    slack.dms_enabled = True
    slack.save()
    post_event(event_payload(dm | {"text": QUESTION, "ts": "5000.2"}))
    assert [p["channel"] for p in slack_api.of("chat.postMessage")] == ["D0DM"]


def test_slacks_url_check_is_answered(slack: Integration):
    response = post_event({"type": "url_verification", "challenge": "3eZbrw1aB"})

    assert response.status_code == 200
    assert response.json() == {"challenge": "3eZbrw1aB"}


@pytest.mark.parametrize(
    "signing",
    [
        {"secret": "someone-elses-secret"},
        {"timestamp": int(time.time()) - 6 * 60},  # older than 5 minutes: a replay
    ],
    ids=["forged signature", "stale timestamp"],
)
def test_unsigned_or_stale_requests_are_refused(
    slack: Integration, slack_api: FakeSlackServer, signing: dict
):
    response = post_event(event_payload(mention(QUESTION, ts="6000.1")), **signing)

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert slack_api.calls == []
    assert not SlackEvent.objects.exists()


def test_missing_signature_headers_are_refused(slack: Integration):
    from django.test import Client

    response = Client().post("/api/slack/events/", data=b"{}", content_type="application/json")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_a_replayed_event_id_does_no_new_work(slack: Integration, slack_api: FakeSlackServer):
    payload = event_payload(mention(QUESTION, ts="7000.1"))
    post_event(payload)
    calls = len(slack_api.calls)

    replay = post_event(payload)

    assert replay.status_code == 200
    assert len(slack_api.calls) == calls
    assert Question.objects.filter(source=Question.Source.SLACK).count() == 1


def test_slacks_retry_of_an_event_already_taken_is_ignored(
    slack: Integration, slack_api: FakeSlackServer
):
    payload = event_payload(mention(QUESTION, ts="8000.1"))
    post_event(payload)
    calls = len(slack_api.calls)

    retry = post_event(
        payload,
        headers={"HTTP_X_SLACK_RETRY_NUM": "1", "HTTP_X_SLACK_RETRY_REASON": "http_timeout"},
    )

    assert retry.status_code == 200
    assert len(slack_api.calls) == calls
    assert SlackEvent.objects.count() == 1


@pytest.mark.parametrize(
    "event",
    [
        {"bot_id": "B0SELF", "user": BOT_USER},  # its own message
        {"bot_id": "B0OTHER", "user": "U0OTHERBOT"},  # another bot's
        {"subtype": "bot_message", "user": "U0OTHERBOT"},
        {"subtype": "message_changed"},
    ],
    ids=["own message", "other bot", "bot_message", "edit"],
)
def test_bots_and_edits_are_ignored(slack: Integration, slack_api: FakeSlackServer, event: dict):
    message = {"type": "message", "channel": EVERYTHING, "text": QUESTION, "ts": "9000.1"}

    response = post_event(event_payload(message | event))

    assert response.status_code == 200
    assert slack_api.calls == []
    assert not SlackEvent.objects.exists()


def test_a_mention_in_a_channel_not_allowed_gets_how_to_enable_it(
    slack: Integration, slack_api: FakeSlackServer
):
    post_event(event_payload(mention(QUESTION, ts="9100.1", channel=ELSEWHERE)))

    [hint] = slack_api.of("chat.postEphemeral")
    assert hint["channel"] == ELSEWHERE and hint["user"] == "U0ALICE"
    assert hint["thread_ts"] == "9100.1"
    assert ELSEWHERE in hint["text"] and "enable" in hint["text"]
    assert slack_api.of("chat.postMessage") == [] and slack_api.of("chat.update") == []
    assert not Question.objects.exists()


def test_a_refusal_is_polite_and_has_no_sources(slack: Integration, slack_api: FakeSlackServer):
    post_event(event_payload(mention("What is the capital of Mongolia?", ts="9200.1")))

    final = slack_api.of("chat.update")[-1]["text"]
    assert "Sources" not in final and "Trust score" not in final
    assert final.strip()
    assert slack_api.of("chat.update")[0]["text"] == final  # no half-written refusal


def test_streaming_edits_are_rate_limited(
    slack: Integration, slack_api: FakeSlackServer, llm_server: FakeOpenAIServer, settings
):
    settings.BOT_EDIT_INTERVAL_SECONDS = 0.35
    llm_server.token_ms = 100  # the answer streams for a second or so, token by token

    started = time.monotonic()
    post_event(event_payload(mention(QUESTION, ts="9300.1")))
    elapsed = time.monotonic() - started

    updates = slack_api.of("chat.update")
    streaming = [u for u in updates[:-1] if u["text"].endswith(" …")]
    tokens = len(updates[-1]["text"].split("\n\n")[0].split())  # the answer's words, roughly
    assert 1 <= len(streaming) <= elapsed / 0.35 + 1
    assert len(streaming) < tokens  # unthrottled, every token would be an edit


def test_follow_ups_in_a_thread_the_bot_answers_in_need_no_mention(
    slack: Integration, slack_api: FakeSlackServer
):
    post_event(event_payload(mention(QUESTION, ts="9400.1")))
    reply = {"type": "message", "channel_type": "channel", "channel": ALLOWED, "user": "U0BOB"}

    post_event(
        event_payload(
            reply | {"text": "And to activate it?", "ts": "9400.5", "thread_ts": "9400.1"}
        )
    )
    # A thread the bot never answered in: a plain message there is not for it.
    post_event(event_payload(reply | {"text": "lunch?", "ts": "9500.5", "thread_ts": "9500.1"}))

    assert [p["thread_ts"] for p in slack_api.of("chat.postMessage")] == ["9400.1", "9400.1"]
    binge = Thread.objects.get(thread_id="9400.1").binge
    assert Question.objects.get(binge=binge).user_question == "And to activate it?"
