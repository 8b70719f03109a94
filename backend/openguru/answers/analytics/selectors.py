"""What a guru's admin reads about its questions: how many per day and channel, how many were
refused or weakly answered, how much the answers were trusted, which sources they cited, and the
readers' votes. The counts are sums over daily rollups (`AskedDay`, `TrustDay`, `VoteDay`,
`CitedDay`, kept by database triggers: analytics/rollup_sql.py), so a year costs rows per day
however many questions a day holds; the weak questions' list reads the rows.

A question asked is either an answer (`Question`) or a refusal (`OutOfContextQuestion`): the
trust gate found nothing relevant ("out_of_context"), or the question was judged not a real
question ("refused"). An answer whose trust score is below the `low_trust_threshold` setting
is "low_trust". Replayed answers (the cache, near-duplicates) are not new rows, so they are not
counted again.
"""

import calendar
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, TypeVar

from django.db.models import Case, CharField, FloatField, Q, QuerySet, Sum, Value, When
from django.utils import timezone

from openguru.answers.models import (
    AskedDay,
    CitedDay,
    OutOfContextQuestion,
    Question,
    TrustDay,
    Vote,
    VoteDay,
)
from openguru.core.errors import DomainError, ErrorCode
from openguru.core.platform_settings import platform_settings_get
from openguru.gurus.models import Guru

# The Question.source values as the console and the API name them.
CHANNELS = {
    "USER": "ui",
    "API": "api",
    "WIDGET": "widget",
    "SLACK": "slack",
    "DISCORD": "discord",
    "TEAMS": "teams",
    "GITHUB": "github",
}
INTERVALS = ("today", "yesterday", "7d", "30d", "3m", "6m", "12m")
_DAYS = {"7d": 7, "30d": 30}
_MONTHS = {"3m": 3, "6m": 6, "12m": 12}
HISTOGRAM_BUCKETS = 10
TOP_SOURCES = 10
NOT_VALID = "not_valid"  # the engine's trace["refused_because"] for a question judged invalid
RollupModel = TypeVar("RollupModel", AskedDay, TrustDay, VoteDay, CitedDay)


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
        guru=guru, created_at__gte=interval.start, created_at__lt=interval.end
    ).order_by()


