"""Admins set up a guru's bots over /api/gurus/<slug>/integrations/: tokens are stored encrypted
and never returned."""

import pytest
from openguru.integrations.crypto import secret_decrypt
from openguru.integrations.models import APIKey, Integration

from tests.gurus.helpers import guru_make

pytestmark = pytest.mark.django_db

SLACK = {
    "type": "SLACK",
    "external_id": "T0TEAM",
    "workspace_name": "Acme",
    "bot_token": "xoxb-secret-token",
    "signing_secret": "signing-secret-value",
    "channels": [{"id": "C0HELP", "name": "help", "mode": "all"}],
}
URL = "/api/gurus/python/integrations/"


@pytest.fixture(autouse=True)
def guru():
    return guru_make(slug="python", name="Python")


def _no_secrets(body: object) -> None:
    text = str(body)
    assert "xoxb" not in text and "signing-secret" not in text and "gAAAA" not in text


def test_create_list_get_patch_delete(admin_client):
    created = admin_client.post(URL, SLACK, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    _no_secrets(body)
    assert body["has_token"] is True and body["has_signing_secret"] is True
    assert body["channels"] == SLACK["channels"] and body["dms_enabled"] is False
    integration = Integration.objects.get()
    # At rest: encrypted, and readable back.
    assert "xoxb" not in integration.access_token
    assert secret_decrypt(integration.access_token) == "xoxb-secret-token"
    assert secret_decrypt(integration.signing_secret) == "signing-secret-value"
    key = APIKey.objects.get(pk=integration.api_key_id)
    assert key.integration and body["api_key_prefix"] == key.prefix

    listed = admin_client.get(URL)
    assert [i["id"] for i in listed.json()] == [body["id"]]
    _no_secrets(listed.json())
    one = admin_client.get(f"{URL}{body['id']}/")
    assert one.json() == body

    patched = admin_client.patch(
        f"{URL}{body['id']}/",
        {"channels": [{"id": "C0NEW"}], "dms_enabled": True, "bot_token": "xoxb-rotated"},
        format="json",
    )
    assert patched.status_code == 200, patched.json()
    _no_secrets(patched.json())
    assert patched.json()["channels"] == [{"id": "C0NEW", "name": "", "mode": "mention"}]
    assert patched.json()["dms_enabled"] is True
    integration.refresh_from_db()
    assert secret_decrypt(integration.access_token) == "xoxb-rotated"
    assert secret_decrypt(integration.signing_secret) == "signing-secret-value"  # kept

    deleted = admin_client.delete(f"{URL}{body['id']}/")
    assert deleted.status_code == 204
    assert not Integration.objects.exists()
    assert not APIKey.objects.filter(pk=key.pk).exists()
    assert admin_client.get(f"{URL}{body['id']}/").status_code == 404


def test_a_discord_bot_needs_no_signing_secret(admin_client):
    discord = {"type": "DISCORD", "external_id": "112233", "bot_token": "discord-token"}
    created = admin_client.post(URL, discord, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["has_signing_secret"] is False


def test_bad_setups_are_refused(admin_client):
    no_secret = {k: v for k, v in SLACK.items() if k != "signing_secret"}
    assert admin_client.post(URL, no_secret, format="json").json()["code"] == "invalid_input"
    bad_mode = {**SLACK, "channels": [{"id": "C1", "mode": "sometimes"}]}
    assert admin_client.post(URL, bad_mode, format="json").status_code == 400
    assert admin_client.post(URL, SLACK, format="json").status_code == 201
    again = admin_client.post(URL, SLACK, format="json")
    assert again.status_code == 409 and again.json()["code"] == "conflict"
    assert (
        admin_client.post("/api/gurus/nope/integrations/", SLACK, format="json").status_code == 404
    )


def test_anonymous_callers_are_refused(anon_client, admin_client):
    created = admin_client.post(URL, SLACK, format="json").json()
    for response in (
        anon_client.get(URL),
        anon_client.post(URL, SLACK, format="json"),
        anon_client.patch(f"{URL}{created['id']}/", {"dms_enabled": True}, format="json"),
        anon_client.delete(f"{URL}{created['id']}/"),
    ):
        assert response.status_code in (401, 403)
        assert response.json()["code"] in ("not_authenticated", "permission_denied")
    assert Integration.objects.get().dms_enabled is False


def test_the_integration_key_is_not_among_the_owners_keys(admin_client):
    admin_client.post(URL, SLACK, format="json")
    assert admin_client.get("/api/api-keys/").json() == []
