"""Every bot ask goes through its integration's API key (the per-minute limit of /api/v1/ keys,
"last used") and is answered and recorded on its own: the same question asked in two threads is
two answers, two threads and two question records, never a replay of the first."""

import time

from openguru.answers.models import Question
from openguru.integrations.bots.asking import BUSY
from openguru.integrations.models import APIKey, Integration, Thread

from tests.bots.conftest import event_payload, mention, post_event
from tests.bots.discord_models import HELP, QUESTION, Gateway, client_session
from tests.fakes.discord_server import FakeDiscordServer
from tests.fakes.slack_server import FakeSlackServer


def _fresh_rate_window() -> None:
    """Rate limits count per clock minute: start a test that fills one early in a minute."""
    into = time.time() % 60
    if into > 45:
        time.sleep(60 - into + 0.1)


def _key(integration: Integration) -> APIKey:
    assert integration.api_key_id is not None
    return APIKey.objects.get(pk=integration.api_key_id)


def test_the_same_question_in_two_slack_threads_is_answered_and_recorded_twice(
    slack: Integration, slack_api: FakeSlackServer
):
    assert _key(slack).last_used_at is None

    post_event(event_payload(mention(QUESTION, ts="1100.000001")))
    post_event(event_payload(mention(QUESTION, ts="1200.000001")))

    posts = slack_api.of("chat.postMessage")
    assert [(p["text"], p["thread_ts"]) for p in posts] == [
        ("Thinking…", "1100.000001"),
        ("Thinking…", "1200.000001"),
    ]
    finals = [u["text"] for u in slack_api.of("chat.update") if "*Trust score:*" in u["text"]]
    assert len(finals) == 2 and all("python -m venv myenv" in final for final in finals)
    asked = Question.objects.filter(source=Question.Source.SLACK, user_question=QUESTION)
    assert asked.count() == 2
    assert len(set(asked.values_list("slug", flat=True))) == 2
    threads = Thread.objects.filter(integration=slack).select_related("binge")
    assert sorted(t.thread_id for t in threads) == ["1100.000001", "1200.000001"]
    assert {t.binge.root_question_id for t in threads} == set(asked.values_list("pk", flat=True))
    assert _key(slack).last_used_at is not None  # the ask was made with the integration's key


def test_over_its_keys_rate_limit_the_slack_bot_says_so_politely(
    slack: Integration, slack_api: FakeSlackServer, settings
):
    settings.API_RATE_LIMIT_PER_MINUTE = 1  # the limit every /api/v1/ key has
    _fresh_rate_window()

    post_event(event_payload(mention(QUESTION, ts="1300.000001")))
    later = post_event(event_payload(mention("And how do I activate it?", ts="1400.000001")))

    assert later.status_code == 200  # Slack is acknowledged either way
    posts = slack_api.of("chat.postMessage")
    assert [(p["text"], p["thread_ts"]) for p in posts] == [
        ("Thinking…", "1300.000001"),
        (BUSY, "1400.000001"),
    ]
    assert Question.objects.filter(source=Question.Source.SLACK).count() == 1
    assert not Thread.objects.filter(thread_id="1400.000001").exists()


def test_the_same_question_in_two_discord_threads_is_answered_and_recorded_twice(
    bot: Integration, discord_api: FakeDiscordServer
):
    async def ask_twice(gateway: Gateway) -> None:
        for _ in range(2):
            await gateway.deliver(bot, gateway.message(gateway.channel(HELP), QUESTION))

    client_session(ask_twice)

    first, second = (thread["id"] for thread in discord_api.threads)
    for thread_id in (first, second):
        [answer] = discord_api.in_channel(thread_id)
        assert answer.edits[0] == "Thinking…"
        assert "python -m venv myenv" in answer.content
    asked = Question.objects.filter(source=Question.Source.DISCORD, user_question=QUESTION)
    assert asked.count() == 2
    assert len(set(asked.values_list("slug", flat=True))) == 2
    roots = {t.binge.root_question_id for t in Thread.objects.filter(integration=bot)}
    assert roots == set(asked.values_list("pk", flat=True))
    assert _key(bot).last_used_at is not None


def test_over_its_keys_rate_limit_the_discord_bot_says_so_politely(
    bot: Integration, discord_api: FakeDiscordServer, settings
):
    settings.API_RATE_LIMIT_PER_MINUTE = 1
    _fresh_rate_window()

    async def ask_twice(gateway: Gateway) -> None:
        for _ in range(2):
            await gateway.deliver(bot, gateway.message(gateway.channel(HELP), QUESTION))

    client_session(ask_twice)

    first, second = (thread["id"] for thread in discord_api.threads)
    assert discord_api.in_channel(first)[0].edits[0] == "Thinking…"
    [busy] = discord_api.in_channel(second)
    assert busy.edits == [BUSY]
    assert Question.objects.filter(source=Question.Source.DISCORD).count() == 1
