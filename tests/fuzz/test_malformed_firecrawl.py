"""Malformed Firecrawl replies through the whole pipeline (the real SDK, the loopback Firecrawl
stand-in): JSON cut short or in a form the API does not have fails the source with a reason, a
reply that never ends is cut at its cap; each leaves the previous index and the guru's other
sources as they were."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from openguru.gurus.models import Guru
from openguru.sources.loaders.firecrawl_http import RESPONSE_MAX_BYTES
from pytest_django import Settings
from rest_framework.test import APIClient

from tests.fakes.docs_site import copy_small_docs
from tests.fakes.firecrawl_server import FakeFirecrawlServer
from tests.sources.ingestion_helpers import (
    add,
    assert_failed_for_a_reason,
    bystander,
    detail_of,
    guru,
    reindex,
    snapshot,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["bystander", "guru"]  # fixtures, used by name

API_KEY = "fc-test-key"
SITE = "http://127.0.0.1:9"  # the stand-in maps URL paths to files and fetches nothing
BUFFERED = 16 * 1024 * 1024  # what a socket may hold beyond what the reader took
REASONS = {
    "truncated": "Firecrawl sent an unreadable reply",
    "wrong-shape": "Firecrawl sent a reply the loader cannot read",
}


@pytest.fixture
def firecrawl(tmp_path: Path, settings: Settings) -> Iterator[FakeFirecrawlServer]:
    with FakeFirecrawlServer(copy_small_docs(tmp_path), api_key=API_KEY) as server:
        settings.FIRECRAWL_API_KEY = API_KEY
        settings.FIRECRAWL_API_URL = server.url
        yield server


@pytest.fixture(params=["single", "crawl"])
def indexed(request, admin_client: APIClient, firecrawl: FakeFirecrawlServer) -> dict:
    """A page, or the whole site, indexed through Firecrawl while its replies were sound."""
    url = f"{SITE}/intro.html" if request.param == "single" else f"{SITE}/index.html"
    detail = detail_of(
        admin_client,
        add(admin_client, type="website", url=url, crawl_mode=request.param).json()["id"],
    )
    assert detail["status"] == "SUCCESS", detail
    return detail


@pytest.mark.parametrize("kind", list(REASONS))
def test_malformed_json_fails_with_a_reason_and_keeps_the_last_index(
    admin_client: APIClient,
    guru: Guru,
    bystander: int,
    firecrawl: FakeFirecrawlServer,
    indexed: dict,
    kind: str,
) -> None:
    others, kept = snapshot(guru, bystander), snapshot(guru, indexed["id"])

    firecrawl.break_replies(kind)
    failed = reindex(admin_client, indexed["id"])

    assert_failed_for_a_reason(failed, REASONS[kind])
    assert snapshot(guru, indexed["id"]) == kept
    assert snapshot(guru, bystander) == others


def test_an_endless_reply_is_cut_at_its_cap_and_keeps_the_last_index(
    admin_client: APIClient,
    guru: Guru,
    bystander: int,
    firecrawl: FakeFirecrawlServer,
    indexed: dict,
) -> None:
    others, kept = snapshot(guru, bystander), snapshot(guru, indexed["id"])

    firecrawl.break_replies("endless")
    failed = reindex(admin_client, indexed["id"])

    assert_failed_for_a_reason(failed, "larger than 50 MB")
    # Read once, up to the cap: no retry reads it again, nothing reads it whole.
    assert RESPONSE_MAX_BYTES <= firecrawl.sent_bytes <= RESPONSE_MAX_BYTES + BUFFERED
    assert snapshot(guru, indexed["id"]) == kept
    assert snapshot(guru, bystander) == others
