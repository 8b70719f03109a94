"""GitHub issues and discussions as a source, end to end: the admin API, the processing task run
eagerly, the connector talking to a loopback stand-in in GitHub's REST and GraphQL shapes, and
the guru's vector store read back."""

import io
import zipfile
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from openguru.gurus.models import Guru
from openguru.ops.backup_export import guru_export
from openguru.providers.vectorstore.factory import get_vector_store
from openguru.sources.models import DataSource
from openguru.sources.selectors import sources_resync_due
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.fakes.github_api import FakeComment, FakeDiscussion, FakeGitHubApi, FakeIssue
from tests.fakes.openai_server import FakeOpenAIServer
from tests.sources.ingestion_helpers import (
    SLUG,
    SOURCES,
    add,
    chunks_of,
    cited_links,
    detail_of,
    guru,
    reindex,
    snapshot,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["guru"]  # fixtures, used by name

TOKEN = "github_pat_good0123456789"
REPO = "https://github.com/octo/guide"
CRASH_ANCHOR = f"{REPO}/issues/1#issuecomment-101"


def _issues() -> dict[int, FakeIssue]:
    return {
        1: FakeIssue(
            1,
            "Crash on startup with ferret mode",
            "The server crashes at startup when ferret mode is on.",
            "2025-03-01T10:00:00Z",
            state="closed",
            labels=["bug"],
            comments=[FakeComment(101, "Set FERRET_MODE=calm in the config; the crash is gone.")],
        ),
        2: FakeIssue(
            2,
            "Dark mode for the dashboard",
            "Please add a dark theme to the dashboard pages.",
            "2025-02-01T10:00:00Z",
            labels=["enhancement"],
            comments=[FakeComment(201, "A dark theme would help night shifts a lot.")],
        ),
        3: FakeIssue(
            3,
            "Refactor the loader",
            "A pull request.",
            "2025-01-01T10:00:00Z",
            pull_request=True,
        ),
    }


@pytest.fixture
def github(settings: Settings) -> Iterator[FakeGitHubApi]:
    with FakeGitHubApi(owner="octo", repo="guide", token=TOKEN) as server:
        server.issues.update(_issues())
        server.discussions[7] = FakeDiscussion(
            7,
            "How do I rotate the archive keys?",
            "Where is the setting for key rotation?",
            "2025-03-02T10:00:00Z",
            comments=[
                FakeComment(700, "Maybe restart it?"),
                FakeComment(701, "Run the rotate-keys command weekly.", is_answer=True),
            ],
        )
        for number in (8, 9):  # older discussions, on the second page of GraphQL's answer
            server.discussions[number] = FakeDiscussion(
                number, f"Old question {number}", f"Body of question {number}.", "2024-06-01"
            )
        server.page_size = 2  # every listing spans pages
        settings.GITHUB_API_URL = server.url
        settings.CONNECTOR_RETRY_AFTER_MAX_SECONDS = 5
        yield server


def _add_issues(client: APIClient, **extra: Any) -> dict[str, Any]:
    response = add(client, type="github_issues", url=REPO, token=TOKEN, **extra)
    assert response.status_code == 201, response.json()
    assert TOKEN not in response.content.decode()
    return detail_of(client, response.json()["id"])


def _links(guru: Guru, source_id: int) -> set[str]:
    return {str(hit.metadata["link"]) for hit in chunks_of(guru, source_id)}


def test_first_sync_reads_issues_comments_and_discussions_linked_to_each_comment(
    admin_client: APIClient, guru: Guru, github: FakeGitHubApi
) -> None:
    detail = _add_issues(admin_client)
    assert detail["status"] == "SUCCESS", detail
    assert detail["has_token"] is True
    links = _links(guru, detail["id"])
    assert {
        f"{REPO}/issues/1",
        CRASH_ANCHOR,
        f"{REPO}/issues/2#issuecomment-201",
        f"{REPO}/discussions/7",
        f"{REPO}/discussions/7#discussioncomment-701",
    } <= links
    assert not any("/pull/" in link for link in links)  # pull requests are not issues
    answer = [
        h for h in chunks_of(guru, detail["id"]) if "discussioncomment-701" in h.metadata["link"]
    ]
    assert answer[0].text.count("Accepted answer") == 1 and answer[0].metadata["accepted_answer"]
    pages = [
        r.query.get("page")
        for r in github.requests_to("/repos/octo/guide/issues")
        if r.path.endswith("/issues")
    ]
    assert pages == [None, "2"]  # the Link header's rel="next" was followed
    assert all(r.authorization == f"Bearer {TOKEN}" for r in github.requests)
    assert len(github.requests_to("/graphql")) == 2 and f"{REPO}/discussions/9" in links
    stored = DataSource.objects.get(pk=detail["id"]).credential
    assert stored and TOKEN not in stored  # encrypted at rest


def test_a_resync_fetches_and_embeds_only_what_changed(
    admin_client: APIClient, guru: Guru, github: FakeGitHubApi
) -> None:
    source_id = _add_issues(admin_client)["id"]
    github.requests.clear()
    github.issues[2].comments.append(FakeComment(202, "Shipped in 2.4: toggle it under Settings."))
    github.issues[2].updated_at = "2025-03-05T10:00:00Z"
    detail = reindex(admin_client, source_id)
    assert detail["status"] == "SUCCESS", detail
    fetched = {r.path for r in github.requests if r.path.endswith("/comments")}
    assert fetched == {"/repos/octo/guide/issues/2/comments"}
    assert detail["last_result"]["chunks_new"] == 1
    assert detail["last_result"]["chunks_embedded"] == 1
    assert detail["last_result"]["chunks_deleted"] == 0
    assert f"{REPO}/issues/2#issuecomment-202" in _links(guru, source_id)


def test_an_issue_deleted_upstream_loses_its_chunks(
    admin_client: APIClient, guru: Guru, github: FakeGitHubApi
) -> None:
    source_id = _add_issues(admin_client)["id"]
    del github.issues[1]
    detail = reindex(admin_client, source_id)
    assert detail["status"] == "SUCCESS", detail
    assert detail["last_result"]["chunks_deleted"] == 2
    links = _links(guru, source_id)
    assert not any("/issues/1" in link for link in links)
    assert f"{REPO}/issues/2#issuecomment-201" in links


def test_a_wrong_token_fails_readably_and_keeps_the_previous_index(
    admin_client: APIClient, guru: Guru, github: FakeGitHubApi
) -> None:
    source_id = _add_issues(admin_client)["id"]
    before = snapshot(guru, source_id)
    response = admin_client.put(
        f"{SOURCES}{source_id}/token/", {"token": "github_pat_wrong"}, format="json"
    )
    assert response.status_code == 202, response.json()
    assert "github_pat_wrong" not in response.content.decode()
    detail = detail_of(admin_client, source_id)
    assert detail["status"] == "FAILED"
    assert "token" in detail["user_error"] and "401" in detail["user_error"]
    assert snapshot(guru, source_id) == before
    # The right token again: the source syncs.
    admin_client.put(f"{SOURCES}{source_id}/token/", {"token": TOKEN}, format="json")
    assert detail_of(admin_client, source_id)["status"] == "SUCCESS"


def test_rate_limits_and_server_errors_are_waited_out(
    admin_client: APIClient, github: FakeGitHubApi, guru: Guru
) -> None:
    github.fail_next = [
        (403, {"Retry-After": "1", "X-RateLimit-Remaining": "0"}),
        (429, {"Retry-After": "1"}),
        (502, {}),
    ]
    detail = _add_issues(admin_client)
    assert detail["status"] == "SUCCESS", detail
    first, second, third = github.requests[:3]
    assert second.at - first.at >= 1.0 and third.at - second.at >= 1.0


def test_endless_server_errors_fail_the_run_with_a_retry_message(
    admin_client: APIClient, github: FakeGitHubApi, guru: Guru, settings: Settings
) -> None:
    settings.CONNECTOR_MAX_RETRIES = 1
    github.fail_next = [(503, {})] * 50  # past the task's own retries too
    detail = _add_issues(admin_client)
    assert detail["status"] == "FAILED"
    assert "GitHub is busy or unreachable" in detail["user_error"]


def test_filters_keep_closed_issues_with_the_labels(
    admin_client: APIClient, guru: Guru, github: FakeGitHubApi
) -> None:
    detail = _add_issues(admin_client, options={"state": "closed", "labels": ["bug"]})
    assert detail["status"] == "SUCCESS", detail
    links = _links(guru, detail["id"])
    assert CRASH_ANCHOR in links
    assert not any("/issues/2" in link or "/discussions/" in link for link in links)


def test_a_public_repository_is_read_without_a_token(
    admin_client: APIClient, guru: Guru, github: FakeGitHubApi
) -> None:
    github.token = None
    response = add(admin_client, type="github_issues", url=REPO)
    detail = detail_of(admin_client, response.json()["id"])
    assert detail["status"] == "SUCCESS" and detail["has_token"] is False
    assert CRASH_ANCHOR in _links(guru, detail["id"])
    assert not github.requests_to("/graphql")  # GitHub's GraphQL needs a token


def test_a_search_hit_cites_the_exact_comment(
    admin_client: APIClient, guru: Guru, github: FakeGitHubApi
) -> None:
    _add_issues(admin_client)
    key = admin_client.post("/api/api-keys/", {"name": "search"}, format="json").json()["key"]
    found = APIClient().post(
        f"/api/v1/{SLUG}/search/",
        {"query": "FERRET_MODE calm crash"},
        format="json",
        HTTP_X_API_KEY=key,
    )
    assert found.status_code == 200, found.json()
    assert CRASH_ANCHOR in found.content.decode()
    listed = APIClient().get(f"/api/v1/{SLUG}/data-sources/", HTTP_X_API_KEY=key)
    assert listed.status_code == 200 and '"GITHUB_ISSUES"' in listed.content.decode()
    assert TOKEN not in listed.content.decode()


def test_an_answer_cites_the_exact_comment_and_the_accepted_answer(
    admin_client: APIClient, guru: Guru, github: FakeGitHubApi, llm_server: FakeOpenAIServer
) -> None:
    _add_issues(admin_client)
    crash = cited_links(admin_client, "Which FERRET_MODE value makes the startup crash go away?")
    assert CRASH_ANCHOR in crash
    keys = cited_links(admin_client, "How often do I run the rotate-keys command?")
    assert f"{REPO}/discussions/7#discussioncomment-701" in keys


def test_bad_links_and_options_are_refused_at_once(admin_client: APIClient, guru: Guru) -> None:
    for url, options in (
        ("https://gitlab.com/octo/guide", {}),
        ("https://github.com/octo", {}),
        (REPO, {"state": "merged"}),
        (REPO, {"labels": 7}),
        (REPO, {"since": "last tuesday"}),
    ):
        response = add(admin_client, type="github_issues", url=url, options=options)
        assert response.status_code == 400, response.json()
        assert response.json()["code"] == "invalid_input"


def test_add_source_reads_the_token_from_the_environment(
    guru: Guru, github: FakeGitHubApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OG_TEST_GITHUB_TOKEN", TOKEN)
    out = io.StringIO()
    arguments = ["--token-env", "OG_TEST_GITHUB_TOKEN", "--state", "closed", "--no-discussions"]
    call_command("add_source", SLUG, "github_issues", REPO, *arguments, stdout=out, stderr=out)
    source = DataSource.objects.get(type="github_issues")
    assert source.status == "SUCCESS", source.user_error
    assert source.options == {"state": "closed", "labels": [], "since": "", "discussions": False}
    assert TOKEN not in out.getvalue() and source.credential
    assert CRASH_ANCHOR in _links(guru, source.pk)


def test_beat_resyncs_issues_on_the_github_period(
    admin_client: APIClient, guru: Guru, github: FakeGitHubApi, settings: Settings
) -> None:
    source_id = _add_issues(admin_client)["id"]
    indexed = DataSource.objects.get(pk=source_id).last_indexed_at
    assert indexed is not None
    hours = timedelta(hours=settings.GITHUB_RESYNC_HOURS)
    assert source_id not in sources_resync_due(now=indexed + hours - timedelta(minutes=1))
    assert source_id in sources_resync_due(now=indexed + hours + timedelta(minutes=1))


def test_an_export_leaves_the_token_out(
    admin_client: APIClient, guru: Guru, github: FakeGitHubApi, tmp_path: Path
) -> None:
    source_id = _add_issues(admin_client)["id"]
    stored = DataSource.objects.get(pk=source_id).credential
    out = tmp_path / "guru.zip"
    guru_export(guru=guru, out=out, store=get_vector_store())
    with zipfile.ZipFile(out) as archive:
        text = "".join(archive.read(name).decode(errors="replace") for name in archive.namelist())
    assert stored not in text and TOKEN not in text
    assert CRASH_ANCHOR in text  # the chunks are there


def test_a_token_is_refused_for_a_source_that_takes_none(
    admin_client: APIClient, guru: Guru
) -> None:
    response = add(admin_client, type="text", content="Some notes.", token=TOKEN)
    assert response.status_code == 400 and response.json()["code"] == "invalid_input"


def test_a_next_page_on_another_host_is_not_followed_with_the_token(
    admin_client: APIClient, guru: Guru, github: FakeGitHubApi
) -> None:
    github.next_page_host = "http://127.0.0.2:9"  # a Link header pointing away from the API
    detail = _add_issues(admin_client)
    assert detail["status"] == "FAILED"
    assert "another host" in detail["user_error"]


def test_since_keeps_items_updated_since_that_day(
    admin_client: APIClient, guru: Guru, github: FakeGitHubApi
) -> None:
    detail = _add_issues(admin_client, options={"since": "2025-02-15"})
    assert detail["status"] == "SUCCESS", detail
    assert DataSource.objects.get(pk=detail["id"]).options["since"] == "2025-02-15T00:00:00Z"
    sent = {r.query.get("since") for r in github.requests if r.path.endswith("/issues")}
    assert sent == {"2025-02-15T00:00:00Z"}
    links = _links(guru, detail["id"])
    assert CRASH_ANCHOR in links and f"{REPO}/discussions/7" in links
    assert not any("/issues/2" in link or "/discussions/9" in link for link in links)
