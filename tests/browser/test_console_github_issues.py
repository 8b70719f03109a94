"""The console's GitHub issues form in Chromium against the real backend and the loopback
GitHub stand-in: an admin adds a repository's closed bug issues with a token, watches it index,
replaces the token with a wrong one and sees the run fail with why; no token comes back to the
page. Indexed by the eager Celery of the test settings."""

from collections.abc import Iterator

import pytest
from openguru.sources.models import DataSource
from pytest_django.fixtures import Settings

from tests.browser.console_connectors import add_then_replace_token
from tests.browser.console_site import (  # noqa: F401
    Console,
    console,
    console_site,
    staff,
    trusts_console,
)
from tests.browser.qa.conftest import tab  # noqa: F401
from tests.fakes.github_api import FakeComment, FakeGitHubApi, FakeIssue
from tests.gurus.helpers import guru_make

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

SLUG, TOKEN = "issues-guide", "github_pat_console0123456789"


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

    def fill(page) -> None:
        page.get_by_label("GitHub repository URL").fill("https://github.com/octo/guide")
        page.get_by_label("Token").fill(TOKEN)
        page.get_by_label("State").select_option("closed")
        page.get_by_label("Labels").fill("bug")

    seen = console.browser.run(
        lambda: add_then_replace_token(
            console,
            slug=SLUG,
            button="GitHub issues",
            fill=fill,
            axe="github-issues",
            token_label="New token for https://github.com/octo/guide",
            wrong_token="github_pat_wrong",
        ),
        timeout=400,
    )

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
