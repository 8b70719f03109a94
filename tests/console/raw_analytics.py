"""The analytics counted straight from the rows, as they were before the daily rollups: what
the rollup-based selectors must equal."""

from datetime import date
from typing import Any

from django.db.models import Count, Q
from django.db.models.functions import TruncDate
from openguru.answers.analytics.selectors import (
    CHANNELS,
    HISTOGRAM_BUCKETS,
    INTERVALS,
    NOT_VALID,
    Interval,
    answers_in,
    guru_analytics,
    interval_get,
    refusals_in,
    votes_in,
    weak_questions,
    weak_questions_page,
)
from openguru.answers.models import Vote
from openguru.core.platform_settings import platform_settings_get
from openguru.gurus.models import Guru

from tests.console.raw_cited_sources import top_cited_sources


def _per_day(queryset: Any) -> list[dict[str, Any]]:
    return list(
        queryset.annotate(day=TruncDate("created_at"))
        .values("day", "source")
        .annotate(n=Count("id"))
        .order_by()
    )


def raw_analytics(*, guru: Guru, interval: Interval) -> dict[str, Any]:
    """Everything the analytics return but the interval, counted from the rows."""
    answers, refusals = (
        answers_in(guru=guru, interval=interval),
        refusals_in(guru=guru, interval=interval),
    )
    table = {day: dict.fromkeys(CHANNELS.values(), 0) for day in interval.days}
    for row in _per_day(answers) + _per_day(refusals):
        if row["day"] in table and row["source"] in CHANNELS:
            table[row["day"]][CHANNELS[row["source"]]] += row["n"]
    edges = [n / HISTOGRAM_BUCKETS for n in range(HISTOGRAM_BUCKETS + 1)]
    last = HISTOGRAM_BUCKETS - 1
    histogram = answers.aggregate(**{
        f"b{n}": Count("id", filter=Q(trust_score__gte=edges[n])
                       & (Q(trust_score__lt=edges[n + 1]) if n < last else Q()))
        for n in range(HISTOGRAM_BUCKETS)
    })  # fmt: skip
    low = platform_settings_get().low_trust_threshold
    counted = answers.aggregate(n=Count("id"), low=Count("id", filter=Q(trust_score__lt=low)))
    refused = refusals.aggregate(
        n=Count("id"), refused=Count("id", filter=Q(trace__refused_because=NOT_VALID))
    )
    votes = votes_in(guru=guru, interval=interval)
    per_day: dict[date, tuple[int, int]] = {
        row["day"]: (row["up"], row["down"])
        for row in votes.annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(
            up=Count("id", filter=Q(vote_type=Vote.Type.UP)),
            down=Count("id", filter=Q(vote_type=Vote.Type.DOWN)),
        )
        .order_by()
    }
    return {
        "totals": {
            "questions": counted["n"] + refused["n"],
            "refused": refused["refused"],
            "out_of_context": refused["n"] - refused["refused"],
            "low_trust": counted["low"],
            "upvotes": sum(up for up, _ in per_day.values()),
            "downvotes": sum(down for _, down in per_day.values()),
        },
        "questions_per_day": [
            {"date": day.isoformat(), **counts, "total": sum(counts.values())}
            for day, counts in table.items()
        ],
        "trust_histogram": [
            {"start": edges[n], "end": edges[n + 1], "count": histogram[f"b{n}"]}
            for n in range(HISTOGRAM_BUCKETS)
        ],
        "top_sources": top_cited_sources(questions=answers),
        "votes_per_day": [
            {"date": day.isoformat(), "up": up, "down": down}
            for day in interval.days
            for up, down in [per_day.get(day, (0, 0))]
        ],
    }


def assert_rollups_match_rows(guru: Guru) -> None:
    """For every interval, the rollup-based analytics equal the counts made from the rows."""
    for name in INTERVALS:
        interval = interval_get(name=name)
        rolled = guru_analytics(guru=guru, interval=interval)
        raw = raw_analytics(guru=guru, interval=interval)
        assert {key: rolled[key] for key in raw} == raw, name
        page = weak_questions_page(guru=guru, interval=interval, page=1, page_size=5)
        assert page["count"] == weak_questions(guru=guru, interval=interval).count(), name
