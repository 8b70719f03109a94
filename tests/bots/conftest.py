"""A guru with indexed pages; a Slack integration for it and the Slack Web API stand-in; a
Discord integration and the Discord HTTP API stand-in."""

import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from django.test import Client
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import admin_token_owner
from openguru.integrations.bots.services import IntegrationSetup, integration_create
from openguru.integrations.models import Integration

from tests.answers.conftest import python_guru  # noqa: F401  (a guru with three indexed pages)
from tests.bots.discord_models import GUILD, HELP, TOKEN
from tests.bots.github_app_fixtures import github_api, github_bot  # noqa: F401  (fixtures)
from tests.bots.teams_helpers import teams, teams_api  # noqa: F401  (the Teams bot's fixtures)
from tests.fakes.discord_server import FakeDiscordServer
from tests.fakes.slack_server import FakeSlackServer

TEAM = "T0TEAM"
BOT_USER = "U0BOT"
BOT_TOKEN = "xoxb-test-token"
SIGNING_SECRET = "test-signing-secret"
ALLOWED = "C0HELP"
EVERYTHING = "C0ALL"  # a channel where the bot answers every message
ELSEWHERE = "C0RANDOM"


@pytest.fixture
def slack_api(settings) -> Iterator[FakeSlackServer]:
    with FakeSlackServer(token=BOT_TOKEN) as server:
        settings.SLACK_API_URL = server.api_url
        settings.BOT_EDIT_INTERVAL_SECONDS = 0  # every streamed token may edit: edits are seen
        yield server


@pytest.fixture
def slack(python_guru: Guru, slack_api: FakeSlackServer) -> Integration:  # noqa: F811
    return integration_create(
        guru=python_guru,
        type=Integration.Type.SLACK,
        setup=IntegrationSetup(
            external_id=TEAM,
            bot_token=BOT_TOKEN,
            signing_secret=SIGNING_SECRET,
            channels=[
                {"id": ALLOWED, "name": "help", "mode": "mention"},
                {"id": EVERYTHING, "name": "python", "mode": "all"},
            ],
        ),
        owner=admin_token_owner(),
    )


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
    """The guru's Discord integration: #help (`HELP`) allowed, answered when mentioned."""
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


_events = iter(range(1, 1_000_000))


def event_payload(event: dict[str, Any], *, event_id: str = "") -> dict[str, Any]:
    return {
        "type": "event_callback",
        "team_id": TEAM,
        "api_app_id": "A0APP",
        "event_id": event_id or f"Ev{next(_events):06d}",
        "event": event,
        "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}],
    }


def mention(text: str, *, ts: str, thread_ts: str = "", channel: str = ALLOWED) -> dict[str, Any]:
    event = {
        "type": "app_mention",
        "user": "U0ALICE",
        "text": f"<@{BOT_USER}> {text}",
        "ts": ts,
        "channel": channel,
    }
    return event | ({"thread_ts": thread_ts} if thread_ts else {})


def sign(body: bytes, *, secret: str = SIGNING_SECRET, timestamp: int | None = None) -> dict:
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    base = b"v0:" + stamp.encode() + b":" + body
    digest = hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    return {"HTTP_X_SLACK_SIGNATURE": f"v0={digest}", "HTTP_X_SLACK_REQUEST_TIMESTAMP": stamp}


def post_event(payload: dict[str, Any], *, headers: dict | None = None, **signing: Any) -> Any:
    """POST to /api/slack/events/ as Slack does (Celery is eager: the task runs in the call)."""
    body = json.dumps(payload).encode()
    extra = {**sign(body, **signing), **(headers or {})}
    return Client().post("/api/slack/events/", data=body, content_type="application/json", **extra)
