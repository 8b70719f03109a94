"""Websites through Firecrawl (hosted or self-hosted): it renders JavaScript and returns markdown.

Chosen by `website_loader()` when FIRECRAWL_API_KEY is set. Uses the v2 API through the official
SDK: POST /v2/scrape for one page; POST /v2/crawl then GET /v2/crawl/{id} (polled, then paged
through `next`) for a crawl or, with `sitemap: "only"`, for a sitemap. The crawl options are the
website loader's (max_pages, max_depth, include/exclude patterns, stay_under_path).

Firecrawl has no conditional GET, so an unchanged page is one whose markdown hashes the same as
last time: it is still scraped (and billed), but not re-chunked or re-embedded.
"""

import hashlib
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import requests
from django.conf import settings
from firecrawl import Firecrawl
from firecrawl.v2.types import Document as FirecrawlDocument
from firecrawl.v2.types import PaginationConfig, ScrapeOptions
from firecrawl.v2.utils.error_handler import (
    FirecrawlError,
    InternalServerError,
    PaymentRequiredError,
    RateLimitError,
    RequestTimeoutError,
    UnauthorizedError,
)

from openguru.core.errors import DomainError, ErrorCode, TransientError
from openguru.sources.loaders.base import (
    Document,
    LoadProgress,
    LoadRequest,
    LoadResult,
    ProgressCallback,
    ProgressReporter,
)
from openguru.sources.loaders.firecrawl_http import install as install_capped_http
from openguru.sources.loaders.ssrf import check_url, http_status_error
from openguru.sources.loaders.website_scope import CrawlLimits, canonical_url

logger = logging.getLogger(__name__)

DEFAULT_POLL_SECONDS = 2.0
DEFAULT_MAX_WAIT_SECONDS = 6 * 3600.0
_REGEX_SPECIALS = frozenset(".^$+()[]{}|\\")


@contextmanager
def _firecrawl_errors(url: str) -> Iterator[None]:
    """SDK exceptions to ours: a bad key is a configuration problem, overload is retried."""
    try:
        yield
    except (UnauthorizedError, PaymentRequiredError) as exc:
        msg = f"Firecrawl refused the request; check FIRECRAWL_API_KEY ({exc})."
        raise DomainError(ErrorCode.PROVIDER_ERROR, msg) from exc
    except (RequestTimeoutError, RateLimitError, InternalServerError) as exc:
        raise TransientError(ErrorCode.PROVIDER_UNAVAILABLE, f"Firecrawl is busy: {exc}") from exc
    except FirecrawlError as exc:
        msg = f"Firecrawl could not fetch {url}: {exc}"
        raise DomainError(ErrorCode.FETCH_FAILED, msg) from exc
    except requests.exceptions.JSONDecodeError as exc:  # cut short on the way, or not JSON at all
        logger.warning("Firecrawl reply for %s is not JSON: %s", url, exc)
        msg = "Firecrawl sent an unreadable reply."
        raise TransientError(ErrorCode.PROVIDER_UNAVAILABLE, msg) from exc
    except requests.RequestException as exc:
        raise TransientError(ErrorCode.PROVIDER_UNAVAILABLE, "Firecrawl is unreachable.") from exc
    except (ValueError, TypeError, KeyError, AttributeError) as exc:  # JSON, not in the API's shape
        logger.warning("Firecrawl reply for %s is not in the expected form: %s", url, exc)
        msg = "Firecrawl sent a reply the loader cannot read."
        raise DomainError(ErrorCode.PROVIDER_ERROR, msg) from exc


def path_regex(pattern: str) -> str:
    """Our include/exclude pattern (glob, or regex when it starts with "^") as the path regex
    Firecrawl expects. Escapes by hand: Python's re.escape yields escapes JavaScript rejects."""
    if pattern.startswith("^"):
        return pattern
    glob = pattern if pattern.startswith(("/", "*")) else "*/" + pattern
    translated = "".join(
        ".*" if char == "*" else "." if char == "?" else "\\" + char if char in _REGEX_SPECIALS
        else char
        for char in glob
    )  # fmt: skip
    return f"^{translated}$"


def _link_of(document: FirecrawlDocument, fallback: str) -> str:
    metadata = document.metadata_typed
    url = metadata.url or metadata.source_url or fallback
    return canonical_url(str(url)) or fallback


