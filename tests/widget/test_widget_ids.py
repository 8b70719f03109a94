"""Admins create, list and delete a guru's widget ids; a deleted id stops working at once."""

import pytest
from openguru.integrations.models import WidgetId

pytestmark = pytest.mark.django_db(transaction=True)


def test_admins_create_list_and_delete_widget_ids(admin_client, python_guru, client):
    url = "/api/gurus/python/widget-ids/"
    created = admin_client.post(url, {"domain_pattern": " *.example.com "}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert set(body) == {"id", "key", "domain_pattern", "secret_set", "created_at"}
    assert body["domain_pattern"] == "*.example.com"
    assert len(body["key"]) >= 32
    assert WidgetId.objects.get(pk=body["id"]).guru == python_guru

    listed = admin_client.get(url)
    assert [w["key"] for w in listed.json()] == [body["key"]]

    page = {"HTTP_AUTHORIZATION": body["key"], "HTTP_ORIGIN": "https://docs.example.com"}
    assert client.get("/api/widget/guru/", **page).status_code == 200
    assert admin_client.delete(f"{url}{body['id']}/").status_code == 204
    gone = client.get("/api/widget/guru/", **page)
    assert gone.status_code == 401
    assert gone.json() == {"code": "not_authenticated", "msg": "This widget id is not valid."}
    assert admin_client.delete(f"{url}{body['id']}/").json()["code"] == "not_found"


def test_any_site_must_be_said_with_a_star(admin_client, python_guru, client):
    url = "/api/gurus/python/widget-ids/"
    for body in ({}, {"domain_pattern": ""}, {"domain_pattern": "  "}):
        refused = admin_client.post(url, body, format="json")
        assert refused.status_code == 400, body
        assert refused.json()["code"] == "invalid_input"
    not_a_site = admin_client.post(url, {"domain_pattern": "https://"}, format="json")
    assert not_a_site.status_code == 400
    assert not WidgetId.objects.exists()

    key = admin_client.post(url, {"domain_pattern": "*"}, format="json").json()["key"]
    page = {"HTTP_AUTHORIZATION": key, "HTTP_ORIGIN": "https://anywhere.example.net"}
    assert client.get("/api/widget/guru/", **page).status_code == 200


def test_a_widget_id_with_an_empty_pattern_grants_no_site(python_guru, client):
    """A row with no pattern (written around the API) is no wildcard: no site, no CORS."""
    key = WidgetId.objects.create(guru=python_guru, key="k" * 32, domain_pattern="").key
    page = {"HTTP_AUTHORIZATION": key, "HTTP_ORIGIN": "https://anywhere.example.net"}
    assert client.get("/api/widget/guru/", **page).status_code == 401
    preflight = client.options(
        "/api/widget/ask/",
        HTTP_ORIGIN="https://anywhere.example.net",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
    )
    assert "access-control-allow-origin" not in preflight.headers


def test_only_admins_manage_widget_ids(anon_client, python_guru):
    listed = anon_client.get("/api/gurus/python/widget-ids/")
    assert listed.status_code == 401
    assert listed.json()["code"] == "not_authenticated"
    created = anon_client.post("/api/gurus/python/widget-ids/", {}, format="json")
    assert created.status_code == 401
    assert not WidgetId.objects.exists()


def test_widget_ids_of_an_unknown_guru_are_404(admin_client, db):
    response = admin_client.post(
        "/api/gurus/nope/widget-ids/", {"domain_pattern": "*"}, format="json"
    )
    assert response.status_code == 404
    assert response.json()["code"] == "guru_not_found"
