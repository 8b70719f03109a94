"""Confluence as a source, end to end: the admin API, the processing task run eagerly, the
connector talking to a loopback stand-in in Confluence Cloud's REST v2 and Data Center's REST
shapes, and the guru's vector store read back."""

import io
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from openguru.gurus.models import Guru
from openguru.sources.models import DataSource
from openguru.sources.selectors import sources_resync_due
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.fakes.confluence_api import FakeAttachment, FakeConfluenceApi, FakePage
from tests.fakes.openai_server import FakeOpenAIServer
from tests.sources.ingestion_helpers import (
    SLUG,
    SOURCES,
    add,
    chunks_of,
    cited_links,
    detail_of,
    guru,
    make_pdf,
    reindex,
    snapshot,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["guru"]  # fixtures, used by name

TOKEN, EMAIL = "ATATT3xFfGF0confluence0123", "ops@example.com"
ROTATE = (
    "<h1>Operations handbook</h1><p>How the archive is run.</p>"
    "<h2>Rotate the keys</h2><p>Run <code>archive rotate-keys</code> every Monday; the old "
    "key stays valid for <strong>seven days</strong> so readers can catch up.</p>"
    '<ac:structured-macro ac:name="code"><ac:parameter ac:name="language">bash'
    "</ac:parameter><ac:plain-text-body><![CDATA[archive rotate-keys --grace 7d]]>"
    "</ac:plain-text-body></ac:structured-macro>"
    "<h2>Restore a backup</h2><p>Restores come from the cold bucket and take an hour.</p>"
)


def _pages() -> list[FakePage]:
    manual = make_pdf([["The pelican gateway listens on port 7431 for archive uploads."]])
    return [
        FakePage("101", "OPS", "Operations", ROTATE),
        FakePage(
            "102",
            "OPS",
            "Gateway",
            "<h2>Ports</h2><p>The gateway manual is attached as a PDF.</p>",
            parent_id="101",
            attachments=[
                FakeAttachment("att1", "gateway-manual.pdf", manual),
                FakeAttachment("att2", "diagram.png", b"\x89PNG", media_type="image/png"),
            ],
        ),
        FakePage(
            "103",
            "OPS",
            "On-call",
            "<h2>Escalation</h2><p>Page the second line after fifteen minutes of silence.</p>",
            parent_id="102",
        ),
        FakePage(
            "104",
            "OPS",
            "Hiring",
            "<h2>Interviews</h2><p>Every candidate meets two engineers and a manager.</p>",
        ),
    ]


@pytest.fixture
def cloud(settings: Settings) -> Iterator[FakeConfluenceApi]:
    with FakeConfluenceApi(deployment="cloud", token=TOKEN, email=EMAIL) as server:
        server.add_space("OPS", "98306")
        for page in _pages():
            server.add_page(page)
        server.page_size = 2  # every listing spans pages
        settings.CONNECTOR_RETRY_AFTER_MAX_SECONDS = 5
        yield server


@pytest.fixture
def datacenter(settings: Settings) -> Iterator[FakeConfluenceApi]:
    with FakeConfluenceApi(deployment="datacenter", token=TOKEN, context="/confluence") as server:
        server.add_space("OPS", "98306")
        for page in _pages():
            server.add_page(page)
        server.page_size = 2
        yield server


def _add(client: APIClient, server: FakeConfluenceApi, **options: Any) -> dict[str, Any]:
    if server.deployment == "cloud":
        options = {"deployment": "cloud", "email": EMAIL, "space": "OPS", **options}
    else:
        options = {"deployment": "datacenter", "space": "OPS", **options}
    response = add(client, type="confluence", url=server.base_url, token=TOKEN, options=options)
    assert response.status_code == 201, response.json()
    assert TOKEN not in response.content.decode()
    return detail_of(client, response.json()["id"])


def _links(guru: Guru, source_id: int) -> set[str]:
    return {str(hit.metadata["link"]) for hit in chunks_of(guru, source_id)}


def test_a_cloud_space_is_read_with_headings_anchors_and_pdf_attachments(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi
) -> None:
    detail = _add(admin_client, cloud)
    assert detail["status"] == "SUCCESS", detail
    assert detail["url"] == f"{cloud.base_url}/spaces/OPS" and detail["has_token"] is True
    operations = cloud.page_link(cloud.pages["101"])
    download = f"{cloud.base_url}/download/attachments/102/gateway-manual.pdf"
    links = _links(guru, detail["id"])
    assert {
        f"{operations}#Rotate-the-keys",
        f"{operations}#Restore-a-backup",
        f"{cloud.page_link(cloud.pages['103'])}#Escalation",
        f"{cloud.page_link(cloud.pages['104'])}#Interviews",
        f"{download}#page=1",
    } <= links
    texts = " ".join(hit.text for hit in chunks_of(guru, detail["id"]))
    assert "archive rotate-keys --grace 7d" in texts and "port 7431" in texts
    assert "language" not in texts and "bash" not in texts  # macro settings are not text
    cursors = [r.query.get("cursor") for r in cloud.requests_to("/spaces/98306/pages")]
    assert cursors[0] is None and len(cursors) == 2 and cursors[1]  # _links.next followed
    assert not cloud.requests_to("diagram.png")  # only PDFs are downloaded
    assert all(r.authorization.startswith("Basic ") for r in cloud.requests)
    stored = DataSource.objects.get(pk=detail["id"]).credential
    assert stored and TOKEN not in stored  # encrypted at rest


def test_a_resync_fetches_and_embeds_only_the_edited_page(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi
) -> None:
    source_id = _add(admin_client, cloud)["id"]
    cloud.requests.clear()
    cloud.edit("104", "<h2>Interviews</h2><p>Every candidate now also pairs on a small task.</p>")
    detail = reindex(admin_client, source_id)
    assert detail["status"] == "SUCCESS", detail
    fetched = {r.path for r in cloud.requests if "/api/v2/pages/" in r.path}
    assert fetched == {"/wiki/api/v2/pages/104", "/wiki/api/v2/pages/104/attachments"}
    assert not cloud.requests_to("/download/")
    assert detail["last_result"]["chunks_new"] == 1
    assert detail["last_result"]["chunks_embedded"] == 1
    assert detail["last_result"]["chunks_deleted"] == 1  # the page's previous text


def test_a_trashed_or_deleted_page_loses_its_chunks(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi
) -> None:
    source_id = _add(admin_client, cloud)["id"]
    cloud.pages["104"].status = "trashed"
    del cloud.pages["103"]
    detail = reindex(admin_client, source_id)
    assert detail["status"] == "SUCCESS", detail
    assert detail["last_result"]["chunks_deleted"] == 2
    links = _links(guru, source_id)
    assert not any("/pages/104/" in link or "/pages/103/" in link for link in links)
    assert f"{cloud.page_link(cloud.pages['101'])}#Rotate-the-keys" in links


def test_a_wrong_token_fails_readably_and_keeps_the_previous_index(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi
) -> None:
    source_id = _add(admin_client, cloud)["id"]
    before = snapshot(guru, source_id)
    response = admin_client.put(
        f"{SOURCES}{source_id}/token/", {"token": "ATATT-wrong"}, format="json"
    )
    assert response.status_code == 202, response.json()
    detail = detail_of(admin_client, source_id)
    assert detail["status"] == "FAILED"
    assert "Confluence refused the token (401)" in detail["user_error"]
    assert snapshot(guru, source_id) == before
    admin_client.put(f"{SOURCES}{source_id}/token/", {"token": TOKEN}, format="json")
    assert detail_of(admin_client, source_id)["status"] == "SUCCESS"


def test_rate_limits_and_server_errors_are_waited_out(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi
) -> None:
    cloud.fail_next = [(429, {"Retry-After": "1"}), (503, {})]
    detail = _add(admin_client, cloud)
    assert detail["status"] == "SUCCESS", detail
    first, second, third = cloud.requests[:3]
    assert second.at - first.at >= 1.0 and third.path == first.path


def test_a_root_page_reads_it_and_its_descendants_only(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi
) -> None:
    detail = _add(admin_client, cloud, space="", root_page="102")
    assert detail["status"] == "SUCCESS", detail
    assert detail["url"] == f"{cloud.base_url}/pages/viewpage.action?pageId=102"
    pages = {link.split("#")[0] for link in _links(guru, detail["id"])}
    assert pages == {
        cloud.page_link(cloud.pages["102"]),
        cloud.page_link(cloud.pages["103"]),
        f"{cloud.base_url}/download/attachments/102/gateway-manual.pdf",
    }


def test_a_data_center_space_is_read_with_a_personal_access_token(
    admin_client: APIClient, guru: Guru, datacenter: FakeConfluenceApi
) -> None:
    detail = _add(admin_client, datacenter)
    assert detail["status"] == "SUCCESS", detail
    assert detail["url"] == f"{datacenter.base_url}/display/OPS"
    links = _links(guru, detail["id"])
    assert {
        f"{datacenter.base_url}/display/OPS/Operations#Operations-Rotatethekeys",
        f"{datacenter.base_url}/display/OPS/On-call#On-call-Escalation",
        f"{datacenter.base_url}/download/attachments/102/gateway-manual.pdf#page=1",
    } <= links
    starts = [r.query.get("start") for r in datacenter.requests if r.path.endswith("/content")]
    assert starts == ["0", "2"]  # `_links.next`, relative to the base, was followed
    assert all(r.authorization == f"Bearer {TOKEN}" for r in datacenter.requests)
    # A page tree on Data Center, and the page deleted upstream leaves it.
    tree = _add(admin_client, datacenter, space="", root_page="102")
    del datacenter.pages["103"]
    again = reindex(admin_client, tree["id"])
    assert again["status"] == "SUCCESS" and again["last_result"]["chunks_deleted"] == 1
    assert {link.split("#")[0] for link in _links(guru, tree["id"])} == {
        f"{datacenter.base_url}/display/OPS/Gateway",
        f"{datacenter.base_url}/download/attachments/102/gateway-manual.pdf",
    }


def test_a_search_hit_cites_the_page_and_heading(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi
) -> None:
    _add(admin_client, cloud)
    key = admin_client.post("/api/api-keys/", {"name": "search"}, format="json").json()["key"]
    found = APIClient().post(
        f"/api/v1/{SLUG}/search/",
        {"query": "rotate keys every Monday"},
        format="json",
        HTTP_X_API_KEY=key,
    )
    assert found.status_code == 200, found.json()
    assert f"{cloud.page_link(cloud.pages['101'])}#Rotate-the-keys" in found.content.decode()
    listed = APIClient().get(f"/api/v1/{SLUG}/data-sources/", HTTP_X_API_KEY=key)
    assert listed.status_code == 200 and '"CONFLUENCE"' in listed.content.decode()
    assert TOKEN not in listed.content.decode()


def test_an_answer_cites_the_page_heading_and_the_attached_pdfs_page(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi, llm_server: FakeOpenAIServer
) -> None:
    _add(admin_client, cloud)
    keys = cited_links(admin_client, "How long does the old key stay valid after rotate-keys?")
    assert f"{cloud.page_link(cloud.pages['101'])}#Rotate-the-keys" in keys
    port = cited_links(admin_client, "Which port does the pelican gateway listen on?")
    assert f"{cloud.base_url}/download/attachments/102/gateway-manual.pdf#page=1" in port


def test_bad_links_and_options_are_refused_at_once(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi
) -> None:
    for url, options in (
        ("ftp://example.atlassian.net/wiki", {"space": "OPS", "email": EMAIL}),
        (cloud.base_url, {"email": EMAIL}),  # neither a space nor a page
        (cloud.base_url, {"space": "OPS"}),  # Cloud without the token's email
        (cloud.base_url, {"space": "OPS", "email": EMAIL, "deployment": "server"}),
        (cloud.base_url, {"root_page": "intro", "email": EMAIL}),
        (cloud.base_url, {"space": "O P S", "email": EMAIL}),
    ):
        response = add(admin_client, type="confluence", url=url, options=options, token=TOKEN)
        assert response.status_code == 400, (url, options, response.json())
        assert response.json()["code"] == "invalid_input"


def test_a_space_link_copied_from_the_browser_names_the_space(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi
) -> None:
    url = f"{cloud.base_url}/spaces/OPS/overview"
    response = add(admin_client, type="confluence", url=url, token=TOKEN, options={"email": EMAIL})
    assert response.status_code == 201, response.json()
    detail = detail_of(admin_client, response.json()["id"])
    assert detail["status"] == "SUCCESS", detail
    assert detail["options"]["space"] == "OPS"
    assert detail["options"]["base_url"] == cloud.base_url


def test_an_unknown_space_fails_in_words(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi
) -> None:
    detail = _add(admin_client, cloud, space="NOPE")
    assert detail["status"] == "FAILED"
    assert "no space NOPE" in detail["user_error"]


def test_add_source_reads_the_token_from_the_environment(
    guru: Guru, datacenter: FakeConfluenceApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OG_TEST_CONFLUENCE_TOKEN", TOKEN)
    out = io.StringIO()
    arguments = ["--token-env", "OG_TEST_CONFLUENCE_TOKEN", "--deployment", "datacenter"]
    arguments += ["--space", "OPS", "--no-attachments"]
    url = datacenter.base_url
    call_command("add_source", SLUG, "confluence", url, *arguments, stdout=out, stderr=out)
    source = DataSource.objects.get(type="confluence")
    assert source.status == "SUCCESS", source.user_error
    assert source.options["deployment"] == "datacenter" and source.options["attachments"] is False
    assert TOKEN not in out.getvalue() and source.credential
    assert not datacenter.requests_to("/child/attachment")
    assert f"{datacenter.base_url}/display/OPS/Hiring#Hiring-Interviews" in _links(guru, source.pk)


def test_beat_resyncs_confluence_on_the_connector_period(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi, settings: Settings
) -> None:
    source_id = _add(admin_client, cloud)["id"]
    indexed = DataSource.objects.get(pk=source_id).last_indexed_at
    assert indexed is not None
    hours = timedelta(hours=settings.GITHUB_RESYNC_HOURS)
    assert source_id not in sources_resync_due(now=indexed + hours - timedelta(minutes=1))
    assert source_id in sources_resync_due(now=indexed + hours + timedelta(minutes=1))


def test_a_next_page_on_another_host_is_not_followed_with_the_token(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi
) -> None:
    cloud.next_page_host = "http://127.0.0.2:9"
    detail = _add(admin_client, cloud)
    assert detail["status"] == "FAILED"
    assert "another host" in detail["user_error"]
    assert not any(r.query.get("cursor") for r in cloud.requests)


def test_a_damaged_pdf_attachment_leaves_its_page_indexed(
    admin_client: APIClient, guru: Guru, cloud: FakeConfluenceApi
) -> None:
    cloud.pages["102"].attachments[0].data = b"%PDF-1.7 not really a pdf"
    detail = _add(admin_client, cloud)
    assert detail["status"] == "SUCCESS", detail
    links = _links(guru, detail["id"])
    assert f"{cloud.page_link(cloud.pages['102'])}#Ports" in links
    assert not any("/download/" in link for link in links)
    assert cloud.requests_to("/download/attachments/102/gateway-manual.pdf")
