"""Password reset over real SMTP (follow the e-mailed link), and change when signed in; both
through Django's password validators."""

from urllib.parse import parse_qs, urlparse

from django.contrib.auth import get_user_model

from tests.accounts.conftest import PASSWORD, Org, csrf_client
from tests.fakes.smtp_server import LoopbackSMTPServer

NEW_PASSWORD = "violet harbour 42 lantern"


def _sign_in(username: str, password: str) -> int:
    browser, csrf = csrf_client()
    body = {"username": username, "password": password}
    return browser.post("/api/auth/login/", body, format="json", HTTP_X_CSRFTOKEN=csrf).status_code


def test_reset_by_the_emailed_link(org: Org, smtp: LoopbackSMTPServer):
    browser, csrf = csrf_client()
    asked = browser.post(
        "/api/auth/password/reset/", {"email": "MAX@example.com"}, format="json",
        HTTP_X_CSRFTOKEN=csrf,
    )  # fmt: skip
    assert asked.status_code == 202
    unknown = browser.post(
        "/api/auth/password/reset/", {"email": "who@example.com"}, format="json",
        HTTP_X_CSRFTOKEN=csrf,
    )  # fmt: skip
    assert unknown.status_code == 202  # the same answer: addresses cannot be probed

    [message] = smtp.wait_for(1)
    assert message["To"] == "max@example.com"
    link = urlparse(smtp.link(message))
    assert f"{link.scheme}://{link.netloc}{link.path}" == (
        "https://guru.example.com/console/reset-password"
    )
    query = {name: values[0] for name, values in parse_qs(link.query).items()}

    weak = browser.post(
        "/api/auth/password/reset/confirm/", {**query, "new_password": "password"},
        format="json", HTTP_X_CSRFTOKEN=csrf,
    )  # fmt: skip
    assert weak.status_code == 400 and weak.json()["code"] == "invalid_input"
    done = browser.post(
        "/api/auth/password/reset/confirm/", {**query, "new_password": NEW_PASSWORD},
        format="json", HTTP_X_CSRFTOKEN=csrf,
    )  # fmt: skip
    assert done.status_code == 204, done.content
    again = browser.post(
        "/api/auth/password/reset/confirm/", {**query, "new_password": NEW_PASSWORD + "!"},
        format="json", HTTP_X_CSRFTOKEN=csrf,
    )  # fmt: skip
    assert again.status_code == 400 and again.json()["code"] == "link_invalid"

    assert _sign_in("max", PASSWORD) == 400
    assert _sign_in("max", NEW_PASSWORD) == 200


def test_reset_requests_are_limited_per_client(org: Org, smtp: LoopbackSMTPServer):
    browser, csrf = csrf_client()
    statuses = [
        browser.post(
            "/api/auth/password/reset/",
            {"email": "who@example.com"},
            format="json",
            HTTP_X_CSRFTOKEN=csrf,
        ).status_code
        for _ in range(7)
    ]
    assert statuses[:5] == [202] * 5 and statuses[-1] == 429


def test_change_the_password_when_signed_in(org: Org):
    browser, csrf = csrf_client()
    body = {"username": "mia", "password": PASSWORD}
    signed_in = browser.post("/api/auth/login/", body, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert signed_in.status_code == 200
    csrf = browser.cookies["csrftoken"].value
    wrong = browser.post(
        "/api/auth/password/", {"old_password": "nope", "new_password": NEW_PASSWORD},
        format="json", HTTP_X_CSRFTOKEN=csrf,
    )  # fmt: skip
    assert wrong.status_code == 400 and wrong.json()["code"] == "invalid_credentials"
    similar = browser.post(
        "/api/auth/password/", {"old_password": PASSWORD, "new_password": "mia@example.com"},
        format="json", HTTP_X_CSRFTOKEN=csrf,
    )  # fmt: skip
    assert similar.status_code == 400  # too like the username (UserAttributeSimilarity)
    changed = browser.post(
        "/api/auth/password/", {"old_password": PASSWORD, "new_password": NEW_PASSWORD},
        format="json", HTTP_X_CSRFTOKEN=csrf,
    )  # fmt: skip
    assert changed.status_code == 204
    assert browser.get("/api/auth/session/").json()["authenticated"] is True  # still signed in
    assert get_user_model().objects.get(username="mia").check_password(NEW_PASSWORD)
