"""Signing in to the console: Django's session, CSRF required on sign-in and sign-out, JSON
errors for a wrong password, a user who is not staff, and too many failures."""

from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from openguru.core.audit.models import AuditEvent
from rest_framework.test import APIClient

PASSWORD = "correct horse battery staple"


@pytest.fixture
def browser(db) -> Iterator[APIClient]:
    """A client that, like a browser, gets no CSRF exemption."""
    cache.clear()  # the failed sign-in counter
    users = get_user_model().objects
    users.create_user("ada", password=PASSWORD, is_staff=True)
    users.create_user("bob", password=PASSWORD, is_staff=False)
    yield APIClient(enforce_csrf_checks=True)
    # The counter is per client address, and this process's later tests (a console served from
    # it to a browser on the same loopback address) must not start locked out.
    cache.clear()


def _csrf(client: APIClient) -> str:
    assert client.get("/api/auth/session/").status_code == 200
    return client.cookies["csrftoken"].value


def _login(client: APIClient, username: str, password: str = PASSWORD, token: str | None = None):
    headers = {"HTTP_X_CSRFTOKEN": token} if token else {}
    body = {"username": username, "password": password}
    return client.post("/api/auth/login/", body, format="json", **headers)


def test_the_session_starts_anonymous_and_hands_out_the_csrf_cookie(browser):
    response = browser.get("/api/auth/session/")
    assert response.json() == {"authenticated": False, "user": None}
    assert response.cookies["csrftoken"].value


def test_sign_in_without_the_csrf_token_is_refused(browser):
    _csrf(browser)  # the cookie alone is not enough: the header must repeat it
    response = _login(browser, "ada")
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert "CSRF" in response.json()["msg"]
    assert browser.get("/api/auth/session/").json()["authenticated"] is False


def test_wrong_password_and_not_staff(browser):
    token = _csrf(browser)
    wrong = _login(browser, "ada", "guess", token=token)
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "invalid_credentials"
    not_staff = _login(browser, "bob", token=token)
    assert not_staff.status_code == 403
    assert not_staff.json()["code"] == "not_staff"
    assert browser.get("/api/auth/session/").json()["authenticated"] is False


def test_sign_in_use_the_console_and_sign_out(browser):
    token = _csrf(browser)
    response = _login(browser, "ada", token=token)
    assert response.status_code == 200, response.content
    user = {"username": "ada", "is_staff": True, "console": True}
    assert response.json() == {"authenticated": True, "user": user}
    assert browser.get("/api/auth/session/").json()["authenticated"] is True
    assert browser.get("/api/settings/").status_code == 200

    token = browser.cookies["csrftoken"].value  # rotated at sign-in
    forged = browser.patch("/api/settings/", {"answer_cache_enabled": False}, format="json")
    assert forged.status_code == 403  # a session's changes need the CSRF header
    changed = browser.patch(
        "/api/settings/", {"answer_cache_enabled": False}, format="json", HTTP_X_CSRFTOKEN=token
    )
    assert changed.status_code == 200

    assert browser.post("/api/auth/logout/").status_code == 403  # no CSRF header
    assert browser.post("/api/auth/logout/", HTTP_X_CSRFTOKEN=token).status_code == 204
    assert browser.get("/api/auth/session/").json() == {"authenticated": False, "user": None}
    assert browser.get("/api/settings/").status_code in (401, 403)


def test_too_many_failed_sign_ins_must_wait(browser):
    token = _csrf(browser)
    for _ in range(10):
        assert _login(browser, "ada", "guess", token=token).status_code == 400
    blocked = _login(browser, "ada", token=token)  # even the right password, for now
    assert blocked.status_code == 429
    assert blocked.json()["code"] == "rate_limited"
    assert int(blocked["Retry-After"]) > 0
    # Each refusal is in the audit log: ten wrong passwords, then the one not even checked.
    failed = AuditEvent.objects.filter(action="auth.login_failed").order_by("id")
    assert [event.actor for event in failed] == ["ada"] * 11
    assert failed.last().after == {"method": "password", "reason": "too many failed sign-ins"}
