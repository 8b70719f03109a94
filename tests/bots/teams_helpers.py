"""A guru's Teams integration, the stand-in of what a Teams bot talks to, and activities as
the Bot Connector sends them (signed for the bot's app id)."""

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import admin_token_owner
from openguru.integrations.bots.services import IntegrationSetup, integration_create
from openguru.integrations.models import Integration

from tests.answers.conftest import python_guru  # noqa: F401  (a guru with three indexed pages)
from tests.fakes.teams_server import FakeTeamsServer

APP_ID = "6c3a2a3e-5e1f-4b8e-9f53-0c1b7c0e4a11"
APP_SECRET = "app-client-secret"
TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47"
BOT = f"28:{APP_ID}"
CHANNEL = "19:e1f2a3b4c5d6@thread.tacv2"
QUESTION = "How do I create a virtual environment?"


@pytest.fixture
def teams_api(settings) -> Iterator[FakeTeamsServer]:
    with FakeTeamsServer(app_id=APP_ID, app_secret=APP_SECRET) as server:
        settings.TEAMS_OPENID_METADATA_URL = server.metadata_url
        settings.TEAMS_TOKEN_URL = server.token_url
        settings.BOT_EDIT_INTERVAL_SECONDS = 0  # every streamed token may update: updates are seen
        yield server


@pytest.fixture
def teams(python_guru: Guru, teams_api: FakeTeamsServer) -> Integration:  # noqa: F811
    return integration_create(
        guru=python_guru,
        type=Integration.Type.TEAMS,
        setup=IntegrationSetup(external_id=APP_ID, bot_token=APP_SECRET, tenant_id=TENANT),
        owner=admin_token_owner(),
    )


def activity(
    server: FakeTeamsServer,
    text: str,
    *,
    activity_id: str,
    root: str = "",
    conversation_type: str = "channel",
    mention: bool = True,
    tenant: str = TENANT,
) -> dict[str, Any]:
    """A message as the Connector sends it: in a channel, the reply chain of `root` (a new
    post is its own root), mentioning the bot."""
    conversation = f"{CHANNEL};messageid={root or activity_id}"
    if conversation_type != "channel":
        conversation = "a:1Xpersonal-chat-id" if conversation_type == "personal" else "19:chat"
    entities = [
        {"type": "mention", "mentioned": {"id": BOT, "name": "Guru"}, "text": "<at>Guru</at>"}
    ]
    return {
        "type": "message",
        "id": activity_id,
        "timestamp": "2026-12-07T15:00:00.000Z",
        "channelId": "msteams",
        "serviceUrl": server.service_url,
        "from": {"id": "29:1alice", "name": "Alice", "aadObjectId": "a1"},
        "recipient": {"id": BOT, "name": "Guru"},
        "conversation": {
            "id": conversation,
            "conversationType": conversation_type,
            "tenantId": tenant,
            **({"isGroup": True} if conversation_type != "personal" else {}),
        },
        "text": f"<at>Guru</at> {text}" if mention else text,
        "textFormat": "plain",
        "entities": entities if mention else [],
        "channelData": {
            "tenant": {"id": tenant},
            **(
                {"teamsChannelId": CHANNEL, "channel": {"id": CHANNEL}, "team": {"id": "19:team"}}
                if conversation_type == "channel"
                else {}
            ),
        },
    }


def post_activity(body: dict[str, Any], *, token: str | None) -> Any:
    """POST to /api/teams/messages/ as the Connector does (Celery is eager: the answer is
    written in the call)."""
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token is not None else {}
    return Client().post(
        "/api/teams/messages/", data=json.dumps(body), content_type="application/json", **headers
    )
