"""The Discord bot: its message handling with discord.py's own model objects, talking to a
loopback stand-in of the Discord HTTP API (the bot on a real gateway connection:
test_discord_gateway.py; long answers: test_discord_split.py); the listener command."""

import os
import subprocess
import sys

import discord
import pytest
from django.conf import settings as django_settings
from openguru.answers.models import Question
from openguru.integrations.apikeys.services import admin_token_owner
from openguru.integrations.bots.discord_bot import discord_route
from openguru.integrations.bots.routing import Route
from openguru.integrations.bots.services import IntegrationSetup, integration_create
from openguru.integrations.models import Integration, Thread

from tests.answers.conftest import python_guru  # noqa: F401  (a guru with three indexed pages)
from tests.bots.discord_models import (
    GENERAL,
    GUILD,
    HELP,
    QUESTION,
    TOKEN,
    Gateway,
    client_session,
    discord_user,
)
from tests.fakes.discord_server import FakeDiscordServer
from tests.fakes.openai_server import FakeOpenAIServer

FORUM = "222000000000000003"  # a forum channel
POST = "333000000000000001"  # a post in it
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_a_mention_opens_a_thread_and_is_answered_there_streaming(
    bot: Integration, discord_api: FakeDiscordServer, llm_server: FakeOpenAIServer
):
    async def ask(gateway: Gateway) -> None:
        await gateway.deliver(bot, gateway.message(gateway.channel(HELP), QUESTION))

    client_session(ask)

    [thread] = discord_api.threads
    assert thread["parent_id"] == HELP and thread["name"] == QUESTION
    [answer] = discord_api.in_channel(thread["id"])
    assert answer.edits[0] == "Thinking…"
    assert len(answer.edits) >= 3  # at least one edit while streaming, then the whole answer
    assert answer.edits[1].endswith(" …")
    assert "venv" in answer.content
    assert "**Sources:** [1] [Virtual environments](<https://docs.example.org/virtual-env" in (
        answer.content
    )
    assert "**Trust score:**" in answer.content
    assert discord_api.in_channel(HELP) == []  # nothing but the thread in the channel
    mapped = Thread.objects.get(thread_id=thread["id"])
    assert mapped.channel_id == HELP
    assert mapped.binge.root_question == Question.objects.get(source=Question.Source.DISCORD)


def test_a_follow_up_in_the_thread_needs_no_mention_and_carries_history(
    bot: Integration, discord_api: FakeDiscordServer, llm_server: FakeOpenAIServer
):
    async def ask(gateway: Gateway) -> None:
        await gateway.deliver(bot, gateway.message(gateway.channel(HELP), QUESTION))
        llm_server.reset()

    async def follow_up(gateway: Gateway) -> None:
        thread = gateway.thread(discord_api.threads[0]["id"], HELP)
        await gateway.deliver(bot, gateway.message(thread, "How do I activate it?", mention=False))

    client_session(ask, follow_up)

    [thread] = discord_api.threads
    assert len(discord_api.in_channel(thread["id"])) == 2
    [prompt] = [str(b["messages"]) for b in llm_server.prompts() if b.get("stream")]
    first = Thread.objects.get(thread_id=thread["id"]).binge.root_question
    assert f"Q: {first.question}" in prompt
    assert Question.objects.get(user_question="How do I activate it?").parent == first


def test_a_forum_post_is_answered_in_the_post_itself(
    bot: Integration, discord_api: FakeDiscordServer
):
    bot.channels = [*bot.channels, {"id": FORUM, "name": "ask", "mode": "all"}]
    bot.save()

    async def post(gateway: Gateway) -> None:
        gateway.forum(FORUM)
        # A forum post is a thread in the forum; its starter message has the post's id.
        thread = gateway.thread(POST, FORUM)
        assert isinstance(thread.parent, discord.ForumChannel)
        starter = gateway.message(thread, QUESTION, mention=False, message_id=POST)
        await gateway.deliver(bot, starter)

    client_session(post)

    assert discord_api.threads == []  # the post is the thread: none is opened
    [answer] = discord_api.in_channel(POST)
    assert answer.edits[0] == "Thinking…" and "python -m venv myenv" in answer.content
    assert discord_api.in_channel(FORUM) == []
    mapped = Thread.objects.get(integration=bot)
    assert (mapped.channel_id, mapped.thread_id) == (FORUM, POST)
    assert mapped.binge.root_question.user_question == QUESTION


