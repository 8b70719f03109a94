"""The holes an attacker found on a fresh `make run`, each replayed against the ASGI app under
uvicorn (what `make run` serves), with the settings `make run` gives it. Each must stay shut."""

import json
import time
from collections.abc import Iterator
from uuid import uuid4

import httpx
import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from git import Repo
from openguru.gurus.models import Guru
from openguru.integrations.apikeys.services import admin_token_owner, api_key_create
from openguru.integrations.models import Integration, WidgetId
from openguru.integrations.widget.services import widget_id_create
from openguru.sources.models import DataSource

from tests.api_v1.test_github_webhook import push_payload, repo_url, sign
from tests.bots.conftest import SIGNING_SECRET, TEAM
from tests.security.make_run import make_run_settings
from tests.security.probes import (
    WRONG,
    admin_sign_in,
    announce_huge_upload,
    asks_with_made_up_addresses,
    console_sign_in,
    deep_json,
    form_sign_in,
    json_body,
    post_raw,
    slack_signed,
)

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "the right and long passphrase"
UI_PORT, API_PORT = 13100, 18100
UI = f"http://127.0.0.1:{UI_PORT}"


@pytest.fixture
def as_make_run(settings) -> Iterator[None]:
    """The API configured as `make run UI_PORT=13100 API_PORT=18100` configures it; counters
    from zero."""
    made = make_run_settings(api_port=API_PORT, ui_port=UI_PORT)
    settings.TRUSTED_PROXIES = made["TRUSTED_PROXIES"]
    settings.CSRF_TRUSTED_ORIGINS = made["CSRF_TRUSTED_ORIGINS"]
    cache.clear()
    yield
    cache.clear()  # later tests of this process sign in from this same loopback address


@pytest.fixture
def staff(transactional_db) -> str:
    get_user_model().objects.create_superuser("root", "root@localhost", PASSWORD)
    return "root"


def test_make_run_trusts_its_ui_origin_and_no_proxy(as_make_run):
    made = make_run_settings(api_port=API_PORT, ui_port=UI_PORT)
    assert made["SITE_URL"] == UI
    assert UI in made["CSRF_TRUSTED_ORIGINS"]
    assert made["TRUSTED_PROXIES"] == []


def test_wrong_admin_passwords_lock_the_admin_sign_in(live_asgi, staff, as_make_run):
    with httpx.Client(timeout=60) as browser:
        for _ in range(12):
            assert not admin_sign_in(live_asgi, staff, WRONG, browser)
        assert not admin_sign_in(live_asgi, staff, PASSWORD, browser)
        locked = browser.get(f"{live_asgi}/admin/login/")
    assert "sessionid" not in browser.cookies
    assert locked.status_code == 200
    cache.clear()  # the window ends: the right password works again
    with httpx.Client(timeout=60) as browser:
        assert admin_sign_in(live_asgi, staff, PASSWORD, browser)


def test_made_up_addresses_do_not_reset_the_sign_in_lockout(live_asgi, staff, as_make_run):
    for i in range(10):
        claim = {"X-Forwarded-For": f"203.0.113.{i}", "X-Real-IP": f"203.0.113.{i}"}
        assert console_sign_in(live_asgi, staff, WRONG, headers=claim).status_code == 400

    blocked = console_sign_in(live_asgi, staff, PASSWORD, headers={"X-Forwarded-For": "192.0.2.9"})
    assert blocked.status_code == 429
    assert blocked.json()["code"] == "rate_limited"


def test_many_clients_guessing_one_account_lock_it(live_asgi, staff, as_make_run, settings):
    """Behind a trusted proxy (nginx on this host) each guess comes from a real, different
    client: the account itself is throttled."""
    settings.TRUSTED_PROXIES = ["127.0.0.1/32"]
    for i in range(settings.SIGN_IN_FAILURES_PER_ACCOUNT):
        claim = {"X-Forwarded-For": f"203.0.113.{i}"}
        assert console_sign_in(live_asgi, staff, WRONG, headers=claim).status_code == 400
    fresh_client = {"X-Forwarded-For": "192.0.2.200"}
    assert console_sign_in(live_asgi, staff, PASSWORD, headers=fresh_client).status_code == 429


