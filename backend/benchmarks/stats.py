"""Latency statistics. Pure functions: the machine is noisy, so the harness reports percentiles
and ratios measured in one run instead of asserting anything about speed."""

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) with linear interpolation between ranks, as numpy's default.
    NaN for no values: an empty measurement must not look like a fast one."""
    if not 0 <= q <= 100:
        raise ValueError(f"percentile must be within 0..100, not {q}")
    ordered = sorted(values)
    if not ordered:
        return math.nan
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def rounded(value: float | None, digits: int = 1) -> float | None:
    """JSON-friendly: NaN and None become null, the rest is rounded."""
    if value is None or math.isnan(value):
        return None
    return round(value, digits)


def p50_p95(values: Sequence[float], digits: int = 1) -> tuple[float | None, float | None]:
    return rounded(percentile(values, 50), digits), rounded(percentile(values, 95), digits)


def ratio(numerator: float | None, denominator: float | None, digits: int = 3) -> float | None:
    if numerator is None or not denominator or math.isnan(numerator) or math.isnan(denominator):
        return None
    return round(numerator / denominator, digits)


def per_second(count: int, seconds: float, digits: int = 2) -> float | None:
    return round(count / seconds, digits) if seconds > 0 else None
