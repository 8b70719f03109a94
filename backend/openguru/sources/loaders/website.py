"""Websites: one page, a same-site crawl, or the pages of a sitemap, all through the SSRF guard.

Modes (`request.crawl_mode`): "single" fetches the URL (robots.txt is not consulted: a person
asked for that page); "crawl" goes breadth-first over same-site links, honouring robots.txt;
"sitemap" reads the sitemap (the URL itself, else the ones robots.txt declares, else
`sitemap.xml`), indexes included, and fetches the pages it lists.

Options (`request.options`), all optional:
  max_pages, max_depth     default and ceiling from settings (CRAWLER_MAX_PAGES / _MAX_DEPTH)
  include_patterns         only these URL paths are followed and indexed
  exclude_patterns         these URL paths are never fetched
                           (a pattern is a glob on the URL path, "*" crossing "/", matching at any
                           depth unless it starts with "/"; or a regular expression if it starts
                           with "^")
  stay_under_path          crawl only below the start URL's directory (default true)

The start URL (and the sitemap) are fetched inside `load()`, so their failure fails the source;
later pages that fail are counted and skipped. Documents come lazily, fetched a few at a time.

Re-runs are incremental: `request.fetch_state[link]` holds the ETag, Last-Modified and body hash
of the last run, sent back as conditional headers; a 304 or an identical body makes the page
"unchanged" (its link in `unchanged_links`, no Document). In crawl mode the state also keeps the
page's outgoing links, because a 304 has no body to find them in. A page that fails for a
transient reason (timeout, 5xx) is reported unchanged too, so one blip does not drop it. (One
page's fetch and change detection live in `website_page.py`.)

`website_loader()` picks Firecrawl instead when an API key is configured.
"""

import logging
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from urllib.parse import urlsplit
from urllib.robotparser import RobotFileParser

from django.conf import settings

from openguru.core.errors import DomainError, ErrorCode
from openguru.sources.loaders.base import (
    Document,
    Loader,
    LoadProgress,
    LoadRequest,
    LoadResult,
    ProgressCallback,
    ProgressReporter,
)
from openguru.sources.loaders.ssrf import check_url, guarded_client, safe_fetch
from openguru.sources.loaders.website_page import Page, fetch_page, landed_in
from openguru.sources.loaders.website_scope import (
    CrawlLimits,
    CrawlScope,
    canonical_url,
    dedupe_key,
    directory_of,
    origin_of,
)
from openguru.sources.loaders.website_sitemap import is_sitemap_url, sitemap_page_urls

logger = logging.getLogger(__name__)

ROBOTS_MAX_BYTES = 512 * 1024


def website_loader() -> Loader:
    """The loader for website sources: Firecrawl when configured, else our own crawler."""
    if settings.FIRECRAWL_API_KEY:
        from openguru.sources.loaders.firecrawl import FirecrawlLoader

        return FirecrawlLoader()
    return WebsiteLoader()


# --- The loader -----------------------------------------------------------------------------------


class WebsiteLoader:
    """Our own fetcher and extractor; see the module docstring for modes and options."""

    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        check_url(request.url)  # a clear refusal before anything, robots.txt included
        run = _Run(request, on_progress)
        try:
            if request.crawl_mode == "single":
                documents = run.single()
            elif request.crawl_mode == "crawl":
                documents = run.crawl()
            elif request.crawl_mode == "sitemap":
                documents = run.sitemap()
            else:
                msg = f"Unknown crawl mode {request.crawl_mode!r}."
                raise DomainError(ErrorCode.INVALID_INPUT, msg)
        except BaseException:
            run.close()
            raise
        run.result.documents = documents
        return run.result