class FirecrawlLoader:
    def __init__(
        self,
        *,
        api_key: str | None = None,
        api_url: str | None = None,
        poll_seconds: float = DEFAULT_POLL_SECONDS,
        max_wait_seconds: float = DEFAULT_MAX_WAIT_SECONDS,
    ) -> None:
        self.api_key = api_key
        self.api_url = api_url
        self.poll_seconds = poll_seconds
        self.max_wait_seconds = max_wait_seconds

    def _client(self) -> Firecrawl:
        client = Firecrawl(
            api_key=self.api_key or settings.FIRECRAWL_API_KEY,
            api_url=self.api_url or settings.FIRECRAWL_API_URL or None,
            timeout=max(60.0, settings.CRAWLER_TIMEOUT_SECONDS * 3),
            max_retries=2,
        )
        return install_capped_http(client)  # replies read up to a cap, not whole

    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        # Firecrawl fetches, not us, but a self-hosted one sits on our network: same policy.
        check_url(request.url)
        run = _FirecrawlRun(self, self._client(), request, on_progress)
        if request.crawl_mode == "single":
            run.result.documents = run.single()
        elif request.crawl_mode in ("crawl", "sitemap"):
            run.result.documents = run.crawl(sitemap_only=request.crawl_mode == "sitemap")
        else:
            msg = f"Unknown crawl mode {request.crawl_mode!r}."
            raise DomainError(ErrorCode.INVALID_INPUT, msg)
        return run.result


class _FirecrawlRun:
    def __init__(
        self,
        loader: FirecrawlLoader,
        client: Firecrawl,
        request: LoadRequest,
        on_progress: ProgressCallback,
    ) -> None:
        self.loader = loader
        self.client = client
        self.request = request
        self.limits = CrawlLimits.from_options(request.options)
        self.progress = LoadProgress()
        self.reporter = ProgressReporter(self.progress, on_progress)
        self.result = LoadResult(documents=iter(()))
        self.accepted: set[str] = set()

    # --- Single page ---

    def single(self) -> Iterator[Document]:
        url = self.request.url
        with _firecrawl_errors(url):
            page = self.client.scrape(url, formats=["markdown"], only_main_content=True)
        status = page.metadata_typed.status_code or 200
        if status >= 400:
            raise http_status_error(url, status)
        self.progress.discovered = 1
        return self._finishing(self.accept(page))

    # --- Crawl ---

    def crawl(self, *, sitemap_only: bool) -> Iterator[Document]:
        url = self.request.url
        paths = self.limits.paths
        with _firecrawl_errors(url):
            job = self.client.start_crawl(
                url,
                limit=self.limits.max_pages,
                max_discovery_depth=self.limits.max_depth,
                include_paths=[path_regex(p) for p in paths.include] or None,
                exclude_paths=[path_regex(p) for p in paths.exclude] or None,
                sitemap="only" if sitemap_only else "include",
                crawl_entire_domain=not self.limits.stay_under_path,
                scrape_options=ScrapeOptions(formats=["markdown"], only_main_content=True),
            )
        return self._finishing(self._crawl_documents(str(job.id)))

    def _crawl_documents(self, job_id: str) -> Iterator[Document]:
        job = self._wait_for(job_id)
        for page in job.data:
            yield from self.accept(page)
        next_url = job.next
        while next_url:
            with _firecrawl_errors(self.request.url):
                job = self.client.get_crawl_status_page(next_url)
            for page in job.data:
                yield from self.accept(page)
            next_url = job.next

    def _wait_for(self, job_id: str) -> Any:
        deadline = time.monotonic() + self.loader.max_wait_seconds
        while True:
            with _firecrawl_errors(self.request.url):
                job = self.client.get_crawl_status(
                    job_id, pagination_config=PaginationConfig(auto_paginate=False)
                )
            self.progress.discovered = max(self.progress.discovered, int(job.total or 0))
            self.reporter.report()
            if job.status == "completed":
                return job
            if job.status in ("failed", "cancelled"):
                msg = f"Firecrawl could not crawl {self.request.url} (the job {job.status})."
                raise DomainError(ErrorCode.FETCH_FAILED, msg)
            if time.monotonic() > deadline:
                self._cancel(job_id)
                msg = f"The Firecrawl crawl of {self.request.url} did not finish in time."
                raise TransientError(ErrorCode.FETCH_FAILED, msg)
            time.sleep(self.loader.poll_seconds)

    def _cancel(self, job_id: str) -> None:
        try:
            self.client.cancel_crawl(job_id)
        except (FirecrawlError, requests.RequestException):
            logger.warning("could not cancel Firecrawl job %s", job_id)

    # --- Bookkeeping ---

    def accept(self, page: FirecrawlDocument) -> Iterator[Document]:
        link = _link_of(page, self.request.url)
        status = page.metadata_typed.status_code or 200
        markdown = page.markdown or ""
        if status >= 400:
            self.progress.failed += 1
            self.reporter.report()
            return
        if not markdown.strip():
            return
        if link in self.accepted:
            return
        self.accepted.add(link)
        digest = hashlib.sha256(markdown.encode()).hexdigest()
        previous = self.request.fetch_state.get(link) or {}
        self.result.fetch_state[link] = {"hash": digest}
        if digest == previous.get("hash"):
            self.result.unchanged_links.add(link)
            self.progress.skipped_unchanged += 1
            self.reporter.report()
            return
        self.progress.fetched += 1
        self.reporter.report()
        title = page.metadata_typed.title or link
        yield Document(title=str(title), link=link, text=markdown, format="markdown")

    def _finishing(self, documents: Iterator[Document]) -> Iterator[Document]:
        yield from documents
        self.reporter.report(force=True)
