"""How people sign in: the methods the sign-in page offers, the password sign-in turned off
(a stable error code, an audit row, /admin/ refusing too), a person without a role refused and
logged, the console flag of the session, and a signed-in person's own role and gurus."""

import pytest
from django.core.cache import cache
from openguru.accounts.models import Role
from openguru.core.audit.models import AuditEvent
from rest_framework.test import APIClient

from tests.accounts.conftest import PASSWORD, Org, make_person


@pytest.fixture
def browser(org: Org) -> APIClient:
    cache.clear()
    return APIClient(enforce_csrf_checks=True)


def _sign_in(client: APIClient, username: str) -> object:
    client.get("/api/auth/session/")
    token = client.cookies["csrftoken"].value
    body = {"username": username, "password": PASSWORD}
    return client.post("/api/auth/login/", body, format="json", HTTP_X_CSRFTOKEN=token)


def test_the_methods_follow_the_settings(browser: APIClient, settings):
    assert browser.get("/api/auth/methods/").json() == {
        "password": True,
        "sso": False,
        "sso_label": "Sign in with SSO",
        "sso_url": "/api/auth/oidc/start/",
    }
    settings.PASSWORD_SIGN_IN, settings.SSO_ENABLED = False, True
    methods = browser.get("/api/auth/methods/").json()
    assert (methods["password"], methods["sso"]) == (False, True)


def test_sso_is_not_found_until_configured(browser: APIClient):
    response = browser.get("/api/auth/oidc/start/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_passwords_off_refuses_the_right_password_with_a_stable_code(
    org: Org, browser: APIClient, settings
):
    settings.PASSWORD_SIGN_IN = False
    response = _sign_in(browser, "ada")
    assert response.status_code == 403
    assert response.json()["code"] == "password_sign_in_off"
    assert browser.get("/api/auth/session/").json()["authenticated"] is False
    [refused] = AuditEvent.objects.filter(action="auth.login_failed")
    assert refused.actor == "ada"
    assert refused.after == {"method": "password", "reason": "passwords are turned off"}
    # The browser's own form post (no JavaScript) is sent back with the same code.
    form = browser.post(
        "/api/auth/login/",
        {"username": "ada", "password": PASSWORD, "next": "/console"},
        HTTP_ORIGIN="http://testserver",
    )
    assert form.status_code == 303
    assert form["Location"].endswith("error=password_sign_in_off&next=%2Fconsole")
    admin = APIClient().post("/admin/login/", {"username": "ada", "password": PASSWORD})
    assert admin.status_code == 200 and b"turned off" in admin.content


def test_no_role_is_refused_and_logged(org: Org, browser: APIClient):
    make_person("ned", Role.MEMBER).membership.delete()
    response = _sign_in(browser, "ned")
    assert response.json()["code"] == "not_staff"
    [refused] = AuditEvent.objects.filter(action="auth.login_failed")
    assert (refused.actor, refused.after["reason"]) == ("ned", "no role")


def test_a_member_uses_the_console_and_reads_their_role_and_gurus(org: Org, browser: APIClient):
    assert browser.get("/api/auth/me/").status_code == 401  # signed out
    signed_in = _sign_in(browser, "mia")
    assert signed_in.json()["user"] == {"username": "mia", "is_staff": False, "console": True}
    assert browser.get("/api/auth/me/").json() == {
        "username": "mia",
        "role": "member",
        "gurus": ["python"],
    }
    [login] = AuditEvent.objects.filter(action="auth.login")
    assert login.actor == "mia"


def test_sso_refusals_before_the_provider_is_asked_are_logged(browser: APIClient, settings):
    settings.SSO_ENABLED, settings.SITE_URL = True, "https://guru.example.com"
    denied = browser.get("/api/auth/oidc/callback/?error=access_denied&state=x")
    forged = browser.get("/api/auth/oidc/callback/?code=c&state=never-issued")
    for response in (denied, forged):
        assert response.status_code == 302
        assert response["Location"] == "https://guru.example.com/console/sign-in?error=sso_failed"
    reasons = [
        event.after["reason"]
        for event in AuditEvent.objects.filter(action="auth.login_failed").order_by("id")
    ]
    assert reasons[0] == "the provider answered access_denied"
    assert len(reasons) == 2 and reasons[1]  # no session ever started this sign-in
    assert browser.get("/api/auth/session/").json()["authenticated"] is False
