"""The overload section's pure parts: its arrivals, its rows, and the rate it reports."""

import itertools
import random

from benchmarks.overload import arrival_times, level_row, sustainable_rate
from benchmarks.sse import AskOutcome


def test_arrivals_are_poisson_at_the_asked_rate_within_the_window() -> None:
    times = arrival_times(20.0, 50.0, random.Random(1))
    assert times == sorted(times) and times[0] > 0 and times[-1] < 50.0
    assert 900 < len(times) < 1100  # 1,000 expected; a Poisson count's sd is ~32
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert len({round(gap, 6) for gap in gaps}) > len(gaps) * 0.9  # not a fixed interval


def _answered(ttft_ms: float) -> AskOutcome:
    return AskOutcome(question="q", status=200, ttft_ms=ttft_ms, events=["meta", "delta", "done"])


def test_a_row_counts_shed_asks_apart_from_errors_and_times_only_answers() -> None:
    outcomes = [
        _answered(700.0),
        _answered(900.0),
        AskOutcome(question="q", status=503, error="http 503"),
        AskOutcome(question="q", status=0, error="timeout"),
    ]
    row = level_row(4.0, outcomes, floor_ms=600.0, cpu_s=0.1, seconds=1.0)
    assert (row["asked"], row["answered"], row["shed"], row["errors"]) == (4, 2, 1, 1)
    assert row["error_kinds"] == {"timeout": 1}
    assert row["p95_overhead_ms"] == 290.0  # p95 of 700 and 900 is 890
    assert row["server_cpu_ms_per_answer"] == 50.0
    assert not row["within_budget"]


def test_the_sustainable_rate_is_the_last_within_budget_before_the_first_miss() -> None:
    rows = [
        {"rate_per_s": 2, "within_budget": True},
        {"rate_per_s": 4, "within_budget": True},
        {"rate_per_s": 8, "within_budget": False},
        {"rate_per_s": 16, "within_budget": True},  # noise after a miss does not count
    ]
    assert sustainable_rate(rows) == 4
    assert sustainable_rate([{"rate_per_s": 2, "within_budget": False}]) is None
