"""Django's /admin/: every OpenGuru model is there for operators, read-mostly, and no secret
(key hashes, bot tokens, webhook secrets) is ever shown."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from openguru.integrations.apikeys.services import api_key_create
from openguru.integrations.bots.services import IntegrationSetup, integration_create

from tests.console.conftest import make_guru, seed_week

OPENGURU_APPS = ["core", "gurus", "sources", "answers", "integrations", "api_v1", "evaluation"]


def _models() -> list:
    return [m for label in OPENGURU_APPS for m in apps.get_app_config(label).get_models()]


def test_every_openguru_model_is_registered():
    missing = [m.__name__ for m in _models() if not admin.site.is_registered(m)]
    assert missing == []
    assert len(_models()) >= 14


@pytest.fixture
def operator(db) -> Client:
    user = get_user_model().objects.create_superuser("op", "op@localhost", "pw-for-the-test")
    client = Client()
    client.force_login(user)
    return client


def test_every_list_and_object_page_loads_without_secrets(operator):
    guru = make_guru()
    guru.github_webhook_secret = "webhook-secret-value"
    guru.save()
    seed_week(guru)
    owner = get_user_model().objects.get(username="op")
    _, raw_key = api_key_create(user=owner, name="ops")
    integration_create(
        guru=guru,
        type="SLACK",
        setup=IntegrationSetup(external_id="T1", bot_token="xoxb-bot-secret", signing_secret="ss"),
        owner=owner,
    )
    secrets = ["webhook-secret-value", "xoxb-bot-secret", raw_key]
    secrets += [k.hashed_key for k in owner.api_keys.all()]
    secrets += [i.access_token for i in guru.integrations.all()]
    for model in _models():
        meta = model._meta
        listing = operator.get(f"/admin/{meta.app_label}/{meta.model_name}/")
        assert listing.status_code == 200, meta.label
        pages = [listing]
        row = model.objects.first()
        if row is not None:
            page = operator.get(f"/admin/{meta.app_label}/{meta.model_name}/{row.pk}/change/")
            assert page.status_code == 200, meta.label
            pages.append(page)
        for page in pages:
            html = page.content.decode()
            assert not [s for s in secrets if s in html], meta.label


def test_services_own_the_changes(operator):
    guru = make_guru()
    assert operator.get("/admin/gurus/guru/add/").status_code == 403
    response = operator.post(f"/admin/gurus/guru/{guru.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    assert operator.get("/admin/core/platformsettings/add/").status_code == 200  # one row


def test_view_site_leads_to_the_ui_and_plurals_read_as_english(operator, settings):
    # The admin is on the API's origin; "View site" must leave it for the UI (SITE_URL).
    page = operator.get("/admin/").content.decode()
    assert f'href="{settings.SITE_URL}"' in page
    assert "Embedding cache entries" in page and "entrys" not in page.lower()
