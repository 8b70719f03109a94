"""The console's Zendesk form in Chromium against the real backend and the loopback Zendesk
stand-in: an admin adds one section of a help center with an agent's email and API token,
watches it index, replaces the token with a wrong one and sees the run fail with why, the
chunks kept; no token comes back to the page. Indexed by the eager Celery of the test
settings."""

from collections.abc import Iterator

import pytest
from openguru.sources.models import DataSource

from tests.browser.console_connectors import add_then_replace_token
from tests.browser.console_site import (  # noqa: F401
    Console,
    console,
    console_site,
    staff,
    trusts_console,
)
from tests.browser.qa.conftest import tab  # noqa: F401
from tests.fakes.zendesk_api import FakeArticle, FakeZendeskApi
from tests.gurus.helpers import guru_make

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

SLUG, EMAIL, TOKEN = "help-guide", "agent@acme.test", "zd-console-0123456789"


@pytest.fixture
def zendesk() -> Iterator[FakeZendeskApi]:
    with FakeZendeskApi(email=EMAIL, token=TOKEN) as server:
        server.add(
            FakeArticle(
                1,
                "Reset a ferret password",
                "<p>Passwords are reset from the account page.</p>"
                '<h2 id="h_01HLOCKED">When the account is locked</h2>'
                "<p>A locked ferret account unlocks after the burrow question.</p>",
                "2025-03-01T10:00:00Z",
            )
        )
        server.add(FakeArticle(2, "Billing", "<p>Invoices go out monthly.</p>", "2025-02-01", 200))
        server.page_size_max = 1
        yield server


def test_an_admin_adds_a_help_center_section_with_a_token(
    console: Console,  # noqa: F811
    zendesk: FakeZendeskApi,
) -> None:
    guru_make(slug=SLUG, name="Help guide")

    def fill(page) -> None:
        page.get_by_label("Zendesk subdomain or URL").fill(zendesk.url)
        page.get_by_label("Locale").fill("en-us")
        page.get_by_label("Section ids").fill("100")
        page.get_by_label("Agent email").fill(EMAIL)
        page.get_by_label("Token").fill(TOKEN)

    seen = console.browser.run(
        lambda: add_then_replace_token(
            console,
            slug=SLUG,
            button="Zendesk",
            fill=fill,
            axe="zendesk",
            token_label=f"New token for {zendesk.url}",
            wrong_token="zd-wrong",
        ),
        timeout=400,
    )

    assert TOKEN not in seen["html"]
    assert "Zendesk refused the token (401)" in seen["failed"] and "zd-wrong" not in seen["failed"]
    assert "Zendesk" in seen["row"] and "1 of 1 article fetched" in seen["row"]
    source = DataSource.objects.get(guru__slug=SLUG)
    # Added and indexed, then failed on the wrong token with its chunks kept.
    assert (source.type, source.status, source.chunk_count) == ("zendesk", "FAILED", 2)
    assert source.options == {"locale": "en-us", "section_ids": [100], "email": EMAIL}
    assert source.credential and TOKEN not in source.credential
    assert {r.path for r in zendesk.listings()} == {
        "/api/v2/help_center/en-us/sections/100/articles"
    }