def test_made_up_addresses_do_not_reset_an_anonymous_quota(
    live_asgi,
    python_guru,
    as_make_run,
):
    Guru.objects.filter(pk=python_guru.pk).update(anonymous_asks_per_hour=2)
    assert asks_with_made_up_addresses(live_asgi) == [200, 200, 429, 429, 429]


def test_made_up_addresses_vote_once(live_asgi, python_guru, as_make_run):
    asked = httpx.post(
        f"{live_asgi}/api/gurus/python/answer/",
        json={"question": "How do I create a virtual environment?"},
        timeout=60,
    )
    assert asked.status_code == 200, asked.text
    url = f"{live_asgi}/api/gurus/python/questions/{asked.json()['slug']}/vote/"
    for i in range(5):
        claim = {"X-Forwarded-For": f"198.51.100.{i}", "X-Real-IP": f"198.51.100.{i}"}
        voted = httpx.post(url, json={"vote_type": "upvote"}, headers=claim, timeout=60)
        assert voted.status_code == 200
    assert voted.json()["upvotes"] == 1


def test_the_sign_in_form_posts_without_javascript(live_asgi, staff, as_make_run):
    signed_in = form_sign_in(live_asgi, staff, PASSWORD, origin=UI)
    assert signed_in.status_code == 303
    assert signed_in.headers["location"] == "/console/keys"
    assert "sessionid" in signed_in.cookies

    wrong = form_sign_in(live_asgi, staff, WRONG, origin=UI)
    assert wrong.status_code == 303
    assert wrong.headers["location"].startswith("/console/sign-in?error=invalid_credentials")
    assert WRONG.split()[0] not in wrong.headers["location"]  # the password is in no URL

    for forged in (None, "https://evil.example.net"):
        refused = form_sign_in(live_asgi, staff, PASSWORD, origin=forged)
        assert refused.status_code == 403
        assert refused.json()["code"] == "permission_denied"
        assert "sessionid" not in refused.cookies


def test_a_widget_origin_is_matched_with_its_port(live_asgi, python_guru):
    key = widget_id_create(guru=python_guru, domain_pattern="https://docs.example.com").key
    for origin, allowed in (
        ("https://docs.example.com", True),
        ("https://docs.example.com:8443", False),
    ):
        preflight = httpx.options(
            f"{live_asgi}/api/widget/guru/",
            headers={"Origin": origin, "Access-Control-Request-Method": "GET"},
        )
        granted = preflight.headers.get("access-control-allow-origin") == origin
        assert granted is allowed, origin
        asked = httpx.get(
            f"{live_asgi}/api/widget/guru/", headers={"Origin": origin, "Authorization": key}
        )
        assert (asked.status_code == 200) is allowed, origin


def test_a_widget_id_with_no_domain_grants_no_site(live_asgi, python_guru):
    key = WidgetId.objects.create(guru=python_guru, key=uuid4().hex, domain_pattern="").key
    origin = "https://anywhere.example.net"
    preflight = httpx.options(
        f"{live_asgi}/api/widget/ask/",
        headers={"Origin": origin, "Access-Control-Request-Method": "POST"},
    )
    assert "access-control-allow-origin" not in preflight.headers
    asked = httpx.get(
        f"{live_asgi}/api/widget/guru/", headers={"Origin": origin, "Authorization": key}
    )
    assert asked.status_code == 401
    assert asked.json()["code"] == "not_authenticated"