def _in(model: type[RollupModel], guru: Guru, interval: Interval) -> QuerySet[RollupModel]:
    """A daily rollup's rows of the interval (kept by triggers: today included)."""
    return model.objects.filter(
        guru=guru, day__gte=interval.first_day, day__lte=interval.last_day
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


@dataclass(frozen=True)
class _Rollups:
    """An interval's rollup rows, each rollup read once."""

    asked: list[tuple[date, str, int, int, int]]  # day, source, answers, refusals, refused
    votes: list[tuple[date, int, int]]  # day, up, down
    trust: dict[int, int]  # hundredth of trust score: answers

    @classmethod
    def read(cls, guru: Guru, interval: Interval) -> "_Rollups":
        fields = ("day", "source", "answers", "refusals", "refused")
        return cls(
            asked=list(_in(AskedDay, guru, interval).values_list(*fields)),
            votes=list(_in(VoteDay, guru, interval).values_list("day", "up", "down")),
            trust=_trust_buckets(guru, interval),
        )


def _trust_buckets(guru: Guru, interval: Interval) -> dict[int, int]:
    """Answers by hundredth of trust score (`TrustDay.bucket`)."""
    rows = _in(TrustDay, guru, interval).values("bucket").annotate(n=Sum("answers")).order_by()
    return {row["bucket"]: row["n"] for row in rows}


def _questions_per_day(rolled: _Rollups, interval: Interval) -> list[dict[str, Any]]:
    """Every day of the interval, oldest first, zeros included: answers and refusals."""
    table = {day: dict.fromkeys(CHANNELS.values(), 0) for day in interval.days}
    for day, source, answers, refusals, _ in rolled.asked:
        counts, channel = table.get(day), CHANNELS.get(source)
        if counts is not None and channel is not None:
            counts[channel] += answers + refusals
    return [
        {"date": day.isoformat(), **counts, "total": sum(counts.values())}
        for day, counts in table.items()
    ]


def _votes_per_day(rolled: _Rollups, interval: Interval) -> list[dict[str, Any]]:
    by_day = {day: (up, down) for day, up, down in rolled.votes}
    return [
        {"date": day.isoformat(), "up": up, "down": down}
        for day in interval.days
        for up, down in [by_day.get(day, (0, 0))]
    ]


def _trust_histogram(rolled: _Rollups) -> list[dict[str, Any]]:
    """Answers by trust score in ten buckets of 0.1 (refusals have no score); a bucket holds
    its start, not its end, except the last, which holds 1.0 (and anything above)."""
    last = HISTOGRAM_BUCKETS - 1
    counts = [0] * HISTOGRAM_BUCKETS
    for bucket, n in rolled.trust.items():
        if bucket >= 0:
            counts[min(bucket // HISTOGRAM_BUCKETS, last)] += n
    return [
        {"start": n / HISTOGRAM_BUCKETS, "end": (n + 1) / HISTOGRAM_BUCKETS, "count": counts[n]}
        for n in range(HISTOGRAM_BUCKETS)
    ]


def low_trust_count(*, guru: Guru, interval: Interval, trust: dict[int, int] | None = None) -> int:
    """Answers below the low-trust setting: from the rollup (`trust`, if read already) when
    the setting is a whole hundredth (as the console sets it), else counted in the answers."""
    threshold = platform_settings_get().low_trust_threshold
    hundredths = round(threshold * 100)
    if 0 <= hundredths <= 100 and hundredths / 100 == threshold:
        fine = _trust_buckets(guru, interval) if trust is None else trust
        return sum(n for bucket, n in fine.items() if bucket < hundredths)
    return answers_in(guru=guru, interval=interval).filter(trust_score__lt=threshold).count()


def top_sources(*, guru: Guru, interval: Interval) -> list[dict[str, Any]]:
    """The sources the interval's answers cited most (each answer once per source), most
    first, then by link and title."""
    rows = (
        _in(CitedDay, guru, interval)
        .values("link", "title")
        .annotate(n=Sum("answers"))
        .filter(n__gt=0)
        .order_by("-n", "link", "title")[:TOP_SOURCES]
    )
    return [{"title": row["title"], "url": row["link"], "citations": row["n"]} for row in rows]


def _totals(guru: Guru, interval: Interval, rolled: _Rollups) -> dict[str, int]:
    refusals = sum(row[3] for row in rolled.asked)
    refused = sum(row[4] for row in rolled.asked)
    return {
        "questions": sum(row[2] for row in rolled.asked) + refusals,
        "refused": refused,
        "out_of_context": refusals - refused,
        "low_trust": low_trust_count(guru=guru, interval=interval, trust=rolled.trust),
        "upvotes": sum(up for _, up, _ in rolled.votes),
        "downvotes": sum(down for _, _, down in rolled.votes),
    }


def guru_analytics(*, guru: Guru, interval: Interval) -> dict[str, Any]:
    rolled = _Rollups.read(guru, interval)
    return {
        "interval": interval.name,
        "start": interval.start.isoformat(),
        "end": interval.end.isoformat(),
        "totals": _totals(guru, interval, rolled),
        "questions_per_day": _questions_per_day(rolled, interval),
        "trust_histogram": _trust_histogram(rolled),
        "top_sources": top_sources(guru=guru, interval=interval),
        "votes_per_day": _votes_per_day(rolled, interval),
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
    refusals = _in(AskedDay, guru, interval).aggregate(n=Sum("refusals"))["n"] or 0
    count = refusals + low_trust_count(guru=guru, interval=interval)
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
