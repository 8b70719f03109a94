"""The Discord bot: its message handling with discord.py's own model objects, talking to a
loopback stand-in of the Discord HTTP API; the message splitter; the listener command."""

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from django.conf import settings as django_settings
from openguru.answers.models import Question
from openguru.gurus.models import Guru
from openguru.integrations.bots.discord_bot import discord_message_handle, discord_route
from openguru.integrations.bots.discord_format import split_message
from openguru.integrations.bots.routing import Route
from openguru.integrations.integration_services import IntegrationSetup, integration_create
from openguru.integrations.models import Integration, Thread
from openguru.integrations.services import admin_token_owner

from tests.answers.conftest import python_guru  # noqa: F401  (a guru with three indexed pages)
from tests.fakes.discord_server import BOT_ID, FakeDiscordServer
from tests.fakes.openai_server import FakeOpenAIServer

TOKEN = "discord-bot-token"
GUILD = "111000000000000001"
HELP = "222000000000000001"  # allowed: answers when mentioned
GENERAL = "222000000000000002"  # not allowed
ALICE = "444000000000000001"
QUESTION = "How do I create a virtual environment?"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def discord_api(settings, monkeypatch) -> Iterator[FakeDiscordServer]:
    with FakeDiscordServer(token=TOKEN) as server:
        # discord.py's address of the Discord API: the far end, pointed at the stand-in.
        monkeypatch.setattr(discord.http.Route, "BASE", server.api_url)
        settings.DISCORD_API_URL = server.api_url
        settings.BOT_EDIT_INTERVAL_SECONDS = 0
        yield server


@pytest.fixture
def bot(python_guru: Guru, discord_api: FakeDiscordServer) -> Integration:  # noqa: F811
    return integration_create(
        guru=python_guru,
        type=Integration.Type.DISCORD,
        setup=IntegrationSetup(
            external_id=GUILD,
            bot_token=TOKEN,
            channels=[{"id": HELP, "name": "help", "mode": "mention"}],
        ),
        owner=admin_token_owner(),
    )


def _user(user_id: str, name: str, bot: bool = False) -> dict[str, Any]:
    return {"id": user_id, "username": name, "discriminator": "0", "avatar": None, "bot": bot}


class Gateway:
    """What the gateway would hand the bot: discord.py model objects on a logged-in client."""

    def __init__(self) -> None:
        self.client = discord.Client(intents=discord.Intents.default())
        self.state = self.client._connection
        self.guild = discord.Guild(data={"id": GUILD, "name": "Acme"}, state=self.state)
        self._ids = iter(range(1, 1000))

    async def login(self) -> None:
        data = await self.client.http.static_login(TOKEN)
        self.state.user = discord.ClientUser(state=self.state, data=data)

    def channel(self, channel_id: str) -> discord.TextChannel:
        data = {"id": channel_id, "type": 0, "name": "c", "position": 0, "guild_id": GUILD}
        return discord.TextChannel(state=self.state, guild=self.guild, data=data)  # type: ignore[arg-type]

    def thread(self, thread_id: str, parent_id: str) -> discord.Thread:
        data = {
            "id": thread_id,
            "type": 11,
            "guild_id": GUILD,
            "parent_id": parent_id,
            "owner_id": BOT_ID,
            "name": "q",
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2025-01-01T12:00:00+00:00",
                "locked": False,
            },
            "message_count": 1,
            "member_count": 2,
            "rate_limit_per_user": 0,
        }
        return discord.Thread(guild=self.guild, state=self.state, data=data)  # type: ignore[arg-type]

    def dm(self) -> discord.DMChannel:
        data = {"id": "666000000000000001", "type": 1, "recipients": [_user(ALICE, "alice")]}
        return discord.DMChannel(me=self.state.user, state=self.state, data=data)  # type: ignore[arg-type]

    def message(
        self, channel: Any, text: str, *, mention: bool = True, author: dict | None = None
    ) -> discord.Message:
        data = {
            "id": str(500_000_000_000_000_000 + next(self._ids)),
            "channel_id": str(channel.id),
            "author": author or _user(ALICE, "alice"),
            "content": f"<@{BOT_ID}> {text}" if mention else text,
            "timestamp": "2025-01-01T12:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [_user(BOT_ID, "guru", bot=True)] if mention else [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
        }
        return discord.Message(state=self.state, channel=channel, data=data)  # type: ignore[arg-type]

    async def deliver(self, integration: Integration, message: discord.Message) -> None:
        assert self.state.user is not None
        await discord_message_handle(
            integration_id=integration.pk, message=message, me=self.state.user
        )

    async def close(self) -> None:
        await self.client.http.close()


