"""Incremental indexing of one source: load -> chunk -> embed (cached) -> upsert -> prune.

Old chunks stay searchable until the new ones are in: vanished chunks are deleted only at the
very end, so a re-index never leaves a window where the source serves nothing. Chunk ids are
`{source_id}-{hash}`, so a retried or redelivered run upserts the same rows (no duplicates).
"""

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from itertools import islice
from typing import Any

from openguru.core.errors import DomainError, ErrorCode
from openguru.providers.embeddings.base import Embedder
from openguru.providers.vectorstore.base import ChunkRecord, VectorStore
from openguru.sources.chunking import Chunk, chunk_documents, default_chunk_size
from openguru.sources.embedding_cache import embeddings_get_or_compute
from openguru.sources.loaders.base import Document, Loader, LoadProgress, LoadRequest

# Chunks embedded and written together. Large enough for the embedder to group texts of similar
# length (padding waste ~5% at 256 vs ~20% at 64 on docs sites); small enough for frequent progress.
BATCH_SIZE = 256
PROGRESS_EVERY_SECONDS = 1.0


@dataclass
class IndexStats:
    pages_discovered: int = 0
    pages_fetched: int = 0
    pages_skipped: int = 0
    pages_failed: int = 0
    chunks_total: int = 0  # chunks the source has after this run
    chunks_new: int = 0  # chunks written to the store in this run
    chunks_embedded: int = 0  # vectors the embedder computed (the rest came from the cache)
    chunks_unchanged: int = 0
    chunks_deleted: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    @property
    def changed(self) -> bool:
        return bool(self.chunks_new or self.chunks_deleted)


@dataclass(frozen=True)
class IndexTarget:
    collection: str
    dimension: int
    source_id: int


ProgressSink = Callable[[dict[str, int]], None]


def chunk_id(source_id: int, chunk_hash: str) -> str:
    return f"{source_id}-{chunk_hash[:48]}"


