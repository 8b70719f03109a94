"""API v1 `data-sources/` adds connector sources (`connector_sources`: type, url, options, token)
as the admin API does: indexed through the real pipeline against a loopback GitHub, one result
per item, and the token never in any answer."""

import pytest
from django.test import Client
from openguru.sources.models import DataSource

from tests.fakes.github_api import FakeComment, FakeGitHubApi, FakeIssue

pytestmark = pytest.mark.django_db(transaction=True)

V1 = "/api/v1/field-guide"
TOKEN = "github_pat_v1connector0123"
REPO = "https://github.com/octo/guide"


def test_a_connector_source_is_added_indexed_and_listed_without_its_token(
    admin_client, key_headers, settings
) -> None:
    created = admin_client.post("/api/gurus/", {"slug": "field-guide", "name": "F"}, format="json")
    assert created.status_code == 201, created.json()
    client = Client(headers=key_headers)
    with FakeGitHubApi(owner="octo", repo="guide", token=TOKEN) as github:
        github.issues[1] = FakeIssue(
            1,
            "Crash with ferret mode",
            "The server crashes at startup.",
            "2025-03-01T10:00:00Z",
            comments=[FakeComment(101, "Set FERRET_MODE=calm; the crash is gone.")],
        )
        settings.GITHUB_API_URL = github.url
        body = {
            "connector_sources": [
                {"type": "github_issues", "url": REPO, "token": TOKEN, "options": {}},
                {"type": "jira", "url": "https://acme.atlassian.net", "options": {"jql": ""}},
            ]
        }
        added = client.post(f"{V1}/data-sources/", body, content_type="application/json")
        again = client.post(f"{V1}/data-sources/", body, content_type="application/json")
        listed = client.get(f"{V1}/data-sources/")

    assert added.status_code == 200, added.json()
    issues, jira = added.json()
    assert (issues["type"], issues["url"], issues["status"]) == ("GITHUB_ISSUES", REPO, "success")
    assert (jira["type"], jira["status"], jira["id"]) == ("JIRA", "error", None)
    assert "jql" in jira["message"]
    assert again.json()[0]["status"] == "exists" and again.json()[0]["id"] == issues["id"]
    assert [(s["type"], s["status"]) for s in listed.json()["results"]] == [
        ("GITHUB_ISSUES", "SUCCESS")
    ]
    for response in (added, again, listed):
        assert TOKEN not in response.content.decode()
    source = DataSource.objects.get(pk=issues["id"])
    assert source.credential and TOKEN not in source.credential
    assert source.chunk_count > 0


def test_a_connector_item_names_a_connector_type(admin_client, key_headers) -> None:
    admin_client.post("/api/gurus/", {"slug": "field-guide", "name": "F"}, format="json")
    response = Client(headers=key_headers).post(
        f"{V1}/data-sources/",
        {"connector_sources": [{"type": "website", "url": "https://example.com/"}]},
        content_type="application/json",
    )
    assert response.status_code == 400, response.json()
    assert "connector_sources" in response.content.decode()
