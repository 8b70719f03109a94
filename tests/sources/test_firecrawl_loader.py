"""FirecrawlLoader through the real SDK, against a loopback stand-in of the Firecrawl v2 API."""

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.loaders.base import (
    Document,
    LoadProgress,
    LoadRequest,
    LoadResult,
)
from openguru.sources.loaders.firecrawl import FirecrawlLoader, path_regex
from openguru.sources.loaders.website import WebsiteLoader, website_loader
from pytest_django import Settings

from tests.fakes.docs_site import copy_small_docs
from tests.fakes.firecrawl_server import FakeFirecrawlServer

API_KEY = "fc-test-key"
# Where the pages "are": the stand-in maps URL paths to files and never fetches anything.
SITE = "http://127.0.0.1:9"
ALLOWED_PAGES = {
    "/index.html",
    "/intro.html",
    "/tutorial/index.html",
    "/tutorial/first-steps.html",
    "/tutorial/advanced.html",
    "/api.html",
    "/faq.html",
}


@pytest.fixture
def site_root(tmp_path: Path) -> Path:
    return copy_small_docs(tmp_path)


@pytest.fixture
def firecrawl(site_root: Path, settings: Settings) -> Iterator[FakeFirecrawlServer]:
    with FakeFirecrawlServer(site_root, api_key=API_KEY, page_size=3, scraping_polls=2) as server:
        settings.FIRECRAWL_API_KEY = API_KEY
        settings.FIRECRAWL_API_URL = server.url
        yield server


def load(
    url: str,
    mode: str = "crawl",
    *,
    fetch_state: Mapping[str, Mapping[str, Any]] | None = None,
    **options: Any,
) -> tuple[LoadResult, list[Document], list[LoadProgress]]:
    progress: list[LoadProgress] = []
    request = LoadRequest(
        source_id=1,
        url=url,
        crawl_mode=mode,
        options=options,
        fetch_state=fetch_state or {},
    )
    loader = FirecrawlLoader(poll_seconds=0.01)
    result = loader.load(request, on_progress=lambda p: progress.append(LoadProgress(**vars(p))))
    return result, list(result.documents), progress


def _paths(documents: list[Document]) -> set[str]:
    return {d.link.removeprefix(SITE) for d in documents}


def _posts(server: FakeFirecrawlServer, path: str) -> list[Any]:
    return [r.body for r in server.requests if r.method == "POST" and r.path == path]


def test_factory_picks_firecrawl_only_with_a_key(settings: Settings) -> None:
    settings.FIRECRAWL_API_KEY = ""
    assert isinstance(website_loader(), WebsiteLoader)
    settings.FIRECRAWL_API_KEY = API_KEY
    assert isinstance(website_loader(), FirecrawlLoader)


def test_single_page_is_scraped_as_markdown(firecrawl: FakeFirecrawlServer) -> None:
    _, documents, progress = load(f"{SITE}/intro.html", "single")
    [document] = documents
    assert document.format == "markdown"
    assert document.link == f"{SITE}/intro.html"
    assert document.title == "Introduction — Acme 2.0 documentation"
    assert "## Getting started" in document.text
    assert "pip install acme-rockets" in document.text
    [sent] = _posts(firecrawl, "/v2/scrape")
    assert sent["url"] == f"{SITE}/intro.html"
    assert sent["formats"] == ["markdown"] and sent["onlyMainContent"] is True
    assert firecrawl.requests[0].headers["Authorization"] == f"Bearer {API_KEY}"
    assert progress[-1].fetched == 1


