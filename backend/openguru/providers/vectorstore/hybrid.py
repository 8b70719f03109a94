"""Hybrid search run as two searches: a dense and a BM25 one with the same filter and candidate
count, fused here with reciprocal-rank fusion as Milvus's RRFRanker fuses them. The memory store
searches this way, and so does the Milvus store for a guru whose rows are in a shared collection.

Why not Milvus's own `hybrid_search` there: on Milvus Lite 2.5.1 it grows with the whole shared
collection rather than with the guru's rows (a 50-chunk guru among 1,000 gurus: p95 2.8 times
its twin's alone, while its dense and BM25 searches each stayed within 2 times). On a collection
of its own Lite's fused call is the faster (20k chunks, 900 interleaved queries: p50 10.9 against
12.5 ms, p95 15.8 against 17.6 ms), so the Milvus store keeps it there.
"""

import dataclasses
from collections.abc import Sequence
from typing import Protocol

from openguru.providers.vectorstore.base import RRF_K, SearchFilter, SearchHit

# Each ranking brings more than `limit` candidates: a chunk that is, say, 15th by vector but
# 1st by keywords still reaches the fused top 10.
_CANDIDATES_FACTOR = 2
_MIN_CANDIDATES = 20


class _Rankings(Protocol):
    def search_dense(
        self, name: str, vector: Sequence[float], *, limit: int, where: SearchFilter | None = None
    ) -> list[SearchHit]: ...

    def search_bm25(
        self, name: str, text: str, *, limit: int, where: SearchFilter | None = None
    ) -> list[SearchHit]: ...


def hybrid_candidates(limit: int) -> int:
    """How many hits each ranking brings for a fused top `limit`."""
    return max(limit * _CANDIDATES_FACTOR, _MIN_CANDIDATES)


def fused_search(
    store: _Rankings,
    name: str,
    vector: Sequence[float],
    text: str,
    *,
    limit: int,
    where: SearchFilter | None,
) -> list[SearchHit]:
    """The dense ranking and, when the text has words, the BM25 one, fused; the top `limit`."""
    if limit <= 0:
        return []
    candidates = hybrid_candidates(limit)
    rankings = [store.search_dense(name, vector, limit=candidates, where=where)]
    if text.strip():  # no words: the dense ranking alone, still scored by RRF
        rankings.append(store.search_bm25(name, text, limit=candidates, where=where))
    return reciprocal_rank_fusion(rankings, limit=limit)


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[SearchHit]], *, limit: int
) -> list[SearchHit]:
    """A hit at rank r (from 1) of a ranking adds 1 / (RRF_K + r) to its score; best first, a
    tie going to the smaller id, as a Milvus server breaks it (Lite leaves ties to an unstable
    sort). Each hit keeps its first ranking's fields, with the fused score."""
    fused: dict[str, float] = {}
    hits: dict[str, SearchHit] = {}
    for ranking in rankings:
        for rank, hit in enumerate(ranking, start=1):
            fused[hit.id] = fused.get(hit.id, 0.0) + 1.0 / (RRF_K + rank)
            hits.setdefault(hit.id, hit)
    order = sorted(fused, key=lambda hit_id: (-fused[hit_id], hit_id))[: max(limit, 0)]
    return [dataclasses.replace(hits[hit_id], score=fused[hit_id]) for hit_id in order]


def ties_to_smaller_id(hits: list[SearchHit]) -> list[SearchHit]:
    """Milvus's fused hits with equal scores put in id order: Lite leaves them to an unstable
    sort, so the same search could cite in a different order from one run to the next."""
    return sorted(hits, key=lambda hit: (-hit.score, hit.id))
