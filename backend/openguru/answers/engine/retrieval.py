"""Candidate retrieval: dense and BM25 searches in the guru's Milvus collection, fused across
modes and query variants (`answers.engine.fusion`), optionally reranked.

Every candidate also gets its cosine similarity to the query (a calibrated relevance signal for
the trust gate), including candidates only BM25 found: their vectors come from the embedding
cache, keyed by the same chunk hash the indexer used.
"""

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from django.conf import settings

from openguru.answers.engine.fusion import (
    CONFIDENCE_RANK,
    Candidate,
    FusionSettings,
    RankedList,
    fuse,
    list_weights,
)
from openguru.answers.engine.pages import by_page
from openguru.answers.engine.units import units_rescore
from openguru.providers.embeddings.base import Embedder
from openguru.providers.rerank.base import Reranker
from openguru.providers.vectorstore.base import SearchFilter, VectorStore
from openguru.sources.embedding_cache import cached_vectors

Mode = Literal["dense", "bm25", "hybrid", "hybrid_rerank"]
MODES: tuple[Mode, ...] = ("dense", "bm25", "hybrid", "hybrid_rerank")


def answer_mode(reranker: Reranker | None) -> Mode:
    """How answers retrieve: hybrid, reranked when a reranker is configured."""
    return "hybrid_rerank" if reranker is not None else "hybrid"


@dataclass
class RetrievalResult:
    candidates: list[Candidate]
    timings_ms: dict[str, float]
    mode: Mode
    query_vector: list[float] | None = None  # the first query's embedding, when computed
    list_weights: dict[str, float] = field(default_factory=dict)  # rrf: what each ranking counted
    queries: list[str] = field(default_factory=list)  # the variants searched, in label order
    # Each ranking as the store returned it, (chunk id, score) best first, for the trace.
    rankings: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    fusion: str = ""  # the fusion method: rrf | convex


def _fill_cosine(candidates: list[Candidate], query_vector: np.ndarray, model: str) -> None:
    missing = [c for c in candidates if c.dense is None]
    if not missing:
        return
    vectors = cached_vectors(model=model, text_hashes=[c.hit.chunk_hash for c in missing])
    for candidate in missing:
        vector = vectors.get(candidate.hit.chunk_hash)
        if vector is not None:
            candidate.dense = float(np.dot(query_vector, vector) / _norm(vector, query_vector))


def _norm(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.linalg.norm(a) * np.linalg.norm(b)) or 1.0


def retrieve(
    *,
    collection: str,
    queries: Sequence[str],
    mode: Mode,
    limit: int,
    embedder: Embedder,
    store: VectorStore,
    reranker: Reranker | None = None,
    where: SearchFilter | None = None,
    rerank_top: int = 30,
    fusion: FusionSettings | None = None,
    while_searching: Callable[[list[float]], None] | None = None,
    on_started: Callable[[], None] | None = None,
) -> RetrievalResult:
    """Ranked candidates for the query variants (the first variant is the user's own words).

    BM25 searches start before the query embedding (they don't need it) and dense searches run
    side by side, so a hybrid search costs about one embedding plus one search.
    `while_searching` gets the first query's vector and runs in the calling thread while the
    dense searches are in flight. `on_started` is called once the BM25 searches are sent, before
    the query is embedded: work started then overlaps the embedding, not the searches' setup."""
    queries = [q for q in dict.fromkeys(q.strip() for q in queries) if q]
    fusion = fusion or FusionSettings.from_settings()
    timings: dict[str, float] = {}
    pool = _search_pool()
    # BM25's weight in the fusion reads its CONFIDENCE_RANK-th score: search at least that deep.
    bm25_limit = max(limit, CONFIDENCE_RANK)
    bm25 = [
        pool.submit(store.search_bm25, collection, query, limit=bm25_limit, where=where)
        for query in (queries if mode != "dense" else [])
    ]
    if on_started is not None:
        on_started()
    started = time.perf_counter()
    vectors = [embedder.embed_query(q) for q in queries] if mode != "bm25" else []
    timings["embed_ms"] = (time.perf_counter() - started) * 1000

    started = time.perf_counter()
    dense = [
        pool.submit(store.search_dense, collection, vector, limit=limit, where=where)
        for vector in vectors
    ]
    if while_searching is not None and vectors:
        while_searching(vectors[0])
    ranked: list[RankedList] = []
    for i in range(len(queries)):
        if dense:
            ranked.append((f"dense{i}", dense[i].result()))
        if bm25:
            ranked.append((f"bm25{i}", bm25[i].result()))
    weights = list_weights(ranked, fusion) if fusion.method == "rrf" else {}
    fused = fuse(ranked, fusion, weights=weights)
    if settings.RETRIEVAL_PAGE_AGGREGATION:
        fused = by_page(fused)
    candidates = fused[:limit]
    timings["search_ms"] = (time.perf_counter() - started) * 1000

    query_vector = vectors[0] if vectors else None
    if candidates and queries:
        started = time.perf_counter()
        query_vector = query_vector or embedder.embed_query(queries[0])
        _fill_cosine(candidates, np.asarray(query_vector), embedder.model_name)
        timings["cosine_ms"] = (time.perf_counter() - started) * 1000
        # A reranker reads the question against the chunk whole: its relevance needs no units.
        if settings.RETRIEVAL_UNIT_SCORING and (mode != "hybrid_rerank" or reranker is None):
            started = time.perf_counter()
            units_rescore(candidates, query_vector=query_vector, embedder=embedder)
            timings["units_ms"] = (time.perf_counter() - started) * 1000
    if mode == "hybrid_rerank" and reranker is not None and candidates:
        started = time.perf_counter()
        _rerank(candidates, queries[0], reranker, top=rerank_top)
        candidates.sort(key=lambda c: (c.rerank is not None, c.rerank or 0.0), reverse=True)
        timings["rerank_ms"] = (time.perf_counter() - started) * 1000
    return RetrievalResult(
        candidates=candidates,
        timings_ms=timings,
        mode=mode,
        query_vector=query_vector,
        # one ranking alone (dense or BM25 mode) was not weighed against anything
        list_weights={k: round(w, 3) for k, w in weights.items()} if len(ranked) > 1 else {},
        queries=queries,
        rankings={label: [(hit.id, hit.score) for hit in hits] for label, hits in ranked},
        fusion=fusion.method,
    )


_POOL_LOCK = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def _search_pool() -> ThreadPoolExecutor:
    """Threads that only wait on the vector store (network I/O): shared, never touch the DB."""
    global _pool
    with _POOL_LOCK:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=16, thread_name_prefix="search")
        return _pool


def _rerank(candidates: list[Candidate], query: str, reranker: Reranker, *, top: int) -> None:
    head = candidates[:top]
    for result in reranker.rerank(query, [c.hit.text for c in head]):
        head[result.index].rerank = result.score
