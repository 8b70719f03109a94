"""Hybrid fusion: the dense and BM25 rankings of every query variant become one candidate list.

Two methods (`RETRIEVAL_FUSION`):
  rrf (default): weighted reciprocal-rank fusion; a BM25 ranking counts `RETRIEVAL_BM25_WEIGHT`
    of a dense one. Ranks only: how far ahead the best hit is does not matter.
  convex: a convex combination of normalised scores, w * dense + (1 - w) * bm25 with
    w = `RETRIEVAL_DENSE_WEIGHT`, and "theoretical min-max" normalisation (Bruch, Gai & Ingber,
    "An Analysis of Fusion Functions for Hybrid Retrieval", ACM TOIS 2023): a cosine maps from
    [-1, the list's best] onto [0, 1] and a BM25 score from [0, the list's best]. A chunk a list
    did not return gets 0 from it, so agreement between the two searches counts. With several
    query variants, each kind of search contributes the chunk's best score over the variants.
`make eval` (docs/benchmarks.md) keeps rrf as the default: convex (w = 0.8) is ahead on SciFact
nDCG@10 (0.727 vs 0.711) and SQuAD (0.908 vs 0.854, where rrf is below BM25 alone), but behind
on python-docs-faq, the set closest to a documentation guru (doc nDCG@10 0.213 vs 0.249, page
Recall@10 0.521 vs 0.524), and its ranking moves with the search depth (page Recall@10 from
0.521 to 0.576 between 100 and 1140 candidates per list) where rrf's stays put.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from django.conf import settings

from openguru.providers.vectorstore.base import SearchHit

Fusion = Literal["convex", "rrf"]
FUSIONS: tuple[Fusion, ...] = ("convex", "rrf")
RRF_K = 60
COSINE_FLOOR = -1.0  # the lowest cosine similarity there is: the normalisation's fixed bottom

RankedList = tuple[str, Sequence[SearchHit]]  # ("dense0" | "bm250" | ..., hits best first)


@dataclass
class Candidate:
    hit: SearchHit
    fused: float = 0.0  # the fusion's score (ordering only, not calibrated)
    dense: float | None = None  # cosine similarity to the (first) query, in [-1, 1]
    rerank: float | None = None  # reranker relevance in [0, 1]
    found_by: list[str] = field(default_factory=list)

    @property
    def relevance(self) -> float:
        """Calibrated relevance in [0, 1]: the reranker's when present, else the cosine."""
        if self.rerank is not None:
            return self.rerank
        return max(0.0, min(1.0, self.dense or 0.0))


@dataclass(frozen=True)
class FusionSettings:
    method: Fusion
    dense_weight: float  # convex: w, the dense share of the score
    bm25_weight: float  # rrf: how much a BM25 ranking counts next to a dense one

    @classmethod
    def from_settings(cls) -> "FusionSettings":
        method = settings.RETRIEVAL_FUSION
        if method not in FUSIONS:
            raise ValueError(f"RETRIEVAL_FUSION must be one of {', '.join(FUSIONS)}: {method!r}")
        return cls(
            method=method,
            dense_weight=settings.RETRIEVAL_DENSE_WEIGHT,
            bm25_weight=settings.RETRIEVAL_BM25_WEIGHT,
        )


def fuse(ranked_lists: Sequence[RankedList], fusion: FusionSettings) -> list[Candidate]:
    """All candidates of all lists, best first."""
    by_id: dict[str, Candidate] = {}
    for label, hits in ranked_lists:
        for hit in hits:
            candidate = by_id.setdefault(hit.id, Candidate(hit=hit))
            candidate.found_by.append(label)
            if _is_dense(label):
                candidate.dense = max(candidate.dense or -1.0, hit.score)
    if fusion.method == "rrf":
        _score_rrf(by_id, ranked_lists, bm25_weight=fusion.bm25_weight)
    else:
        _score_convex(by_id, ranked_lists, dense_weight=fusion.dense_weight)
    return sorted(by_id.values(), key=lambda c: c.fused, reverse=True)


def _is_dense(label: str) -> bool:
    return label.startswith("dense")


def _score_rrf(
    by_id: dict[str, Candidate], ranked_lists: Sequence[RankedList], *, bm25_weight: float
) -> None:
    for label, hits in ranked_lists:
        weight = 1.0 if _is_dense(label) else bm25_weight
        for rank, hit in enumerate(hits):
            by_id[hit.id].fused += weight / (RRF_K + rank + 1)


def _score_convex(
    by_id: dict[str, Candidate], ranked_lists: Sequence[RankedList], *, dense_weight: float
) -> None:
    best_dense: dict[str, float] = {}
    best_bm25: dict[str, float] = {}
    for label, hits in ranked_lists:
        dense = _is_dense(label)
        best = best_dense if dense else best_bm25
        for hit_id, score in _normalised(hits, floor=COSINE_FLOOR if dense else 0.0):
            best[hit_id] = max(best.get(hit_id, 0.0), score)
    for hit_id, candidate in by_id.items():
        candidate.fused = dense_weight * best_dense.get(hit_id, 0.0) + (
            1.0 - dense_weight
        ) * best_bm25.get(hit_id, 0.0)


def _normalised(hits: Sequence[SearchHit], *, floor: float) -> list[tuple[str, float]]:
    """Scores mapped from [floor, the list's best] onto [0, 1]."""
    if not hits:
        return []
    span = max(hit.score for hit in hits) - floor
    if span <= 0:  # the best is as bad as a score gets: nothing in this list matches
        return [(hit.id, 0.0) for hit in hits]
    return [(hit.id, max(0.0, (hit.score - floor) / span)) for hit in hits]
