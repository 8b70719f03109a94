"""Ranking metrics over ranked id lists, as trec_eval/BEIR compute them.

nDCG uses linear gain (the grade itself) and a log2(rank + 1) discount, the definition of
trec_eval's `ndcg_cut` that BEIR reports; a document is relevant when its grade is > 0. A ranking
is read in the order given (the caller breaks score ties) and a repeated id counts only once.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

RECALL_CUTOFFS = (1, 5, 10, 100)
NDCG_CUTOFF = 10
MRR_CUTOFF = 10
DEEPEST_CUTOFF = max(*RECALL_CUTOFFS, NDCG_CUTOFF, MRR_CUTOFF)
METRIC_NAMES = (
    f"ndcg@{NDCG_CUTOFF}",
    *(f"recall@{k}" for k in RECALL_CUTOFFS),
    f"mrr@{MRR_CUTOFF}",
)


def _unique(ranking: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(ranking))


def _relevant(relevance: Mapping[str, int]) -> set[str]:
    return {doc_id for doc_id, grade in relevance.items() if grade > 0}


def _dcg(gains: Sequence[float]) -> float:
    return sum(gain / math.log2(rank + 2) for rank, gain in enumerate(gains))


def ndcg_at_k(ranking: Sequence[str], relevance: Mapping[str, int], k: int) -> float:
    ideal = sorted((grade for grade in relevance.values() if grade > 0), reverse=True)[:k]
    ideal_dcg = _dcg(ideal)
    if ideal_dcg == 0.0:
        return 0.0
    gains = [max(relevance.get(doc_id, 0), 0) for doc_id in _unique(ranking)[:k]]
    return _dcg(gains) / ideal_dcg


def recall_at_k(ranking: Sequence[str], relevance: Mapping[str, int], k: int) -> float:
    relevant = _relevant(relevance)
    if not relevant:
        return 0.0
    return len(relevant.intersection(_unique(ranking)[:k])) / len(relevant)


def mrr_at_k(ranking: Sequence[str], relevance: Mapping[str, int], k: int) -> float:
    relevant = _relevant(relevance)
    for rank, doc_id in enumerate(_unique(ranking)[:k], start=1):
        if doc_id in relevant:
            return 1.0 / rank
    return 0.0


def query_metrics(ranking: Sequence[str], relevance: Mapping[str, int]) -> dict[str, float]:
    scores = {f"ndcg@{NDCG_CUTOFF}": ndcg_at_k(ranking, relevance, NDCG_CUTOFF)}
    for k in RECALL_CUTOFFS:
        scores[f"recall@{k}"] = recall_at_k(ranking, relevance, k)
    scores[f"mrr@{MRR_CUTOFF}"] = mrr_at_k(ranking, relevance, MRR_CUTOFF)
    return scores


@dataclass(frozen=True)
class MetricSummary:
    queries: int  # queries scored (they have at least one relevant document)
    means: dict[str, float]  # metric name -> mean over the scored queries
    per_query: dict[str, dict[str, float]]  # query id -> metric name -> value


def has_relevant(relevance: Mapping[str, int] | None) -> bool:
    return bool(relevance) and bool(_relevant(relevance or {}))


def summarize(
    rankings: Mapping[str, Sequence[str]], qrels: Mapping[str, Mapping[str, int]]
) -> MetricSummary:
    """Mean metrics over the ranked queries that have relevant documents (others are ignored)."""
    scored = [query_id for query_id in rankings if has_relevant(qrels.get(query_id))]
    per_query = {
        query_id: query_metrics(rankings[query_id], qrels[query_id]) for query_id in scored
    }
    means = {
        name: (sum(values[name] for values in per_query.values()) / len(scored) if scored else 0.0)
        for name in METRIC_NAMES
    }
    return MetricSummary(queries=len(scored), means=means, per_query=per_query)
