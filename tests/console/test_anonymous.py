"""Every admin endpoint the console calls refuses a caller without credentials, with a JSON
error (the existing ones and the console's own)."""

import pytest
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create
from openguru.integrations.models import Integration
from openguru.integrations.widget.services import widget_id_create
from openguru.sources.models import Crawl, DataSource
from rest_framework.test import APIClient

from tests.console.conftest import make_guru

G = "/api/gurus/python"
CONSOLE_ENDPOINTS = [
    ("POST", "/api/gurus/"),
    ("PATCH", f"{G}/"),
    ("DELETE", f"{G}/"),
    ("POST", f"{G}/icon/"),
    ("POST", f"{G}/reembed/"),
    ("POST", f"{G}/reanalyze/"),
    ("GET", f"{G}/sources/"),
    ("POST", f"{G}/sources/"),
    ("GET", f"{G}/sources/{{source}}/"),
    ("DELETE", f"{G}/sources/{{source}}/"),
    ("POST", f"{G}/sources/{{source}}/reindex/"),
    ("POST", "/api/v1/python/crawl/start/"),
    ("GET", "/api/v1/python/crawl/{crawl}/status/"),
    ("POST", "/api/v1/python/crawl/{crawl}/stop/"),
    ("GET", "/api/api-keys/"),
    ("POST", "/api/api-keys/"),
    ("DELETE", "/api/api-keys/{key}/"),
    ("GET", f"{G}/widget-ids/"),
    ("POST", f"{G}/widget-ids/"),
    ("DELETE", f"{G}/widget-ids/{{widget}}/"),
    ("GET", f"{G}/integrations/"),
    ("POST", f"{G}/integrations/"),
    ("GET", f"{G}/integrations/{{integration}}/"),
    ("PATCH", f"{G}/integrations/{{integration}}/"),
    ("DELETE", f"{G}/integrations/{{integration}}/"),
    ("GET", f"{G}/integrations/{{integration}}/test/"),
    ("GET", "/api/settings/"),
    ("PATCH", "/api/settings/"),
    ("GET", f"{G}/analytics/"),
    ("GET", f"{G}/analytics/refusals/"),
    ("GET", f"{G}/analytics/gaps/"),
    ("POST", "/api/v1/python/analytics/export/"),
]


@pytest.mark.parametrize(("method", "path"), CONSOLE_ENDPOINTS)
def test_an_anonymous_caller_is_refused(db, method, path):
    guru = make_guru()
    owner = admin_token_owner()
    source = DataSource.objects.create(guru=guru, type="text", url="text://a", content="a")
    crawl = Crawl.objects.create(guru=guru, url="https://example.com/", link_limit=10)
    key, _ = api_key_create(user=owner, name="k")
    widget = widget_id_create(guru=guru, domain_pattern="*")
    integration = Integration.objects.create(guru=guru, type="SLACK", external_id="T1")
    url = path.format(
        source=source.pk, crawl=crawl.pk, key=key.pk, widget=widget.pk, integration=integration.pk
    )

    response = APIClient().generic(method, url, "{}", content_type="application/json")

    assert response.status_code in (401, 403), (method, url, response.status_code)
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] in ("not_authenticated", "permission_denied")
    guru.refresh_from_db()  # nothing happened to it
    assert DataSource.objects.filter(pk=source.pk).exists()
