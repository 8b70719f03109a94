"""The console's GitHub issues form in Chromium against the real backend and the loopback
GitHub stand-in: an admin adds a repository's closed bug issues with a token, watches it index,
replaces the token with a wrong one and sees the run fail with why; no token comes back to the
page. Indexed by the eager Celery of the test settings."""

from collections.abc import Iterator

import pytest
from openguru.sources.models import DataSource
from pytest_django.fixtures import Settings

from tests.browser.console_site import (  # noqa: F401
    Console,
    console,
    console_site,
    sign_in,
    staff,
    trusts_console,
)
from tests.browser.qa.conftest import chromium, live_api, tab  # noqa: F401
from tests.fakes.github_api import FakeComment, FakeGitHubApi, FakeIssue
from tests.gurus.helpers import guru_make

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

SLUG, TOKEN, SLOW_MS = "issues-guide", "github_pat_console0123456789", 120_000


@pytest.fixture
def github(settings: Settings) -> Iterator[FakeGitHubApi]:
    with FakeGitHubApi(owner="octo", repo="guide", token=TOKEN) as server:
        server.issues[1] = FakeIssue(
            1,
            "Crash on startup with ferret mode",
            "The server crashes at startup when ferret mode is on.",
            "2025-03-01T10:00:00Z",
            state="closed",
            labels=["bug"],
            comments=[FakeComment(101, "Set FERRET_MODE=calm in the config; the crash is gone.")],
        )
        server.issues[2] = FakeIssue(2, "Dark mode", "Please add a dark theme.", "2025-02-01")
        settings.GITHUB_API_URL = server.url
        yield server


def test_an_admin_adds_closed_bug_issues_with_a_token(
    console: Console,  # noqa: F811
    github: FakeGitHubApi,
) -> None:
    guru_make(slug=SLUG, name="Issues guide")
    view = console.tab

    def add_issues() -> dict:
        page = view.page
        page.goto(f"{console.origin}/console/gurus/{SLUG}/sources")
        sign_in(page, console.staff)
        page.wait_for_url(f"**/console/gurus/{SLUG}/sources")
        page.get_by_role("button", name="GitHub issues", exact=True).click()
        page.get_by_label("GitHub repository URL").fill("https://github.com/octo/guide")
        page.get_by_label("Token").fill(TOKEN)
        page.get_by_label("State").select_option("closed")
        page.get_by_label("Labels").fill("bug")
        view.axe("github-issues")
        page.get_by_role("button", name="Add source").click()
        page.locator("tr[data-status=SUCCESS]").wait_for(timeout=SLOW_MS)
        added = {
            "html": page.content(),
            "row": page.locator("tr[data-status=SUCCESS]").inner_text(),
        }
        # A wrong token in its place: the run fails and says why; the token is not shown back.
        page.get_by_text("Replace token").click()
        page.get_by_label("New token for https://github.com/octo/guide").fill("github_pat_wrong")
        page.get_by_role("button", name="Save token").click()
        page.locator("tr[data-status=FAILED]").wait_for(timeout=SLOW_MS)
        return {**added, "failed": page.locator("tr[data-status=FAILED]").inner_text()}

    seen = console.browser.run(add_issues, timeout=400)
    assert TOKEN not in seen["html"]
    assert "401" in seen["failed"] and "github_pat_wrong" not in seen["failed"]
    assert "GitHub issues" in seen["row"]
    source = DataSource.objects.get(guru__slug=SLUG)
    # Added and indexed, then failed on the wrong token with its chunks kept.
    assert (source.type, source.status, source.chunk_count) == ("github_issues", "FAILED", 2)
    assert source.options["state"] == "closed" and source.options["labels"] == ["bug"]
    assert source.credential and TOKEN not in source.credential
    assert {r.path for r in github.requests if r.path.endswith("/comments")} == {
        "/repos/octo/guide/issues/1/comments"
    }
