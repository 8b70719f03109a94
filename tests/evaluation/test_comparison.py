"""Hybrid against a single mode, question by question, with a seeded bootstrap interval."""

import pytest
from openguru.evaluation.comparison import comparison_records, paired_difference


def test_the_same_values_give_a_zero_interval():
    assert paired_difference([0.5, 1.0, 0.0], [0.5, 1.0, 0.0]) == (0.0, 0.0, 0.0)


def test_a_difference_on_every_question_excludes_zero():
    difference, lower, upper = paired_difference([1.0] * 40, [0.0] * 30 + [1.0] * 10)
    assert difference == pytest.approx(0.75)
    assert 0 < lower < 0.75 < upper <= 1.0


def test_one_question_of_many_cannot_be_told_from_noise():
    # The python-docs case: one question loses half its gold pages, the rest are equal.
    ours, theirs = [0.5] + [1.0] * 42, [1.0] * 43
    difference, lower, upper = paired_difference(ours, theirs)
    assert difference == pytest.approx(-0.5 / 43)
    assert lower < difference and upper == 0.0  # the interval reaches 0: no evidence of a loss


def test_the_interval_is_the_same_on_every_run():
    values = ([0.1, 0.9, 0.4, 0.7, 0.2] * 8, [0.3, 0.8, 0.4, 0.1, 0.6] * 8)
    assert paired_difference(*values) == paired_difference(*values)


def test_records_compare_the_questions_both_modes_scored():
    ours = {"q1": {"ndcg@10": 1.0, "recall@10": 1.0}, "q2": {"ndcg@10": 0.5, "recall@10": 1.0}}
    theirs = {"q1": {"ndcg@10": 0.5, "recall@10": 1.0}, "q3": {"ndcg@10": 0.0, "recall@10": 0.0}}
    records = comparison_records(
        dataset="d", level="page", mode="hybrid", versus="dense", ours=ours, theirs=theirs
    )
    by_metric = {r["metric"]: r for r in records}
    assert by_metric["ndcg@10"]["questions"] == 1  # only q1 is in both
    assert by_metric["ndcg@10"]["difference"] == 0.5 and by_metric["ndcg@10"]["changed"] == 1
    assert by_metric["recall@10"]["difference"] == 0.0 and by_metric["recall@10"]["changed"] == 0
