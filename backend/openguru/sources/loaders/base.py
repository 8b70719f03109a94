"""The loader interface: a data source in, documents (title, link, text) out.

Loaders fetch and extract; they never touch the database or the vector store. They report
progress through a callback and raise `DomainError` with a user-readable message on bad input.
"""

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Format = Literal["html", "markdown", "text", "code", "faq"]


@dataclass(frozen=True)
class Document:
    title: str
    link: str  # what a reference points to (page URL, file.pdf#page=N, video&t=, blob URL)
    text: str  # for "html": the HTML of the main content (headings kept) or the whole page
    format: Format = "text"
    metadata: Mapping[str, Any] = field(default_factory=dict)  # page, start_s, path, language...


@dataclass(frozen=True)
class LoadRequest:
    """What a loader needs to know about a source; built from the DataSource row."""

    source_id: int
    url: str
    file_path: str = ""  # uploaded file on local disk (PDF)
    content: str = ""  # body of text/FAQ sources
    title: str = ""
    crawl_mode: str = "single"  # website: single | crawl | sitemap
    options: Mapping[str, Any] = field(default_factory=dict)
    private: bool = False
    credential: str = ""  # a connector's token, decrypted; never logged or stored in results
    # Conditional-GET state from the previous run: {url: {"etag", "last_modified", "hash"}}.
    fetch_state: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


@dataclass
class LoadProgress:
    discovered: int = 0
    fetched: int = 0
    skipped_unchanged: int = 0
    failed: int = 0

    def as_dict(self) -> dict[str, int]:
        return {
            "pages_discovered": self.discovered,
            "pages_fetched": self.fetched,
            "pages_skipped": self.skipped_unchanged,
            "pages_failed": self.failed,
        }


@dataclass
class LoadResult:
    documents: Iterator[Document]
    # Pages whose content did not change since the last run (conditional GET said 304 or the
    # body hash matched): the indexer keeps their chunks as they are.
    unchanged_links: set[str] = field(default_factory=set)
    # Validators to store for the next run's conditional GETs; filled while `documents` is read.
    fetch_state: dict[str, dict[str, Any]] = field(default_factory=dict)


ProgressCallback = Callable[[LoadProgress], None]

PROGRESS_EVERY_SECONDS = 0.5


class ProgressReporter:
    """Hands a load's counts to its callback at most every PROGRESS_EVERY_SECONDS, and once
    more at the end (`force`): a crawl of thousands of pages would otherwise write each one."""

    def __init__(self, progress: LoadProgress, on_progress: ProgressCallback) -> None:
        self._progress = progress
        self._on_progress = on_progress
        self._last_report = 0.0

    def report(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self._last_report >= PROGRESS_EVERY_SECONDS:
            self._last_report = now
            self._on_progress(self._progress)


class Loader(Protocol):
    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult: ...