class _Run:
    """One load: the eager part (start page, robots.txt, sitemap) raises; the rest is lazy."""

    def __init__(self, request: LoadRequest, on_progress: ProgressCallback) -> None:
        self.request = request
        self.limits = CrawlLimits.from_options(request.options)
        self.progress = LoadProgress()
        self.reporter = ProgressReporter(self.progress, on_progress)
        self.result = LoadResult(documents=iter(()))
        self.concurrency = max(1, int(settings.CRAWLER_CONCURRENCY))
        self.client = guarded_client(max_connections=self.concurrency * 2)
        self.executor: ThreadPoolExecutor | None = None
        self.accepted: set[str] = set()

    # --- Modes ---

    def single(self) -> Iterator[Document]:
        start = self.fetch(self.request.url, 0, need_links=False, strict=True)
        self.progress.discovered = 1
        return self._finishing(self.accept(start))

    def crawl(self) -> Iterator[Document]:
        robots = self.robots(self.request.url)
        if not robots.can_fetch(settings.CRAWLER_USER_AGENT, self.request.url):
            msg = f"The site's robots.txt does not allow crawling {self.request.url}."
            raise DomainError(ErrorCode.URL_NOT_ALLOWED, msg)
        start = self.fetch(self.request.url, 0, need_links=True, strict=True)
        self.progress.discovered = 1
        if origin_of(start.link) != origin_of(canonical_url(self.request.url) or ""):
            robots = self.robots(start.link)  # redirected to another host: its rules apply
        prefix = directory_of(start.link) if self.limits.stay_under_path else "/"
        scope = CrawlScope(origin_of(start.link), prefix, self.limits.paths, robots)
        if not self.limits.paths.wanted(urlsplit(start.link).path):
            start.document = None  # fetched for its links only
        return self._finishing(self._crawl_from(start, scope))

    def sitemap(self) -> Iterator[Document]:
        url = self.request.url
        robots = self.robots(url)
        candidates = [url] if is_sitemap_url(url) else self._sitemap_guesses(url, robots)
        page_urls = sitemap_page_urls(candidates, client=self.client)
        # A sitemap file lists what the site wants indexed; a page URL narrows it to its folder.
        under_url = self.limits.stay_under_path and not is_sitemap_url(url)
        prefix = directory_of(url) if under_url else "/"
        scope = CrawlScope(origin_of(canonical_url(url) or url), prefix, self.limits.paths, robots)
        urls = self._unique_in_scope(page_urls, scope)[: self.limits.max_pages]
        self.progress.discovered = len(urls)
        return self._finishing(self._fetch_all(urls, scope))

    # --- Crawl ---

    def _crawl_from(self, start: Page, scope: CrawlScope) -> Iterator[Document]:
        seen = {dedupe_key(start.url), dedupe_key(start.link)}
        yield from self.accept(start)
        level, scheduled = [start], 1
        for depth in range(1, self.limits.max_depth + 1):
            urls = self._new_links(level, scope, seen)[: self.limits.max_pages - scheduled]
            if not urls:
                return
            scheduled += len(urls)
            self.progress.discovered += len(urls)
            fetched: list[Page] = []
            for page in self.fetch_many(urls, depth, need_links=True):
                if page.link:
                    seen.add(dedupe_key(page.link))
                if landed_in(page, scope):
                    fetched.append(page)
                    yield from self.accept(page)
            # Breadth-first in link order, whatever order the fetches finished in: which pages
            # a max_pages cut keeps must not depend on timing.
            order = {url: index for index, url in enumerate(urls)}
            level = sorted(fetched, key=lambda page: order[page.url])

    def _new_links(self, level: list[Page], scope: CrawlScope, seen: set[str]) -> list[str]:
        found: list[str] = []
        for page in level:
            for href in page.links:
                url = canonical_url(href)
                if url is None or dedupe_key(url) in seen:
                    continue
                seen.add(dedupe_key(url))
                if scope.allows(url):
                    found.append(url)
        return found

    # --- Sitemap ---

    def _sitemap_guesses(self, url: str, robots: RobotFileParser) -> list[str]:
        declared = [u for u in (robots.site_maps() or []) if origin_of(u) == origin_of(url)]
        guesses = [*declared, f"{origin_of(url)}{directory_of(url)}sitemap.xml"]
        guesses.append(f"{origin_of(url)}/sitemap.xml")
        return list(dict.fromkeys(guesses))

    def _unique_in_scope(self, urls: Sequence[str], scope: CrawlScope) -> list[str]:
        unique: dict[str, str] = {}
        for raw in urls:
            url = canonical_url(raw)
            if url is not None and scope.allows(url):
                unique.setdefault(dedupe_key(url), url)
        return list(unique.values())

    def _fetch_all(self, urls: list[str], scope: CrawlScope) -> Iterator[Document]:
        for page in self.fetch_many(urls, 0, need_links=False):
            if landed_in(page, scope):
                yield from self.accept(page)

    # --- Fetching ---

    def robots(self, url: str) -> RobotFileParser:
        robots_url = f"{origin_of(canonical_url(url) or url)}/robots.txt"
        parser = RobotFileParser(robots_url)
        try:
            result = safe_fetch(
                robots_url,
                headers={"Accept": "text/plain,*/*;q=0.5"},
                max_bytes=ROBOTS_MAX_BYTES,
                client=self.client,
            )
        except DomainError as exc:
            # No robots.txt (404), or none we can read: nothing is disallowed.
            logger.info("robots.txt unavailable at %s: %s", robots_url, exc.msg)
            parser.parse([])  # read, and empty: everything allowed
            return parser
        parser.parse(result.body.decode("utf-8", errors="replace").splitlines())
        return parser

    def fetch(self, url: str, depth: int, *, need_links: bool, strict: bool) -> Page:
        """Fetch and extract one page (runs on worker threads: touches no shared state)."""
        return fetch_page(
            url,
            depth,
            fetch_state=self.request.fetch_state,
            client=self.client,
            need_links=need_links,
            strict=strict,
        )

    def fetch_many(self, urls: list[str], depth: int, *, need_links: bool) -> Iterator[Page]:
        """Fetch concurrently, yielding pages as they finish. Only a small window is in flight,
        so a consumer slower than the network does not make finished pages pile up."""
        if self.executor is None:
            self.executor = ThreadPoolExecutor(self.concurrency, thread_name_prefix="crawler")
        executor, queue = self.executor, iter(urls)
        pending: set[Future[Page]] = set()

        def refill() -> None:
            while len(pending) < self.concurrency * 2 and (url := next(queue, None)) is not None:
                pending.add(
                    executor.submit(self.fetch, url, depth, need_links=need_links, strict=False)
                )

        refill()
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                refill()
                for future in done:
                    yield future.result()
        finally:
            for future in pending:
                future.cancel()

    # --- Bookkeeping (consumer thread only) ---

    def accept(self, page: Page) -> Iterator[Document]:
        if page.error is not None:
            if not page.not_a_page:
                self.progress.failed += 1
                logger.info("skipped %s: %s", page.url, page.error.msg)
            self.reporter.report()
            if not page.unchanged:  # else: kept from last run after a transient failure
                return
        if page.link in self.accepted:
            return  # two URLs redirecting to one page
        self.accepted.add(page.link)
        self.result.fetch_state[page.link] = page.state
        if page.unchanged:
            self.result.unchanged_links.add(page.link)
            if page.error is None:
                self.progress.skipped_unchanged += 1
            self.reporter.report()
        elif page.document is not None:
            self.progress.fetched += 1
            self.reporter.report()
            yield page.document

    def _finishing(self, documents: Iterator[Document]) -> Iterator[Document]:
        try:
            yield from documents
            self.reporter.report(force=True)
        finally:
            self.close()

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)
        self.client.close()
