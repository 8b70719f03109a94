"""The loader run and reader the website loader's test files share."""

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from openguru.sources.loaders.base import Document, LoadProgress, LoadRequest, LoadResult
from openguru.sources.loaders.website import WebsiteLoader

from tests.fakes.docs_site import DocsSite

ALL_PAGES = {
    "/",
    "/intro.html",
    "/tutorial/index.html",
    "/tutorial/first-steps.html",
    "/tutorial/advanced.html",
    "/api.html",
    "/faq.html",
}


@dataclass
class Loaded:
    result: LoadResult
    documents: list[Document]
    progress: list[LoadProgress] = field(default_factory=list)

    def paths(self, site: DocsSite) -> set[str]:
        return {d.link.removeprefix(site.url) for d in self.documents}

    def unchanged_paths(self, site: DocsSite) -> set[str]:
        return {link.removeprefix(site.url) for link in self.result.unchanged_links}

    @property
    def last_progress(self) -> LoadProgress:
        return self.progress[-1]


def load(
    url: str,
    mode: str = "crawl",
    *,
    fetch_state: Mapping[str, Mapping[str, Any]] | None = None,
    **options: Any,
) -> Loaded:
    progress: list[LoadProgress] = []

    def record(snapshot: LoadProgress) -> None:
        progress.append(LoadProgress(**vars(snapshot)))

    request = LoadRequest(
        source_id=1,
        url=url,
        crawl_mode=mode,
        options=options,
        fetch_state=fetch_state or {},
    )
    result = WebsiteLoader().load(request, on_progress=record)
    documents = list(result.documents)
    return Loaded(result, documents, progress)


def edit_page(site: DocsSite, path: str, old: str, new: str) -> None:
    file = site.root / path
    file.write_text(file.read_text().replace(old, new))
    later = time.time() + 10  # a new Last-Modified second, whatever the clock did meanwhile
    os.utime(file, (later, later))
