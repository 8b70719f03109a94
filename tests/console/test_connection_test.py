"""An integration's connection test against the Slack and Discord stand-ins on loopback: the
stored (encrypted) token is sent, and a refused one is said so."""

import re
from typing import Any

import pytest
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import admin_token_owner
from openguru.integrations.bots.services import IntegrationSetup, integration_create
from openguru.integrations.models import Integration

from tests.console.conftest import make_guru
from tests.fakes.discord_server import FakeDiscordServer
from tests.fakes.loopback import FakeHandler
from tests.fakes.slack_server import FakeSlackServer

TOKEN = "xoxb-console-test"


class SlackWithAuthTest(FakeSlackServer):
    """The stand-in plus Slack's `auth.test`: who the token belongs to."""

    def routes(self) -> list[Any]:
        return [("POST", re.compile(r"/api/auth\.test"), self._auth_test), *super().routes()]

    def _auth_test(self, handler: FakeHandler, match: re.Match[str], body: Any) -> None:
        if handler.headers.get("Authorization") != f"Bearer {self.token}":
            handler.send_json(200, {"ok": False, "error": "invalid_auth"})
            return
        handler.send_json(200, {"ok": True, "team": "Acme", "user": "guru", "team_id": "T1"})


@pytest.fixture
def slack(settings):
    server = SlackWithAuthTest(token=TOKEN).start()
    settings.SLACK_API_URL = server.api_url
    yield server
    server.stop()


@pytest.fixture
def discord(settings):
    server = FakeDiscordServer(token=TOKEN).start()
    settings.DISCORD_API_URL = server.api_url
    yield server
    server.stop()


def _integration(kind: str, token: str) -> Integration:
    guru = Guru.objects.filter(slug="python").first() or make_guru()
    external_id = f"T{Integration.objects.count() + 1}"
    setup = IntegrationSetup(external_id=external_id, bot_token=token, signing_secret="s")
    return integration_create(guru=guru, type=kind, setup=setup, owner=admin_token_owner())


def _test(admin_api, integration: Integration) -> dict[str, Any]:
    response = admin_api.get(f"/api/gurus/python/integrations/{integration.pk}/test/")
    assert response.status_code == 200, response.content
    return response.json()


def test_slack_token_that_works(admin_api, slack):
    assert _test(admin_api, _integration("SLACK", TOKEN)) == {
        "ok": True,
        "detail": "Connected to Acme as guru.",
    }


def test_slack_token_that_is_refused(admin_api, slack):
    result = _test(admin_api, _integration("SLACK", "xoxb-revoked"))
    assert result == {"ok": False, "detail": "Slack refused the bot token: invalid_auth."}


def test_discord_token_that_works_and_one_that_is_refused(admin_api, discord):
    assert _test(admin_api, _integration("DISCORD", TOKEN)) == {
        "ok": True,
        "detail": "Signed in to Discord as guru.",
    }
    refused = _test(admin_api, _integration("DISCORD", "revoked"))
    assert refused == {"ok": False, "detail": "Discord refused the bot token (401)."}


def test_an_unreachable_platform_is_not_ok(admin_api, settings):
    settings.DISCORD_API_URL = "http://127.0.0.1:9/api/v10"  # nothing listens there
    result = _test(admin_api, _integration("DISCORD", TOKEN))
    assert result["ok"] is False
    assert result["detail"].startswith("Discord could not be reached")
