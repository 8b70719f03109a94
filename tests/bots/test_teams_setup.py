"""Setting a Teams bot up through the admin API: the app id, secret (never returned) and tenant;
the connection test asks the token endpoint stand-in for the bot's token."""

import json

from django.test import Client
from openguru.gurus.models import Guru
from openguru.integrations.crypto import secret_decrypt
from openguru.integrations.models import Integration

from tests.bots.teams_helpers import APP_ID, APP_SECRET, TENANT
from tests.fakes.teams_server import FakeTeamsServer

ADMIN = {"HTTP_AUTHORIZATION": "Bearer test-admin-token"}


def _post(slug: str, body: dict) -> object:
    return Client().post(
        f"/api/gurus/{slug}/integrations/", json.dumps(body), "application/json", **ADMIN
    )


def test_a_teams_bot_is_set_up_with_its_app_id_secret_and_tenant(
    python_guru: Guru, teams_api: FakeTeamsServer
):
    without_secret = _post(python_guru.slug, {"type": "TEAMS", "external_id": APP_ID})
    assert without_secret.status_code == 400

    body = {"type": "TEAMS", "external_id": APP_ID, "bot_token": APP_SECRET, "tenant_id": TENANT}
    response = _post(python_guru.slug, body)

    assert response.status_code == 201, response.content
    created = response.json()
    assert (created["type"], created["tenant_id"], created["has_token"]) == ("TEAMS", TENANT, True)
    assert APP_SECRET not in response.content.decode()
    stored = Integration.objects.get(pk=created["id"])
    assert stored.access_token != APP_SECRET and secret_decrypt(stored.access_token) == APP_SECRET

    check = (
        Client()
        .get(f"/api/gurus/{python_guru.slug}/integrations/{stored.pk}/test/", **ADMIN)
        .json()
    )
    assert check["ok"] is True and APP_ID in check["detail"]
    assert teams_api.token_requests[-1]["tenant"] == TENANT


def test_a_wrong_secret_fails_the_connection_test(teams: Integration, teams_api: FakeTeamsServer):
    Client().patch(
        f"/api/gurus/{teams.guru.slug}/integrations/{teams.pk}/",
        json.dumps({"bot_token": "wrong-secret"}),
        "application/json",
        **ADMIN,
    )

    check = (
        Client().get(f"/api/gurus/{teams.guru.slug}/integrations/{teams.pk}/test/", **ADMIN).json()
    )

    assert check == {"ok": False, "detail": "Microsoft refused the app id or secret (HTTP 401)."}
    assert teams_api.bot_tokens == []