def test_deeply_nested_json_is_a_400(live_asgi, python_guru):
    widget = widget_id_create(guru=python_guru, domain_pattern="https://docs.example.com")
    page = {"Authorization": widget.key, "Origin": "https://docs.example.com"}
    for path, headers in (("/api/gurus/python/answer/", {}), ("/api/widget/ask/", page)):
        for depth in (100_000, 100):
            response = post_raw(f"{live_asgi}{path}", deep_json(depth), headers)
            assert response.status_code == 400, (path, depth, response.text[:200])
            assert response.json()["code"] == "malformed_json"


def test_a_slack_timestamp_that_is_no_number_is_a_401(
    live_asgi,
    slack: Integration,
):
    body = json.dumps({"type": "event_callback", "team_id": TEAM, "event": {}}).encode()
    for stamp in ("abc", "1e9", "-5"):
        headers = {
            "Content-Type": "application/json",
            **slack_signed(body, secret=SIGNING_SECRET, timestamp=stamp),
        }
        response = httpx.post(f"{live_asgi}/api/slack/events/", content=body, headers=headers)
        assert response.status_code == 401, (stamp, response.text[:200])
        assert response.json()["code"] == "not_authenticated"
    fresh = slack_signed(body, secret=SIGNING_SECRET, timestamp=str(int(time.time())))
    signed = httpx.post(
        f"{live_asgi}/api/slack/events/",
        content=body,
        headers={"Content-Type": "application/json", **fresh},
    )
    assert signed.status_code == 200


def test_a_25_digit_source_id_is_a_400(live_asgi, python_guru):
    _, key = api_key_create(user=admin_token_owner(), name="probe")
    base = f"{live_asgi}/api/v1/python/data-sources"
    headers = {"X-API-KEY": key}
    huge = 10**24
    deleted = httpx.request("DELETE", f"{base}/", json={"ids": [huge]}, headers=headers)
    reindexed = httpx.post(f"{base}/reindex/", json={"ids": [huge]}, headers=headers)
    for response in (deleted, reindexed):
        assert response.status_code == 400, response.text[:200]
        assert response.json()["code"] == "invalid_input"
    assert DataSource.objects.filter(guru=python_guru).count() == 3


def test_a_huge_upload_is_refused_before_its_body_is_read(live_asgi, python_guru):
    started = time.monotonic()
    answer = announce_huge_upload(
        live_asgi, "/api/v1/python/data-sources/", length=60 * 1024**3, timeout=10
    )
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert time.monotonic() - started < 5
    assert json_body(answer)["code"] == "request_too_large"


def test_a_chunked_body_past_the_cap_is_refused(live_asgi, settings):
    settings.REQUEST_BODY_MAX_BYTES = 64 * 1024

    def chunks() -> Iterator[bytes]:
        for _ in range(64):
            yield b"x" * 4096

    response = httpx.post(
        f"{live_asgi}/api/gurus/python/answer/",
        content=chunks(),
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    assert response.status_code == 413
    assert response.json()["code"] == "request_too_large"


def test_a_replayed_github_delivery_is_taken_once(
    live_asgi,
    guru: Guru,
    repo: Repo,
    source: DataSource,
):
    raw = json.dumps(push_payload(repo_url(repo))).encode()
    headers = {
        "Content-Type": "application/json",
        "X-GitHub-Event": "push",
        "X-GitHub-Delivery": str(uuid4()),
        "X-Hub-Signature-256": sign(raw),
    }
    url = f"{live_asgi}/api/v1/widgets/webhooks/github/"
    first = httpx.post(url, content=raw, headers=headers, timeout=120)
    assert first.status_code == 200, first.text
    assert first.json()["ids"] == [source.pk]
    replayed = httpx.post(url, content=raw, headers=headers, timeout=120)
    assert replayed.status_code == 200
    assert replayed.json()["ids"] == []
    assert "taken before" in replayed.json()["msg"]
    source.refresh_from_db()
    assert source.reindex_count == 1
    unnamed = httpx.post(url, content=raw, headers={**headers, "X-GitHub-Delivery": ""}, timeout=60)
    assert unnamed.status_code == 400