def _session(*steps: Any) -> None:
    """Run `steps(gateway)` (coroutine functions) on one logged-in client."""

    async def run() -> None:
        gateway = Gateway()
        await gateway.login()
        try:
            for step in steps:
                await step(gateway)
        finally:
            await gateway.close()

    asyncio.run(run())


def test_a_mention_opens_a_thread_and_is_answered_there_streaming(
    bot: Integration, discord_api: FakeDiscordServer, llm_server: FakeOpenAIServer
):
    async def ask(gateway: Gateway) -> None:
        await gateway.deliver(bot, gateway.message(gateway.channel(HELP), QUESTION))

    _session(ask)

    [thread] = discord_api.threads
    assert thread["parent_id"] == HELP and thread["name"] == QUESTION
    [answer] = discord_api.in_channel(thread["id"])
    assert answer.edits[0] == "Thinking…"
    assert len(answer.edits) >= 3  # at least one edit while streaming, then the whole answer
    assert answer.edits[1].endswith(" …")
    assert "venv" in answer.content
    assert "**Sources:** [Virtual environments](<https://docs.example.org/virtual-env" in (
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

    _session(ask, follow_up)

    [thread] = discord_api.threads
    assert len(discord_api.in_channel(thread["id"])) == 2
    [prompt] = [str(b["messages"]) for b in llm_server.prompts() if b.get("stream")]
    first = Thread.objects.get(thread_id=thread["id"]).binge.root_question
    assert f"Q: {first.question}" in prompt
    assert Question.objects.get(user_question="How do I activate it?").parent == first


def test_a_mention_in_a_channel_not_allowed_says_how_to_enable_it(
    bot: Integration, discord_api: FakeDiscordServer
):
    async def ask(gateway: Gateway) -> None:
        await gateway.deliver(bot, gateway.message(gateway.channel(GENERAL), QUESTION))

    _session(ask)

    [hint] = discord_api.in_channel(GENERAL)
    assert GENERAL in hint.content and "enable" in hint.content
    assert discord_api.threads == [] and not Question.objects.exists()


def test_bots_and_unmentioned_messages_are_ignored(
    bot: Integration, discord_api: FakeDiscordServer
):
    async def chatter(gateway: Gateway) -> None:
        help_channel = gateway.channel(HELP)
        other_bot = _user("777000000000000001", "otherbot", bot=True)
        await gateway.deliver(bot, gateway.message(help_channel, QUESTION, author=other_bot))
        await gateway.deliver(bot, gateway.message(help_channel, QUESTION, mention=False))
        await gateway.deliver(bot, gateway.message(gateway.channel(GENERAL), "hi", mention=False))

    _session(chatter)

    assert discord_api.messages == [] and discord_api.threads == []


def test_direct_messages_only_when_enabled(bot: Integration, discord_api: FakeDiscordServer):
    async def dm(gateway: Gateway) -> None:
        await gateway.deliver(bot, gateway.message(gateway.dm(), QUESTION, mention=False))

    _session(dm)
    assert discord_api.messages == []

    bot.dms_enabled = True
    bot.save()
    _session(dm)
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


def test_short_messages_are_not_split():
    assert split_message("Use venv.") == ["Use venv."]


def test_long_answers_split_without_breaking_code_blocks_or_links():
    link = "[the venv docs](<https://docs.python.org/3/library/venv.html>)"
    prose = " ".join(["Virtual environments isolate packages.", link] * 60)
    code = "```python\n" + "\n".join(f"value_{i} = {i} * {i}" for i in range(200)) + "\n```"
    text = f"{prose}\n\n{code}\n\nDone, see {link}."

    parts = split_message(text)

    assert len(parts) >= 3
    assert all(len(part) <= 2000 for part in parts)
    for part in parts:
        assert part.count("```") % 2 == 0  # every part's code blocks are closed
        assert part.count("[the venv docs](") == part.count("venv.html>)")  # links whole
    code_parts = [p for p in parts if "value_" in p]
    assert len(code_parts) >= 2 and all(
        p.lstrip().startswith("```python") or "```python" in p for p in code_parts
    )
    rejoined = (
        "".join(parts)
        .replace("```python", "")
        .replace("```", "")
        .replace("\n", "")
        .replace(" ", "")
    )
    original = text.replace("```python", "").replace("```", "").replace("\n", "").replace(" ", "")
    assert rejoined == original  # nothing lost or added but the fences


def test_a_line_longer_than_the_limit_is_cut_between_words():
    parts = split_message("word " * 1000, limit=200)
    assert all(len(p) <= 200 for p in parts)
    assert all(p == p.strip() and not p.endswith("wor") for p in parts)
    assert " ".join(parts).split() == ["word"] * 1000


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
