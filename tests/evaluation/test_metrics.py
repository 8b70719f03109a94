"""Ranking metrics against values worked out by hand (linear gain, log2(rank + 1) discount)."""

import math

import pytest
from openguru.evaluation.metrics import (
    METRIC_NAMES,
    mrr_at_k,
    ndcg_at_k,
    query_metrics,
    recall_at_k,
    summarize,
)

pytestmark = pytest.mark.fast


def test_ndcg_with_graded_relevance() -> None:
    # DCG = 1/log2(2) + 0 + 2/log2(4) = 2; ideal order (2, 1): 2/log2(2) + 1/log2(3).
    relevance = {"d1": 1, "d3": 2}
    expected = 2.0 / (2.0 + 1.0 / math.log2(3))
    assert ndcg_at_k(["d1", "d2", "d3"], relevance, 10) == pytest.approx(expected)
    assert expected == pytest.approx(0.76018, abs=1e-5)


def test_ndcg_is_one_for_the_ideal_order_and_lower_otherwise() -> None:
    relevance = {"a": 3, "b": 2, "c": 1}
    assert ndcg_at_k(["a", "b", "c", "x"], relevance, 10) == pytest.approx(1.0)
    assert ndcg_at_k(["c", "b", "a"], relevance, 10) < 1.0


def test_ndcg_ties_in_grade_can_be_swapped() -> None:
    relevance = {"a": 1, "b": 1, "c": 2}
    first = ndcg_at_k(["c", "a", "x", "b"], relevance, 10)
    swapped = ndcg_at_k(["c", "b", "x", "a"], relevance, 10)
    assert first == pytest.approx(swapped)
    # c at 1, a tie at 2 and 4: (2 + 1/log2(3) + 1/log2(5)) / (2 + 1/log2(3) + 1/log2(4)).
    ideal = 2 + 1 / math.log2(3) + 0.5
    assert first == pytest.approx((2 + 1 / math.log2(3) + 1 / math.log2(5)) / ideal)


def test_ndcg_cutoff_ignores_hits_past_k() -> None:
    relevance = {"z": 1}
    assert ndcg_at_k(["a", "b", "z"], relevance, 2) == 0.0
    assert ndcg_at_k(["a", "b", "z"], relevance, 3) == pytest.approx(0.5)  # 1/log2(4)


def test_ideal_dcg_is_cut_at_k_too() -> None:
    # Three relevant documents, k = 1: the best possible is one hit at rank 1.
    assert ndcg_at_k(["a"], {"a": 1, "b": 1, "c": 1}, 1) == pytest.approx(1.0)


def test_k_larger_than_the_ranking() -> None:
    relevance = {"d1": 1, "d4": 1}
    ranking = ["d2", "d1"]
    assert recall_at_k(ranking, relevance, 100) == pytest.approx(0.5)
    expected = (1 / math.log2(3)) / (1 + 1 / math.log2(3))
    assert ndcg_at_k(ranking, relevance, 10) == pytest.approx(expected)
    assert mrr_at_k(ranking, relevance, 10) == pytest.approx(0.5)


def test_mrr_with_first_hit_at_rank_three() -> None:
    assert mrr_at_k(["a", "b", "c", "d"], {"c": 1, "d": 1}, 10) == pytest.approx(1 / 3)


def test_mrr_is_zero_when_the_first_hit_is_past_k() -> None:
    ranking = [f"n{i}" for i in range(10)] + ["hit"]
    assert mrr_at_k(ranking, {"hit": 1}, 10) == 0.0
    assert mrr_at_k(ranking, {"hit": 1}, 11) == pytest.approx(1 / 11)


def test_recall_at_several_cutoffs() -> None:
    ranking = ["a", "x", "b", "y", "z", "c"]
    relevance = {"a": 1, "b": 1, "c": 1, "d": 1}
    assert recall_at_k(ranking, relevance, 1) == pytest.approx(0.25)
    assert recall_at_k(ranking, relevance, 5) == pytest.approx(0.5)
    assert recall_at_k(ranking, relevance, 10) == pytest.approx(0.75)


def test_no_relevant_documents_scores_zero() -> None:
    for relevance in ({}, {"a": 0}):
        scores = query_metrics(["a", "b"], relevance)
        assert set(scores) == set(METRIC_NAMES)
        assert all(value == 0.0 for value in scores.values())


def test_grade_zero_is_not_relevant() -> None:
    relevance = {"a": 0, "b": 1}
    assert mrr_at_k(["a", "b"], relevance, 10) == pytest.approx(0.5)
    assert recall_at_k(["a", "b"], relevance, 1) == 0.0
    assert ndcg_at_k(["a", "b"], relevance, 10) == pytest.approx(1 / math.log2(3))


def test_repeated_ids_count_once() -> None:
    # Two chunks of one document must not take two ranks, nor count twice.
    assert mrr_at_k(["a", "a", "b"], {"b": 1}, 10) == pytest.approx(0.5)
    assert ndcg_at_k(["b", "b"], {"b": 1, "c": 1}, 10) == pytest.approx(1 / (1 + 1 / math.log2(3)))


def test_summarize_averages_judged_queries_only() -> None:
    rankings = {"q1": ["a", "b"], "q2": ["x", "c"], "q3": ["a"]}
    qrels = {"q1": {"a": 1}, "q2": {"c": 1}, "q3": {"a": 0}}
    summary = summarize(rankings, qrels)
    assert summary.queries == 2  # q3 has no relevant document
    assert summary.means["mrr@10"] == pytest.approx((1.0 + 0.5) / 2)
    assert summary.means["recall@1"] == pytest.approx(0.5)
    assert summary.means["recall@100"] == pytest.approx(1.0)


def test_summarize_with_nothing_to_score() -> None:
    summary = summarize({"q": ["a"]}, {})
    assert summary.queries == 0
    assert all(value == 0.0 for value in summary.means.values())