def test_a_mention_in_a_channel_not_allowed_says_how_to_enable_it(
    bot: Integration, discord_api: FakeDiscordServer
):
    async def ask(gateway: Gateway) -> None:
        await gateway.deliver(bot, gateway.message(gateway.channel(GENERAL), QUESTION))

    client_session(ask)

    [hint] = discord_api.in_channel(GENERAL)
    assert GENERAL in hint.content and "enable" in hint.content
    assert discord_api.threads == [] and not Question.objects.exists()


def test_bots_and_unmentioned_messages_are_ignored(
    bot: Integration, discord_api: FakeDiscordServer
):
    async def chatter(gateway: Gateway) -> None:
        help_channel = gateway.channel(HELP)
        other_bot = discord_user("777000000000000001", "otherbot", bot=True)
        await gateway.deliver(bot, gateway.message(help_channel, QUESTION, author=other_bot))
        await gateway.deliver(bot, gateway.message(help_channel, QUESTION, mention=False))
        await gateway.deliver(bot, gateway.message(gateway.channel(GENERAL), "hi", mention=False))

    client_session(chatter)

    assert discord_api.messages == [] and discord_api.threads == []


def test_direct_messages_only_when_enabled(bot: Integration, discord_api: FakeDiscordServer):
    async def dm(gateway: Gateway) -> None:
        await gateway.deliver(bot, gateway.message(gateway.dm(), QUESTION, mention=False))

    client_session(dm)
    assert discord_api.messages == []

    bot.dms_enabled = True
    bot.save()
    client_session(dm)
    [answer] = discord_api.messages
    assert answer.channel_id == "666000000000000001"
    assert "python -m venv myenv" in answer.content  # no LLM: an extractive answer
    assert discord_api.threads == []


@pytest.mark.parametrize(
    ("channel", "dm", "mentioned", "known", "route"),
    [
        (HELP, False, True, False, Route.ANSWER),
        (HELP, False, False, False, Route.IGNORE),
        (HELP, False, False, True, Route.ANSWER),  # a thread the bot answers in
        ("C-ALL", False, False, False, Route.ANSWER),
        (GENERAL, False, True, False, Route.NOT_ALLOWED),
        (GENERAL, False, False, False, Route.IGNORE),
        ("", True, False, False, Route.IGNORE),  # DMs off
    ],
)
def test_which_messages_are_answered(channel, dm, mentioned, known, route):
    integration = Integration(
        type=Integration.Type.DISCORD,
        channels=[{"id": HELP, "mode": "mention"}, {"id": "C-ALL", "mode": "all"}],
    )
    assert (
        discord_route(
            integration, channel_id=channel, is_dm=dm, mentioned=mentioned, known_thread=known
        )
        == route
    )


def _listener(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    database = django_settings.DATABASES["default"]
    url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    return subprocess.run(
        [sys.executable, "backend/manage.py", "discord_listener"],
        cwd=REPO,
        env={**os.environ, "DATABASE_URL": url, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.django_db(transaction=True)
def test_the_listener_without_a_token_exits_with_what_to_do():
    done = _listener({})
    assert done.returncode != 0
    assert "No Discord bot token is set up" in done.stderr


def test_the_listener_with_a_rejected_token_exits_with_what_to_do(
    bot: Integration, discord_api: FakeDiscordServer
):
    discord_api.token = "another-token"  # Discord no longer accepts the stored one

    done = _listener({"DISCORD_API_URL": discord_api.api_url})

    assert done.returncode != 0
    assert f"Discord rejected the bot token of integration {bot.pk}" in done.stderr


@pytest.mark.django_db(transaction=True)
def test_make_run_starts_the_listener_only_once_a_bot_is_set_up(python_guru):  # noqa: F811
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="No Discord bot is set up"):
        call_command("discord_listener", "--check")
    integration_create(
        guru=python_guru,
        type=Integration.Type.DISCORD,
        setup=IntegrationSetup(external_id=GUILD, bot_token=TOKEN, channels=[]),
        owner=admin_token_owner(),
    )
    call_command("discord_listener", "--check")  # exit status 0: run_embedded starts it
