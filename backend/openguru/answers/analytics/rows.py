"""A guru's questions of an interval as export rows, one per question asked: the answers with
their votes and cited sources, and the refusals. Read through server-side cursors in chunks and
merged by time as they arrive, so a year of a big guru never sits in memory; votes are counted
in SQL."""

import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce, Substr

from openguru.answers.analytics.selectors import (
    CHANNELS,
    Interval,
    answers_in,
    refusal_reason,
    refusals_in,
)
from openguru.answers.models import Vote
from openguru.core.platform_settings import platform_settings_get
from openguru.gurus.models import Guru

EXCERPT_CHARS = 300
# Filter values (Gurubase's names): a channel, or "all". "user" is Gurubase's name for the
# Q&A site; "github" (its GitHub bot's) is the GitHub App bot's channel here too.
CHANNEL_FILTERS = ("all", *CHANNELS.values(), "user")
SOURCE_FILTERS = ("all", "website", "pdf", "youtube", "github_repo", "text")
# A reference's icon (answers/engine/context.py) by the source type it stands for.
_ICON_OF_TYPE = {
    "website": "web", "pdf": "pdf", "youtube": "youtube", "github_repo": "github", "text": "text",
}  # fmt: skip


@dataclass(frozen=True)
class ExportFilters:
    questions: str = "all"  # the channel of answered questions
    out_of_context: str = "all"  # the channel of refused ones
    referenced_sources: str = "all"  # which cited sources each row lists


@dataclass(frozen=True)
class ExportRow:
    asked_at: datetime
    channel: str
    question: str
    answer_excerpt: str
    trust_score: float | None
    refused: bool  # judged not a real question
    out_of_context: bool  # the sources don't cover it
    low_trust: bool
    sources: list[dict[str, str]]  # [{"title", "url"}]
    upvotes: int
    downvotes: int


def _source_values(channel: str) -> list[str] | None:
    """The Question.source values a channel filter selects; None: all."""
    if channel == "all":
        return None
    wanted = "ui" if channel == "user" else channel
    return [source for source, name in CHANNELS.items() if name == wanted]


def _sources(references: Any, kind: str) -> list[dict[str, str]]:
    icon = _ICON_OF_TYPE.get(kind)
    return [
        {"title": str(ref.get("title", "")), "url": str(ref.get("link", ""))}
        for ref in (references if isinstance(references, list) else [])
        if isinstance(ref, dict) and (icon is None or ref.get("icon") == icon)
    ]


def _votes(kind: str) -> Coalesce:
    """An answer's votes of one kind, counted per row: unlike a join and GROUP BY, it lets the
    rows come in time order straight from the (guru, created_at) index as they are read."""
    counted = (
        Vote.objects.filter(question=OuterRef("pk"), vote_type=kind)
        .order_by()
        .values("question")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counted), Value(0))


def _answer_rows(guru: Guru, interval: Interval, filters: ExportFilters) -> Iterator[ExportRow]:
    answers = answers_in(guru=guru, interval=interval)
    sources = _source_values(filters.questions)
    if sources is not None:
        answers = answers.filter(source__in=sources)
    low_trust = platform_settings_get().low_trust_threshold
    rows = (
        answers.annotate(
            excerpt=Substr("content", 1, EXCERPT_CHARS),
            up=_votes(Vote.Type.UP),
            down=_votes(Vote.Type.DOWN),
        )
        .values_list(
            "created_at",
            "source",
            "user_question",
            "excerpt",
            "trust_score",
            "references",
            "up",
            "down",
        )
        .order_by("created_at", "id")
    )
    for asked_at, source, question, excerpt, trust, references, up, down in rows.iterator(
        chunk_size=2000
    ):
        yield ExportRow(
            asked_at=asked_at,
            channel=CHANNELS.get(source, source.lower()),
            question=question,
            answer_excerpt=excerpt,
            trust_score=trust,
            refused=False,
            out_of_context=False,
            low_trust=trust < low_trust,
            sources=_sources(references, filters.referenced_sources),
            upvotes=up,
            downvotes=down,
        )


def _refusal_rows(guru: Guru, interval: Interval, filters: ExportFilters) -> Iterator[ExportRow]:
    refusals = refusals_in(guru=guru, interval=interval)
    sources = _source_values(filters.out_of_context)
    if sources is not None:
        refusals = refusals.filter(source__in=sources)
    for asked_at, source, question, reason in (
        refusals.values_list("created_at", "source", "user_question", refusal_reason())
        .order_by("created_at", "id")
        .iterator(chunk_size=2000)
    ):
        yield ExportRow(
            asked_at=asked_at,
            channel=CHANNELS.get(source, source.lower()),
            question=question,
            answer_excerpt="",
            trust_score=None,
            refused=reason == "refused",
            out_of_context=reason == "out_of_context",
            low_trust=False,
            sources=[],
            upvotes=0,
            downvotes=0,
        )


def export_rows_stream(
    *, guru: Guru, interval: Interval, filters: ExportFilters
) -> Iterator[ExportRow]:
    """Every question asked in the interval, oldest first (an answer before a refusal of the
    same instant), read as it is consumed."""
    return heapq.merge(
        _answer_rows(guru, interval, filters),
        _refusal_rows(guru, interval, filters),
        key=lambda row: row.asked_at,
    )


def export_rows(*, guru: Guru, interval: Interval, filters: ExportFilters) -> list[ExportRow]:
    """The same rows as `export_rows_stream`, read whole and sorted in memory (for small
    reads; and what the stream is checked against)."""
    rows = [*_answer_rows(guru, interval, filters), *_refusal_rows(guru, interval, filters)]
    rows.sort(key=lambda row: row.asked_at)
    return rows
