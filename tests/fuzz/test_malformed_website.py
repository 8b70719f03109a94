"""Malformed web pages and sitemaps through the whole pipeline, served by loopback servers:
pages are handled (their text indexed, nothing failing) however they nest or what charset they
claim; an endless sitemap is cut at its size cap and fails the source with a reason, leaving
the previous index and the guru's other sources as they were."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from openguru.gurus.models import Guru
from openguru.sources.loaders.website_sitemap import SITEMAP_MAX_BYTES, SITEMAPS_MAX_TOTAL_BYTES
from rest_framework.test import APIClient

from tests.fakes.docs_site import DocsSite
from tests.fuzz.malformed import GIGABYTE, StreamingSitemaps
from tests.sources.ingestion_helpers import (
    add,
    assert_failed_for_a_reason,
    bystander,
    chunks_of,
    detail_of,
    guru,
    reindex,
    snapshot,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["bystander", "guru"]  # fixtures, used by name

# What a socket may hold beyond what the reader took when it stopped reading.
BUFFERED = 16 * 1024 * 1024


@pytest.fixture
def site(tmp_path: Path) -> Iterator[DocsSite]:
    with DocsSite(tmp_path) as served:
        yield served


def _indexed_text(client: APIClient, guru: Guru, url: str) -> str:
    detail = detail_of(client, add(client, type="website", url=url).json()["id"])
    assert detail["status"] == "SUCCESS", detail
    return " ".join(" ".join(hit.text.split()) for hit in chunks_of(guru, detail["id"]))


def _page(body: str, head: str = "") -> str:
    return f"<html><head><title>Field notes</title>{head}</head><body><main>{body}</main></body></html>"


def test_a_hundred_thousand_nested_tags_index_what_can_be_read(
    admin_client: APIClient, guru: Guru, site: DocsSite
) -> None:
    nested = "<div>" * 100_000 + "<p>lost in the depths</p>" + "</div>" * 100_000
    site.add_page("/deep.html", _page(f"<p>The aardvark digs at night.</p>{nested}"))
    assert "aardvark digs at night" in _indexed_text(admin_client, guru, site.url_for("deep.html"))


def test_two_thousand_nested_tags_lose_nothing(
    admin_client: APIClient, guru: Guru, site: DocsSite
) -> None:
    # Past 256 levels the HTML parser used to stop reading: all that followed was dropped.
    nested = "<font>" * 2000 + "<p>The bison grazes at dawn.</p>" + "</font>" * 2000
    body = f"<p>The aardvark digs at night.</p>{nested}<p>The cheetah runs at noon.</p>"
    site.add_page("/deep.html", _page(body))
    text = _indexed_text(admin_client, guru, site.url_for("deep.html"))
    for sentence in ("aardvark digs at night", "bison grazes at dawn", "cheetah runs at noon"):
        assert sentence in text


@pytest.mark.parametrize("charset", ["undefined", "punycode", "rot13", "x-no-such-thing"])
def test_a_page_claiming_a_nonsense_charset_is_read_as_utf8(
    admin_client: APIClient, guru: Guru, site: DocsSite, charset: str
) -> None:
    # "undefined" and "punycode" are Python codecs that fail with a bare UnicodeError, which
    # escaped as an internal error and failed the whole source.
    body = _page("<p>The dingo howls at dusk.</p>", head=f'<meta charset="{charset}">')
    site.add_page("/odd.html", body, content_type="text/html")
    assert "dingo howls at dusk" in _indexed_text(admin_client, guru, site.url_for("odd.html"))
    site.add_page("/odd-header.html", body, content_type=f"text/html; charset={charset}")
    assert "dingo howls" in _indexed_text(admin_client, guru, site.url_for("odd-header.html"))


def test_control_characters_beside_a_comment_do_not_fail_the_page(
    admin_client: APIClient, guru: Guru, site: DocsSite
) -> None:
    # Dropping the comment rewrites the text around it, which lxml refuses with these in it.
    body = _page("<p>The okapi\x0b hides<!-- note -->\x0c in the \x01forest.</p>")
    site.add_page("/control.html", body)
    assert "okapi hides in the forest" in _indexed_text(
        admin_client, guru, site.url_for("control.html")
    )


def test_an_endless_sitemap_is_cut_at_its_cap_and_keeps_the_last_index(
    admin_client: APIClient, guru: Guru, bystander: int
) -> None:
    others = snapshot(guru, bystander)
    with StreamingSitemaps(size=64 * 1024) as server:
        response = add(
            admin_client, type="website", url=f"{server.url}/sitemap.xml", crawl_mode="sitemap"
        )
        indexed = detail_of(admin_client, response.json()["id"])
        assert indexed["status"] == "SUCCESS", indexed
        kept = snapshot(guru, indexed["id"])
        assert kept

        server.size, server.sent = GIGABYTE, 0  # the sitemap now never ends
        failed = reindex(admin_client, indexed["id"])
        assert_failed_for_a_reason(failed, "larger than the 50 MB limit")
        assert SITEMAP_MAX_BYTES <= server.sent <= SITEMAP_MAX_BYTES + BUFFERED
    assert snapshot(guru, indexed["id"]) == kept
    assert snapshot(guru, bystander) == others


def test_an_index_of_endless_sitemaps_stops_at_the_total_cap(
    admin_client: APIClient, guru: Guru, bystander: int
) -> None:
    others = snapshot(guru, bystander)
    with StreamingSitemaps(size=GIGABYTE, children=20) as server:
        response = add(
            admin_client, type="website", url=f"{server.url}/index.xml", crawl_mode="sitemap"
        )
        detail = detail_of(admin_client, response.json()["id"])
        # Twenty sitemaps of 50 MB each used to be read whole, one after the other: a gigabyte.
        assert server.sent <= SITEMAPS_MAX_TOTAL_BYTES + 4 * BUFFERED
    # Each child was refused as too large and skipped: an index of nothing readable.
    assert_failed_for_a_reason(detail)
    assert chunks_of(guru, detail["id"]) == []
    assert snapshot(guru, bystander) == others
