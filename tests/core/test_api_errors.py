"""Every API error is JSON with a stable code and a human message."""

import pytest

pytestmark = pytest.mark.django_db


def test_health_reports_every_component(anon_client):
    response = anon_client.get("/api/health/")
    body = response.json()
    assert response.status_code == 200, body
    assert set(body["components"]) == {
        "database", "broker", "vector_store", "embedder", "llm", "reranker"
    }  # fmt: skip
    assert body["components"]["database"] == "ok"
    assert body["components"]["vector_store"] == "ok"
    assert body["components"]["embedder"] == "ok"
    assert body["components"]["llm"] == "not configured"


def test_unknown_guru_is_a_json_404(anon_client):
    response = anon_client.get("/api/gurus/no-such-guru/")
    assert response.status_code == 404
    assert response.json()["code"] == "guru_not_found"
    assert "no-such-guru" in response.json()["msg"]


def test_unknown_route_is_a_json_404(anon_client):
    response = anon_client.get("/api/nothing-here/")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "msg": "Not found."}


def test_malformed_json_is_rejected(admin_client):
    response = admin_client.post("/api/gurus/", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"


def test_wrong_types_are_rejected_with_the_field_named(admin_client):
    response = admin_client.post("/api/gurus/", {"slug": ["x"], "name": 5}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_input"
    assert body["msg"].startswith("slug")


def test_admin_endpoints_need_authentication(anon_client):
    response = anon_client.post("/api/gurus/", {"slug": "a", "name": "A"}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_a_wrong_admin_token_is_refused(anon_client):
    anon_client.credentials(HTTP_AUTHORIZATION="Bearer wrong")
    response = anon_client.post("/api/gurus/", {"slug": "a", "name": "A"}, format="json")
    assert response.status_code == 401


def test_a_staff_session_may_administer(anon_client, django_user_model):
    staff = django_user_model.objects.create_user("staff", password="pw-123456", is_staff=True)
    anon_client.force_login(staff)
    response = anon_client.post("/api/gurus/", {"slug": "by-session", "name": "S"}, format="json")
    assert response.status_code == 201, response.json()


def test_a_non_staff_session_may_not(anon_client, django_user_model):
    user = django_user_model.objects.create_user("someone", password="pw-123456")
    anon_client.force_login(user)
    response = anon_client.post("/api/gurus/", {"slug": "nope", "name": "N"}, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"


def test_every_error_code_maps_to_an_error_status():
    from openguru.core.errors import DomainError, ErrorCode

    statuses = {code: DomainError(code, "x").http_status for code in ErrorCode}
    assert statuses[ErrorCode.INTERNAL] == 500  # an answer that failed inside is not a 400
    assert all(400 <= status < 600 for status in statuses.values())
