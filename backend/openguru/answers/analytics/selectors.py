"""What a guru's admin reads about its questions: how many per day and channel, how many were
refused or weakly answered, how much the answers were trusted, which sources they cited, and the
readers' votes. Every count is one aggregate query (PostgreSQL and SQLite alike).

A question asked is either an answer (`Question`) or a refusal (`OutOfContextQuestion`): the
trust gate found nothing relevant ("out_of_context"), or the question was judged not a real
question ("refused"). An answer whose trust score is below the `low_trust_threshold` setting
is "low_trust". Replayed answers (the cache, near-duplicates) are not new rows, so they are not
counted again.
"""

import calendar
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db.models import Case, CharField, Count, FloatField, Q, QuerySet, Value, When
from django.db.models.functions import TruncDate
from django.utils import timezone

from openguru.answers.analytics.source_counts import top_cited_sources
from openguru.answers.models import OutOfContextQuestion, Question, Vote
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.platform_settings import platform_settings_get
from openguru.gurus.models import Guru

# The Question.source values as the console and the API name them.
CHANNELS = {"USER": "ui", "API": "api", "WIDGET": "widget", "SLACK": "slack", "DISCORD": "discord"}
INTERVALS = ("today", "yesterday", "7d", "30d", "3m", "6m", "12m")
_DAYS = {"7d": 7, "30d": 30}
_MONTHS = {"3m": 3, "6m": 6, "12m": 12}
HISTOGRAM_BUCKETS = 10
NOT_VALID = "not_valid"  # the engine's trace["refused_because"] for a question judged invalid


@dataclass(frozen=True)
class Interval:
    name: str
    first_day: date
    last_day: date  # inclusive

    @property
    def start(self) -> datetime:
        return datetime.combine(self.first_day, time.min, tzinfo=UTC)

    @property
    def end(self) -> datetime:
        """Exclusive: midnight after the last day."""
        return datetime.combine(self.last_day + timedelta(days=1), time.min, tzinfo=UTC)

    @property
    def days(self) -> list[date]:
        count = (self.last_day - self.first_day).days + 1
        return [self.first_day + timedelta(days=n) for n in range(count)]


def _months_before(day: date, months: int) -> date:
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    month += 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def interval_get(*, name: str, today: date | None = None) -> Interval:
    """Whole days (UTC) ending today: "7d" is today and the six days before it; "3m" starts
    the day after the same date three months ago."""
    today = today or timezone.now().astimezone(UTC).date()
    if name == "today":
        return Interval(name, today, today)
    if name == "yesterday":
        return Interval(name, today - timedelta(days=1), today - timedelta(days=1))
    if name in _DAYS:
        return Interval(name, today - timedelta(days=_DAYS[name] - 1), today)
    if name in _MONTHS:
        return Interval(name, _months_before(today, _MONTHS[name]) + timedelta(days=1), today)
    raise DomainError(
        ErrorCode.INVALID_INPUT, f"interval: one of {', '.join(INTERVALS)}, not {name!r}."
    )


# What people asked: the questions made from sources after ingestion are not counted.
_MADE = Question.Source.GENERATED


def answers_in(*, guru: Guru, interval: Interval) -> QuerySet[Question]:
    return (
        Question.objects.filter(
            guru=guru, created_at__gte=interval.start, created_at__lt=interval.end
        )
        .exclude(source=_MADE)
        .order_by()
    )


def refusals_in(*, guru: Guru, interval: Interval) -> QuerySet[OutOfContextQuestion]:
    return (
        OutOfContextQuestion.objects.filter(
            guru=guru, created_at__gte=interval.start, created_at__lt=interval.end
        )
        .exclude(source=_MADE)
        .order_by()
    )


def votes_in(*, guru: Guru, interval: Interval) -> QuerySet[Vote]:
    return Vote.objects.filter(
        question__guru=guru, created_at__gte=interval.start, created_at__lt=interval.end
    ).order_by()


def _not_valid() -> Q:
    return Q(trace__refused_because=NOT_VALID)


def refusal_reason() -> Case:
    """An `OutOfContextQuestion`'s reason, as SQL."""
    return Case(
        When(_not_valid(), then=Value("refused")),
        default=Value("out_of_context"),
        output_field=CharField(),
    )


def _per_day_and_channel(rows: Iterable[dict[str, Any]], days: list[date]) -> list[dict[str, Any]]:
    table = {day: dict.fromkeys(CHANNELS.values(), 0) for day in days}
    for row in rows:
        counts = table.get(row["day"])
        channel = CHANNELS.get(row["source"])
        if counts is not None and channel is not None:
            counts[channel] += row["n"]
    return [
        {"date": day.isoformat(), **counts, "total": sum(counts.values())}
        for day, counts in table.items()
    ]


def _day_source_counts(queryset: QuerySet[Any]) -> list[dict[str, Any]]:
    return list(
        queryset.annotate(day=TruncDate("created_at"))
        .values("day", "source")
        .annotate(n=Count("id"))
        .order_by()
    )


