"""Slack's "Add to Slack" install: the consent link, then Slack's redirect with a code that
`oauth.v2.access` (the Slack Web API stand-in) trades for the workspace's bot token."""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from openguru.integrations.crypto import secret_decrypt
from openguru.integrations.models import Integration

from tests.fakes.slack_server import FakeSlackServer, OAuthGrant
from tests.gurus.helpers import guru_make

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("guru")]

INSTALL = "/api/gurus/python/integrations/slack/install/"
APP_SIGNING_SECRET = "app-signing-secret"


@pytest.fixture
def guru():
    return guru_make(slug="python", name="Python")


@pytest.fixture
def slack_app(settings):
    with FakeSlackServer(token="unused") as server:
        settings.SLACK_API_URL = server.api_url
        settings.SLACK_CLIENT_ID = server.client_id
        settings.SLACK_CLIENT_SECRET = server.client_secret
        settings.SLACK_SIGNING_SECRET = APP_SIGNING_SECRET
        server.codes["code-1"] = OAuthGrant("T0NEW", "New Team", "xoxb-installed")
        yield server


def _state(admin_client) -> tuple[str, dict[str, list[str]]]:
    response = admin_client.get(INSTALL)
    assert response.status_code == 200
    url = response.json()["url"]
    return url, parse_qs(urlsplit(url).query)


def test_the_install_link_asks_slack_for_the_bots_scopes(admin_client, slack_app):
    url, query = _state(admin_client)
    assert url.startswith("https://slack.com/oauth/v2/authorize?")
    assert query["client_id"] == [slack_app.client_id]
    assert "app_mentions:read" in query["scope"][0] and "chat:write" in query["scope"][0]
    assert query["redirect_uri"] == ["http://testserver/api/slack/oauth/"]
    assert query["state"][0]


def test_slacks_redirect_saves_the_workspaces_bot_token(admin_client, slack_app):
    _, query = _state(admin_client)
    response = Client().get("/api/slack/oauth/", {"code": "code-1", "state": query["state"][0]})

    assert response.status_code == 302
    assert response["Location"] == "/console/gurus/python/integrations?slack=installed"
    integration = Integration.objects.get(guru__slug="python", type=Integration.Type.SLACK)
    assert (integration.external_id, integration.workspace_name) == ("T0NEW", "New Team")
    assert secret_decrypt(integration.access_token) == "xoxb-installed"
    assert secret_decrypt(integration.signing_secret) == APP_SIGNING_SECRET
    assert integration.api_key is not None  # its own integration key, like a pasted setup


def test_a_reinstall_refreshes_the_token_and_keeps_the_channels(
    admin_client,
    slack_app,
):
    _, query = _state(admin_client)
    Client().get("/api/slack/oauth/", {"code": "code-1", "state": query["state"][0]})
    integration = Integration.objects.get(guru__slug="python")
    integration.channels = [{"id": "C0HELP", "mode": "mention"}]
    integration.save()

    slack_app.codes["code-2"] = OAuthGrant("T0NEW", "New Team", "xoxb-rotated")
    Client().get("/api/slack/oauth/", {"code": "code-2", "state": query["state"][0]})

    integration = Integration.objects.get(guru__slug="python")
    assert secret_decrypt(integration.access_token) == "xoxb-rotated"
    assert integration.channels == [{"id": "C0HELP", "mode": "mention"}]


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ({"code": "code-1", "state": "forged"}, "not issued here"),
        ({"code": "used-or-wrong", "state": None}, "invalid_code"),
        ({"error": "access_denied", "state": None}, "cancelled"),
        ({"state": None}, "code or state"),
    ],
)
def test_a_bad_redirect_is_refused_and_saves_nothing(
    admin_client,
    slack_app,
    params,
    says,
):
    _, query = _state(admin_client)
    filled = {k: (query["state"][0] if v is None else v) for k, v in params.items()}
    response = Client().get("/api/slack/oauth/", filled)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input" and says in response.json()["msg"]
    assert not Integration.objects.exists()


def test_an_expired_link_is_refused(admin_client, slack_app, monkeypatch):
    _, query = _state(admin_client)
    monkeypatch.setattr("openguru.integrations.bots.slack_oauth.STATE_MAX_AGE_SECONDS", -1)
    response = Client().get("/api/slack/oauth/", {"code": "code-1", "state": query["state"][0]})
    assert response.status_code == 400 and "expired" in response.json()["msg"]


def test_without_the_slack_app_configured_the_install_says_what_to_set(
    admin_client,
    settings,
):
    settings.SLACK_CLIENT_ID = ""
    response = admin_client.get(INSTALL)
    assert response.status_code == 503
    assert (
        response.json()["code"] == "not_configured" and "SLACK_CLIENT_ID" in response.json()["msg"]
    )


def test_only_admins_get_an_install_link(anon_client):
    assert anon_client.get(INSTALL).status_code in (401, 403)