def test_crawl_polls_then_pages_through_results(firecrawl: FakeFirecrawlServer) -> None:
    result, documents, progress = load(f"{SITE}/", max_pages=50, max_depth=4)
    assert _paths(documents) == ALLOWED_PAGES  # private/ disallowed by robots.txt
    assert all(d.format == "markdown" and d.text.strip() for d in documents)
    [sent] = _posts(firecrawl, "/v2/crawl")
    assert sent["url"] == f"{SITE}/"
    assert sent["limit"] == 50 and sent["maxDiscoveryDepth"] == 4
    assert sent["sitemap"] == "include"
    assert sent["scrapeOptions"]["formats"] == ["markdown"]
    status_calls = [r.path for r in firecrawl.requests if r.method == "GET"]
    assert len(status_calls) == 3 + 2  # two "scraping" polls, then 7 documents in pages of 3
    assert status_calls[-1].endswith("?skip=6")
    assert set(result.fetch_state) == {SITE + p for p in ALLOWED_PAGES}
    assert progress[-1].discovered == 7 and progress[-1].fetched == 7


def test_crawl_patterns_are_sent_as_path_regexes(
    firecrawl: FakeFirecrawlServer,
) -> None:
    _, documents, _ = load(f"{SITE}/", exclude_patterns=["/tutorial/*"])
    [sent] = _posts(firecrawl, "/v2/crawl")
    assert sent["excludePaths"] == ["^/tutorial/.*$"]
    assert _paths(documents) == {"/index.html", "/intro.html", "/api.html", "/faq.html"}


def test_sitemap_mode_asks_for_sitemap_only(firecrawl: FakeFirecrawlServer) -> None:
    _, documents, _ = load(f"{SITE}/", "sitemap")
    [sent] = _posts(firecrawl, "/v2/crawl")
    assert sent["sitemap"] == "only"
    assert _paths(documents) == ALLOWED_PAGES


def test_second_run_reports_unchanged_pages_by_hash(
    firecrawl: FakeFirecrawlServer, site_root: Path
) -> None:
    first, _, _ = load(f"{SITE}/")
    page = site_root / "faq.html"
    page.write_text(page.read_text().replace("The rocket team.", "The rocket team and friends."))

    second, documents, progress = load(f"{SITE}/", fetch_state=first.fetch_state)

    [changed] = documents
    assert changed.link == f"{SITE}/faq.html"
    assert "and friends" in changed.text
    assert second.unchanged_links == {SITE + p for p in ALLOWED_PAGES - {"/faq.html"}}
    assert progress[-1].skipped_unchanged == 6


def test_missing_single_page_fails(firecrawl: FakeFirecrawlServer) -> None:
    with pytest.raises(DomainError) as caught:
        load(f"{SITE}/missing.html", "single")
    assert caught.value.code == ErrorCode.FETCH_FAILED
    assert "404 Not Found" in caught.value.msg


def test_wrong_api_key_is_a_provider_error(
    firecrawl: FakeFirecrawlServer, settings: Settings
) -> None:
    settings.FIRECRAWL_API_KEY = "fc-wrong"
    with pytest.raises(DomainError) as caught:
        load(f"{SITE}/", "crawl")
    assert caught.value.code == ErrorCode.PROVIDER_ERROR


def test_failed_crawl_job_fails_the_load(firecrawl: FakeFirecrawlServer) -> None:
    firecrawl.fail_jobs()
    with pytest.raises(DomainError) as caught:
        load(f"{SITE}/")
    assert caught.value.code == ErrorCode.FETCH_FAILED


def test_private_urls_are_refused_before_firecrawl_sees_them(
    firecrawl: FakeFirecrawlServer,
) -> None:
    with pytest.raises(DomainError) as caught:
        load("http://169.254.169.254/latest/meta-data/", "single")
    assert caught.value.code == ErrorCode.URL_NOT_ALLOWED
    assert firecrawl.requests == []


@pytest.mark.parametrize(
    ("pattern", "regex"),
    [
        ("/tutorial/*", "^/tutorial/.*$"),
        ("tutorial/*", "^.*/tutorial/.*$"),
        ("*.html", "^.*\\.html$"),
        ("/v?/a+b", "^/v./a\\+b$"),
        ("^/api/", "^/api/"),
    ],
)
def test_path_regex(pattern: str, regex: str) -> None:
    assert path_regex(pattern) == regex
