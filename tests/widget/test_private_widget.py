"""A private guru's widget answers only with an identity token that the embedding site signed
with the widget id's secret (HMAC-SHA256 of "<user id>:<expires>"); without one, or with a
wrong, expired or too long-lived one, every widget call is a 401 with a code saying which."""

import time

import pytest
from openguru.core.audit.models import AuditEvent
from openguru.gurus.models import Guru, Visibility
from openguru.integrations.models import WidgetId
from openguru.integrations.widget.services import widget_id_create, widget_secret_rotate
from openguru.integrations.widget.tokens import MAX_LIFETIME, widget_token_make
from rest_framework.test import APIClient

from tests.accounts.conftest import make_guru, make_person
from tests.widget.conftest import SITE

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_guru(db) -> Guru:
    guru = make_guru("secret-docs")
    guru.visibility = Visibility.PRIVATE
    guru.save()
    return guru


@pytest.fixture
def signed(private_guru: Guru) -> tuple[WidgetId, str]:
    widget = widget_id_create(guru=private_guru, domain_pattern=SITE)
    _, secret = widget_secret_rotate(guru=private_guru, widget_id=widget.pk)
    return widget, secret


def _guru_call(widget: WidgetId, token: str | None = None):
    headers = {"HTTP_AUTHORIZATION": widget.key, "HTTP_ORIGIN": SITE}
    if token is not None:
        headers["HTTP_X_WIDGET_TOKEN"] = token
    return APIClient().get("/api/widget/guru/", **headers)


def _token(secret: str, *, expires_in: float, user_id: str = "user-42") -> str:
    return widget_token_make(secret=secret, user_id=user_id, expires=int(time.time() + expires_in))


def test_a_valid_token_opens_the_private_widget(signed):
    widget, secret = signed
    response = _guru_call(widget, _token(secret, expires_in=300))
    assert response.status_code == 200, response.content
    assert response.json()["slug"] == "secret-docs"
    # Its default icon is inlined: the icon's address answers no one without credentials.
    assert response.json()["icon_url"].startswith("data:image/svg+xml;base64,")
    assert APIClient().get("/api/gurus/secret-docs/icon.svg").status_code == 404


@pytest.mark.parametrize(
    ("token", "code"),
    [
        (None, "widget_token_required"),
        ("", "widget_token_required"),
        ("not a token", "widget_token_invalid"),
        ("123.abc", "widget_token_invalid"),
    ],
)
def test_a_missing_or_malformed_token_is_refused(signed, token, code):
    response = _guru_call(signed[0], token)
    assert response.status_code == 401
    assert response.json()["code"] == code


def test_an_expired_token_is_refused(signed):
    widget, secret = signed
    response = _guru_call(widget, _token(secret, expires_in=-1))
    assert response.status_code == 401
    assert response.json()["code"] == "widget_token_expired"


def test_a_token_signed_with_another_secret_is_refused(signed, private_guru):
    widget, _ = signed
    other = widget_id_create(guru=private_guru, domain_pattern=SITE)
    _, other_secret = widget_secret_rotate(guru=private_guru, widget_id=other.pk)
    forged = _token(other_secret, expires_in=300)
    response = _guru_call(widget, forged)
    assert response.status_code == 401
    assert response.json()["code"] == "widget_token_invalid"
    # The user id is signed too: changing it breaks the signature.
    good = _token(signed[1], expires_in=300, user_id="alice")
    assert _guru_call(widget, good.replace(".alice", ".mallory")).json()["code"] == (
        "widget_token_invalid"
    )


def test_a_token_that_lives_too_long_is_refused(signed):
    widget, secret = signed
    response = _guru_call(widget, _token(secret, expires_in=MAX_LIFETIME + 120))
    assert response.status_code == 401
    assert response.json()["code"] == "widget_token_invalid"


def test_a_rotated_secret_retires_the_old_tokens(signed, private_guru):
    widget, old_secret = signed
    old_token = _token(old_secret, expires_in=300)
    widget_secret_rotate(guru=private_guru, widget_id=widget.pk)
    assert _guru_call(widget, old_token).json()["code"] == "widget_token_invalid"


def test_a_widget_id_without_a_secret_opens_nothing(private_guru):
    widget = widget_id_create(guru=private_guru, domain_pattern=SITE)
    forged = widget_token_make(secret="", user_id="u", expires=int(time.time() + 60))
    assert _guru_call(widget, forged).json()["code"] == "widget_token_invalid"


def test_a_public_gurus_widget_needs_no_token(db):
    widget = widget_id_create(guru=make_guru("open-docs"), domain_pattern=SITE)
    assert _guru_call(widget).status_code == 200


def test_maintainers_make_the_secret_which_is_shown_once_and_audited(private_guru, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    maintainer = make_person("max", "maintainer", [private_guru])
    client = APIClient()
    client.force_login(maintainer)
    base = "/api/gurus/secret-docs/widget-ids/"
    created = client.post(base, {"domain_pattern": SITE}, format="json").json()
    assert created["secret_set"] is False and "secret" not in created
    made = client.post(f"{base}{created['id']}/secret/")
    assert made.status_code == 200
    secret = made.json()["secret"]
    listed = client.get(base).json()
    assert listed[0]["secret_set"] is True and secret not in str(listed)
    assert WidgetId.objects.get(pk=created["id"]).secret != secret  # kept encrypted
    event = AuditEvent.objects.filter(action="widget_id.secret").get()
    assert event.actor == "max" and secret not in str(event.after)
    widget = WidgetId.objects.get(pk=created["id"])
    assert _guru_call(widget, _token(secret, expires_in=60)).status_code == 200