class _Reporter:
    """Throttles progress writes: a big crawl should not write a row per page."""

    def __init__(self, stats: IndexStats, sink: ProgressSink) -> None:
        self.stats = stats
        self.sink = sink
        self.last = 0.0

    def on_load(self, progress: LoadProgress) -> None:
        self.stats.pages_discovered = progress.discovered
        self.stats.pages_fetched = progress.fetched
        self.stats.pages_skipped = progress.skipped_unchanged
        self.stats.pages_failed = progress.failed
        self.tick()

    def tick(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self.last >= PROGRESS_EVERY_SECONDS:
            self.last = now
            self.sink(self.stats.as_dict())


def _batches(chunks: Iterable[Chunk], size: int) -> Iterator[list[Chunk]]:
    iterator = iter(chunks)
    while batch := list(islice(iterator, size)):
        yield batch


def _tracked(documents: Iterator[Document], pages: dict[str, list[str]]) -> Iterator[Document]:
    for document in documents:
        pages.setdefault(str(document.metadata.get("doc_link", document.link)), [])
        yield document


def index_source(
    *,
    request: LoadRequest,
    target: IndexTarget,
    loader: Loader,
    embedder: Embedder,
    store: VectorStore,
    on_progress: ProgressSink,
    chunk_size_tokens: int = 0,
    chunk_overlap_tokens: int = 32,
    chunk_min_chars: int = 40,
) -> tuple[IndexStats, dict[str, Any]]:
    """Index one source; returns the run's counters and the fetch state to keep for the next run."""
    stats = IndexStats()
    reporter = _Reporter(stats, on_progress)
    store.create_collection(target.collection, dimension=target.dimension)
    existing = store.chunk_hashes(target.collection, source_id=target.source_id)
    loaded = loader.load(request, on_progress=reporter.on_load)

    pages: dict[str, list[str]] = {}  # page link -> chunk hashes, kept for unchanged pages
    seen: set[str] = set()
    chunks = chunk_documents(
        _tracked(loaded.documents, pages),
        size_tokens=chunk_size_tokens or default_chunk_size(embedder),
        overlap_tokens=chunk_overlap_tokens,
        min_chars=chunk_min_chars,
        count_tokens=embedder.count_tokens,
    )
    for batch in _batches(chunks, BATCH_SIZE):
        fresh = _dedupe([c for c in batch if c.hash not in seen])
        for chunk in fresh:
            seen.add(chunk.hash)
            page = str(chunk.metadata.get("doc_link", _page_of(chunk)))
            pages.setdefault(page, []).append(chunk.hash)
        _write_new(
            fresh, existing=existing, target=target, embedder=embedder, store=store, stats=stats
        )
        stats.chunks_total = len(seen)
        reporter.tick()

    kept = _kept_from_unchanged_pages(request, loaded.unchanged_links) & existing
    stats.chunks_unchanged += len(kept - seen)
    seen |= kept
    if not seen:
        raise DomainError(
            ErrorCode.NOTHING_TO_INDEX, "No text could be extracted from this source."
        )
    vanished = existing - seen
    if vanished:
        stats.chunks_deleted = store.delete(
            target.collection, source_id=target.source_id, chunk_hashes=sorted(vanished)
        )
    stats.chunks_total = len(seen)
    reporter.tick(force=True)
    return stats, _next_fetch_state(request, loaded.fetch_state, pages)


def index_chunks(
    *, chunks: list[Chunk], target: IndexTarget, embedder: Embedder, store: VectorStore
) -> IndexStats:
    """Embed (through the embedding cache) and write chunks made earlier, such as a restored
    backup's: the same ids, texts and metadata as the run that made them, no fetching."""
    stats = IndexStats()
    store.create_collection(target.collection, dimension=target.dimension)
    existing = store.chunk_hashes(target.collection, source_id=target.source_id)
    unique = _dedupe(chunks)
    for batch in _batches(unique, BATCH_SIZE):
        _write_new(
            batch, existing=existing, target=target, embedder=embedder, store=store, stats=stats
        )
    stats.chunks_total = len(unique)
    return stats


def _dedupe(chunks: list[Chunk]) -> list[Chunk]:
    unique: dict[str, Chunk] = {}
    for chunk in chunks:
        unique.setdefault(chunk.hash, chunk)
    return list(unique.values())


def _page_of(chunk: Chunk) -> str:
    return str(chunk.metadata.get("link", "")).split("#", 1)[0]


def _write_new(
    chunks: list[Chunk],
    *,
    existing: set[str],
    target: IndexTarget,
    embedder: Embedder,
    store: VectorStore,
    stats: IndexStats,
) -> None:
    new = [c for c in chunks if c.hash not in existing]
    stats.chunks_unchanged += len(chunks) - len(new)
    if not new:
        return
    vectors, computed = embeddings_get_or_compute(
        embedder=embedder, texts=[c.text for c in new], text_hashes=[c.hash for c in new]
    )
    store.upsert(
        target.collection,
        [
            ChunkRecord(
                id=chunk_id(target.source_id, c.hash),
                vector=vector,
                text=c.text,
                source_id=target.source_id,
                chunk_hash=c.hash,
                type=c.type,
                metadata=dict(c.metadata),
            )
            for c, vector in zip(new, vectors, strict=True)
        ],
    )
    stats.chunks_new += len(new)
    stats.chunks_embedded += computed


def _kept_from_unchanged_pages(request: LoadRequest, unchanged: set[str]) -> set[str]:
    kept: set[str] = set()
    for link in unchanged:
        kept.update(request.fetch_state.get(link, {}).get("chunks", []))
    return kept


def _next_fetch_state(
    request: LoadRequest, loader_state: dict[str, dict[str, Any]], pages: dict[str, list[str]]
) -> dict[str, Any]:
    state: dict[str, Any] = {}
    for link, validators in loader_state.items():
        previous = request.fetch_state.get(link, {})
        chunks = pages.get(link, previous.get("chunks", []))
        state[link] = {**validators, "chunks": list(chunks)}
    for link, hashes in pages.items():
        state.setdefault(link, {"chunks": hashes})
    return state
