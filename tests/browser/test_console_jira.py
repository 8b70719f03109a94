"""The console's Jira form in Chromium against the real backend and the loopback Jira Cloud
stand-in: an admin adds a project's issues by JQL with an email and an API token, watches it
index, replaces the token with a wrong one and sees the run fail with why, its chunks kept; no
token comes back to the page. Indexed by the eager Celery of the test settings."""

import re
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
from tests.fakes.jira_api import FakeJiraApi, FakeJiraComment, FakeJiraIssue, adf
from tests.gurus.helpers import guru_make

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

SLUG = "jira-guide"
EMAIL, TOKEN = "ada@example.com", "ATATT3xConsole0123456789"


@pytest.fixture
def jira() -> Iterator[FakeJiraApi]:
    with FakeJiraApi(deployment="cloud", email=EMAIL, token=TOKEN) as server:
        server.issues["DOCS-1"] = FakeJiraIssue(
            "DOCS-1",
            "Crash on startup with ferret mode",
            adf("The server crashes at startup when ferret mode is on."),
            "2025-03-01T10:00:00.000+0000",
            status="Done",
            comments=[FakeJiraComment(10100, adf("Set FERRET_MODE=calm; the crash is gone."))],
        )
        server.issues["OPS-1"] = FakeJiraIssue(
            "OPS-1", "Pager", adf("Weekly."), "2025-02-01T10:00:00.000+0000"
        )
        yield server


def test_an_admin_adds_jira_issues_by_jql_with_an_api_token(
    console: Console,  # noqa: F811
    jira: FakeJiraApi,
) -> None:
    guru_make(slug=SLUG, name="Jira guide")

    def fill(page) -> None:
        page.get_by_label("Deployment").select_option("cloud")
        page.get_by_label("Jira site URL").fill(jira.url)
        page.get_by_label("JQL").fill("project = DOCS")
        page.get_by_label("Email").fill(EMAIL)
        page.get_by_label("Token").fill(TOKEN)

    seen = console.browser.run(
        lambda: add_then_replace_token(
            console,
            slug=SLUG,
            button="Jira",
            fill=fill,
            axe="jira",
            token_label=re.compile("^New token for "),
            wrong_token="ATATT3xwrong",
        ),
        timeout=400,
    )

    assert TOKEN not in seen["html"]
    assert "Jira" in seen["row"] and "1 of 1 issue fetched" in seen["row"]
    assert "Jira refused the token (401)" in seen["failed"]
    assert "ATATT3xwrong" not in seen["failed"]
    source = DataSource.objects.get(guru__slug=SLUG)
    # Added and indexed (the issue and its comment), then failed on the wrong token, chunks kept.
    assert (source.type, source.status, source.chunk_count) == ("jira", "FAILED", 2)
    assert source.options == {
        "deployment": "cloud",
        "base_url": jira.url,
        "jql": "project = DOCS",
        "email": EMAIL,
    }
    assert source.credential and TOKEN not in source.credential
