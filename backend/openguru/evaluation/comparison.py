"""Hybrid against each single mode, question by question: is a difference in a mean more than
the luck of which questions a dev set happens to hold?

For one metric, the difference of the two modes' means comes with a paired bootstrap 95%
interval: the scored questions are resampled with replacement and the mean of the per-question
differences taken each time. The generator is seeded, so a rerun gives the same interval.
An interval that holds 0 means the set cannot tell the two modes apart on that metric.
"""

from collections.abc import Mapping, Sequence

import numpy as np

COMPARED_METRICS = ("ndcg@10", "recall@10")
RESAMPLES = 2000
SEED = 20261130
PerQuery = Mapping[str, Mapping[str, float]]  # query id -> metric name -> value


def paired_difference(
    first: Sequence[float], second: Sequence[float], *, resamples: int = RESAMPLES
) -> tuple[float, float, float]:
    """mean(first - second) and its bootstrap 95% interval (lower, upper)."""
    differences = np.asarray(first, dtype=float) - np.asarray(second, dtype=float)
    if not differences.size:
        return 0.0, 0.0, 0.0
    rng = np.random.default_rng(SEED)
    picks = rng.integers(0, differences.size, size=(resamples, differences.size))
    means = differences[picks].mean(axis=1)
    lower, upper = np.percentile(means, [2.5, 97.5])
    return float(differences.mean()), float(lower), float(upper)


def comparison_records(
    *, dataset: str, level: str, mode: str, versus: str, ours: PerQuery, theirs: PerQuery
) -> list[dict[str, object]]:
    """One record per compared metric: `mode` minus `versus` over the questions both scored."""
    questions = sorted(set(ours) & set(theirs))
    records: list[dict[str, object]] = []
    for metric in COMPARED_METRICS:
        a = [ours[q][metric] for q in questions]
        b = [theirs[q][metric] for q in questions]
        difference, lower, upper = paired_difference(a, b)
        records.append(
            {
                "dataset": dataset,
                "level": level,
                "metric": metric,
                "mode": mode,
                "versus": versus,
                "difference": round(difference, 4),
                "interval": [round(lower, 4), round(upper, 4)],
                "questions": len(questions),
                "changed": sum(x != y for x, y in zip(a, b, strict=True)),
            }
        )
    return records
