"""Setting up a guru's GitHub App through the admin API: the key and secret go in encrypted and
never come out, GitHub is asked for the app's slug (a wrong key saves nothing), and the detail
lists the repositories the installation covers."""

import pytest
from openguru.integrations.crypto import secret_decrypt
from openguru.integrations.models import GitHubApp, Integration

from tests.bots.github_app_fixtures import (
    APP_ID,
    INSTALLATION,
    REPO,
    SLUG,
    WEBHOOK_SECRET,
    key_pair,
)
from tests.fakes.github_app_server import FakeGitHubApp
from tests.gurus.helpers import guru_make

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def guru():
    return guru_make(slug="python", name="Python")


def _setup(**changes: str) -> dict:
    return {"installation_id": str(INSTALLATION), "app_id": APP_ID, "private_key": key_pair()[0],
            "webhook_secret": WEBHOOK_SECRET,
            "repositories": {REPO: {"mode": "all", "labels": ["question"]}}} | changes  # fmt: skip


def test_an_admin_sets_up_the_app_and_sees_the_covered_repositories(
    admin_client, github_api: FakeGitHubApp
):
    client = admin_client
    created = client.post("/api/gurus/python/integrations/github/", _setup(), format="json")

    assert created.status_code == 201, created.content
    body = created.json()
    assert (body["slug"], body["installation_id"], body["app_name"]) == (SLUG, "42", "Guru Bot")
    assert body["has_private_key"] and body["has_webhook_secret"]
    assert "private_key" not in body and "webhook_secret" not in body
    assert body["repositories"] == {REPO: {"mode": "all", "labels": ["question"], "faq": False}}
    app = GitHubApp.objects.get()
    assert "PRIVATE KEY" not in app.private_key  # encrypted at rest
    assert secret_decrypt(app.private_key) == key_pair()[0].strip()
    assert app.integration.type == Integration.Type.GITHUB

    detail = client.get(f"/api/gurus/python/integrations/{body['id']}/github/").json()
    assert [r["full_name"] for r in detail["covered"]] == [REPO] and detail["covered_error"] == ""

    changed = client.patch(
        f"/api/gurus/python/integrations/{body['id']}/github/",
        {"repositories": {REPO: {"mode": "mention"}}},
        format="json",
    )
    assert changed.json()["repositories"] == {REPO: {"mode": "mention", "labels": [], "faq": False}}
    listed = client.get("/api/gurus/python/integrations/").json()
    assert [(i["type"], i["external_id"]) for i in listed] == [("GITHUB", "42")]


def test_a_key_github_refuses_saves_nothing(admin_client, github_api: FakeGitHubApp):
    wrong = _setup(app_id="999")  # the key does not sign for this app

    response = admin_client.post("/api/gurus/python/integrations/github/", wrong, format="json")

    assert response.status_code == 502 and response.json()["code"] == "provider_error"
    assert not Integration.objects.exists() and not GitHubApp.objects.exists()


def test_the_generic_route_refuses_a_github_app_without_its_details(admin_client):
    response = admin_client.post(
        "/api/gurus/python/integrations/",
        {"type": "GITHUB", "external_id": "42", "bot_token": "ghs_x"},
        format="json",
    )

    assert response.status_code == 400
    assert "integrations/github/" in str(response.json())
    assert not Integration.objects.exists()


def test_a_key_that_is_not_a_private_key_is_refused_before_github_is_asked(
    admin_client, github_api: FakeGitHubApp
):
    garbled = _setup(private_key="-----BEGIN RSA PRIVATE KEY-----\nnot a key\n")

    response = admin_client.post("/api/gurus/python/integrations/github/", garbled, format="json")

    assert response.status_code == 400 and response.json()["code"] == "invalid_input"
    assert ".pem" in response.json()["msg"]
    assert not Integration.objects.exists() and not GitHubApp.objects.exists()
