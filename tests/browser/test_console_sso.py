"""Single sign-on in Chromium: the console's sign-in page sends the browser to a real OpenID
Connect provider on loopback (the `oidc-provider` package under node), its sign-in and consent
pages send it back, and the claim mapping decides the role and the gurus shown. A person whose
claim maps to no role is refused in words; each outcome is in the audit log. With passwords
turned off the page offers single sign-on only. axe-core checks the sign-in page."""

from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from openguru.accounts.models import GuruGrant, Role
from openguru.core.audit.models import AuditEvent
from openguru.gurus.models import Guru

from tests.browser.console_site import (  # noqa: F401
    Console,
    console,
    console_site,
    staff,
    trusts_console,
)
from tests.browser.next_site import NextSite
from tests.browser.qa.conftest import tab  # noqa: F401
from tests.fakes.oidc_provider import LoopbackOidcProvider
from tests.gurus.helpers import guru_make

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

ACCOUNTS = {
    "kim": {"email": "Kim@Example.com", "name": "Kim", "groups": ["lion-keepers", "staff"]},
    "pat": {"email": "pat@example.com", "name": "Pat", "groups": ["visitors"]},
}


@pytest.fixture
def provider(console_site: NextSite, settings) -> Iterator[LoopbackOidcProvider]:  # noqa: F811
    callback = f"{console_site.origin}/api/auth/oidc/callback/"
    server = LoopbackOidcProvider(redirect_uri=callback, accounts=ACCOUNTS).start()
    try:
        for name, value in server.settings().items():
            setattr(settings, name, value)
        settings.SITE_URL = console_site.origin
        settings.OIDC_REDIRECT_URI = callback
        settings.SSO_ENABLED = True
        settings.SSO_BUTTON_LABEL = "Sign in with Loopback ID"
        settings.OIDC_ROLE_CLAIM = "groups"
        settings.OIDC_ROLE_MAP = {"lion-keepers": "maintainer", "staff": "member"}
        settings.OIDC_GURU_MAP = {"lion-keepers": ["lions", "no-such-guru"]}
        yield server
    finally:
        server.stop()


@pytest.fixture
def two_gurus(transactional_db) -> tuple[Guru, Guru]:
    return guru_make(slug="lions", name="Lions"), guru_make(slug="tigers", name="Tigers")


def provider_sign_in(page, login: str) -> None:
    """The provider's own (development) sign-in and consent pages."""
    page.locator("input[name=login]").fill(login)
    page.locator("input[name=password]").fill("any password")
    page.locator("button[type=submit]").click()
    page.get_by_role("button", name="Continue").click()


def test_sso_signs_in_with_the_mapped_role_and_gurus(
    console: Console,  # noqa: F811
    provider: LoopbackOidcProvider,
    two_gurus: tuple[Guru, Guru],
):
    view, origin = console.tab, console.origin

    def sign_in_with_sso() -> dict:
        page = view.page
        page.goto(f"{origin}/console/gurus/lions")
        page.wait_for_url("**/console/sign-in?next=**")
        page.get_by_role("link", name="Sign in with Loopback ID").wait_for()
        view.axe("sign-in-with-sso")
        page.get_by_role("link", name="Sign in with Loopback ID").click()
        page.wait_for_url(f"{provider.issuer}/**")
        provider_sign_in(page, "kim")
        page.wait_for_url(f"{origin}/console/gurus/lions")
        page.get_by_role("navigation", name="Console").wait_for()
        page.goto(f"{origin}/console")
        gurus = page.get_by_role("table", name="Gurus")
        gurus.locator("tr[data-guru=lions]").wait_for()
        return {
            "shown": gurus.locator("tbody tr").evaluate_all("rows => rows.map(r => r.dataset.guru)")
        }

    seen = console.browser.run(sign_in_with_sso)
    assert seen["shown"] == ["lions"]
    kim = get_user_model().objects.get(username="kim@example.com")
    assert kim.membership.role == Role.MAINTAINER  # the highest role the groups map to
    assert not kim.has_usable_password()
    assert [g.guru.slug for g in GuruGrant.objects.filter(user=kim)] == ["lions"]
    [login] = AuditEvent.objects.filter(action="auth.login")
    assert (login.actor, login.actor_id) == ("kim@example.com", kim.pk)

    def refused() -> str:
        page = view.page
        page.context.clear_cookies()
        page.goto(f"{origin}/console/sign-in")
        page.get_by_role("link", name="Sign in with Loopback ID").click()
        provider_sign_in(page, "pat")
        page.wait_for_url(f"{origin}/console/sign-in?error=sso_failed")
        return page.get_by_role("form", name="Sign in").get_by_role("alert").inner_text()

    assert "Single sign-on did not let you in" in console.browser.run(refused)
    assert not get_user_model().objects.filter(username="pat@example.com").exists()
    [failed] = AuditEvent.objects.filter(action="auth.login_failed")
    assert failed.actor == "sso" and failed.after["method"] == "oidc"
    assert "no role is mapped to groups" in failed.after["reason"]
    assert view.errors == []
    assert view.a11y == {"sign-in-with-sso": []}


def test_passwords_off_leaves_only_sso(
    console: Console,  # noqa: F811
    provider: LoopbackOidcProvider,
    settings,
):
    settings.PASSWORD_SIGN_IN = False

    def sign_in_page() -> dict:
        page = console.tab.page
        page.goto(f"{console.origin}/console/sign-in")
        sso = page.get_by_role("link", name="Sign in with Loopback ID")
        sso.wait_for()
        return {
            "password_fields": page.get_by_label("Password").count(),
            "forms": page.get_by_role("form", name="Sign in").count(),
            "href": sso.get_attribute("href"),
        }

    seen = console.browser.run(sign_in_page)
    assert seen == {
        "password_fields": 0,
        "forms": 0,
        "href": "/api/auth/oidc/start/?next=%2Fconsole",
    }
