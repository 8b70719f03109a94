"""A Zendesk Help Center as a source, end to end: the admin API, the processing task run eagerly,
the connector talking to a loopback stand-in in Zendesk's Help Center shapes, and the guru's
vector store read back."""

import base64
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
from openguru.sources.validation import validate_source_input, validate_source_options
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.zendesk_api import WEB, FakeArticle, FakeZendeskApi
from tests.sources.ingestion_helpers import (
    SLUG,
    SOURCES,
    add,
    assert_failed_for_a_reason,
    chunks_of,
    cited_links,
    detail_of,
    guru,
    reindex,
    snapshot,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["guru"]  # fixtures, used by name

EMAIL = "agent@acme.test"
TOKEN = "zd-api-token-good-0123456789"
OAUTH = "zd-oauth-access-token-42"
RESET = f"{WEB}/hc/en-us/articles/1-reset-a-ferret-password"
RESET_ANCHOR = f"{RESET}#h_01HRESETLOCKED"


def _articles() -> list[FakeArticle]:
    return [
        FakeArticle(
            1,
            "Reset a ferret password",
            "<p>Passwords of ferret accounts are reset from the account page.</p>"
            '<h2 id="h_01HRESETSTEPS">Steps</h2>'
            "<p>Open Settings, choose Security and press Reset ferret password.</p>"
            '<h2 id="h_01HRESETLOCKED">When the account is locked</h2>'
            "<p>A locked ferret account unlocks after the owner answers the burrow question "
            "sent by email; support cannot skip it.</p>",
            "2025-03-01T10:00:00Z",
            labels=["accounts"],
        ),
        FakeArticle(
            2,
            "Billing cycles",
            "<p>Invoices for the meadow plan are sent on the first day of the month.</p>"
            '<h2 id="h_01HBILLREFUND">Refunds</h2>'
            "<p>Refunds reach the original card within ten business days.</p>",
            "2025-02-01T10:00:00Z",
            section_id=200,
        ),
        FakeArticle(
            3,
            "Export your burrow map",
            "<p>Export the burrow map as a PDF from the Maps tab.</p>",
            "2025-01-15T10:00:00Z",
            section_id=300,
        ),
        FakeArticle(
            4,
            "Upcoming hedgehog mode",
            "<p>Hedgehog mode is not announced yet: this draft is for agents only.</p>",
            "2025-03-03T10:00:00Z",
            draft=True,
        ),
        FakeArticle(
            5,
            "Passwort zurücksetzen",
            "<p>Das Frettchen-Passwort wird auf der Kontoseite zurückgesetzt.</p>",
            "2025-03-01T10:00:00Z",
            locale="de",
        ),
    ]


@pytest.fixture
def zendesk(settings: Settings) -> Iterator[FakeZendeskApi]:
    with FakeZendeskApi(email=EMAIL, token=TOKEN, oauth_token=OAUTH) as server:
        for article in _articles():
            server.add(article)
        server.page_size_max = 2  # every listing spans pages
        settings.CONNECTOR_RETRY_AFTER_MAX_SECONDS = 5
        yield server


def _add_help_center(
    client: APIClient, zendesk: FakeZendeskApi, *, token: str = TOKEN, **options: Any
) -> dict[str, Any]:
    options = {"email": EMAIL, **options} if token == TOKEN else options
    response = add(client, type="zendesk", url=zendesk.url, token=token, options=options)
    assert response.status_code == 201, response.json()
    assert not token or token not in response.content.decode()
    return detail_of(client, response.json()["id"])


def _links(guru: Guru, source_id: int) -> set[str]:
    return {str(hit.metadata["link"]) for hit in chunks_of(guru, source_id)}


def test_first_sync_reads_published_articles_across_cursor_pages_linked_to_headings(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi
) -> None:
    detail = _add_help_center(admin_client, zendesk)
    assert detail["status"] == "SUCCESS", detail
    assert detail["has_token"] is True
    assert detail["progress"]["pages_discovered"] == 3  # articles 1-3: not the draft, not "de"
    links = _links(guru, detail["id"])
    assert {RESET, f"{RESET}#h_01HRESETSTEPS", RESET_ANCHOR, f"{WEB}/hc/en-us/articles/3-export-your-burrow-map"} <= links  # fmt: skip
    assert not any("hedgehog" in link or "/de/" in link for link in links)
    listings = zendesk.listings()
    assert [r.query.get("page[size]") for r in listings] == ["100", "2"]
    assert "page[after]" not in listings[0].query and listings[1].query["page[after]"]
    basic = base64.b64encode(f"{EMAIL}/token:{TOKEN}".encode()).decode()
    assert all(r.authorization == f"Basic {basic}" for r in zendesk.requests)
    locked = [h for h in chunks_of(guru, detail["id"]) if h.metadata["link"] == RESET_ANCHOR]
    assert "burrow question" in locked[0].text
    assert locked[0].metadata["heading_path"].endswith("When the account is locked")
    stored = DataSource.objects.get(pk=detail["id"]).credential
    assert stored and TOKEN not in stored  # encrypted at rest


def test_a_resync_embeds_only_the_section_that_changed(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi
) -> None:
    source_id = _add_help_center(admin_client, zendesk)["id"]
    before = snapshot(guru, source_id)
    article = zendesk.articles[2]
    article.body = article.body.replace("ten business days", "five business days")
    article.updated_at = "2025-03-09T10:00:00Z"
    detail = reindex(admin_client, source_id)
    assert detail["status"] == "SUCCESS", detail
    result = detail["last_result"]
    assert result["chunks_new"] == 1 and result["chunks_embedded"] == 1, result
    assert result["chunks_deleted"] == 1, result
    assert detail["progress"]["pages_fetched"] == 1 and detail["progress"]["pages_skipped"] == 2
    after = snapshot(guru, source_id)
    assert any("five business days" in text for text in after.values())
    assert len(set(before) & set(after)) == len(before) - 1


def test_articles_deleted_archived_or_back_to_draft_lose_their_chunks(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi
) -> None:
    source_id = _add_help_center(admin_client, zendesk)["id"]
    del zendesk.articles[2]
    zendesk.articles[3].archived = True
    detail = reindex(admin_client, source_id)
    assert detail["status"] == "SUCCESS", detail
    assert detail["last_result"]["chunks_deleted"] == 3, detail["last_result"]
    links = _links(guru, source_id)
    assert not any("/articles/2-" in link or "/articles/3-" in link for link in links)
    assert RESET_ANCHOR in links
    zendesk.articles[1].draft = True  # unpublished, kept as a draft
    zendesk.add(FakeArticle(6, "Contact support", "<p>Write to the burrow desk.</p>", "2025-04"))
    detail = reindex(admin_client, source_id)
    assert detail["status"] == "SUCCESS", detail
    assert _links(guru, source_id) == {f"{WEB}/hc/en-us/articles/6-contact-support"}


def test_a_wrong_token_fails_readably_and_keeps_the_previous_index(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi
) -> None:
    source_id = _add_help_center(admin_client, zendesk)["id"]
    before = snapshot(guru, source_id)
    response = admin_client.put(
        f"{SOURCES}{source_id}/token/", {"token": "zd-wrong"}, format="json"
    )
    assert response.status_code == 202, response.json()
    assert "zd-wrong" not in response.content.decode()
    detail = detail_of(admin_client, source_id)
    assert_failed_for_a_reason(detail, "Zendesk refused the token (401)")
    assert snapshot(guru, source_id) == before
    admin_client.put(f"{SOURCES}{source_id}/token/", {"token": TOKEN}, format="json")
    assert detail_of(admin_client, source_id)["status"] == "SUCCESS"


def test_rate_limits_and_server_errors_are_waited_out(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi
) -> None:
    zendesk.fail_next = [(429, {"Retry-After": "1"}), (503, {})]
    detail = _add_help_center(admin_client, zendesk)
    assert detail["status"] == "SUCCESS", detail
    first, second, third = zendesk.requests[:3]
    assert second.at - first.at >= 1.0  # Retry-After honoured
    assert third.path == first.path  # the 503 was asked again
    assert RESET_ANCHOR in _links(guru, detail["id"])


def test_endless_server_errors_fail_the_run_with_a_retry_message(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi, settings: Settings
) -> None:
    settings.CONNECTOR_MAX_RETRIES = 1
    zendesk.fail_next = [(503, {})] * 50  # past the task's own retries too
    detail = _add_help_center(admin_client, zendesk)
    assert_failed_for_a_reason(detail, "Zendesk is busy or unreachable")


def test_sections_and_locale_choose_the_articles(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi
) -> None:
    detail = _add_help_center(admin_client, zendesk, section_ids="200, 300")
    assert detail["status"] == "SUCCESS", detail
    assert DataSource.objects.get(pk=detail["id"]).options["section_ids"] == [200, 300]
    paths = {r.path for r in zendesk.listings()}
    assert paths == {
        "/api/v2/help_center/en-us/sections/200/articles",
        "/api/v2/help_center/en-us/sections/300/articles",
    }
    links = _links(guru, detail["id"])
    assert f"{WEB}/hc/en-us/articles/2-billing-cycles#h_01HBILLREFUND" in links
    assert not any("/articles/1-" in link for link in links)
    # One source per help center in a guru: the German one replaces it.
    assert admin_client.delete(f"{SOURCES}{detail['id']}/").status_code == 204
    german = _add_help_center(admin_client, zendesk, locale="DE")
    assert german["status"] == "SUCCESS", german
    assert _links(guru, german["id"]) == {f"{WEB}/hc/de/articles/5-passwort-zur-cksetzen"}


def test_a_public_help_center_is_read_without_credentials_and_oauth_is_a_bearer(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi
) -> None:
    detail = _add_help_center(admin_client, zendesk, token="")
    assert detail["status"] == "SUCCESS" and detail["has_token"] is False
    assert all(r.authorization == "" for r in zendesk.requests)
    assert RESET_ANCHOR in _links(guru, detail["id"])
    zendesk.requests.clear()
    assert admin_client.delete(f"{SOURCES}{detail['id']}/").status_code == 204
    oauth = _add_help_center(admin_client, zendesk, token=OAUTH, section_ids=[100])
    assert oauth["status"] == "SUCCESS", oauth
    assert {r.authorization for r in zendesk.requests} == {f"Bearer {OAUTH}"}


def test_a_restricted_help_center_without_credentials_fails_in_words(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi
) -> None:
    zendesk.restricted = True
    detail = _add_help_center(admin_client, zendesk, token="")
    assert_failed_for_a_reason(detail, "the help center was not found or is not readable")
    assert admin_client.delete(f"{SOURCES}{detail['id']}/").status_code == 204
    unknown = _add_help_center(admin_client, zendesk, section_ids=[999])
    assert_failed_for_a_reason(unknown, "(404)")


def test_a_search_hit_cites_the_article_heading(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi
) -> None:
    _add_help_center(admin_client, zendesk)
    key = admin_client.post("/api/api-keys/", {"name": "search"}, format="json").json()["key"]
    found = APIClient().post(
        f"/api/v1/{SLUG}/search/",
        {"query": "locked ferret account burrow question"},
        format="json",
        HTTP_X_API_KEY=key,
    )
    assert found.status_code == 200, found.json()
    assert RESET_ANCHOR in found.content.decode()
    listed = APIClient().get(f"/api/v1/{SLUG}/data-sources/", HTTP_X_API_KEY=key)
    assert listed.status_code == 200 and '"ZENDESK"' in listed.content.decode()
    assert TOKEN not in listed.content.decode()


def test_an_answer_cites_the_article_heading(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi, llm_server: FakeOpenAIServer
) -> None:
    _add_help_center(admin_client, zendesk)
    links = cited_links(admin_client, "How does a locked ferret account get unlocked?")
    assert RESET_ANCHOR in links


def test_bad_addresses_and_options_are_refused_at_once(
    admin_client: APIClient, guru: Guru, settings: Settings
) -> None:
    for url, options in (
        ("https://help.example.com", {}),
        ("https://acme.zendesk.com.example.com", {}),
        ("not a subdomain!", {}),
        ("acme", {"locale": "english!"}),
        ("acme", {"section_ids": "billing"}),
        ("acme", {"email": "agent at acme"}),
    ):
        response = add(admin_client, type="zendesk", url=url, options=options)
        assert response.status_code == 400, (url, response.json())
        assert response.json()["code"] == "invalid_input"
    settings.CRAWLER_ALLOW_LOOPBACK = False  # production: only Zendesk's own hosts
    response = add(admin_client, type="zendesk", url="http://127.0.0.1:9/")
    assert response.status_code == 400 and response.json()["code"] == "invalid_input"


def test_a_subdomain_or_help_center_link_becomes_the_api_base() -> None:
    # Checked where the link is read, without a sync: none may reach out of this machine.
    for given in ("acme", "https://acme.zendesk.com/hc/en-us"):
        url = validate_source_input(type="zendesk", url=given, content="", crawl_mode="single")
        url, options = validate_source_options(type="zendesk", url=url, options={"locale": "en-us"})
        assert (url, options["locale"]) == ("https://acme.zendesk.com", "en-us")


def test_add_source_reads_the_token_from_the_environment(
    guru: Guru, zendesk: FakeZendeskApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OG_TEST_ZENDESK_TOKEN", TOKEN)
    out = io.StringIO()
    arguments = ["--token-env", "OG_TEST_ZENDESK_TOKEN", "--email", EMAIL, "--sections", "100"]
    call_command("add_source", SLUG, "zendesk", zendesk.url, *arguments, stdout=out, stderr=out)
    source = DataSource.objects.get(type="zendesk")
    assert source.status == "SUCCESS", source.user_error
    assert source.options == {"locale": "en-us", "section_ids": [100], "email": EMAIL}
    assert TOKEN not in out.getvalue() and source.credential
    assert RESET_ANCHOR in _links(guru, source.pk)


def test_beat_resyncs_help_centers_on_their_period(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi, settings: Settings
) -> None:
    source_id = _add_help_center(admin_client, zendesk)["id"]
    indexed = DataSource.objects.get(pk=source_id).last_indexed_at
    assert indexed is not None
    hours = timedelta(hours=settings.ZENDESK_RESYNC_HOURS)
    assert source_id not in sources_resync_due(now=indexed + hours - timedelta(minutes=1))
    assert source_id in sources_resync_due(now=indexed + hours + timedelta(minutes=1))


def test_a_next_page_on_another_host_is_not_followed_with_the_token(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi
) -> None:
    zendesk.next_page_host = "http://127.0.0.2:9"  # links.next pointing away from the API
    detail = _add_help_center(admin_client, zendesk)
    assert_failed_for_a_reason(detail, "another host")


def test_an_export_leaves_the_token_out(
    admin_client: APIClient, guru: Guru, zendesk: FakeZendeskApi, tmp_path: Path
) -> None:
    source_id = _add_help_center(admin_client, zendesk)["id"]
    stored = DataSource.objects.get(pk=source_id).credential
    out = tmp_path / "guru.zip"
    guru_export(guru=guru, out=out, store=get_vector_store())
    with zipfile.ZipFile(out) as archive:
        text = "".join(archive.read(name).decode(errors="replace") for name in archive.namelist())
    assert stored not in text and TOKEN not in text
    assert RESET_ANCHOR in text  # the chunks are there
