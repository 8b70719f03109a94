"""Jira Data Center (REST v2: startAt/total pages, a Bearer personal access token, wiki markup)
end to end, and the Jira source on the other surfaces: manage.py add_source, beat's re-sync,
API v1's data-sources listing and a guru's export."""

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

from tests.fakes.jira_api import FakeJiraApi, FakeJiraComment, FakeJiraIssue
from tests.sources.ingestion_helpers import SLUG, add, chunks_of, detail_of, guru, reindex

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["guru"]  # fixtures, used by name

PAT = "NjM0ODc5MzQ1Njc4Omdvb2Q0NTY3ODkwMTIz"
JQL = 'project = OPS AND status = "Done"'
RUNBOOK = """h2. Runbook
When the *archive* job stalls:
# Open {{/admin/jobs}}
# Press [Restart|https://jira.example.com/wiki/restart]
{code:bash}
jobctl restart --queue=*archive*
{code}
||Step||Owner||
|restart|[~jdoe]|
!screenshot.png|thumbnail!"""


@pytest.fixture
def jira(settings: Settings) -> Iterator[FakeJiraApi]:
    with FakeJiraApi(deployment="datacenter", token=PAT) as server:
        server.issues["OPS-1"] = FakeJiraIssue(
            "OPS-1",
            "Archive job stalls nightly",
            RUNBOOK,
            "2025-03-01T10:00:00.000+0000",
            status="Done",
            labels=["runbook"],
            comments=[FakeJiraComment(20100, "Raising the _queue timeout_ to 30s fixed it.")],
        )
        for number in (2, 3):
            server.issues[f"OPS-{number}"] = FakeJiraIssue(
                f"OPS-{number}",
                f"Pager drill {number}",
                f"The drill number {number} went fine.",
                "2025-02-01T10:00:00.000+0000",
                status="Done",
            )
        server.issues["OPS-4"] = FakeJiraIssue(
            "OPS-4", "Still open", "Not done yet.", "2025-02-02T10:00:00.000+0000"
        )
        server.page_size = 2
        yield server


def _add(client: APIClient, jira: FakeJiraApi, **extra: Any) -> dict[str, Any]:
    options = {"deployment": "datacenter", "jql": JQL}
    response = add(client, type="jira", url=f"{jira.url}/", token=PAT, options=options, **extra)
    assert response.status_code == 201, response.json()
    return detail_of(client, response.json()["id"])


def _links(guru: Guru, source_id: int) -> set[str]:
    return {str(hit.metadata["link"]) for hit in chunks_of(guru, source_id)}


def test_data_center_pages_by_start_at_and_reads_wiki_markup(
    admin_client: APIClient, guru: Guru, jira: FakeJiraApi
) -> None:
    detail = _add(admin_client, jira)
    assert detail["status"] == "SUCCESS", detail
    assert _links(guru, detail["id"]) == {
        f"{jira.url}/browse/OPS-1",
        f"{jira.url}/browse/OPS-1?focusedCommentId=20100",
        f"{jira.url}/browse/OPS-2",
        f"{jira.url}/browse/OPS-3",
    }
    listings = [r for r in jira.searches() if r.query["fields"] == "updated"]
    assert [r.query["startAt"] for r in listings] == ["0", "2"]
    assert {r.path for r in jira.searches()} == {"/rest/api/2/search"}
    assert {r.authorization for r in jira.requests} == {f"Bearer {PAT}"}
    hits = chunks_of(guru, detail["id"])
    body = next(h.text for h in hits if h.metadata["link"].endswith("/browse/OPS-1"))
    assert "## Runbook" in body and "When the archive job stalls:" in body
    assert "- Open /admin/jobs" in body
    assert "Restart (https://jira.example.com/wiki/restart)" in body
    assert "jobctl restart --queue=*archive*" in body  # code kept as it is
    assert "Step | Owner" in body and "restart | @jdoe" in body
    assert "screenshot" not in body and "{code" not in body and "h2." not in body
    comment = next(h.text for h in hits if "focusedCommentId" in h.metadata["link"])
    assert "Raising the queue timeout to 30s fixed it." in comment


def test_a_data_center_resync_reads_only_the_changed_issue(
    admin_client: APIClient, guru: Guru, jira: FakeJiraApi
) -> None:
    source_id = _add(admin_client, jira)["id"]
    jira.issues["OPS-3"].comments.append(FakeJiraComment(20300, "The next drill is in May."))
    jira.issues["OPS-3"].updated = "2025-03-02T08:30:00.000+0000"
    jira.requests.clear()
    detail = reindex(admin_client, source_id)
    assert detail["last_result"]["chunks_embedded"] == 1, detail
    full = [r.query["jql"] for r in jira.searches() if r.query["fields"] != "updated"]
    assert full == [f'({JQL}) AND updated >= "2025/03/01 08:30"']


def test_add_source_reads_the_token_from_the_environment(
    guru: Guru, jira: FakeJiraApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OG_TEST_JIRA_TOKEN", PAT)
    out = io.StringIO()
    arguments = ["--token-env", "OG_TEST_JIRA_TOKEN", "--deployment", "datacenter", "--jql", JQL]
    call_command("add_source", SLUG, "jira", jira.url, *arguments, stdout=out, stderr=out)
    source = DataSource.objects.get(type="jira")
    assert source.status == "SUCCESS", source.user_error
    assert source.options == {
        "deployment": "datacenter",
        "base_url": jira.url,
        "jql": JQL,
        "email": "",
    }
    assert PAT not in out.getvalue() and source.credential and PAT not in source.credential
    assert f"{jira.url}/browse/OPS-1?focusedCommentId=20100" in _links(guru, source.pk)


def test_beat_resyncs_jira_on_the_github_period_and_api_v1_lists_it_without_its_token(
    admin_client: APIClient, guru: Guru, jira: FakeJiraApi, settings: Settings
) -> None:
    source_id = _add(admin_client, jira)["id"]
    indexed = DataSource.objects.get(pk=source_id).last_indexed_at
    assert indexed is not None
    hours = timedelta(hours=settings.GITHUB_RESYNC_HOURS)
    assert source_id not in sources_resync_due(now=indexed + hours - timedelta(minutes=1))
    assert source_id in sources_resync_due(now=indexed + hours + timedelta(minutes=1))
    key = admin_client.post("/api/api-keys/", {"name": "list"}, format="json").json()["key"]
    listed = APIClient().get(f"/api/v1/{SLUG}/data-sources/", HTTP_X_API_KEY=key)
    assert listed.status_code == 200 and '"JIRA"' in listed.content.decode()
    assert PAT not in listed.content.decode()


def test_an_export_leaves_the_token_out(
    admin_client: APIClient, guru: Guru, jira: FakeJiraApi, tmp_path: Path
) -> None:
    source_id = _add(admin_client, jira)["id"]
    stored = DataSource.objects.get(pk=source_id).credential
    out = tmp_path / "guru.zip"
    guru_export(guru=guru, out=out, store=get_vector_store())
    with zipfile.ZipFile(out) as archive:
        text = "".join(archive.read(name).decode(errors="replace") for name in archive.namelist())
    assert stored not in text and PAT not in text
    assert f"{jira.url}/browse/OPS-1?focusedCommentId=20100" in text
