"""The listener (`manage.py discord_listener`) as a real process, against loopback stand-ins of
the Discord HTTP API and gateway: it connects, answers a mention in a thread of its own, comes
back after the gateway drops it (its session resumed, then forgotten), keeps its good bots when
another's token is rejected, and stops cleanly on SIGTERM."""

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import admin_token_owner
from openguru.integrations.bots.services import IntegrationSetup, integration_create
from openguru.integrations.models import Integration

from tests.bots.discord_models import ALICE, GUILD, HELP, QUESTION, discord_user
from tests.fakes.discord_gateway import HEARTBEAT, IDENTIFY, RESUME, FakeDiscordGateway
from tests.fakes.discord_server import BOT_ID, FakeDiscordServer, SentMessage
from tests.integration.worker import test_database_url as database_url

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OTHER_GUILD = "111000000000000002"
BOT_USER = discord_user(BOT_ID, "guru", bot=True)


class Listener:
    """The listener process; its log (stdout and stderr) collected as it comes."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "backend/manage.py", "discord_listener"],
            cwd=REPO,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self._lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.append(line)

    @property
    def log(self) -> str:
        return "".join(self._lines)

    def wait_for(self, text: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.log:
            if self.process.poll() is not None or time.monotonic() > deadline:
                self._reader.join(timeout=5)
                assert text in self.log, f"{text!r} never came; the listener said:\n{self.log}"
            time.sleep(0.05)

    def terminate(self) -> int:
        """SIGTERM; its exit status."""
        self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(timeout=30)
        self._reader.join(timeout=5)
        return status

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture
def gateway(discord_api: FakeDiscordServer) -> Iterator[FakeDiscordGateway]:
    with FakeDiscordGateway(
        authorized=discord_api.authorized, user=BOT_USER, guild_id=GUILD, channel_id=HELP
    ) as server:
        discord_api.gateway_url = server.url  # what `GET /gateway/bot` names
        yield server


@pytest.fixture
def listener_env(discord_api: FakeDiscordServer) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        "MILVUS_URI": settings.MILVUS_URI,
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        "EMBEDDING_PROVIDER": settings.EMBEDDING_PROVIDER,
        "DISCORD_API_URL": discord_api.api_url,
        "BOT_EDIT_INTERVAL_SECONDS": "0",
        "LOG_FORMAT": "text",
        "PYTHONUNBUFFERED": "1",
    }


def _ask(gateway: FakeDiscordGateway, question: str) -> None:
    gateway.dispatch_message(
        content=f"<@{BOT_ID}> {question}",
        author=discord_user(ALICE, "alice"),
        mentions=[BOT_USER],
    )


def _answered(discord_api: FakeDiscordServer, *, threads: int, timeout: float = 60) -> SentMessage:
    """The answer in the `threads`-th thread, once it is whole."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(discord_api.threads) >= threads:
            thread = discord_api.threads[threads - 1]
            messages = discord_api.in_channel(thread["id"])
            if messages and "**Trust score:**" in messages[0].content:
                assert thread["parent_id"] == HELP
                return messages[0]
        time.sleep(0.05)
    raise AssertionError(f"no whole answer in thread #{threads}: {discord_api.messages}")


def test_the_listener_answers_on_the_gateway_and_comes_back_after_drops(
    bot: Integration,
    discord_api: FakeDiscordServer,
    gateway: FakeDiscordGateway,
    listener_env: dict[str, str],
):
    listener = Listener(listener_env)
    try:
        listener.wait_for(f"integration {bot.pk} connected as guru")
        [first] = gateway.connections
        assert first.path == "/"  # the address `GET /gateway/bot` named
        assert (first.query["v"], first.query["encoding"]) == ("10", "json")
        assert first.ops[:2] == [HEARTBEAT, IDENTIFY]  # a beat at once, acknowledged

        _ask(gateway, QUESTION)
        answer = _answered(discord_api, threads=1)
        assert answer.edits[0] == "Thinking…" and "python -m venv myenv" in answer.content

        gateway.drop(4000)  # an unknown error: the session can be resumed
        resumed = gateway.wait_live(connections=2)
        assert resumed.path == "/resume"  # READY's resume_gateway_url
        assert RESUME in resumed.ops and IDENTIFY not in resumed.ops
        _ask(gateway, "How do I handle exceptions?")
        assert "except" in _answered(discord_api, threads=2).content

        gateway.drop(4000, forget_sessions=True)  # the RESUME is refused: a new session
        again = gateway.wait_live(connections=4)  # the refused RESUME's, then a new IDENTIFY
        assert gateway.connections[2].ops[-1] == RESUME and IDENTIFY in again.ops
        _ask(gateway, "How do I build a list comprehension?")
        assert "comprehension" in _answered(discord_api, threads=3).content

        assert listener.terminate() == 0
        assert "Discord bots stopped." in listener.log
        assert "Traceback" not in listener.log
    finally:
        listener.kill()


def _discord_integration(guru: Guru, *, guild: str, token: str) -> Integration:
    return integration_create(
        guru=guru,
        type=Integration.Type.DISCORD,
        setup=IntegrationSetup(external_id=guild, bot_token=token, channels=[]),
        owner=admin_token_owner(),
    )


def test_a_rejected_token_stops_only_its_own_bot(
    bot: Integration,
    discord_api: FakeDiscordServer,
    gateway: FakeDiscordGateway,
    listener_env: dict[str, str],
):
    revoked = _discord_integration(bot.guru, guild=OTHER_GUILD, token="revoked-token")
    listener = Listener(listener_env)
    try:
        listener.wait_for(f"Discord rejected the bot token of integration {revoked.pk}")
        listener.wait_for(f"integration {bot.pk} connected as guru")

        _ask(gateway, QUESTION)
        assert "python -m venv myenv" in _answered(discord_api, threads=1).content
        assert listener.process.poll() is None  # still running

        assert listener.terminate() == 0
    finally:
        listener.kill()


def test_the_listener_exits_when_no_bot_can_run(
    bot: Integration, discord_api: FakeDiscordServer, listener_env: dict[str, str]
):
    revoked = _discord_integration(bot.guru, guild=OTHER_GUILD, token="revoked-token")
    # The first bot's token still signs in over HTTP, but the gateway refuses it (close 4004).
    with FakeDiscordGateway(
        authorized=lambda token: False, user=BOT_USER, guild_id=GUILD, channel_id=HELP
    ) as refusing:
        discord_api.gateway_url = refusing.url
        done = subprocess.run(
            [sys.executable, "backend/manage.py", "discord_listener"],
            cwd=REPO,
            env=listener_env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    assert done.returncode != 0
    error = done.stderr[done.stderr.index("CommandError: ") :]  # what the command ends with
    assert f"token of integration {bot.pk} (guild {GUILD}): the gateway refused it" in error
    assert f"Discord rejected the bot token of integration {revoked.pk}" in error
    assert "Traceback" not in done.stderr
