"""One shape for every connector of an outside system (GitHub issues and discussions, and the
ones to come): list what exists, fetch what changed, hand back documents.

A connector lists its items (a stable key, a version such as updated_at, a link) and fetches one
item's documents, each linked to the anchor a citation should open. `ConnectorLoader` turns a
connector into a `Loader` for the ordinary indexing run (`sources/indexing.py`), which brings
the claims, the progress, the embedding cache and the prune of vanished chunks:

- the source's `fetch_state` keeps, per item, the version seen and the links of its documents:
  this is the source's cursor. An item listed with the same version is not fetched again; its
  chunks are kept as they are (`LoadResult.unchanged_links`);
- an item no longer listed (deleted upstream, or filtered out) yields nothing, so the indexing
  run deletes its chunks at the end;
- a listing that fails (a wrong token) raises before anything is indexed: the previous index
  stays as it was.
"""

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from openguru.sources.loaders.base import (
    Document,
    LoadProgress,
    LoadRequest,
    LoadResult,
    ProgressCallback,
    ProgressReporter,
)

ITEM_STATE_PREFIX = "item:"


@dataclass(frozen=True)
class Item:
    key: str  # stable across runs: "issue:42", "discussion:7"
    version: str  # changes whenever the item does (its updated_at)
    link: str  # the item's own page


class Connector(Protocol):
    def list_items(self) -> Iterator[Item]:
        """Every item the source holds now (after its filters)."""
        ...

    def fetch(self, item: Item) -> Sequence[Document]:
        """The item's documents: its body and each of its comments, with their anchors."""
        ...


ConnectorFactory = Callable[[LoadRequest], Connector]


class ConnectorLoader:
    def __init__(self, factory: ConnectorFactory) -> None:
        self._factory = factory

    def load(self, request: LoadRequest, *, on_progress: ProgressCallback) -> LoadResult:
        connector = self._factory(request)
        # Listed now, before the run yields anything: a refused token fails the run while the
        # previous chunks are all still in place.
        items = list(connector.list_items())
        result = LoadResult(documents=iter(()))
        result.documents = _documents(connector, items, request, result, on_progress)
        return result


def _documents(
    connector: Connector,
    items: list[Item],
    request: LoadRequest,
    result: LoadResult,
    on_progress: ProgressCallback,
) -> Iterator[Document]:
    progress = LoadProgress(discovered=len(items))
    reporter = ProgressReporter(progress, on_progress)
    for item in items:
        state_key = ITEM_STATE_PREFIX + item.key
        previous: dict[str, Any] = dict(request.fetch_state.get(state_key, {}))
        links = list(previous.get("links", []))
        # A private source's documents have no links, so nothing tells its items apart: each run
        # reads them all.
        if not request.private and previous.get("version") == item.version and links:
            progress.skipped_unchanged += 1
            result.unchanged_links.update(links)
            _remember(result, state_key, item.version, links)
        else:
            documents = connector.fetch(item)
            progress.fetched += 1
            _remember(result, state_key, item.version, [d.link for d in documents])
            yield from documents
        reporter.report()
    reporter.report(force=True)


def _remember(result: LoadResult, state_key: str, version: str, links: list[str]) -> None:
    unique = list(dict.fromkeys(links))
    result.fetch_state[state_key] = {"version": version, "links": unique}
    for link in unique:
        # Each document link stays in the state: the indexing run keeps its chunk hashes there.
        result.fetch_state.setdefault(link, {})
