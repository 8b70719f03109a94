"""Jira issues as a source, end to end: the admin API, the processing task run eagerly, the
connector talking to a loopback stand-in in Jira Cloud's REST v3 shapes (Data Center's v2 in
test_jira_datacenter.py), and the guru's vector store read back."""

import base64
from collections.abc import Iterator
from typing import Any

import pytest
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.fakes.jira_api import FakeJiraApi, FakeJiraComment, FakeJiraIssue, adf
from tests.fakes.openai_server import FakeOpenAIServer
from tests.sources.ingestion_helpers import (
    SLUG,
    SOURCES,
    add,
    chunks_of,
    detail_of,
    guru,
    reindex,
    snapshot,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["guru"]  # fixtures, used by name

EMAIL, TOKEN = "ada@example.com", "ATATT3xFfGF0good0123456789"
JQL = "project = DOCS ORDER BY updated DESC"
CRASH_COMMENT = "Set FERRET_MODE=calm in the config; the crash is gone."


def _issues() -> dict[str, FakeJiraIssue]:
    crash = {
        "type": "doc",
        "version": 1,
        "content": [
            {
                "type": "heading",
                "attrs": {"level": 2},
                "content": [{"type": "text", "text": "Steps"}],
            },
            {
                "type": "bulletList",
                "content": [
                    {
                        "type": "listItem",
                        "content": [
                            {
                                "type": "paragraph",
                                "content": [{"type": "text", "text": "Turn on ferret mode"}],
                            }
                        ],
                    }
                ],
            },
            {
                "type": "paragraph",
                "content": [{"type": "text", "text": "The server crashes at startup."}],
            },
        ],
    }
    return {
        "DOCS-1": FakeJiraIssue(
            "DOCS-1",
            "Crash on startup with ferret mode",
            crash,
            "2025-03-01T10:00:00.000+0000",
            status="Done",
            labels=["bug", "public"],
            comments=[FakeJiraComment(10100, adf(CRASH_COMMENT))],
        ),
        "DOCS-2": FakeJiraIssue(
            "DOCS-2",
            "Dark mode for the dashboard",
            adf("Please add a dark theme to the dashboard pages."),
            "2025-02-01T10:00:00.000+0000",
            labels=["public"],
            comments=[
                FakeJiraComment(10200, adf("A dark theme would help night shifts a lot.")),
                FakeJiraComment(10201, adf("Designs for the dark palette are attached.")),
            ],
        ),
        "DOCS-3": FakeJiraIssue(
            "DOCS-3",
            "Rename the export button",
            adf("Call it Download."),
            "2025-01-05T10:00:00.000+0000",
        ),
        "OPS-1": FakeJiraIssue(
            "OPS-1",
            "Rotate the pager",
            adf("Weekly rotation."),
            "2025-03-03T10:00:00.000+0000",
        ),
    }


@pytest.fixture
def jira(settings: Settings) -> Iterator[FakeJiraApi]:
    with FakeJiraApi(deployment="cloud", email=EMAIL, token=TOKEN) as server:
        server.issues.update(_issues())
        server.page_size = 2  # every listing spans pages
        server.comments_in_search = 1  # DOCS-2's second comment is read from its own endpoint
        settings.CONNECTOR_RETRY_AFTER_MAX_SECONDS = 5
        yield server


def _add_jira(client: APIClient, jira: FakeJiraApi, **options: Any) -> dict[str, Any]:
    response = add(
        client,
        type="jira",
        url=jira.url,
        token=TOKEN,
        options={"deployment": "cloud", "jql": JQL, "email": EMAIL, **options},
    )
    assert response.status_code == 201, response.json()
    assert TOKEN not in response.content.decode()
    return detail_of(client, response.json()["id"])


def _links(guru: Guru, source_id: int) -> set[str]:
    return {str(hit.metadata["link"]) for hit in chunks_of(guru, source_id)}


def _touch(issue: FakeJiraIssue, updated: str) -> None:
    issue.updated = updated  # as Jira moves `updated` on any edit or new comment


def test_first_sync_reads_issues_and_comments_linked_to_each_comment(
    admin_client: APIClient, guru: Guru, jira: FakeJiraApi
) -> None:
    detail = _add_jira(admin_client, jira)
    assert detail["status"] == "SUCCESS", detail
    assert detail["has_token"] is True
    assert (
        detail["url"]
        == f"{jira.url}/issues/?jql=project%20%3D%20DOCS%20ORDER%20BY%20updated%20DESC"
    )
    links = _links(guru, detail["id"])
    assert links == {
        f"{jira.url}/browse/DOCS-1",
        f"{jira.url}/browse/DOCS-1?focusedCommentId=10100",
        f"{jira.url}/browse/DOCS-2",
        f"{jira.url}/browse/DOCS-2?focusedCommentId=10200",
        f"{jira.url}/browse/DOCS-2?focusedCommentId=10201",  # past the search's comment field
        f"{jira.url}/browse/DOCS-3",
    }
    body = next(h for h in chunks_of(guru, detail["id"]) if h.metadata["link"].endswith("DOCS-1"))
    # Atlassian Document Format read as text, with the status and labels.
    assert "## Steps\n\n- Turn on ferret mode\n\nThe server crashes at startup." in body.text
    assert "Status: Done" in body.text and "Labels: bug, public" in body.text
    assert '"type"' not in body.text
    listings = [r for r in jira.searches() if r.query["fields"] == "updated"]
    assert [bool(r.query.get("nextPageToken")) for r in listings] == [False, True]
    assert all(r.path == "/rest/api/3/search/jql" for r in jira.searches())
    assert all(r.query["jql"] == "project = DOCS" for r in jira.searches())  # first run: all
    pair = base64.b64encode(f"{EMAIL}:{TOKEN}".encode()).decode()
    assert {r.authorization for r in jira.requests} == {f"Basic {pair}"}
    stored = DataSource.objects.get(pk=detail["id"])
    assert stored.credential and TOKEN not in stored.credential  # encrypted at rest
    assert stored.options == {
        "deployment": "cloud",
        "base_url": jira.url,
        "jql": JQL,
        "email": EMAIL,
    }


def test_a_resync_reads_and_embeds_only_what_changed(
    admin_client: APIClient, guru: Guru, jira: FakeJiraApi
) -> None:
    source_id = _add_jira(admin_client, jira)["id"]
    jira.requests.clear()
    jira.issues["DOCS-2"].comments.append(
        FakeJiraComment(10202, adf("Shipped in 2.4: toggle it under Settings."))
    )
    _touch(jira.issues["DOCS-2"], "2025-03-05T10:00:00.000+0000")
    detail = reindex(admin_client, source_id)
    assert detail["status"] == "SUCCESS", detail
    full = [r for r in jira.searches() if r.query["fields"] != "updated"]
    # Only what moved since the oldest change, less a day: DOCS-2 (DOCS-1 is listed too).
    assert [r.query["jql"] for r in full] == ['(project = DOCS) AND updated >= "2025/03/04 10:00"']
    assert not [r for r in jira.requests if r.path.startswith("/rest/api/3/issue/DOCS-1")]
    assert detail["last_result"]["chunks_new"] == 1
    assert detail["last_result"]["chunks_embedded"] == 1
    assert detail["last_result"]["chunks_deleted"] == 0
    assert f"{jira.url}/browse/DOCS-2?focusedCommentId=10202" in _links(guru, source_id)
    # Nothing moved: nothing is read in full.
    jira.requests.clear()
    again = reindex(admin_client, source_id)
    assert again["last_result"]["chunks_embedded"] == 0
    assert all(r.query["fields"] == "updated" for r in jira.searches())


def test_a_change_is_found_whatever_the_accounts_time_zone(
    admin_client: APIClient, guru: Guru, jira: FakeJiraApi
) -> None:
    source_id = _add_jira(admin_client, jira)["id"]
    jira.timezone_hours = -10  # JQL dates read ten hours behind UTC
    jira.issues["DOCS-3"].description = adf("Call it Download, with an arrow icon.")
    _touch(jira.issues["DOCS-3"], "2025-03-07T23:59:00.000+0000")
    jira.requests.clear()
    detail = reindex(admin_client, source_id)
    assert detail["status"] == "SUCCESS", detail
    assert not [r for r in jira.requests if "/issue/" in r.path]  # the search brought it
    assert any("arrow icon" in hit.text for hit in chunks_of(guru, source_id))


def test_an_issue_deleted_upstream_loses_its_chunks(
    admin_client: APIClient, guru: Guru, jira: FakeJiraApi
) -> None:
    source_id = _add_jira(admin_client, jira)["id"]
    del jira.issues["DOCS-1"]
    detail = reindex(admin_client, source_id)
    assert detail["status"] == "SUCCESS", detail
    assert detail["last_result"]["chunks_deleted"] == 2
    links = _links(guru, source_id)
    assert not any("DOCS-1" in link for link in links)
    assert f"{jira.url}/browse/DOCS-2?focusedCommentId=10200" in links


def test_an_issue_no_longer_matching_the_jql_loses_its_chunks(
    admin_client: APIClient, guru: Guru, jira: FakeJiraApi
) -> None:
    source_id = _add_jira(admin_client, jira, jql="project = DOCS AND labels = public")["id"]
    assert not any("DOCS-3" in link for link in _links(guru, source_id))
    jira.issues["DOCS-2"].labels = []
    _touch(jira.issues["DOCS-2"], "2025-03-09T10:00:00.000+0000")
    detail = reindex(admin_client, source_id)
    assert detail["status"] == "SUCCESS", detail
    assert detail["last_result"]["chunks_deleted"] == 3
    assert _links(guru, source_id) == {
        f"{jira.url}/browse/DOCS-1",
        f"{jira.url}/browse/DOCS-1?focusedCommentId=10100",
    }


def test_an_issue_the_search_misses_is_read_on_its_own_and_one_gone_is_dropped(
    admin_client: APIClient, guru: Guru, jira: FakeJiraApi
) -> None:
    """Jira's search index lags behind its issues now and then: an issue the full search does
    not bring is read by its key; one deleted since it was listed answers 404 and is dropped."""
    source_id = _add_jira(admin_client, jira)["id"]
    jira.issues["DOCS-3"].description = adf("Call it Download, says the style guide.")
    _touch(jira.issues["DOCS-3"], "2025-03-09T10:00:00.000+0000")
    jira.hidden_from_full_search = {"DOCS-3"}
    jira.ghosts = {"DOCS-9": "2025-03-09T11:00:00.000+0000"}  # listed, then deleted
    jira.requests.clear()
    detail = reindex(admin_client, source_id)
    assert detail["status"] == "SUCCESS", detail
    read = sorted(r.path for r in jira.requests if "/issue/" in r.path)
    assert read == ["/rest/api/3/issue/DOCS-3", "/rest/api/3/issue/DOCS-9"]
    assert any("style guide" in hit.text for hit in chunks_of(guru, source_id))
    assert not any("DOCS-9" in link for link in _links(guru, source_id))


def test_a_wrong_token_fails_readably_and_keeps_the_previous_index(
    admin_client: APIClient, guru: Guru, jira: FakeJiraApi
) -> None:
    source_id = _add_jira(admin_client, jira)["id"]
    before = snapshot(guru, source_id)
    response = admin_client.put(
        f"{SOURCES}{source_id}/token/", {"token": "ATATT3xwrong"}, format="json"
    )
    assert response.status_code == 202, response.json()
    assert "ATATT3xwrong" not in response.content.decode()
    detail = detail_of(admin_client, source_id)
    assert detail["status"] == "FAILED"
    assert "Jira refused the token (401)" in detail["user_error"]
    assert snapshot(guru, source_id) == before
    admin_client.put(f"{SOURCES}{source_id}/token/", {"token": TOKEN}, format="json")
    assert detail_of(admin_client, source_id)["status"] == "SUCCESS"


def test_rate_limits_and_server_errors_are_waited_out(
    admin_client: APIClient, jira: FakeJiraApi, guru: Guru
) -> None:
    jira.fail_next = [(429, {"Retry-After": "1"}), (503, {})]
    detail = _add_jira(admin_client, jira)
    assert detail["status"] == "SUCCESS", detail
    first, second, third = jira.requests[:3]
    assert second.at - first.at >= 1.0  # Retry-After honoured
    assert third.path == first.path and third.query == first.query  # the 503 was asked again


def test_a_jql_jira_refuses_fails_with_jiras_reason(
    admin_client: APIClient, jira: FakeJiraApi, guru: Guru
) -> None:
    detail = _add_jira(admin_client, jira, jql="project ~ DOCS")
    assert detail["status"] == "FAILED"
    assert "Jira refused the request (400): Error in the JQL Query" in detail["user_error"]


def test_an_answer_cites_the_exact_comment(
    admin_client: APIClient, guru: Guru, jira: FakeJiraApi, llm_server: FakeOpenAIServer
) -> None:
    _add_jira(admin_client, jira)
    response = admin_client.post(
        f"/api/gurus/{SLUG}/answer/",
        {
            "question": "Which FERRET_MODE value in the config makes the startup crash go away?",
            "mode": "fast",
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["refused"] is False
    links = [reference["link"] for reference in body["references"]]
    assert f"{jira.url}/browse/DOCS-1?focusedCommentId=10100" in links


def test_bad_options_are_refused_at_once(
    admin_client: APIClient, guru: Guru, jira: FakeJiraApi
) -> None:
    good = {"deployment": "cloud", "jql": JQL, "email": EMAIL}
    for url, options, token in (
        (jira.url, {**good, "jql": ""}, TOKEN),
        (jira.url, {**good, "jql": "ORDER BY created"}, TOKEN),
        (jira.url, {**good, "deployment": "server"}, TOKEN),
        (
            jira.url,
            {**good, "email": ""},
            TOKEN,
        ),  # Cloud's API token goes with its email
        ("ftp://jira.example.com", good, TOKEN),
        ("", good, TOKEN),
    ):
        response = add(admin_client, type="jira", url=url, options=options, token=token)
        assert response.status_code == 400, response.json()
        assert response.json()["code"] == "invalid_input"
