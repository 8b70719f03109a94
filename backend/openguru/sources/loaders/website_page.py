"""One website page, fetched incrementally: last run's validators go back as conditional
headers, a 304 or an identical body hash makes the page "unchanged", and only a changed page is
parsed into a Document. The page's new fetch state (ETag, Last-Modified, body hash and, when
crawling, its outgoing links) is what the next run sends back.
"""

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.sources.loaders.base import Document
from openguru.sources.loaders.ssrf import FetchResult, safe_fetch
from openguru.sources.loaders.website_html import (
    HTML_TYPES,
    ParsedPage,
    page_links,
    parse_page,
)
from openguru.sources.loaders.website_scope import CrawlScope, canonical_url

HTML_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"
_VALIDATOR_KEYS = ("etag", "last_modified", "hash")


@dataclass
class Page:
    url: str  # as requested
    depth: int
    link: str = ""  # final URL, fragment-free: the Document's link and the fetch-state key
    state: dict[str, Any] = field(default_factory=dict)
    document: Document | None = None
    links: list[str] = field(default_factory=list)
    unchanged: bool = False
    error: DomainError | None = None

    @property
    def not_a_page(self) -> bool:
        return self.error is not None and self.error.code == ErrorCode.INVALID_FILE


def landed_in(page: Page, scope: CrawlScope) -> bool:
    """False for a page that redirected off the crawled site (or into an excluded path)."""
    return not page.link or scope.allows(page.link)


def fetch_page(
    url: str,
    depth: int,
    *,
    fetch_state: Mapping[str, Mapping[str, Any]],
    client: httpx.Client,
    need_links: bool,
    strict: bool,
) -> Page:
    """Fetch and extract one page (runs on worker threads: touches no shared state)."""
    previous = fetch_state.get(url) or {}
    try:
        result = safe_fetch(
            url,
            headers=_conditional_headers(previous, need_links=need_links),
            accept_types=HTML_TYPES,
            client=client,
        )
    except DomainError as exc:
        if strict:
            raise
        if isinstance(exc, TransientError) and previous.get("hash"):
            # A blip (timeout, 503) keeps last run's copy searchable instead of deleting it.
            links = [str(href) for href in previous.get("links", [])]
            kept = {key: previous[key] for key in _VALIDATOR_KEYS if key in previous}
            page = _page(url, depth, url, kept, links, need_links=need_links)
            page.unchanged, page.error = True, exc
            return page
        return Page(url, depth, error=exc)
    link = canonical_url(result.url) or result.url
    previous = previous or fetch_state.get(link) or {}
    if result.not_modified:
        state = {**_validators(result, previous), "hash": str(previous.get("hash", ""))}
        links = [str(href) for href in previous.get("links", [])]
        return _page(url, depth, link, state, links, unchanged=True, need_links=need_links)
    digest = hashlib.sha256(result.body).hexdigest()
    state = {**_validators(result, previous), "hash": digest}
    if digest == previous.get("hash"):
        links = page_links(result.body, url=link, charset=result.charset) if need_links else []
        return _page(url, depth, link, state, links, unchanged=True, need_links=need_links)
    parsed = parse_page(result.body, url=link, charset=result.charset)
    page = _page(url, depth, link, state, parsed.links, need_links=need_links)
    page.document = _document(parsed, link, depth)
    return page


def _page(
    url: str,
    depth: int,
    link: str,
    state: dict[str, Any],
    links: list[str],
    *,
    need_links: bool,
    unchanged: bool = False,
) -> Page:
    if need_links:
        state = {**state, "links": list(dict.fromkeys(links))}
    return Page(url, depth, link=link, state=state, links=links, unchanged=unchanged)


def _conditional_headers(previous: Mapping[str, Any], *, need_links: bool) -> dict[str, str]:
    headers = {"Accept": HTML_ACCEPT}
    if need_links and "links" not in previous:
        return headers  # a 304 would leave us without the page's links
    if previous.get("etag"):
        headers["If-None-Match"] = str(previous["etag"])
    if previous.get("last_modified"):
        headers["If-Modified-Since"] = str(previous["last_modified"])
    return headers


def _validators(result: FetchResult, previous: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "etag": result.headers.get("etag") or str(previous.get("etag", "")),
        "last_modified": (
            result.headers.get("last-modified") or str(previous.get("last_modified", ""))
        ),
    }


def _document(parsed: ParsedPage, link: str, depth: int) -> Document | None:
    if not parsed.html:
        return None
    metadata: dict[str, Any] = {"depth": depth}
    if parsed.language:
        metadata["language"] = parsed.language
    return Document(
        title=parsed.title or link, link=link, text=parsed.html, format="html", metadata=metadata
    )