def questions_per_day(*, guru: Guru, interval: Interval) -> list[dict[str, Any]]:
    """Every day of the interval, oldest first, zeros included: answers and refusals."""
    rows = _day_source_counts(answers_in(guru=guru, interval=interval))
    rows += _day_source_counts(refusals_in(guru=guru, interval=interval))
    return _per_day_and_channel(rows, interval.days)


def votes_per_day(*, guru: Guru, interval: Interval) -> list[dict[str, Any]]:
    rows = (
        votes_in(guru=guru, interval=interval)
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(
            up=Count("id", filter=Q(vote_type=Vote.Type.UP)),
            down=Count("id", filter=Q(vote_type=Vote.Type.DOWN)),
        )
        .order_by()
    )
    by_day: dict[date, tuple[int, int]] = {row["day"]: (row["up"], row["down"]) for row in rows}
    return [
        {"date": day.isoformat(), "up": up, "down": down}
        for day in interval.days
        for up, down in [by_day.get(day, (0, 0))]
    ]


def trust_histogram(*, guru: Guru, interval: Interval) -> list[dict[str, Any]]:
    """Answers by trust score in ten buckets of 0.1 (refusals have no score); a bucket holds
    its start, not its end, except the last, which holds 1.0."""
    edges = [n / HISTOGRAM_BUCKETS for n in range(HISTOGRAM_BUCKETS + 1)]
    counts = {
        f"b{n}": Count(
            "id",
            filter=Q(trust_score__gte=edges[n])
            & (Q(trust_score__lt=edges[n + 1]) if n < HISTOGRAM_BUCKETS - 1 else Q()),
        )
        for n in range(HISTOGRAM_BUCKETS)
    }
    totals = answers_in(guru=guru, interval=interval).aggregate(**counts)
    return [
        {"start": edges[n], "end": edges[n + 1], "count": totals[f"b{n}"]}
        for n in range(HISTOGRAM_BUCKETS)
    ]


def analytics_totals(*, guru: Guru, interval: Interval) -> dict[str, int]:
    low_trust = platform_settings_get().low_trust_threshold
    answers = answers_in(guru=guru, interval=interval).aggregate(
        n=Count("id"), low=Count("id", filter=Q(trust_score__lt=low_trust))
    )
    refusals = refusals_in(guru=guru, interval=interval).aggregate(
        n=Count("id"), refused=Count("id", filter=_not_valid())
    )
    votes = votes_in(guru=guru, interval=interval).aggregate(
        up=Count("id", filter=Q(vote_type=Vote.Type.UP)),
        down=Count("id", filter=Q(vote_type=Vote.Type.DOWN)),
    )
    return {
        "questions": answers["n"] + refusals["n"],
        "refused": refusals["refused"],
        "out_of_context": refusals["n"] - refusals["refused"],
        "low_trust": answers["low"],
        "upvotes": votes["up"],
        "downvotes": votes["down"],
    }


def guru_analytics(*, guru: Guru, interval: Interval) -> dict[str, Any]:
    return {
        "interval": interval.name,
        "start": interval.start.isoformat(),
        "end": interval.end.isoformat(),
        "totals": analytics_totals(guru=guru, interval=interval),
        "questions_per_day": questions_per_day(guru=guru, interval=interval),
        "trust_histogram": trust_histogram(guru=guru, interval=interval),
        "top_sources": top_cited_sources(questions=answers_in(guru=guru, interval=interval)),
        "votes_per_day": votes_per_day(guru=guru, interval=interval),
    }


def weak_questions(*, guru: Guru, interval: Interval) -> QuerySet[Any]:
    """Refused and low-trust questions, newest first, as rows of `question`, `asked_at`,
    `source`, `reason` and `trust_score` (None for a refusal): one SQL UNION, so a page of
    it is one query."""
    low_trust = platform_settings_get().low_trust_threshold
    refused = refusals_in(guru=guru, interval=interval).values_list(
        "user_question",
        "created_at",
        "source",
        refusal_reason(),
        Value(None, output_field=FloatField()),
    )
    weak = (
        answers_in(guru=guru, interval=interval)
        .filter(trust_score__lt=low_trust)
        .values_list(
            "user_question",
            "created_at",
            "source",
            Value("low_trust", output_field=CharField()),
            "trust_score",
        )
    )
    return refused.union(weak, all=True).order_by("-created_at")


def weak_questions_page(
    *, guru: Guru, interval: Interval, page: int, page_size: int
) -> dict[str, Any]:
    rows = weak_questions(guru=guru, interval=interval)
    low_trust = platform_settings_get().low_trust_threshold
    count = (
        refusals_in(guru=guru, interval=interval).count()
        + answers_in(guru=guru, interval=interval).filter(trust_score__lt=low_trust).count()
    )
    first = (page - 1) * page_size
    return {
        "count": count,
        "results": [
            {
                "question": question,
                "asked_at": asked_at.isoformat(),
                "channel": CHANNELS.get(source, source.lower()),
                "reason": reason,
                "trust_score": trust,
            }
            for question, asked_at, source, reason, trust in rows[first : first + page_size]
        ],
    }
