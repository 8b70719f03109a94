"""The refusal summary's figures: AUC, the threshold that keeps within the in-scope budget, and
the rates at a given threshold, on hand-made gate scores."""

import pytest
from openguru.evaluation.refusal import (
    RefusalPair,
    Refusals,
    budget_threshold,
    separation_auc,
    share_below,
)

pytestmark = pytest.mark.fast


def test_auc_counts_pairs_in_order_and_ties_as_half():
    assert separation_auc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert separation_auc([0.1], [0.9]) == 0.0
    assert separation_auc([0.5, 0.9], [0.5]) == 0.75  # one tie, one win


def test_the_budget_threshold_refuses_at_most_the_budget_of_in_scope_questions():
    inside = [i / 20 for i in range(1, 21)]  # 0.05 ... 1.0
    threshold = budget_threshold(inside, budget=0.10)
    assert share_below(inside, threshold) == 0.10  # two of twenty, no more
    assert share_below(inside, threshold + 0.01) > 0.10


def test_a_pair_summary_reports_each_operating_point():
    def outcomes(scores: list[float]) -> list[Refusals]:
        return [Refusals(score=score, refused=()) for score in scores]

    pair = RefusalPair(
        corpus="docs",
        out_of_scope="other",
        in_scope=outcomes([0.6, 0.7, 0.8, 0.9]),
        outside=outcomes([0.3, 0.4, 0.5, 0.65]),
        calibrated=0.55,
    )

    summary = pair.summary(default=0.35)

    assert summary["auc"] == pytest.approx(15 / 16)
    assert summary["refused_out_of_scope_default"] == 0.25
    assert summary["refused_out_of_scope_calibrated"] == 0.75
    assert summary["refused_in_scope_calibrated"] == 0.0
    assert summary["refused_in_scope_at_budget"] == 0.0  # a tenth of four is none
    assert summary["refused_out_of_scope_at_budget"] == 0.75
