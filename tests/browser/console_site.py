"""What the admin console's browser tests share: the shared `next dev` warmed on the console's
routes (tests/live_servers.py), a staff user, and signing in through the page."""

from dataclasses import dataclass

import pytest
from benchmarks.chromium import BrowserThread
from django.contrib.auth import get_user_model
from playwright.sync_api import Page

from tests.browser.next_site import NextSite
from tests.browser.tab import Tab
from tests.security.make_run import make_run_settings

GURU_ROUTES = ("", "/sources", "/analytics", "/widget", "/integrations")
CONSOLE_ROUTES = (
    "/console/sign-in",
    "/console",
    "/console/gurus/new",
    *(f"/console/gurus/warm{path}" for path in GURU_ROUTES),
    "/console/api-keys",
    "/console/settings",
    "/console/members",
    "/console/audit",
    "/console/accept-invitation?token=warm",
    "/g/warm",
    # The first request through the /api rewrite is slow in `next dev` too.
    "/api/auth/session/",
)


@pytest.fixture
def console_site(next_dev: NextSite, django_db_blocker) -> NextSite:
    # `next dev` compiles each route on its first request: here, not inside a step's timeout.
    with django_db_blocker.unblock():
        return next_dev.serve(*CONSOLE_ROUTES)


@pytest.fixture
def trusts_console(settings, console_site: NextSite) -> None:
    """Django checks a signed-in request's Origin; the console's dev server is on a free port,
    so the API gets the CSRF origins `make run` derives for a UI on that port. (DRF builds its
    CSRF check per request, so the setting applies at once.)"""
    api_port = int(console_site.api_origin.rsplit(":", 1)[1])
    made = make_run_settings(api_port=api_port, ui_port=console_site.port)
    settings.CSRF_TRUSTED_ORIGINS = made["CSRF_TRUSTED_ORIGINS"]


@dataclass(frozen=True)
class Account:
    username: str
    password: str


@pytest.fixture
def staff(transactional_db) -> Account:
    account = Account("ada", "a long and unguessable passphrase")
    get_user_model().objects.create_user(
        username=account.username, password=account.password, is_staff=True
    )
    return account


def sign_in(page: Page, account: Account) -> None:
    """Fills the sign-in page the browser is on, and waits until the console has let it in."""
    page.get_by_label("Username").fill(account.username)
    page.get_by_label("Password").fill(account.password)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("navigation", name="Console").wait_for()


@dataclass(frozen=True)
class Console:
    """Everything a console test drives: the browser thread, its tab, both servers, the user."""

    browser: BrowserThread
    tab: Tab
    site: NextSite
    api: str
    staff: Account

    @property
    def origin(self) -> str:
        return self.site.origin


@pytest.fixture
def console(
    chromium: BrowserThread,
    tab: Tab,
    console_site: NextSite,
    live_api: str,
    staff: Account,
    trusts_console: None,
) -> Console:
    # Each console step waits on the API (sign-in, creating a guru, indexing): on a busy shared
    # machine one of those can take longer than Playwright's usual 20 s.
    chromium.run(tab.page.set_default_timeout, 60_000)
    return Console(chromium, tab, console_site, live_api, staff)
