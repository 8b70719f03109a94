"""Invitations over real SMTP: an admin invites, the message's one-time link is followed, the
person chooses a password (Django's validators), signs in and manages only the gurus granted."""

from datetime import timedelta
from urllib.parse import parse_qs, urlparse

import pytest
from django.utils import timezone
from openguru.accounts.models import Invitation

from tests.accounts.conftest import Org, actor_client, csrf_client
from tests.fakes.smtp_server import LoopbackSMTPServer

GOOD_PASSWORD = "plum tiger orbit 7 candle"


def _invite(org: Org, **body) -> dict:
    body = {"email": "Lin@Example.com", "role": "maintainer", "gurus": ["python"], **body}
    response = actor_client(org, "admin").post("/api/invitations/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def _token(url: str) -> str:
    return parse_qs(urlparse(url).query)["token"][0]


def test_invite_accept_sign_in_and_manage_only_the_granted_guru(org: Org, smtp: LoopbackSMTPServer):
    invited = _invite(org)
    assert invited["email"] == "lin@example.com" and invited["email_sent"] is True

    [message] = smtp.wait_for(1)
    assert message["To"] == "lin@example.com"
    link = smtp.link(message)
    assert link == invited["url"]
    assert link.startswith("https://guru.example.com/console/accept-invitation?token=")

    browser, csrf = csrf_client()
    token = _token(link)
    looked_up = browser.post("/api/invitations/lookup/", {"token": token}, format="json")
    assert looked_up.json()["role"] == "maintainer"

    weak = browser.post(
        "/api/invitations/accept/",
        {"token": token, "password": "12345678"},
        format="json",
        HTTP_X_CSRFTOKEN=csrf,
    )
    assert weak.status_code == 400 and weak.json()["code"] == "invalid_input"
    assert "too common" in weak.json()["msg"] or "too short" in weak.json()["msg"]

    accepted = browser.post(
        "/api/invitations/accept/",
        {"token": token, "password": GOOD_PASSWORD},
        format="json",
        HTTP_X_CSRFTOKEN=csrf,
    )
    assert accepted.status_code == 201, accepted.content
    again = browser.post(
        "/api/invitations/accept/",
        {"token": token, "password": GOOD_PASSWORD},
        format="json",
        HTTP_X_CSRFTOKEN=csrf,
    )
    assert again.status_code == 400 and again.json()["code"] == "link_invalid"  # one use

    signed_in = browser.post(
        "/api/auth/login/",
        {"username": "lin@example.com", "password": GOOD_PASSWORD},
        format="json",
        HTTP_X_CSRFTOKEN=csrf,
    )
    assert signed_in.status_code == 200, signed_in.content
    csrf = browser.cookies["csrftoken"].value
    own = browser.patch("/api/gurus/python/", {"name": "Py"}, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert own.status_code == 200
    assert "custom_instruction" in browser.get("/api/gurus/python/").json()  # its settings
    other = browser.patch("/api/gurus/other/", {"name": "X"}, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert other.status_code == 403
    assert "custom_instruction" not in browser.get("/api/gurus/other/").json()
    assert browser.get("/api/members/").status_code == 403


def test_an_expired_or_revoked_invitation_does_not_work(org: Org, smtp: LoopbackSMTPServer):
    expired = _token(_invite(org)["url"])
    Invitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    revoked = _invite(org, email="kim@example.com")
    admin = actor_client(org, "admin")
    assert admin.delete(f"/api/invitations/{revoked['id']}/").status_code == 204
    assert admin.get("/api/invitations/").json() == []

    browser, csrf = csrf_client()
    for token in (expired, _token(revoked["url"]), "made-up"):
        response = browser.post(
            "/api/invitations/accept/",
            {"token": token, "password": GOOD_PASSWORD},
            format="json",
            HTTP_X_CSRFTOKEN=csrf,
        )
        assert response.status_code == 400 and response.json()["code"] == "link_invalid"


def test_accepting_needs_the_csrf_token(org: Org, smtp: LoopbackSMTPServer):
    token = _token(_invite(org)["url"])
    browser, _ = csrf_client()
    body = {"token": token, "password": GOOD_PASSWORD}
    forged = browser.post("/api/invitations/accept/", body, format="json")
    assert forged.status_code == 403


def test_a_mail_server_that_is_down_leaves_the_link_with_the_admin(org: Org, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 2
    invited = _invite(org)
    assert invited["email_sent"] is False and "token=" in invited["url"]


@pytest.mark.parametrize("existing", ["max@example.com"])
def test_inviting_someone_who_is_a_member_already_is_a_conflict(org: Org, existing, smtp):
    org.maintainer.username = existing
    org.maintainer.save()
    response = actor_client(org, "admin").post(
        "/api/invitations/", {"email": existing, "role": "member"}, format="json"
    )
    assert response.status_code == 409
