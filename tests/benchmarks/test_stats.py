"""Percentile math of the bench report, checked against numpy's default (linear) method."""

import math

import numpy as np
import pytest
from benchmarks.stats import p50_p95, per_second, percentile, ratio, rounded


@pytest.mark.parametrize("q", [0, 5, 25, 50, 90, 95, 99, 100])
def test_percentile_matches_numpy_linear_interpolation(q: float) -> None:
    values = [12.0, 3.5, 7.25, 100.0, 42.0, 8.0, 8.0, 19.5, 0.5, 61.0, 33.3]
    assert percentile(values, q) == pytest.approx(float(np.percentile(values, q)))


def test_percentile_interpolates_between_ranks() -> None:
    # Ranks 0..3; the 50th percentile sits halfway between 20 and 30.
    assert percentile([40, 10, 30, 20], 50) == 25.0
    assert percentile([40, 10, 30, 20], 95) == pytest.approx(30 + 0.85 * 10)
    assert percentile([7.0], 95) == 7.0


def test_no_values_is_not_a_number_and_reports_as_null() -> None:
    assert math.isnan(percentile([], 50))
    assert p50_p95([]) == (None, None)
    assert rounded(math.nan) is None


def test_percentile_rejects_out_of_range() -> None:
    with pytest.raises(ValueError):
        percentile([1.0], 101)


def test_p50_p95_rounds() -> None:
    values = list(range(1, 101))  # 1..100
    assert p50_p95(values) == (50.5, 95.0)
    assert p50_p95(values, digits=0) == (50.0, 95.0)  # round-half-even, like round()


def test_ratio_and_rate_guard_against_missing_or_zero() -> None:
    assert ratio(345.0, 300.0) == 1.15
    assert ratio(None, 300.0) is None
    assert ratio(10.0, 0.0) is None
    assert ratio(math.nan, 3.0) is None
    assert per_second(482, 107.5) == 4.48
    assert per_second(10, 0.0) is None
