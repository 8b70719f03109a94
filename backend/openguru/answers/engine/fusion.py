"""Hybrid fusion: the dense and BM25 rankings of every query variant become one candidate list.

Two methods (`RETRIEVAL_FUSION`):
  rrf (default): weighted reciprocal-rank fusion; a dense ranking counts 1 and a BM25 ranking
    counts `RETRIEVAL_BM25_WEIGHT`. Within a ranking only ranks matter; BM25's scores only set
    its weight (below).
  convex: a convex combination of normalised scores, w * dense + (1 - w) * bm25 with
    w = `RETRIEVAL_DENSE_WEIGHT`, and "theoretical min-max" normalisation (Bruch, Gai & Ingber,
    "An Analysis of Fusion Functions for Hybrid Retrieval", ACM TOIS 2023): a cosine maps from
    [-1, the list's best] onto [0, 1] and a BM25 score from [0, the list's best]. A chunk a list
    did not return gets 0 from it, so agreement between the two searches counts. With several
    query variants, each kind of search contributes the chunk's best score over the variants.

The BM25 weight is by default set per question from how sure BM25 is (`bm25_confidence_weight`):
a question whose words single out a few chunks (an error message, an API name) has a best BM25
score far above its tenth, and BM25's ranking counts more; a question in everyday words scores
hundreds of chunks alike, and BM25's ranking barely counts. `make eval` (docs/evaluation.md)
settled both that and rrf: against a fixed weight of 0.3, nDCG@10 rose on every dev set
(python-docs-faq 0.249 -> 0.262, SciFact 0.712 -> 0.719, SQuAD 0.854 -> 0.867, django-docs-faq
0.255 -> 0.257). Convex (w = 0.8) is ahead on SciFact and SQuAD but behind on python-docs-faq,
the set closest to a documentation guru, and its ranking moves with the search depth.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from django.conf import settings

from openguru.providers.vectorstore.base import RRF_K, SearchHit

Fusion = Literal["convex", "rrf"]
FUSIONS: tuple[Fusion, ...] = ("convex", "rrf")
BM25_WEIGHT_AUTO = "auto"  # RETRIEVAL_BM25_WEIGHT: per question, from BM25's own scores
# The adaptive weight is SLOPE * (best / CONFIDENCE_RANK-th score - 1), at most MAX: a best
# score 1.2 times the tenth gives 0.1, twice the tenth 0.5, three times or more the dense weight.
CONFIDENCE_RANK = 10
CONFIDENCE_SLOPE = 0.5
MAX_BM25_WEIGHT = 1.0  # a BM25 ranking never counts more than a dense one
COSINE_FLOOR = -1.0  # the lowest cosine similarity there is: the normalisation's fixed bottom

RankedList = tuple[str, Sequence[SearchHit]]  # ("dense0" | "bm250" | ..., hits best first)


@dataclass
class Candidate:
    hit: SearchHit
    fused: float = 0.0  # the fusion's score (ordering only, not calibrated)
    dense: float | None = None  # cosine similarity to the (first) query, in [-1, 1]
    rerank: float | None = None  # reranker relevance in [0, 1]
    unit: float | None = None  # the best cosine of its sentences (`answers.engine.units`)
    found_by: list[str] = field(default_factory=list)

    @property
    def relevance(self) -> float:
        """Calibrated relevance in [0, 1]: the reranker's when present, else the cosine of the
        chunk or of its best sentence, whichever is higher."""
        if self.rerank is not None:
            return self.rerank
        return max(0.0, min(1.0, max(self.dense or 0.0, self.unit or 0.0)))


@dataclass(frozen=True)
class FusionSettings:
    method: Fusion
    dense_weight: float  # convex: w, the dense share of the score
    # rrf: how much a BM25 ranking counts next to a dense one; None: per question
    bm25_weight: float | None

    @classmethod
    def from_settings(cls) -> "FusionSettings":
        method = settings.RETRIEVAL_FUSION
        if method not in FUSIONS:
            raise ValueError(f"RETRIEVAL_FUSION must be one of {', '.join(FUSIONS)}: {method!r}")
        return cls(
            method=method,
            dense_weight=settings.RETRIEVAL_DENSE_WEIGHT,
            bm25_weight=parse_bm25_weight(settings.RETRIEVAL_BM25_WEIGHT),
        )


def parse_bm25_weight(value: object) -> float | None:
    """`RETRIEVAL_BM25_WEIGHT`: "auto" (None, set per question) or a fixed weight >= 0."""
    if str(value).strip().lower() == BM25_WEIGHT_AUTO:
        return None
    try:
        weight = float(str(value))
    except ValueError:
        weight = -1.0
    if not weight >= 0.0:  # also refuses NaN
        raise ValueError(
            f"RETRIEVAL_BM25_WEIGHT must be {BM25_WEIGHT_AUTO} or 0 or more: {value!r}"
        )
    return weight


def bm25_confidence_weight(hits: Sequence[SearchHit]) -> float:
    """How much this BM25 ranking counts, from how far its best score stands above the
    CONFIDENCE_RANK-th. Fewer hits than that means few chunks share the question's words at
    all: BM25 is as sure as it gets. (Callers search at least CONFIDENCE_RANK deep.)"""
    if len(hits) < CONFIDENCE_RANK:
        return MAX_BM25_WEIGHT
    best, reference = hits[0].score, hits[CONFIDENCE_RANK - 1].score
    if reference <= 0.0:
        return MAX_BM25_WEIGHT
    return max(0.0, min(MAX_BM25_WEIGHT, CONFIDENCE_SLOPE * (best / reference - 1.0)))


def list_weights(ranked_lists: Sequence[RankedList], fusion: FusionSettings) -> dict[str, float]:
    """What each ranking counts in rrf, by label (for the fusion and the answer's trace)."""
    return {label: _list_weight(label, hits, fusion) for label, hits in ranked_lists}


def _list_weight(label: str, hits: Sequence[SearchHit], fusion: FusionSettings) -> float:
    if _is_dense(label):
        return 1.0
    if fusion.bm25_weight is not None:
        return fusion.bm25_weight
    return bm25_confidence_weight(hits)


def fuse(
    ranked_lists: Sequence[RankedList],
    fusion: FusionSettings,
    *,
    weights: Mapping[str, float] | None = None,
) -> list[Candidate]:
    """All candidates of all lists, best first. rrf: `weights` are `list_weights`' result when
    the caller already has them (the answer's trace shows them)."""
    by_id: dict[str, Candidate] = {}
    for label, hits in ranked_lists:
        for hit in hits:
            candidate = by_id.setdefault(hit.id, Candidate(hit=hit))
            candidate.found_by.append(label)
            if _is_dense(label):
                candidate.dense = max(candidate.dense or -1.0, hit.score)
    if fusion.method == "rrf":
        _score_rrf(by_id, ranked_lists, weights or list_weights(ranked_lists, fusion))
    else:
        _score_convex(by_id, ranked_lists, dense_weight=fusion.dense_weight)
    return sorted(by_id.values(), key=lambda c: c.fused, reverse=True)


def _is_dense(label: str) -> bool:
    return label.startswith("dense")


def _score_rrf(
    by_id: dict[str, Candidate], ranked_lists: Sequence[RankedList], weights: Mapping[str, float]
) -> None:
    for label, hits in ranked_lists:
        weight = weights[label]
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
