"""The console's Confluence form in Chromium against the real backend and the loopback
Confluence Cloud stand-in: an admin adds a space with an email and an API token, watches it
index, replaces the token with a wrong one and sees the run fail with why, its chunks kept; no
token comes back to the page. Indexed by the eager Celery of the test settings."""

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
from tests.fakes.confluence_api import FakeConfluenceApi, FakePage
from tests.gurus.helpers import guru_make

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

SLUG, TOKEN, EMAIL = "wiki-guide", "ATATT3xconsole0123456789", "ops@example.com"


@pytest.fixture
def confluence() -> Iterator[FakeConfluenceApi]:
    with FakeConfluenceApi(deployment="cloud", token=TOKEN, email=EMAIL) as server:
        server.add_space("OPS", "98306")
        server.add_page(
            FakePage(
                "101",
                "OPS",
                "Operations",
                "<h2>Rotate the keys</h2><p>Run the rotate-keys command every Monday morning.</p>",
            )
        )
        server.add_page(
            FakePage(
                "102",
                "OPS",
                "Hiring",
                "<h2>Interviews</h2><p>Every candidate meets two engineers and a manager.</p>",
                parent_id="101",
            )
        )
        yield server


def test_an_admin_adds_a_confluence_space_and_replaces_its_token(
    console: Console,  # noqa: F811
    confluence: FakeConfluenceApi,
) -> None:
    guru_make(slug=SLUG, name="Wiki guide")
    own_link = f"{confluence.base_url}/spaces/OPS"

    def fill(page) -> None:
        page.get_by_label("Deployment").select_option("cloud")
        page.get_by_label("Confluence base URL").fill(confluence.base_url)
        page.get_by_label("Space key").fill("OPS")
        page.get_by_label("Email").fill(EMAIL)
        page.get_by_label("Token").fill(TOKEN)

    seen = console.browser.run(
        lambda: add_then_replace_token(
            console,
            slug=SLUG,
            button="Confluence",
            fill=fill,
            axe="confluence",
            token_label=f"New token for {own_link}",
            wrong_token="ATATT-wrong",
        ),
        timeout=400,
    )

    assert TOKEN not in seen["html"]
    assert "401" in seen["failed"] and "ATATT-wrong" not in seen["failed"]
    assert "Confluence" in seen["row"] and "2 pages" in seen["row"]
    source = DataSource.objects.get(guru__slug=SLUG)
    # Added and indexed, then failed on the wrong token with its chunks kept.
    assert (source.type, source.status, source.chunk_count) == ("confluence", "FAILED", 2)
    assert source.url == own_link and source.options["email"] == EMAIL
    assert source.credential and TOKEN not in source.credential
    assert {r.path for r in confluence.requests if "/api/v2/pages/" in r.path} == {
        "/wiki/api/v2/pages/101",
        "/wiki/api/v2/pages/102",
        "/wiki/api/v2/pages/101/attachments",
        "/wiki/api/v2/pages/102/attachments",
    }
