"""API v1 `data-sources/` takes Gurubase's `jira_urls` and `zendesk_urls`: each URL becomes a
source of just that issue or article, read with the credentials of a source the guru already has
on the site, indexed through the real pipeline against loopback Jira and Zendesk stand-ins."""

from typing import Any

import pytest
from django.test import Client
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource

from tests.fakes.jira_api import FakeJiraApi, FakeJiraComment, FakeJiraIssue, adf
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.zendesk_api import WEB, FakeArticle, FakeZendeskApi
from tests.sources.ingestion_helpers import chunks_of

pytestmark = pytest.mark.django_db(transaction=True)

SLUG = "field-guide"
V1 = f"/api/v1/{SLUG}"
EMAIL, TOKEN = "ada@example.com", "ATATT3xFfGF0single0123456789"


@pytest.fixture
def client(admin_client, key_headers) -> Client:
    created = admin_client.post("/api/gurus/", {"slug": SLUG, "name": "F"}, format="json")
    assert created.status_code == 201, created.json()
    return Client(headers=key_headers)


def _post(client: Client, body: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.post(f"{V1}/data-sources/", body, content_type="application/json")
    assert response.status_code == 200, response.json()
    assert TOKEN not in response.content.decode()
    return list(response.json())


def _links(source_id: int) -> set[str]:
    guru = Guru.objects.get(slug=SLUG)
    return {str(hit.metadata["link"]) for hit in chunks_of(guru, source_id)}


def _jira_issues() -> dict[str, FakeJiraIssue]:
    return {
        "DOCS-1": FakeJiraIssue(
            "DOCS-1",
            "Crash with ferret mode",
            adf("The server crashes at startup."),
            "2025-03-01T10:00:00.000+0000",
            comments=[FakeJiraComment(10100, adf("Set FERRET_MODE=calm; the crash is gone."))],
        ),
        "DOCS-2": FakeJiraIssue(
            "DOCS-2", "Dark theme", adf("Add a dark theme."), "2025-03-02T10:00:00.000+0000"
        ),
        "OPS-1": FakeJiraIssue(
            "OPS-1", "On-call rota", adf("Weekly rotation."), "2025-03-03T10:00:00.000+0000"
        ),
    }


def test_a_jira_url_is_one_issue_read_with_the_sites_credentials(
    client: Client, admin_client, llm_server: FakeOpenAIServer
) -> None:
    with FakeJiraApi(deployment="cloud", email=EMAIL, token=TOKEN) as jira:
        jira.issues.update(_jira_issues())
        issue_url = f"{jira.url}/browse/DOCS-1"
        refused = _post(client, {"jira_urls": [issue_url]})
        assert DataSource.objects.count() == 0
        site = {"deployment": "cloud", "jql": "project = OPS", "email": EMAIL}
        donor = {"type": "jira", "url": jira.url, "options": site, "token": TOKEN}
        assert _post(client, {"connector_sources": [donor]})[0]["status"] == "success"
        added = _post(client, {"jira_urls": [issue_url]})
        again = _post(client, {"jira_urls": [issue_url]})

    assert refused == [
        {
            "type": "JIRA",
            "url": issue_url,
            "status": "error",
            "id": None,
            "title": "",
            "code": "site_not_connected",
            "message": f"Add a Jira source with credentials for {jira.url.split('//')[1]} "
            "first: its Jira URLs are read with them.",
        }
    ]
    (one,) = added
    assert (one["type"], one["url"], one["status"]) == ("JIRA", issue_url, "success")
    source = DataSource.objects.get(pk=one["id"])
    assert source.options["jql"] == "key = DOCS-1" and source.status == DataSource.Status.SUCCESS
    assert source.credential and TOKEN not in source.credential
    assert _links(source.pk) == {issue_url, f"{issue_url}?focusedCommentId=10100"}
    assert [(r["status"], r["id"], r["url"]) for r in again] == [("exists", one["id"], issue_url)]
    question = "Which FERRET_MODE value makes the startup crash go away?"
    answer = admin_client.post(
        f"/api/gurus/{SLUG}/answer/", {"question": question, "mode": "fast"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    cited = [reference["link"] for reference in answer.json()["references"]]
    assert f"{issue_url}?focusedCommentId=10100" in cited


def test_a_jira_url_that_names_no_issue_is_refused(client: Client) -> None:
    (item,) = _post(client, {"jira_urls": ["https://acme.atlassian.net/projects/OPS"]})
    assert (item["status"], item["code"]) == ("error", "invalid_input")
    assert "browse/OPS-12" in item["message"] and DataSource.objects.count() == 0


def _articles() -> list[FakeArticle]:
    return [
        FakeArticle(
            1,
            "Reset a ferret password",
            "<p>Passwords of ferret accounts are reset from the account page.</p>",
            "2025-03-01T10:00:00Z",
        ),
        FakeArticle(
            2,
            "Billing cycles",
            "<p>Invoices for the meadow plan are sent on the first day of the month.</p>",
            "2025-02-01T10:00:00Z",
            section_id=200,
        ),
    ]


def test_a_zendesk_url_is_one_article_read_with_the_help_centers_credentials(
    client: Client,
) -> None:
    with FakeZendeskApi(email=EMAIL, token=TOKEN) as zendesk:
        for article in _articles():
            zendesk.add(article)
        article_url = f"{zendesk.url}/hc/en-us/articles/2-billing-cycles"
        refused = _post(client, {"zendesk_urls": [article_url]})
        assert DataSource.objects.count() == 0
        donor = {
            "type": "zendesk",
            "url": zendesk.url,
            "options": {"email": EMAIL, "section_ids": [100]},
            "token": TOKEN,
        }
        assert _post(client, {"connector_sources": [donor]})[0]["status"] == "success"
        added = _post(client, {"zendesk_urls": [article_url]})
        again = _post(client, {"zendesk_urls": [article_url]})

    (error,) = refused
    assert (error["status"], error["code"], error["id"]) == ("error", "site_not_connected", None)
    assert "Add a Zendesk source with credentials for 127.0.0.1" in error["message"]
    (one,) = added
    assert (one["type"], one["url"], one["status"]) == ("ZENDESK", article_url, "success")
    source = DataSource.objects.get(pk=one["id"])
    assert source.options["article_id"] == 2 and source.status == DataSource.Status.SUCCESS
    assert source.url == f"{zendesk.url}/hc/en-us/articles/2"
    assert source.credential and TOKEN not in source.credential
    assert _links(source.pk) == {f"{WEB}/hc/en-us/articles/2-billing-cycles"}
    assert [(r["status"], r["id"], r["url"]) for r in again] == [("exists", one["id"], article_url)]
