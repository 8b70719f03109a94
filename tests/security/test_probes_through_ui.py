"""The probes that go through the UI: `next dev` on a port of its own (not 3000) in front of the
ASGI app, both configured as `make run UI_PORT=<port>` configures them (SITE_URL from the
port, the API's CSRF origins from SITE_URL, no trusted proxy)."""

from collections.abc import Iterator

import httpx
import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from openguru.answers.models import Question
from openguru.gurus.models import Guru

from tests.browser.next_site import NextSite
from tests.browser.qa.helpers import PageHead
from tests.security.make_run import make_run_settings
from tests.security.probes import (
    WRONG,
    ask,
    asks_with_made_up_addresses,
    console_sign_in,
    form_sign_in,
)

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "the right and long passphrase"


@pytest.fixture
def ui(next_dev: NextSite, django_db_blocker) -> NextSite:
    with django_db_blocker.unblock():
        return next_dev.serve("/console/sign-in", "/g/python/q", "/api/auth/session/")


@pytest.fixture
def as_make_run(settings, ui: NextSite) -> Iterator[None]:
    made = make_run_settings(api_port=int(ui.api_origin.rsplit(":", 1)[1]), ui_port=ui.port)
    assert made["SITE_URL"] == ui.origin  # what NextSite gives the UI, as run_embedded does
    settings.TRUSTED_PROXIES = made["TRUSTED_PROXIES"]
    settings.CSRF_TRUSTED_ORIGINS = made["CSRF_TRUSTED_ORIGINS"]
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def staff(transactional_db) -> str:
    get_user_model().objects.create_user("ada", password=PASSWORD, is_staff=True)
    return "ada"


def test_sign_in_and_save_a_guru_through_the_ui(ui, python_guru: Guru, staff, as_make_run):
    origin = {"Origin": ui.origin}
    with httpx.Client(base_url=ui.origin, timeout=60) as browser:
        browser.get("/api/auth/session/")
        signed_in = browser.post(
            "/api/auth/login/",
            json={"username": staff, "password": PASSWORD},
            headers={"X-CSRFToken": browser.cookies["csrftoken"], **origin},
        )
        assert signed_in.status_code == 200, signed_in.text
        saved = browser.patch(
            "/api/gurus/python/",
            json={"name": "Python 3"},
            headers={"X-CSRFToken": browser.cookies["csrftoken"], **origin},
        )
    assert saved.status_code == 200, saved.text
    python_guru.refresh_from_db()
    assert python_guru.name == "Python 3"


def test_the_sign_in_page_posts_its_form_without_javascript(ui, staff, as_make_run):
    page = httpx.get(f"{ui.origin}/console/sign-in?next=/console/keys", timeout=60).text
    assert 'method="post"' in page and 'action="/api/auth/login/"' in page
    assert 'name="password"' in page

    signed_in = form_sign_in(ui.origin, staff, PASSWORD, origin=ui.origin)
    assert signed_in.status_code == 303
    assert signed_in.headers["location"] == "/console/keys"
    assert "sessionid" in signed_in.cookies

    wrong = form_sign_in(ui.origin, staff, WRONG, origin=ui.origin)
    assert wrong.status_code == 303
    back = httpx.get(f"{ui.origin}{wrong.headers['location']}", timeout=60).text
    assert "Wrong username or password." in back


def test_made_up_addresses_through_the_ui_do_not_reset_a_quota(ui, python_guru: Guru, as_make_run):
    Guru.objects.filter(pk=python_guru.pk).update(anonymous_asks_per_hour=2)
    assert asks_with_made_up_addresses(ui.origin) == [200, 200, 429, 429, 429]


def test_made_up_addresses_through_the_ui_do_not_reset_the_sign_in_lockout(ui, staff, as_make_run):
    for i in range(10):
        claim = {"X-Forwarded-For": f"203.0.113.{i}", "X-Real-IP": f"203.0.113.{i}"}
        headers = {"Origin": ui.origin, **claim}
        assert console_sign_in(ui.origin, staff, WRONG, headers=headers).status_code == 400
    blocked = console_sign_in(ui.origin, staff, PASSWORD, headers={"Origin": ui.origin})
    assert blocked.status_code == 429


def test_question_pages_name_the_uis_own_origin(ui, python_guru: Guru, live_api, as_make_run):
    assert ask(live_api).status_code == 200
    question = Question.objects.get()
    html = httpx.get(f"{ui.origin}/g/python/{question.slug}", timeout=60).text
    head = PageHead()
    head.feed(html)
    page = f"{ui.origin}/g/python/{question.slug}"
    assert head.canonical == page
    assert head.meta["og:url"] == page
